#!/usr/bin/env bash
# Runs the official MCP conformance suite (client side) against mcpctl, once per
# set: the requirement sets 2026-07-28 (modern) and 2025-11-25 (legacy,
# initialize-based), then the suite's backcompat set (2025-03-26 servers, at
# --spec-version 2025-03-26), and compares the results with expected-pass-<set>.txt.
#
#   bash tests/conformance/run.sh                          # 2026-07-28, 2025-11-25, backcompat, then extensions
#   bash tests/conformance/run.sh tools_call ...           # only these scenarios, in every set
#   bash tests/conformance/run.sh --spec 2025-11-25 sse-retry   # one set only (or --spec backcompat)
#   bash tests/conformance/run.sh --spec extensions             # the Skills extension's scenarios
#
# The "extensions" set holds the extension scenarios that neither requirement
# set runs (the Skills extension's): each named in expected-pass-extensions.txt
# is run alone with --force at the 2026-07-28 wire.
#
# Environment:
#   MCPCTL_BIN                   use this mcpctl instead of building one from the repo root
#   MCPCTL_CACHE_DIR             cache root (see install.sh)
#   CONFORMANCE_TIMEOUT_MS       per-scenario client timeout given to the suite (default 30000)
#   CONFORMANCE_RUN_TIMEOUT      hard limit in seconds for each suite run (default 240)
#
# Exit status: non-zero iff a scenario listed in an expected-pass file did not pass.
# Each set ends with "conformance <set>: N passed, M failed"; the last line printed
# is "conformance: N passed, M failed" over both (expected scenarios only).
set -euo pipefail
# go.mod's toolchain line: a machine's own Go ignores it unless told, and
# encoding/json as before (docs/install.md, "Go version").
export GOTOOLCHAIN=go1.27.3

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
specs=(2026-07-28 2025-11-25 backcompat extensions)
if [ "${1:-}" = --spec ]; then
	[ $# -ge 2 ] || { echo "run.sh: --spec needs a revision" >&2; exit 2; }
	specs=("$2")
	shift 2
fi
per_scenario_ms=${CONFORMANCE_TIMEOUT_MS:-30000}
run_limit=${CONFORMANCE_RUN_TIMEOUT:-240}

log() { printf 'run.sh: %s\n' "$*" >&2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpctl-conformance.XXXXXX")
keep=0
pgid=
# shellcheck disable=SC2317 # invoked by trap
cleanup() {
	# Kill whatever is left of the suite's process group (harness, adapters, mcpctl).
	if [ -n "$pgid" ] && kill -0 -- "-$pgid" 2>/dev/null; then
		kill -TERM -- "-$pgid" 2>/dev/null || true
		sleep 0.5
		kill -KILL -- "-$pgid" 2>/dev/null || true
	fi
	[ "$keep" = 1 ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# 1. mcpctl
if [ -n "${MCPCTL_BIN:-}" ]; then
	bin=$(command -v "$MCPCTL_BIN") || { log "MCPCTL_BIN=$MCPCTL_BIN not found"; exit 1; }
	bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
	log "using $bin"
else
	log "building mcpctl"
	(cd "$root" && go build -tags urfave_cli_no_docs -o "$tmp/mcpctl" .)
	bin=$tmp/mcpctl
fi
export MCPCTL_BIN=$bin
# The auth scenarios' headless browser (tests/browser): a Go binary starts in a
# few milliseconds, which matters with 39 scenarios running at once.
(cd "$root" && go build -o "$tmp/browser" ./tests/browser)
export CONFORMANCE_BROWSER=$tmp/browser

# 2. Node 22 + the suite
node22=$(bash "$here/install.sh")
[ -x "$node22" ] || { log "install.sh did not give a node binary"; exit 1; }
node_modules=$(cd "$(dirname "$node22")/../.." && pwd)
conf_pkg=$node_modules/@modelcontextprotocol/conformance
entry=$("$node22" -p 'const p = require(process.argv[1] + "/package.json");
	process.argv[1] + "/" + (typeof p.bin === "string" ? p.bin : p.bin.conformance)' "$conf_pkg")
export CONFORMANCE_NODE=$node22
client_list=$("$node22" "$entry" list --client)
# The adapter kills mcpctl runs still going 5s before the suite gives up on them.
client_s=$((per_scenario_ms / 1000 - 5))
[ "$client_s" -ge 1 ] || client_s=1
export CONFORMANCE_CLIENT_TIMEOUT=$client_s
PATH="$(dirname "$node22"):$PATH"
export PATH

# The suite splits --command on spaces, so the adapter's path must have none.
adapter=$here/adapter.sh
case $adapter in *[[:space:]]*)
	cp "$adapter" "$tmp/adapter.sh"
	adapter=$tmp/adapter.sh
	case $adapter in *[[:space:]]*) log "no space-free path for adapter.sh (set TMPDIR)"; exit 1 ;; esac
	;;
esac

# 3. Run the suite for each set, in its own process group, with a hard time limit.
total_pass=0
total_fail=0
rc=0
for spec in "${specs[@]}"; do
	expected=$here/expected-pass-$spec.txt
	[ -f "$expected" ] || { log "no $expected"; exit 1; }
	out=$tmp/results-$spec
	mkdir -p "$out"
	# The scenarios of this run: the extensions set runs its own, named
	# ones; a dated set leaves those out (it would only skip them).
	names=()
	for s in ${1+"$@"}; do
		if grep -qx -- "$s" "$here/expected-pass-extensions.txt"; then
			[ "$spec" != extensions ] || names+=("$s")
		else
			[ "$spec" = extensions ] || names+=("$s")
		fi
	done
	if [ "$spec" = extensions ] && [ $# -eq 0 ]; then
		mapfile -t names < <(grep -v '^#' "$expected" | grep .)
	fi
	[ $# -eq 0 ] || [ ${#names[@]} -gt 0 ] || continue
	suite() {
		local rc=0 version=$spec
		# The backcompat set's scenarios are for 2025-03-26 servers; named
		# scenarios of the other sets are skipped there, and these in them.
		[ "$spec" != backcompat ] || version=2025-03-26
		if [ "$spec" = extensions ]; then
			local s
			for s in "$@"; do
				"$node22" "$entry" client --command "bash $adapter" --scenario "$s" --spec-version 2026-07-28 --force \
					--timeout "$per_scenario_ms" -o "$out" || rc=$?
			done
		elif [ $# -eq 0 ] && [ "$spec" = backcompat ]; then
			"$node22" "$entry" client --command "bash $adapter" --suite backcompat --spec-version "$version" \
				--timeout "$per_scenario_ms" -o "$out" || rc=$?
		elif [ $# -eq 0 ]; then
			"$node22" "$entry" client --command "bash $adapter" --requirements "$spec" \
				--timeout "$per_scenario_ms" -o "$out" || rc=$?
		else
			local s force
			for s in "$@"; do
				# Extension scenarios are on no spec timeline: a requirement
				# set runs them, and so does a named run of one, forced.
				force=()
				[ "$spec" = backcompat ] || ! grep -qxF "  - $s [extension]" <<<"$client_list" || force=(--force)
				"$node22" "$entry" client --command "bash $adapter" --scenario "$s" --spec-version "$version" "${force[@]}" \
					--timeout "$per_scenario_ms" -o "$out" || rc=$?
			done
		fi
		return "$rc"
	}
	log "running the conformance suite ($([ $# -eq 0 ] && [ "$spec" != extensions ] && echo "the $spec set" || echo "${names[*]} at $spec"))"
	start=$SECONDS
	set -m
	suite ${names[@]+"${names[@]}"} </dev/null >"$tmp/harness-$spec.stdout.txt" 2>"$tmp/harness-$spec.stderr.txt" &
	pid=$!
	set +m
	pgid=$pid
	timed_out=0
	while kill -0 "$pid" 2>/dev/null; do
		if [ $((SECONDS - start)) -ge "$run_limit" ]; then
			timed_out=1
			log "suite still running after ${run_limit}s: killing it"
			kill -TERM -- "-$pgid" 2>/dev/null || true
			break
		fi
		sleep 0.2
	done
	harness_rc=0
	wait "$pid" || harness_rc=$?
	kill -TERM -- "-$pgid" 2>/dev/null || true # stragglers (e.g. a hung mcpctl)
	pgid=
	log "suite $spec finished in $((SECONDS - start))s (harness exit $harness_rc; its output: $tmp/harness-$spec.*.txt)"
	if [ "$timed_out" = 1 ] || [ "$harness_rc" -gt 1 ]; then
		keep=1
		log "harness stderr (tail):"
		tail -n 40 "$tmp/harness-$spec.stderr.txt" >&2 || true
	fi

	# 4. Count and compare.
	only=()
	[ $# -eq 0 ] || only=(--only "$(IFS=,; echo "${names[*]}")")
	set_rc=0
	"$node22" "$here/count.mjs" --results "$out" --expected "$expected" --label "$spec" "${only[@]}" \
		--keep-note "results kept in $tmp" >"$tmp/count-$spec.txt" || set_rc=$?
	cat "$tmp/count-$spec.txt"
	[ "$set_rc" -eq 0 ] || { keep=1; rc=1; }
	line=$(tail -n 1 "$tmp/count-$spec.txt")
	if [[ $line =~ :\ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
		total_pass=$((total_pass + BASH_REMATCH[1]))
		total_fail=$((total_fail + BASH_REMATCH[2]))
	else
		rc=1
	fi
	echo
done
echo "conformance: $total_pass passed, $total_fail failed"
exit "$rc"
