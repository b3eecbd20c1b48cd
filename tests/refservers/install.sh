#!/usr/bin/env bash
# Installs the pinned MCP reference servers (server-everything, server-filesystem,
# server-memory) into a cache folder, using the machine's node/npm (Node >= 20).
#
#   bash tests/refservers/install.sh      # prints the node_modules path on stdout
#
# Cache folder: ${MCPCTL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpctl-tests}/refservers
# Versions are pinned by package.json + package-lock.json next to this script
# (installed with `npm ci`, so transitive dependencies are pinned too). A stamp
# file (cksum of both files) makes a second run with the same files a no-op.
# The install happens in a staging folder next to the cache that is renamed into
# place, so an aborted or concurrent run never leaves a half install behind.
# Progress goes to stderr; stdout is only the absolute node_modules path.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
base="${MCPCTL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpctl-tests}"
mkdir -p "$base"
base=$(cd "$base" && pwd) # absolute, even if MCPCTL_CACHE_DIR is relative
cache="$base/refservers"

log() { printf 'refservers/install.sh: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}

servers=(server-everything server-filesystem server-memory)

stamp() { cat "$here/package.json" "$here/package-lock.json" | cksum; }

installed_ok() { # $1 = folder to check
	local dir=$1 s
	[ -f "$dir/.install-stamp" ] || return 1
	[ "$(cat "$dir/.install-stamp")" = "$(stamp)" ] || return 1
	for s in "${servers[@]}"; do
		[ -f "$dir/node_modules/@modelcontextprotocol/$s/dist/index.js" ] || return 1
	done
}

done_ok() {
	printf '%s\n' "$cache/node_modules"
	exit 0
}

if installed_ok "$cache"; then
	log "up to date: $cache"
	done_ok
fi

command -v node >/dev/null || die "node is not on PATH"
command -v npm >/dev/null || die "npm is not on PATH"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || die "need Node >= 20, found $(node --version)"

# Serialise concurrent installs into the same cache (best effort without flock).
if command -v flock >/dev/null; then
	exec 9>"$base/.refservers-install.lock"
	flock 9
	if installed_ok "$cache"; then # someone else finished it while we waited
		log "installed by a concurrent run: $cache"
		done_ok
	fi
	# We hold the lock, so leftovers of killed runs can go.
	rm -rf "$base"/.refservers-staging.* "$base"/.refservers-old.*
fi

log "installing $(printf '@modelcontextprotocol/%s ' "${servers[@]}")into $cache"
stage=$(mktemp -d "$base/.refservers-staging.XXXXXX")
old=""
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	rm -rf "$stage"
	if [ -n "$old" ]; then
		# Put the previous install back if the swap did not complete.
		if [ ! -e "$cache" ] && [ -e "$old/refservers" ]; then mv "$old/refservers" "$cache"; fi
		rm -rf "$old"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
chmod 755 "$stage"
cp "$here/package.json" "$here/package-lock.json" "$stage/"
# --ignore-scripts: none of the pinned packages needs an install script.
(cd "$stage" && npm ci --ignore-scripts --no-audit --no-fund --no-progress --loglevel=error) >&2 ||
	die "npm ci failed"
stamp >"$stage/.install-stamp"
# Verify the pinned versions really landed.
for s in "${servers[@]}"; do
	want=$(node -p 'require(process.argv[1]).dependencies["@modelcontextprotocol/" + process.argv[2]]' "$here/package.json" "$s")
	got=$(node -p 'require(process.argv[1]).version' "$stage/node_modules/@modelcontextprotocol/$s/package.json")
	[ "$want" = "$got" ] || die "@modelcontextprotocol/$s: want $want, installed $got"
done
installed_ok "$stage" || die "install in $stage is incomplete"

# Swap into place: move any old install aside first (a rename), then rename the
# staging folder; the old copy is deleted afterwards.
if [ -e "$cache" ]; then
	old=$(mktemp -d "$base/.refservers-old.XXXXXX")
	mv "$cache" "$old/"
fi
mv "$stage" "$cache"
log "installed into $cache"
done_ok
