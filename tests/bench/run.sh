#!/usr/bin/env bash
# Benchmarks mcpctl's start-up against an empty Go program, mcpctl against
# curl (Streamable HTTP, warm and cold cache) and
# against piping the request into the server (stdio), and writes the results
# to BENCHMARKS.md at the repository root. Arguments go to the harness, e.g.
#
#   bash tests/bench/run.sh            # 40 pairs per comparison
#   bash tests/bench/run.sh -n 100     # more pairs
#   bash tests/bench/run.sh -out ''    # print only, do not write BENCHMARKS.md
#
# This is a script, not a test: nothing here runs under `go test`.
set -euo pipefail
# go.mod's toolchain line: a machine's own Go ignores it unless told, and
# encoding/json as before (docs/install.md, "Go version").
export GOTOOLCHAIN=go1.27.3
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$(pwd)

if ! command -v curl >/dev/null 2>&1; then
	echo "run.sh: curl is missing; installing it with apt-get" >&2
	if [ "$(id -u)" -eq 0 ]; then
		apt-get update -qq && apt-get install -y -qq curl >/dev/null
	else
		sudo apt-get update -qq && sudo apt-get install -y -qq curl >/dev/null
	fi
fi

. tests/bench/harness.sh mcpctl-bench

echo "run.sh: building into $tmp" >&2
# mcpctl as the Makefile builds it (static, no cgo, no urfave/cli docs
# generators): what `make install` ships.
CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -o "$tmp/mcpctl" .
go build -trimpath -o "$tmp/demo" ./tests/servers/demo
CGO_ENABLED=0 go build -trimpath -o "$tmp/noop" ./tests/bench/noop
go build -trimpath -o "$tmp/harness" ./tests/bench/harness
# The same mcpctl with cgo (a plain `go build` where gcc is installed), timed
# next to it in "Where the time goes": what dynamic linking against libc
# costs at start-up.
go build -trimpath -tags urfave_cli_no_docs -o "$tmp/mcpctl-cgo" .

# In the background so that the traps above run as soon as a signal comes.
"$tmp/harness" \
	-mcpctl "$tmp/mcpctl" -demo "$tmp/demo" -noop "$tmp/noop" \
	-variant "dynamic (plain go build, cgo)=$tmp/mcpctl-cgo" \
	-out "$root/BENCHMARKS.md" -findings "$root/tests/bench/findings.md" -extra "$root/tests/bench/jsonschema.md,$root/tests/bench/listen-results.md,$root/tests/bench/era-results.md,$root/tests/bench/complete-results.md,$root/tests/bench/legacy-results.md,$root/tests/bench/latency-results.md,$root/tests/bench/session-results.md,$root/tests/bench/batch-results.md,$root/tests/bench/outputschema-results.md" \
	-command "bash tests/bench/run.sh" "$@" &
harness_pid=$!
status=0
wait "$harness_pid" || status=$?
harness_pid=
exit "$status"
