#!/usr/bin/env bash
# The release check (issue 15 item 8; docs/release.md): a snapshot release
# of .goreleaser.yaml, nothing published, into a temp folder, then every
# package checked:
#   - tests/releasecheck: checksums, the six archives (binary for its
#     target, static, -trimpath, stamped; README, LICENSE, man pages,
#     completions), the Homebrew formula and the Scoop manifest;
#   - the .deb (dpkg-deb) and .rpm (rpm -qpl, rpm -K) hold the binary, the
#     man pages and the completions where the distributions look;
#   - the .deb is installed with dpkg -i, the installed `mcpctl version`
#     must name the snapshot's version and commit, and it is removed again;
#   - go vet for windows and darwin (the build of all six targets is the
#     release's own).
# The snapshot is made from a copy of the working tree (tracked and
# untracked files, not ignored ones) committed in a throwaway repository,
# so the checkout is left as it was and uncommitted changes are tested too.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
export GOTOOLCHAIN=go1.27.3

step() { printf 'release.sh: %s\n' "$*" >&2; }
fail() { printf 'release.sh: FAIL: %s\n' "$*" >&2; exit 1; }

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
missing=()
for tool in rpm:rpm dpkg-deb:dpkg man:man-db; do
	command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
	step "installing ${missing[*]} with apt-get"
	$sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# GoReleaser, pinned by tests/release/go.mod (a module of its own: its
# hundreds of modules stay out of mcpctl's go.sum), built once per version
# into the test tools' folder. From nothing that takes minutes
# (docs/release.md has the figures); after that, none.
version=$(awk '$1 == "github.com/goreleaser/goreleaser/v2" { print $2 }' tests/release/go.mod)
[ -n "$version" ] || fail "tests/release/go.mod does not require github.com/goreleaser/goreleaser/v2"
tools="${XDG_CACHE_HOME:-$HOME/.cache}/mcpctl-tests/bin"
goreleaser="$tools/goreleaser-$version/goreleaser"
if [ ! -x "$goreleaser" ]; then
	step "building goreleaser $version (once; see docs/release.md)"
	start=$SECONDS
	(cd tests/release && GOBIN="$tools/goreleaser-$version" go install github.com/goreleaser/goreleaser/v2)
	step "goreleaser built in $((SECONDS - start))s"
fi

tmp=$(mktemp -d)
installed=
cleanup() {
	if [ -n "$installed" ]; then
		$sudo dpkg --purge mcpctl >/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# The working tree, as a commit in a repository of its own (with a remote
# named as the real one: GoReleaser reads the commit only where there is
# one).
src=$tmp/src
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
	[ -e "$f" ] && printf '%s\0' "$f"
done | tar -c --null -T - -f - | tar -x -C "$src" -f -
(
	cd "$src"
	git init -q
	git add -A
	GIT_AUTHOR_NAME=release.sh GIT_AUTHOR_EMAIL=release@localhost GIT_COMMITTER_NAME=release.sh GIT_COMMITTER_EMAIL=release@localhost \
		git commit -q -m "release.sh snapshot of $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo a working tree)"
	git remote add origin https://github.com/mcpctl/mcpctl.git
)
commit=$(git -C "$src" rev-parse HEAD)

step "snapshot release of $commit"
start=$SECONDS
if ! (cd "$src" && "$goreleaser" release --snapshot --clean --skip=publish >"$tmp/goreleaser.log" 2>&1); then
	cat "$tmp/goreleaser.log" >&2
	fail "goreleaser release --snapshot failed"
fi
step "goreleaser took $((SECONDS - start))s"
dist=$src/dist
snapshot=$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' "$dist/metadata.json")
[ -n "$snapshot" ] || fail "no version in dist/metadata.json"

go run ./tests/releasecheck -dist "$dist" -repo "$src" -version "$snapshot" -commit "$commit"

# What the .deb and .rpm must hold, as installed paths.
want_common() {
	echo /usr/bin/mcpctl
	for page in "$src"/man/*.1; do echo "/usr/share/man/man1/${page##*/}"; done
	echo /usr/share/bash-completion/completions/mcpctl
	echo /usr/share/fish/vendor_completions.d/mcpctl.fish
	echo /usr/share/mcpctl/mcpctl.ps1
}
check_paths() { # $1: package, $2: file with its paths, $3: the zsh folder
	local missing
	missing=$( { want_common; echo "$3/_mcpctl"; } | sort | comm -23 - <(sort -u "$2"))
	[ -z "$missing" ] || fail "$1 lacks: $(echo $missing)"
}

