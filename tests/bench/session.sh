#!/usr/bin/env bash
# What a session saves (issue 16 item 1): `mcpctl tools call get-sum a=2 b=3`
# to the npm reference server-everything over stdio, one-shot (a spawn and
# an initialize handshake per call) and through a session (`mcpctl session
# start`: the server runs and is initialized once; each call is one mcpctl
# process talking to the session's socket). Measures the median wall time
# per call, and the total of a shell loop of 100 calls through the session.
# Writes tests/bench/session-results.md, which BENCHMARKS.md embeds.
#
#   bash tests/bench/session.sh             # 100 calls through the session, 15 one-shot
#   N=300 ONESHOT=5 bash tests/bench/session.sh
set -euo pipefail
# go.mod's toolchain line: a machine's own Go ignores it unless told, and
# encoding/json as before (docs/install.md, "Go version").
export GOTOOLCHAIN=go1.27.3
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
n=${N:-100}
oneshot=${ONESHOT:-15}
nm=$(bash tests/refservers/install.sh)
tmp=$(mktemp -d /tmp/mcpctl-session-bench.XXXXXX)
export XDG_RUNTIME_DIR=$tmp/run MCPCTL_CACHE_DIR=$tmp/cache MCPCTL_STATE_DIR=$tmp/state MCPCTL_CONFIG=$tmp/config.yaml
mkdir -m 700 "$XDG_RUNTIME_DIR"
cleanup() {
	"$tmp/mcpctl" session stop --all 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -o "$tmp/mcpctl" .
everything="node $nm/@modelcontextprotocol/server-everything/dist/index.js stdio"
call=("$tmp/mcpctl" --stdio "$everything" --server-stderr discard tools call get-sum a=2 b=3)

# stats MS… : "median p10 p90" of the values (in ms, three decimals).
stats() {
	printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {printf "%.1f %.1f %.1f", a[int((NR+1)/2)], a[int(NR*0.1)+1], a[int(NR*0.9)]}'
}

# timed COUNT cmd… : wall time of each run in ms (bash's EPOCHREALTIME:
# no process is started to read the clock).
timed() {
	local count=$1; shift
	local i start end out=()
	for i in $(seq "$count"); do
		start=$EPOCHREALTIME
		"$@" >"$tmp/out" || { echo "session.sh: $* failed" >&2; exit 1; }
		end=$EPOCHREALTIME
		grep -q 'The sum of 2 and 3 is 5' "$tmp/out" || { echo "session.sh: wrong answer: $(cat "$tmp/out")" >&2; exit 1; }
		out+=("$(awk -v s="$start" -v e="$end" 'BEGIN {printf "%.3f", (e - s) * 1000}')")
	done
	echo "${out[@]}"
}

"${call[@]}" >/dev/null # the era is remembered, as for any second run
read -r os_med os_p10 os_p90 <<<"$(stats $(timed "$oneshot" "${call[@]}"))"

"$tmp/mcpctl" --stdio "$everything" --server-stderr discard session start 2>/dev/null
"${call[@]}" >/dev/null # warm-up
read -r ks_med ks_p10 ks_p90 <<<"$(stats $(timed "$n" "${call[@]}"))"

# The loop a script would write: 100 calls, nothing else.
loop() {
	local i
	for i in $(seq 100); do "${call[@]}" >/dev/null; done
}
start=$EPOCHREALTIME
loop
end=$EPOCHREALTIME
loop_s=$(awk -v s="$start" -v e="$end" 'BEGIN {printf "%.2f", e - s}')
served=$("$tmp/mcpctl" session list --jq '.sessions[0].requests')

verdict() { awk -v v="$1" -v t="$2" 'BEGIN {print (v <= t) ? "yes" : "**no**"}'; }
{
	echo "## Sessions: a call through a kept-alive connection"
	echo
	echo "\`bash tests/bench/session.sh\` ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(go env GOVERSION)):"
	echo "\`mcpctl --stdio 'node …/server-everything/dist/index.js stdio' tools call get-sum a=2 b=3\`, wall time per call in ms."
	echo "*One-shot* spawns the server and initializes it every time (the era already remembered); *through a session* the"
	echo "same command line finds the session \`mcpctl session start\` left running for that server and talks to its socket."
	echo
	echo "| how | calls | median | p10 | p90 | target | met |"
	echo "|---|---|---|---|---|---|---|"
	echo "| one-shot | $oneshot | $os_med | $os_p10 | $os_p90 | — | — |"
	echo "| through a session | $n | $ks_med | $ks_p10 | $ks_p90 | ≤ 5 ms | $(verdict "$ks_med" 5) |"
	echo
	echo "A shell loop of 100 such calls through the session: **${loop_s} s** (target ≤ 1.5 s: $(verdict "$loop_s" 1.5))."
	echo "The session served $served requests in all. A call sends no initialize (the session's greeting carries the server's"
	echo "answer to its own, once); tools/list (for the typing of a=2 b=3) comes from the cache as a hint, or, when none is"
	echo "cached, from the session's memory, since the server declares tools.listChanged and has announced no change; tools/call"
	echo "is the one request that reaches the server. Most of what is left is mcpctl's own start-up (BENCHMARKS.md, start-up)."
	echo "The machine's load average at the end:"
	echo "$(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min); one-shot times grow most with it."
} >tests/bench/session-results.md
cat tests/bench/session-results.md
