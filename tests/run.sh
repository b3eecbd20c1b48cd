#!/usr/bin/env bash
# Runs every test mcpctl has: formatting and vet, the unit tests, the CLI
# scripts (tests/testdata: against the demo server in both eras, the fake
# server, and the npm reference servers, which tests/refservers/install.sh
# installs into a cache folder; completion through bash, zsh and fish), the
# man page and completion freshness checks, then the official conformance
# suite (tests/conformance) for both requirement sets.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet ./...
# The completion tests drive bash, zsh and fish, the man pages are checked
# with groff, and make install is tried: install what a fresh machine lacks
# (Debian package names), and fail rather than skip those tests.
missing=()
for tool in zsh:zsh fish:fish groff:groff-base make:make; do
	command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "run.sh: installing ${missing[*]} with apt-get" >&2
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
export MCPCTL_REQUIRE_TOOLS=1
MCPCTL_REFSERVERS=$(bash tests/refservers/install.sh)
export MCPCTL_REFSERVERS MCPCTL_REQUIRE_REFSERVERS=1
go test -count=1 ./...
bash tests/conformance/run.sh
