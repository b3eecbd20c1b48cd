#!/usr/bin/env bash
# What a TAB costs: `mcpctl __complete` (the work behind every completion
# script) for typical command lines, and the same through bash's completion
# function, fork and exec included. The target is under 50 ms. The setting
# is a realistic worst case: ten servers in mcpctl's config, every other
# client's file present, a 2 MB ~/.claude.json (Claude Code keeps its
# history there), and the demo server's lists in the result cache among a
# few hundred other entries. Writes tests/bench/complete-results.md, which
# BENCHMARKS.md embeds.
#
#   bash tests/bench/complete.sh          # 50 runs of each
#   N=20 bash tests/bench/complete.sh
set -euo pipefail
# go.mod's toolchain line: a machine's own Go ignores it unless told, and
# encoding/json as before (docs/install.md, "Go version").
export GOTOOLCHAIN=go1.27.3
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
n=${N:-50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -o "$tmp/bin/mcpctl" .
go build -trimpath -o "$tmp/bin/demo" ./tests/servers/demo
export PATH="$tmp/bin:$PATH" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" MCPCTL_CACHE_DIR="$tmp/cache"
mkdir -p "$HOME/.cursor" "$XDG_CONFIG_HOME/Claude" "$tmp/project/.vscode"
cd "$tmp/project"

# Ten servers of mcpctl's own, one of them the demo.
mcpctl config add weather --stdio 'demo -ttl-ms 3600000' 2>/dev/null
for i in $(seq 9); do
	mcpctl config add "server$i" --url "https://mcp$i.example.com/mcp" -H 'Authorization: Bearer ${TOKEN}' 2>/dev/null
done
# Every other client's file, ~/.claude.json padded to 2 MB of history.
echo '{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv"]}}}' \
	>"$XDG_CONFIG_HOME/Claude/claude_desktop_config.json"
echo '{"mcpServers": {"cur": {"url": "https://cursor.example.com/mcp"}}}' >"$HOME/.cursor/mcp.json"
echo '{"mcpServers": {"proj": {"command": "./server"}}}' >"$tmp/project/.mcp.json"
echo '{"servers": {"code": {"type": "stdio", "command": "node", "args": ["server.js"]}}}' >"$tmp/project/.vscode/mcp.json"
{
	printf '{"numStartups": 812, "history": ['
	for i in $(seq 8000); do
		printf '{"display": "%0230d", "pastedContents": {}},' "$i"
	done
	printf '{}], "mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}'
} >"$HOME/.claude.json"
claude_size=$(du -k "$HOME/.claude.json" | cut -f1)
# The demo's lists in the cache, among results of other servers.
mcpctl -s weather tools list >/dev/null
mcpctl -s weather prompts list >/dev/null
mcpctl -s weather resources list >/dev/null
for i in $(seq 300); do
	printf '{"format":1,"mcpctl":"x","key":{"server":"s%d"},"result":{}}' "$i" >"$MCPCTL_CACHE_DIR/filler$i.json"
done
entries=$(ls "$MCPCTL_CACHE_DIR" | wc -l)

mcpctl completion bash >"$tmp/mcpctl.bash"
load=$(cut -d' ' -f1-3 /proc/loadavg)

# stats MS… : median, p90 and max.
stats() {
	printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {printf "%.1f | %.1f | %.1f", a[int((NR+1)/2)], a[int(NR*0.9+0.5)], a[NR]}'
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]}'; }
ms() { awk "BEGIN {print ($2 - $1) / 1e6}"; }
# CPU time (task-clock, all threads) of one run, when perf may count it:
# unlike wall time it does not grow with what else the machine runs.
perf_ok=
perf stat -x, -e task-clock true >/dev/null 2>&1 && perf_ok=1
cpu() { perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ {print $1}'; }

labels=("start-up alone, for scale")
lines=("")
add() { labels+=("$1"); lines+=("$2"); out=$(mcpctl __complete bash -- "$2"); grep -q -- "$3" <<<"$out" ||
	{ echo "complete.sh: no $3 for '$2':" >&2; echo "$out" >&2; exit 1; }; }
add "commands and server names" "mcpctl " "weather"
add "server names (-s)" "mcpctl -s " "server9"
add "tool names" "mcpctl -s weather tools call " "weather_current"
add "argument keys" "mcpctl -s weather tools call weather_current " "units="
add "enum values" "mcpctl -s weather tools call weather_current units=" "imperial"
add "prompt arguments" "mcpctl weather prompts get weather_report " "style="
add "resource URIs" "mcpctl -s weather resources read demo:" "//readme"
add "flags" "mcpctl tools call --no-" "--no-validate"

# Round-robin: run i of every line, then run i+1, so that a busy spell of the
# machine spreads over all rows alike.
declare -A wall cpus shell
for i in $(seq "$n"); do
	for r in "${!lines[@]}"; do
		line=${lines[$r]}
		args=(__complete bash -- "$line")
		[ "$r" -eq 0 ] && args=(--version)
		start=$(date +%s%N); mcpctl "${args[@]}" >/dev/null; end=$(date +%s%N)
		wall[$r]+="$(ms "$start" "$end") "
		[ -n "$perf_ok" ] && cpus[$r]+="$(cpu mcpctl "${args[@]}") "
		# Through bash's completion function, as a TAB runs it.
		if [ "$r" -gt 0 ]; then
			shell[$r]+="$(bash -c '
				source "$1"; COMP_LINE=$2; COMP_POINT=${#2}; COMP_WORDS=(mcpctl); COMP_CWORD=1
				s=$EPOCHREALTIME; _mcpctl; e=$EPOCHREALTIME
				echo "($e - $s) * 1000" | bc -l' _ "$tmp/mcpctl.bash" "$line") "
		fi
	done
done
rows=()
for r in "${!lines[@]}"; do
	c=-
	[ -n "$perf_ok" ] && c=$(median ${cpus[$r]})
	b=" | | "
	[ "$r" -gt 0 ] && b=$(stats ${shell[$r]})
	line="\`${lines[$r]}\`"
	[ "$r" -eq 0 ] && line="\`mcpctl --version\`"
	rows+=("| ${labels[$r]} | $line | $(stats ${wall[$r]}) | $c | $b |")
done

cd - >/dev/null
{
	echo "## Shell completion: what a TAB costs"
	echo
	echo "\`bash tests/bench/complete.sh\` ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(go env GOVERSION)):"
	echo "$n runs of each, in ms, taken in turns. *mcpctl* is the wall time of one \`mcpctl __complete bash -- LINE\` process,"
	echo "exec to exit, and *CPU* its CPU time (perf task-clock, all threads), which the rest of the machine does not inflate;"
	echo "*through bash* is bash's completion function \`_mcpctl\` from \`mcpctl completion bash\`, which runs it (fork, exec,"
	echo "reading the candidates), timed inside one bash. Setting: ten servers in mcpctl's config, every other client's file"
	echo "present with a ${claude_size} kB \`~/.claude.json\`, $entries entries in the cache directory, the demo server's"
	echo "lists among them. Completion reads only these files: no server is started or contacted."
	echo
	echo "| completes | line | mcpctl median | p90 | max | CPU median | through bash median | p90 | max |"
	echo "|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
	echo
	echo "Target: under 50 ms. Load average at the start: $load (1, 5, 15 min); on a busy machine every row grows with the"
	echo "start-up row, which is the part no completion can save. Lines that name no server (commands, flags) read only"
	echo "mcpctl's own config; names read every client's file (the large \`~/.claude.json\` is scanned, not parsed: only"
	echo "its server lists are decoded); cached lists cost a few small reads: one file per page, looked up by key,"
	echo "whatever the size of the cache."
} >tests/bench/complete-results.md
cat tests/bench/complete-results.md
