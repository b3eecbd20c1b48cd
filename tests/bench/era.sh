#!/usr/bin/env bash
# What the era probe costs: the same `mcpctl --no-cache tools call` at first
# contact (a new cache directory: server/discover is sent first, then
# initialize for a legacy server) and with the era remembered from the run
# before. Servers: the demo over stdio (modern), and the npm reference
# server-everything over stdio and Streamable HTTP (legacy). Writes
# tests/bench/era-results.md, which BENCHMARKS.md embeds.
#
#   bash tests/bench/era.sh            # 15 runs of each
#   N=5 bash tests/bench/era.sh
set -euo pipefail
# go.mod's toolchain line: a machine's own Go ignores it unless told, and
# encoding/json as before (docs/install.md, "Go version").
export GOTOOLCHAIN=go1.27.3
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
n=${N:-15}
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -o "$tmp/mcpctl" .
go build -trimpath -o "$tmp/demo" ./tests/servers/demo
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

{
	echo "## The era probe: first contact and remembered"
	echo
	echo "\`bash tests/bench/era.sh\` ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(go env GOVERSION)):"
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
} >tests/bench/era-results.md
cat tests/bench/era-results.md
