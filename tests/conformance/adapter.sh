#!/usr/bin/env bash
# Client adapter for the MCP conformance suite (@modelcontextprotocol/conformance).
#
# The suite runs it as:  bash adapter.sh <serverUrl>      (the URL is always the LAST argument)
# with MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION and, for some
# scenarios, MCP_CONFORMANCE_CONTEXT (JSON) in the environment.
#
# Each scenario is mapped to ordinary mcpctl invocations, exactly as a user would
# type them. mcpctl is the thing under test: nothing here may change its behaviour
# (no special environment variables, no hidden flags).
#
#   MCPCTL_BIN                  mcpctl binary to run (default: `mcpctl` on PATH)
#   CONFORMANCE_NODE            a node binary, used only to pick values out of
#                               MCP_CONFORMANCE_CONTEXT (run.sh exports it; falls
#                               back to `node` on PATH, then `jq`)
#   CONFORMANCE_BROWSER         the auth scenarios' headless browser (run.sh builds
#                               tests/browser; default: node browser.mjs)
#   CONFORMANCE_CLIENT_TIMEOUT  seconds all mcpctl runs of one scenario may take
#                               together before they are killed (default 25)
#
# To support a new scenario, add a branch to the `case` at the bottom.
set -u

if [ $# -lt 1 ]; then
	echo "usage: MCP_CONFORMANCE_SCENARIO=NAME MCP_CONFORMANCE_PROTOCOL_VERSION=V bash adapter.sh SERVER_URL" >&2
	exit 2
fi
url=${!#}
scenario=${MCP_CONFORMANCE_SCENARIO:-}
version=${MCP_CONFORMANCE_PROTOCOL_VERSION:-}
mcpctl_bin=${MCPCTL_BIN:-mcpctl}

if [ -z "$scenario" ] || [ -z "$version" ]; then
	echo "adapter: MCP_CONFORMANCE_SCENARIO and MCP_CONFORMANCE_PROTOCOL_VERSION must be set" >&2
	exit 2
fi

# Record a non-zero exit in stderr.txt so run.sh can report it.
trap 'rc=$?; [ "$rc" -eq 0 ] || echo "adapter: scenario $scenario: exit status $rc" >&2' EXIT

# Time budget for all mcpctl runs of this scenario, in seconds. It only bounds a
# hung mcpctl (the suite waits for every process holding its pipes, even after its
# own timeout); keep it below the suite's --timeout. run.sh sets it.
budget=${CONFORMANCE_CLIENT_TIMEOUT:-25}
deadline=$((SECONDS + budget))

# mcp ARGS...: run mcpctl against the scenario's server, echoing the command to stderr.
mcp() {
	{
		printf '+ mcpctl --url %q --protocol-version %q' "$url" "$version"
		printf ' %q' "$@"
		printf '\n'
	} >&2
	local left=$((deadline - SECONDS)) rc=0
	if ! command -v timeout >/dev/null 2>&1; then
		"$mcpctl_bin" --url "$url" --protocol-version "$version" "$@"
		return
	fi
	if [ "$left" -le 0 ]; then
		echo "adapter: not run: the scenario's ${budget}s budget is used up" >&2
		return 124
	fi
	timeout --foreground -k 2 "$left" "$mcpctl_bin" --url "$url" --protocol-version "$version" "$@" || rc=$?
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] ||
		echo "adapter: mcpctl was killed after the scenario's ${budget}s budget (exit $rc)" >&2
	return "$rc"
}

# ctx EXPR: print a value from MCP_CONFORMANCE_CONTEXT. EXPR is a jq path such as
# `.toolCalls[0].name` or `.toolCalls | length`; strings are printed raw and
# everything else as compact JSON.
ctx() {
	local node=${CONFORMANCE_NODE:-}
	[ -n "$node" ] || node=$(command -v node 2>/dev/null) || node=
	if [ -n "$node" ]; then
		# Translate the small jq subset used here (.a.b[0] and "| length") to JavaScript.
		"$node" -e '
			let v = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
			let [path, fn] = process.argv[1].split("|").map(s => s.trim());
			for (const m of path.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g))
				v = v == null ? undefined : v[m[1] !== undefined ? m[1] : Number(m[2])];
			if (fn === "length") v = v == null ? 0 : Object.keys(v).length;
			if (v === undefined) process.exit(1);
			process.stdout.write(typeof v === "string" ? v : JSON.stringify(v));
		' "$1"
	elif command -v jq >/dev/null 2>&1; then
		local c=${MCP_CONFORMANCE_CONTEXT:-}
		[ -n "$c" ] || c='{}'
		printf '%s' "$c" | jq -cje "$1"
	else
		echo "adapter: need node (CONFORMANCE_NODE) or jq to read MCP_CONFORMANCE_CONTEXT" >&2
		return 1
	fi
}

