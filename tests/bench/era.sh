#!/usr/bin/env bash
# What the era probe costs: the same `mcpctl --no-cache tools call` at first
# contact (a new cache directory: server/discover is sent first, then
# initialize for a legacy server) and with the era remembered from the run
# before. Servers: the demo over stdio (modern), and the npm reference
# server-everything over stdio and Streamable HTTP (legacy). Then first
# contact with a 2026-07-28-only stdio server that starts in 5s (issue 25,
# target: one spawn, modern era, total time at most 1.1 times the server's
# own start plus one call). Writes tests/bench/era-results.md, which
# BENCHMARKS.md embeds (tests/bench/run.sh passes it to the harness).
#
#   bash tests/bench/era.sh            # 15 runs of each, 5 of the slow start
#   N=5 N_SLOW=3 bash tests/bench/era.sh
set -euo pipefail
# go.mod's toolchain line: a machine's own Go ignores it unless told, and
# encoding/json as before (docs/install.md, "Go version").
export GOTOOLCHAIN=go1.27.3
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
n=${N:-15}
n_slow=${N_SLOW:-5}
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -o "$tmp/mcpctl" .
go build -trimpath -o "$tmp/demo" ./tests/servers/demo
go build -trimpath -o "$tmp/fakemcp" ./tests/fakemcp/cmd/fakemcp
nm=$(bash tests/refservers/install.sh)
everything="$nm/@modelcontextprotocol/server-everything/dist/index.js"

# median MS… : the middle value.
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# measure LABEL fresh|warm mcpctl-args… : prints the median wall time in ms.
measure() {
	local how=$1; shift
	local times=() i start end
	rm -rf "$tmp/cache"
	[ "$how" = warm ] && MCPCTL_CACHE_DIR=$tmp/cache "$tmp/mcpctl" --no-cache "$@" >/dev/null
	for i in $(seq "$n"); do
		[ "$how" = fresh ] && rm -rf "$tmp/cache"
		start=$(date +%s%N)
		MCPCTL_CACHE_DIR=$tmp/cache "$tmp/mcpctl" --no-cache --server-stderr discard "$@" >/dev/null ||
			{ echo "era.sh: mcpctl $* failed" >&2; exit 1; }
		end=$(date +%s%N)
		times+=($(((end - start) / 1000000)))
	done
	median "${times[@]}"
}

rows=()
row() { # LABEL ERA args…
	local label=$1 era=$2; shift 2
	local fresh warm
	fresh=$(measure fresh "$@")
	warm=$(measure warm "$@")
	rows+=("| $label | $era | $fresh | $warm | $((fresh - warm)) |")
}
row "demo, stdio" modern --stdio "$tmp/demo" tools call weather_current location=SF
row "server-everything, stdio" legacy --stdio "node $everything stdio" tools call echo message=hi
PORT=0 node -r "$PWD/tests/refservers/loopback.cjs" "$everything" streamableHttp >/dev/null 2>"$tmp/ev.err" &
pid=$!
for _ in $(seq 100); do grep -q 'listening on' "$tmp/ev.err" && break; sleep 0.1; done
url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$tmp/ev.err" | head -n1)
[ -n "$url" ] || { echo "era.sh: server-everything did not start:" >&2; cat "$tmp/ev.err" >&2; exit 1; }
url=$url/mcp
row "server-everything, Streamable HTTP" legacy --url "$url" tools call echo message=hi
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=

# First contact with a slow starter. The server is fakemcp's "tools" mode,
# which speaks 2026-07-28 only (it refuses initialize with -32022), behind
# a wrapper that notes each start in $SPAWNS and sleeps 5s first. The
# baseline is the server's own start plus one call: the wrapper started
# with a tools/list line waiting on its stdin, until the answer's line is
# read and the server has exited at the end of its input. mcpctl's run is
# `mcpctl --no-cache tools list` with an empty cache directory: the era
# probe, then the call; it must start the server once and find it modern.
cat >"$tmp/slow.sh" <<'EOF'
echo spawn >>"$SPAWNS"
sleep 5
exec "$@"
EOF
slow=(--stdio "sh $tmp/slow.sh $tmp/fakemcp tools")
export SPAWNS=$tmp/spawns
rm -f "$SPAWNS"
MCPCTL_CACHE_DIR=$tmp/slowcache "$tmp/mcpctl" --no-cache --server-stderr discard --trace "${slow[@]}" tools list >/dev/null 2>"$tmp/slow.trace"
grep -q '^# era: modern (2026-07-28)$' "$tmp/slow.trace" ||
	{ echo "era.sh: the slow server was not found modern:" >&2; grep '^#' "$tmp/slow.trace" >&2; exit 1; }