debs=("$dist"/*.deb)
rpms=("$dist"/*.rpm)
[ ${#debs[@]} -eq 2 ] && [ ${#rpms[@]} -eq 2 ] || fail "want 2 .deb and 2 .rpm, have ${#debs[@]} and ${#rpms[@]}"
for deb in "${debs[@]}"; do
	dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's#^\./#/#' >"$tmp/paths"
	check_paths "${deb##*/}" "$tmp/paths" /usr/share/zsh/vendor-completions
	[ "$(dpkg-deb -f "$deb" Package)" = mcpctl ] || fail "${deb##*/}: package name is not mcpctl"
done
for rpm in "${rpms[@]}"; do
	rpm -K --nosignature "$rpm" >/dev/null || fail "${rpm##*/}: digests do not match (rpm -K)"
	rpm -qpl "$rpm" >"$tmp/paths" 2>/dev/null
	check_paths "${rpm##*/}" "$tmp/paths" /usr/share/zsh/site-functions
	[ "$(rpm -qp --qf '%{NAME}' "$rpm" 2>/dev/null)" = mcpctl ] || fail "${rpm##*/}: package name is not mcpctl"
done
step "ok: .deb and .rpm hold the binary, $(ls "$src"/man/*.1 | wc -l) man pages and 4 completion scripts"

# This machine's .rpm, installed by rpm itself into a root of its own (a
# Debian machine has no rpm database: --nodeps, as nothing is required),
# run, and erased.
arch=$(dpkg --print-architecture)
rpmarch=$(case $arch in amd64) echo x86_64 ;; arm64) echo aarch64 ;; *) echo "$arch" ;; esac)
rpm=$(ls "$dist"/mcpctl-*."$rpmarch".rpm)
root=$tmp/rpmroot
rpm --root "$root" --initdb
rpm --root "$root" -i --nodeps "$rpm" 2>/dev/null || fail "rpm -i ${rpm##*/} into $root failed"
"$root/usr/bin/mcpctl" version | grep -qx "mcpctl $snapshot" || fail "${rpm##*/}: the installed mcpctl version does not say 'mcpctl $snapshot'"
rpm --root "$root" -e mcpctl 2>/dev/null || fail "rpm -e mcpctl failed"
[ ! -e "$root/usr/bin/mcpctl" ] || fail "rpm -e left usr/bin/mcpctl"
step "ok: rpm -i ${rpm##*/} (into a temp root), mcpctl version, rpm -e"

# Install this machine's .deb, as a user would, and run what it installed.
deb=$(ls "$dist"/mcpctl_*_"$arch".deb)
if dpkg -s mcpctl >/dev/null 2>&1 || [ -e /usr/bin/mcpctl ]; then
	fail "mcpctl is installed on this machine already (dpkg -s mcpctl, /usr/bin/mcpctl): not touching it"
fi
installed=1
$sudo dpkg -i "$deb" >/dev/null
out=$(/usr/bin/mcpctl version)
printf '%s\n' "$out" | sed 's/^/  /' >&2
printf '%s\n' "$out" | grep -qx "mcpctl $snapshot" || fail "installed mcpctl version does not say 'mcpctl $snapshot'"
printf '%s\n' "$out" | grep -q "^commit: *$commit " || fail "installed mcpctl version does not name commit $commit"
[ "$(/usr/bin/mcpctl version -o json --jq .version)" = "$snapshot" ] || fail "mcpctl version -o json: wrong version"
[ "$(man -w mcpctl-version 2>/dev/null)" = /usr/share/man/man1/mcpctl-version.1 ] || fail "man -w mcpctl-version does not find the installed page"
$sudo dpkg --purge mcpctl >/dev/null
installed=
[ ! -e /usr/bin/mcpctl ] || fail "dpkg --purge left /usr/bin/mcpctl"
step "ok: dpkg -i ${deb##*/}, mcpctl version, man -w, dpkg --purge"

# The other systems type-check, unit tests included (the release built the
# binaries for all six targets above). All but package tests: the
# integration suite drives the Linux binary through pseudo-terminals,
# /proc and process groups, and runs on Linux only; tests/peakrss, the
# memory meter it starts mcpctl through, is Unix-only.
pkgs=$(go list ./... | grep -vx 'github.com/mcpctl/mcpctl/tests\|github.com/mcpctl/mcpctl/tests/peakrss')
for goos in windows darwin; do
	GOOS=$goos GOARCH=amd64 go vet $pkgs || fail "GOOS=$goos go vet (every package but tests, tests/peakrss)"
done
step "ok: go vet for windows and darwin"
