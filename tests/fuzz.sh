#!/usr/bin/env bash
# Runs every fuzz target for a short fixed time (FUZZTIME, default 5s).
# The seed corpora under */testdata/fuzz/ also run as ordinary tests with
# go test; an input that fails here is written there by go test, and
# becomes a regression test once checked in.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FUZZTIME=${FUZZTIME:-5s}
targets=(
	"client FuzzReadSSE"
	"client FuzzDecodeMessage"
	"client FuzzStdioReader"
	"client FuzzHeaderValue"
	"commands FuzzRequestItems"
	"commands FuzzPageURL"
	"client/schema FuzzCoerce"
	"client/schema FuzzValidate"
	"output FuzzSanitize"
)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "${targets[@]}"; do
	set -- $t
	echo "fuzz: $2 ($1) for $FUZZTIME"
	go test "./$1" -run '^$' -fuzz "^$2\$" -fuzztime "$FUZZTIME" >"$log" 2>&1 || {
		cat "$log" >&2
		exit 1
	}
done
