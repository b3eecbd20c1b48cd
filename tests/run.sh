#!/usr/bin/env bash
# Runs every test mcpctl has: formatting and vet, the unit tests, the CLI
# scripts (tests/testdata: against the demo server in both eras, the fake
# server, and the npm reference servers, which tests/refservers/install.sh
# installs into a cache folder), then the official conformance suite
# (tests/conformance) for both requirement sets.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet ./...
MCPCTL_REFSERVERS=$(bash tests/refservers/install.sh)
export MCPCTL_REFSERVERS MCPCTL_REQUIRE_REFSERVERS=1
go test -count=1 ./...
bash tests/conformance/run.sh
