#!/usr/bin/env bash
# govulncheck over every package, at symbol level: fails (exit 3) when code
# of ours can reach a known vulnerability, in a module or in the standard
# library of the Go that builds it (go.mod's toolchain line). tests/run.sh
# runs it; it also runs by itself:
#
#   bash tests/vulncheck.sh
#
# govulncheck's default database host cannot be reached from CI, so the
# database is built offline from the golang.org/x/vulndb module, which the
# Go module proxy serves (tests/vulndb), and cached by version. To take
# newer reports, raise VULNDB to a newer pseudo-version of the module.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Issue 14 item 6: go1.26.8's standard library has reachable
# vulnerabilities that go1.27.3 fixes; see go.mod's toolchain line and
# docs/install.md, "Go version".
export GOTOOLCHAIN=go1.27.3

GOVULNCHECK=golang.org/x/vuln/cmd/govulncheck@v1.9.0
VULNDB=golang.org/x/vulndb@v0.0.0-20261105234957-e22db6528018

cache="${XDG_CACHE_HOME:-$HOME/.cache}/mcpctl-tests"
tools="$cache/bin"
GOBIN="$tools" go install "$GOVULNCHECK"

db="$cache/vulndb/${VULNDB#*@}"
if [ ! -f "$db/index/modules.json" ]; then
	go run ./tests/vulndb -out "$db" "$VULNDB"
fi
"$tools/govulncheck" -db "file://$db" ./...
