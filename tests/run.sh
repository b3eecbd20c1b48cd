#!/usr/bin/env bash
# Runs every test mcpctl has: formatting and vet, the unit tests, the CLI
# scripts (tests/testdata/script, against the demo server and the fake
# server), then the official conformance suite (tests/conformance).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet ./...
go test -count=1 ./...
bash tests/conformance/run.sh