# unquote: strip one pair of surrounding double quotes (mcpctl may print a JSON string).
unquote() {
	local s=$1
	s=${s%$'\r'}
	case $s in \"*\") s=${s#\"} s=${s%\"} ;; esac
	printf '%s' "$s"
}

case $scenario in
tools_call)
	# a and b must arrive as JSON numbers: mcpctl types key=value items
	# from the tool's inputSchema ({a: number, b: number}).
	mcp tools call add_numbers a=2 b=3
	;;

initialize)
	# 2025-11-25 only: --protocol-version with a legacy revision means the
	# initialize handshake (no era probe); any request shows it.
	mcp tools list
	;;

elicitation-sep1034-client-defaults)
	# 2025-11-25 only: the server asks (elicitation/create on the session's GET
	# stream) with defaults in the schema; accept them as they are.
	mcp --elicit accept-defaults tools call test_client_elicitation_defaults
	;;

sse-retry)
	# 2025-11-25 only: the response stream closes after a priming event with
	# an id and retry: 500; mcpctl resumes with GET + Last-Event-ID.
	mcp tools call test_reconnection
	;;

sep-2640-client-no-prefetch)
	# Skills extension: listing reads no skill file.
	mcp skills list
	;;

sep-2640-client-verify-digest | sep-2640-client-verify-size | sep-2640-client-verify-frontmatter)
	# Skills extension: the SKILL.md served does not match its entry; mcpctl
	# must refuse it (exit 3) and read nothing more of the skill.
	mcp skills get pdf-processing
	;;

request-metadata)
	# The server rejects the first request with -32022; mcpctl must retry once.
	mcp tools list
	;;

json-schema-ref-no-deref)
	# tools/list only: the server does not implement tools/call, and mcpctl must
	# never fetch the network $ref in lookup_user's schema.
	mcp tools list
	;;

json-schema-2020-12-preservation)
	# Echo the focal tool's inputSchema back exactly as received.
	schema=$(mcp tools list --jq '.tools[] | select(.name == "json_schema_2020_12_tool") | .inputSchema' -o json) || exit 1
	case $schema in
	'{'*) ;;
	*)
		echo "adapter: no inputSchema for json_schema_2020_12_tool in tools list (got: ${schema:-nothing})" >&2
		exit 1
		;;
	esac
	mcp tools call json_schema_echo --json "{\"schema\":$schema}"
	;;

http-standard-headers)
	# Exercise every method that carries Mcp-Method / Mcp-Name.
	rc=0
	mcp tools list || rc=1
	mcp tools call test_headers || rc=1
	mcp tools call my-hyphenated-tool || rc=1
	mcp resources list || rc=1
	mcp resources read 'file:///path/to/file%20name.txt' || rc=1
	mcp prompts list || rc=1
	mcp prompts get test_prompt || rc=1
	exit $rc
	;;

http-custom-headers)
	# Call each tool from the context with its arguments, verbatim (nulls, empty
	# strings and control characters included).
	n=$(ctx '.toolCalls | length') || exit 1
	rc=0
	i=0
	while [ "$i" -lt "$n" ]; do
		name=$(ctx ".toolCalls[$i].name") || exit 1
		args=$(ctx ".toolCalls[$i].arguments") || args='{}'
		# The scenario sends null to a boolean parameter on purpose, to check
		# that no header is sent for it; schema validation would rightly
		# refuse that call, so the arguments go out as given.
		mcp tools call "$name" --json "$args" --no-validate || rc=1
		i=$((i + 1))
	done
	[ "$n" -gt 0 ] || { echo "adapter: no toolCalls in MCP_CONFORMANCE_CONTEXT" >&2; rc=1; }
	exit $rc
	;;

