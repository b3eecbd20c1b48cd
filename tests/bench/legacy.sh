#!/usr/bin/env bash
# What a one-shot call to a legacy stdio server costs: `mcpctl --stdio
# 'node …' tools call` to the npm reference servers (server-everything,
# server-filesystem, server-memory) against tests/bench/legacydirect, the
# bare minimum (spawn, initialize, notifications/initialized, one
# tools/call, then stdin closed and SIGTERM at once), and against mcpctl
# --shutdown-grace 0. The target is mcpctl within 1.1× of the direct
# driver. Writes tests/bench/legacy-results.md, which BENCHMARKS.md embeds.
#
#   bash tests/bench/legacy.sh            # 30 rounds per server
#   N=10 bash tests/bench/legacy.sh
#
# This is a script, not a test: nothing here runs under `go test`.
set -euo pipefail
# go.mod's toolchain line: a machine's own Go ignores it unless told, and
# encoding/json as before (docs/install.md, "Go version").
export GOTOOLCHAIN=go1.27.3
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
n=${N:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v node >/dev/null || { echo "legacy.sh: node is not on PATH" >&2; exit 1; }
# mcpctl as the Makefile builds it (static, no cgo, no urfave/cli docs
# generators), the driver and the timer as plain static Go programs.
CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -o "$tmp/mcpctl" .
CGO_ENABLED=0 go build -trimpath -o "$tmp/legacydirect" ./tests/bench/legacydirect
go build -trimpath -o "$tmp/legacycmp" ./tests/bench/legacycmp
nm=$(bash tests/refservers/install.sh)

"$tmp/legacycmp" -mcpctl "$tmp/mcpctl" -direct "$tmp/legacydirect" -refservers "$nm" -n "$n" \
	-out tests/bench/legacy-results.md -command "bash tests/bench/legacy.sh"
