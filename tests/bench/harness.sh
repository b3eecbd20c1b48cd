# Sourced by the benchmark scripts that run tests/bench/harness in the
# background: makes $tmp and, on exit or a signal, stops the harness (it
# stops the servers it started, and any run in flight, when it gets
# SIGTERM; waiting for it leaves nothing running) and removes $tmp.
#
#   . tests/bench/harness.sh PREFIX    # then: "$tmp/harness" … & harness_pid=$!

tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
harness_pid=
cleanup() {
	if [ -n "$harness_pid" ] && kill -0 "$harness_pid" 2>/dev/null; then
		kill -TERM "$harness_pid" 2>/dev/null || true
		wait "$harness_pid" 2>/dev/null || true
	fi
	chmod -R u+w "$tmp" 2>/dev/null || true # the module cache of a copy is read-only
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