http-invalid-tool-headers)
	# Try to call every tool the server offers; mcpctl must refuse the 11 with
	# invalid x-mcp-header annotations (those failures are expected and ignored).
	# `tools list` may already leave the invalid ones out, so their names (as the
	# suite defines them) are added to what it prints.
	names=$(mcp tools list --jq '.tools[].name' -o json) || exit 1
	names="$names
invalid_empty_header
invalid_object_header
invalid_array_header
invalid_null_header
invalid_number_header
invalid_duplicate_same_case
invalid_duplicate_diff_case
invalid_space_in_name
invalid_colon_in_name
invalid_non_ascii_name
invalid_control_char_name"
	rc=1
	seen=' '
	while IFS= read -r line; do
		name=$(unquote "$line")
		case $name in '' | *' '*) continue ;; esac
		case $seen in *" $name "*) continue ;; esac
		seen="$seen$name "
		if [ "$name" = valid_tool ]; then
			mcp tools call valid_tool region=us-east1 && rc=0
		else
			mcp tools call "$name" || true
		fi
	done <<EOF
$names
EOF
	[ "$rc" -eq 0 ] || echo "adapter: calling valid_tool failed (or it was not listed)" >&2
	exit $rc
	;;

sep-2322-client-request-state)
	# Multi round-trip requests: each tool first answers input_required with
	# an elicitation under the key "confirm"; mcpctl answers it from
	# --answers and retries with the requestState echoed (or none).
	answers='{"confirm":{"action":"accept","content":{"confirmed":true}}}'
	rc=0
	for tool in test_mrtr_echo_state test_mrtr_unrelated test_mrtr_no_state test_mrtr_no_result_type; do
		mcp tools call "$tool" --answers "$answers" || rc=1
	done
	exit $rc
	;;

auth/*)
	# OAuth: the first request gets 401 and mcpctl logs in by itself: discovery,
	# client identity, the authorization (its "browser" is browser.mjs, which
	# follows the authorization server's redirect into mcpctl's loopback
	# listener), the token, and the request again. tools call is tools/list
	# then tools/call in one process, which step-up and AS migration need.
	# Tokens and registrations go to a state folder of this run's own.
	state=$(mktemp -d "${TMPDIR:-/tmp}/mcpctl-auth.XXXXXX")
	trap 'rc=$?; rm -rf "$state"; [ "$rc" -eq 0 ] || echo "adapter: scenario $scenario: exit status $rc" >&2' EXIT
	# run.sh builds tests/browser (CONFORMANCE_BROWSER); by hand, Node does.
	browser=${CONFORMANCE_BROWSER:-"${CONFORMANCE_NODE:-node} $(dirname "$0")/browser.mjs"}
	export MCPCTL_STATE_DIR=$state MCPCTL_CACHE_DIR=$state/cache BROWSER=$browser
	extra=()
	case $scenario in
	auth/basic-cimd)
		extra=(--client-metadata-url https://conformance-test.local/client-metadata.json)
		;;
	auth/pre-registration)
		extra=(--client-id "$(ctx .client_id)" --client-secret "$(ctx .client_secret)")
		;;
	auth/client-credentials-basic)
		extra=(--grant client-credentials --client-id "$(ctx .client_id)" --client-secret "$(ctx .client_secret)")
		;;
	auth/client-credentials-jwt)
		ctx .private_key_pem >"$state/key.pem" || exit 1
		extra=(--grant client-credentials --client-id "$(ctx .client_id)" --client-key "$state/key.pem" --client-key-alg "$(ctx .signing_algorithm)")
		;;
	auth/wif-jwt-bearer)
		# The workload's own JWT; the context's wrong-audience and expired
		# ones are for the tests' bad input, not for this run.
		extra=(--grant jwt-bearer --client-id "$(ctx .client_id)" --assertion "$(ctx .valid_jwt)")
		;;
	auth/enterprise-managed-authorization)
		extra=(--grant id-jag --idp-token-endpoint "$(ctx .idp_token_endpoint)" --idp-client-id "$(ctx .idp_client_id)"
			--id-token "$(ctx .idp_id_token)" --client-id "$(ctx .client_id)" --client-secret "$(ctx .client_secret)")
		;;
	esac
	mcp --trace "${extra[@]}" tools call test-tool
	;;

*)
	echo "adapter: scenario '$scenario' is not supported by tests/conformance/adapter.sh" >&2
	exit 1
	;;
esac
