#!/usr/bin/env bash
# A remote server that sends ttlMs 0 (issue 16, item 3): a warm
# `mcpctl --url … tools call` against the demo run with --ttl-ms 0, behind a
# loopback TCP proxy that adds 25 ms each way (50 ms of round-trip time), vs
# one curl POST of the same request through it. Medians of alternating
# pairs, as tests/bench/run.sh measures (the harness's -latency mode).
# Writes tests/bench/latency-results.md, which BENCHMARKS.md embeds.
#
#   bash tests/bench/latency.sh               # 40 pairs
#   bash tests/bench/latency.sh -n 100        # more pairs
#   bash tests/bench/latency.sh -delay 50ms   # 100 ms of round-trip time
#   bash tests/bench/latency.sh -out ''       # print only
#
# This is a script, not a test: nothing here runs under `go test`.
set -euo pipefail
# go.mod's toolchain line: a machine's own Go ignores it unless told, and
# encoding/json as before (docs/install.md, "Go version").
export GOTOOLCHAIN=go1.27.3
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
command -v curl >/dev/null 2>&1 || { echo "latency.sh: curl is needed (tests/bench/run.sh installs it)" >&2; exit 1; }
. tests/bench/harness.sh mcpctl-bench

CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -o "$tmp/mcpctl" .
go build -trimpath -o "$tmp/demo" ./tests/servers/demo
go build -trimpath -o "$tmp/harness" ./tests/bench/harness
"$tmp/harness" -latency -mcpctl "$tmp/mcpctl" -demo "$tmp/demo" \
	-out tests/bench/latency-results.md -command "bash tests/bench/latency.sh" "$@" &
harness_pid=$!
status=0
wait "$harness_pid" || status=$?
harness_pid=
exit "$status"
