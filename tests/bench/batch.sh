#!/usr/bin/env bash
# What a batch costs (issue 16, item 2): `mcpctl batch` of 100 lines of
# `tools call get-sum a=2 b=3` against the npm reference server-everything
# over stdio, the server's start (node) included: one spawn, one handshake,
# 100 requests. The target is 1 s or less. For scale: a batch of one line
# (the spawn and the handshake alone), the same 100 lines with -P 4, and,
# once, the 100 calls as 100 separate mcpctl processes. Writes
# tests/bench/batch-results.md, which BENCHMARKS.md embeds.
#
#   bash tests/bench/batch.sh          # 11 runs of each
#   N=21 bash tests/bench/batch.sh
set -euo pipefail
# go.mod's toolchain line: a machine's own Go ignores it unless told, and
# encoding/json as before (docs/install.md, "Go version").
export GOTOOLCHAIN=go1.27.3
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
n=${N:-11}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -o "$tmp/mcpctl" .
nm=$(bash tests/refservers/install.sh)
everything="node $nm/@modelcontextprotocol/server-everything/dist/index.js stdio"
version=$(node -p "require('$nm/@modelcontextprotocol/server-everything/package.json').version")
export MCPCTL_CACHE_DIR="$tmp/cache" MCPCTL_STATE_DIR="$tmp/state" MCPCTL_SERVER_STDERR=discard

for i in $(seq 100); do echo "tools call get-sum a=2 b=3"; done >"$tmp/lines.txt"
head -1 "$tmp/lines.txt" >"$tmp/one.txt"
# First contact: the era probe finds the server legacy, which later runs
# remember (as they would on a user's machine after the first use).
out=$("$tmp/mcpctl" --stdio "$everything" batch "$tmp/lines.txt")
[ "$(grep -c '"text":"The sum of 2 and 3 is 5."' <<<"$out")" -eq 100 ] ||
	{ echo "batch.sh: the batch did not print 100 sums:" >&2; echo "$out" | head -5 >&2; exit 1; }
load=$(cut -d' ' -f1-3 /proc/loadavg)

ms() { awk "BEGIN {printf \"%.0f\", ($2 - $1) / 1e6}"; }
stats() {
	printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {printf "%d | %d | %d", a[int((NR+1)/2)], a[1], a[NR]}'
}
# time CMD…: wall time of one run in ms; its output is dropped.
timed() { local s e; s=$(date +%s%N); "$@" >/dev/null; e=$(date +%s%N); ms "$s" "$e"; }

declare -a hundred one parallel
# Taken in turns, so that a busy spell of the machine spreads over all rows.
for _ in $(seq "$n"); do
	hundred+=("$(timed "$tmp/mcpctl" --stdio "$everything" batch "$tmp/lines.txt")")
	one+=("$(timed "$tmp/mcpctl" --stdio "$everything" batch "$tmp/one.txt")")
	parallel+=("$(timed "$tmp/mcpctl" --stdio "$everything" batch -P 4 "$tmp/lines.txt")")
done
separate=$(timed sh -c 'for i in $(seq 100); do "$1" --stdio "$2" tools call get-sum a=2 b=3 || exit 1; done' _ "$tmp/mcpctl" "$everything")

{
	echo "## mcpctl batch: 100 calls over one connection"
	echo
	echo "\`bash tests/bench/batch.sh\` ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(go env GOVERSION), node $(node --version),"
	echo "server-everything $version): wall time in ms of one \`mcpctl --stdio 'node …/server-everything/dist/index.js stdio'"
	echo "batch FILE\`, exec to exit, the server's start (node) and its shutdown included; $n runs of each, taken in turns;"
	echo "the era remembered from a first run, as after a first use."
	echo
	echo "| run | median | min | max |"
	echo "|---|---|---|---|"
	echo "| \`batch\` of 100 lines \`tools call get-sum a=2 b=3\` | $(stats "${hundred[@]}") |"
	echo "| the same, \`-P 4\` | $(stats "${parallel[@]}") |"
	echo "| \`batch\` of 1 line: the spawn and the handshake alone | $(stats "${one[@]}") |"
	echo "| 100 separate \`mcpctl tools call get-sum a=2 b=3\` processes, for scale (one run) | $separate | | |"
	echo
	echo "Target: a batch of 100 lines in 1 s or less, the server's start included. Load average at the start: $load"
	echo "(1, 5, 15 min). Nearly all of it is node starting server-everything; each line adds a \`tools/list\` (a legacy"
	echo "server's list is not cached without \`--cache-ttl\`, so each call types its arguments from a fresh one) and the"
	echo "\`tools/call\`, on the one connection."
} >tests/bench/batch-results.md
cat tests/bench/batch-results.md