! grep -q '"method":"initialize"' "$tmp/slow.trace" ||
	{ echo "era.sh: initialize was sent to the slow server" >&2; exit 1; }
[ "$(wc -l <"$SPAWNS")" -eq 1 ] || { echo "era.sh: the slow server was started $(wc -l <"$SPAWNS") times" >&2; exit 1; }
request='{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'
base_times=() slow_times=() spawns_ok=0
for _ in $(seq "$n_slow"); do
	start=$(date +%s%N)
	printf '%s\n' "$request" | sh "$tmp/slow.sh" "$tmp/fakemcp" tools 2>/dev/null | head -n1 >/dev/null
	end=$(date +%s%N)
	base_times+=($(((end - start) / 1000000)))
	rm -rf "$tmp/slowcache" "$SPAWNS"
	start=$(date +%s%N)
	MCPCTL_CACHE_DIR=$tmp/slowcache "$tmp/mcpctl" --no-cache --server-stderr discard "${slow[@]}" tools list >/dev/null ||
		{ echo "era.sh: mcpctl tools list against the slow server failed" >&2; exit 1; }
	end=$(date +%s%N)
	slow_times+=($(((end - start) / 1000000)))
	[ "$(wc -l <"$SPAWNS")" -eq 1 ] && spawns_ok=$((spawns_ok + 1))
done
base_ms=$(median "${base_times[@]}")
slow_ms=$(median "${slow_times[@]}")
ratio=$(awk -v a="$slow_ms" -v b="$base_ms" 'BEGIN { printf "%.3f", a / b }')
met=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.1) ? "met" : "missed" }')

{
	echo "## The era probe: first contact and remembered"
	echo
	echo "\`bash tests/bench/era.sh\` ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(go env GOVERSION), load average at the start $load_start):"
	echo "median wall time of $n runs of \`mcpctl --no-cache … tools call\`, in ms. *First contact* starts each run with an empty"
	echo "cache directory, so mcpctl sends the server/discover probe first (and, for a legacy server, falls back to initialize);"
	echo "*remembered* keeps the directory, so the era is known and the probe skipped. Results are not cached in either case."
	echo
	echo "| server | era | first contact | remembered | probe cost |"
	echo "|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
	echo
	echo "The probe costs one round trip on first contact only; the era is then remembered per server (\`eras/\` beside the"
	echo "cache). Most of a Node server's time is its own start-up, which no client can save."
	echo
	echo "### First contact with a server that starts in 5s"
	echo
	echo "Target (issue 25): first contact with a 2026-07-28-only stdio server that starts in 5s: one spawn, modern era, total"
	echo "time at most 1.1 times the server's own start plus one call. The server is fakemcp's \`tools\` mode (it refuses"
	echo "\`initialize\`) behind a wrapper that sleeps 5s; *server alone* is that wrapper started with a tools/list line waiting"
	echo "on its stdin, until the answer is read and it has exited; *mcpctl* is \`mcpctl --no-cache tools list\` with an empty"
	echo "cache directory (the era probe, then the call). Median of $n_slow runs of each, taken in turns, in ms."
	echo
	echo "| server alone | mcpctl, first contact | ratio | target | runs with one spawn | era |"
	echo "|---|---|---|---|---|---|"
	echo "| $base_ms | $slow_ms | $ratio | ≤ 1.1, $met | $spawns_ok of $n_slow | modern, no \`initialize\` sent |"
	echo
	echo "The server has not read server/discover while it sleeps, which mcpctl sees on its stdin pipe: it waits (up to"
	echo "\`--probe-timeout\`, 15s) instead of taking the silence for a legacy server, as it did with a 3s probe (which then sent"
	echo "\`initialize\`, had it refused, and started the server a second time)."
} >tests/bench/era-results.md
cat tests/bench/era-results.md
