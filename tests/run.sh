#!/usr/bin/env bash
# Runs every test mcpctl has: formatting, vet and staticcheck; the unit
# tests, the CLI scripts (tests/testdata: against the demo server in both
# eras, the fake server, and the npm reference servers, which
# tests/refservers/install.sh installs into a cache folder; completion
# through bash, zsh and fish), the man page and completion freshness checks
# and the fault suite, all under the race detector; each fuzz target for a
# few seconds (tests/fuzz.sh); then the official conformance suite
# (tests/conformance) for both requirement sets; then the release check
# (tests/release.sh: a snapshot release, every package checked).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# go.mod's toolchain line (issue 14 item 6): go1.27.3, without the reachable
# standard-library vulnerabilities of go1.26.8 (tests/vulncheck.sh). A machine
# starts on its own Go and ignores that line unless told; the go command
# fetches this version from the Go module proxy.
export GOTOOLCHAIN=go1.27.3

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet ./...
# The completion tests drive bash, zsh and fish, the man pages are checked
# with groff, make install is tried, and the keychain test
# (tests/keychain_test.go) runs gnome-keyring, a Secret Service, on a
# D-Bus session bus of its own: install what a fresh machine lacks
# (Debian package names), and fail rather than skip those tests.
missing=()
for tool in zsh:zsh fish:fish groff:groff-base make:make \
	dbus-run-session:dbus-daemon dbus-send:dbus-bin gnome-keyring-daemon:gnome-keyring; do
	command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "run.sh: installing ${missing[*]} with apt-get" >&2
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
export MCPCTL_REQUIRE_TOOLS=1 MCPCTL_REQUIRE_KEYRING=1

# staticcheck from the Go module proxy, pinned to a release that knows this
# Go version, installed next to the other test tools.
STATICCHECK=honnef.co/go/tools/cmd/staticcheck@v0.8.2
tools="${XDG_CACHE_HOME:-$HOME/.cache}/mcpctl-tests/bin"
GOBIN="$tools" go install "$STATICCHECK"
"$tools/staticcheck" ./...
# The build the Makefile ships (-tags urfave_cli_no_docs) vets clean too.
go vet -tags urfave_cli_no_docs ./...
"$tools/staticcheck" -tags urfave_cli_no_docs ./...
# No reachable known vulnerability (govulncheck, offline database).
bash tests/vulncheck.sh

MCPCTL_REFSERVERS=$(bash tests/refservers/install.sh)
export MCPCTL_REFSERVERS MCPCTL_REQUIRE_REFSERVERS=1
# The race runtime sleeps a second at every exit unless told otherwise; the
# CLI scripts start the test binary, as mcpctl and as servers, hundreds of
# times (script_test.go passes GORACE on to them).
# -race needs cgo (a C compiler: .ci/run installs gcc where it is missing).
# Go's default 10 minutes per package is too short for ./tests under the
# race detector on a busy 2-core machine; a hang still ends, at 40 minutes.
CGO_ENABLED=1 GORACE=atexit_sleep_ms=0 go test -race -count=1 -timeout 40m ./...
bash tests/fuzz.sh
bash tests/conformance/run.sh
# Issue 15 item 8: the release packages. A snapshot release of
# .goreleaser.yaml (all six targets built), every archive and package
# checked, the .deb installed with dpkg -i and run (tests/release.sh,
# docs/release.md).
release_start=$SECONDS
bash tests/release.sh
echo "run.sh: release check took $((SECONDS - release_start))s" >&2
