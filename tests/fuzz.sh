#!/usr/bin/env bash
# Runs every fuzz target for a short fixed time (FUZZTIME, default 5s).
# The seed corpora under */testdata/fuzz/ also run as ordinary tests with
# go test; an input that fails here is written there by go test, and
# becomes a regression test once checked in.
set -euo pipefail
# go.mod's toolchain line (issue 14 item 6): go1.27.3, without the reachable
# standard-library vulnerabilities of go1.26.8 (tests/vulncheck.sh). A machine
# starts on its own Go and ignores that line unless told; the go command
# fetches this version from the Go module proxy.
export GOTOOLCHAIN=go1.27.3
cd "$(dirname "${BASH_SOURCE[0]}")/.."
FUZZTIME=${FUZZTIME:-5s}
targets=(
	"client FuzzReadSSE"
	"client FuzzDecodeMessage"
	"client FuzzStdioReader"
	"client FuzzHeaderValue"
	"internal/argv FuzzRequestItems"
	"internal/interact FuzzPageURL"
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
