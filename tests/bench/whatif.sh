#!/usr/bin/env bash
# What would mcpctl's start-up cost without the things that slow it down?
# Builds variants of mcpctl from a copy of this checkout (the checkout itself
# is not touched) and times them next to the real build, printing the tables
# without writing BENCHMARKS.md. Used for the findings in BENCHMARKS.md.
#
#   static    CGO_ENABLED=0 (no dynamic loader, no libc)
#   draft2020 github.com/santhosh-tekuri/jsonschema/v6 patched so that its
#             package init compiles only the 2020-12 meta-schema instead of
#             all five drafts (an experiment: schemas that declare an older
#             $schema would break)
#   nodocs    -tags urfave_cli_no_docs (drops blackfriday/md2man, whose
#             init compiles regexps)
#
#   bash tests/bench/whatif.sh [-n PAIRS]
set -euo pipefail
# go.mod's toolchain line: a machine's own Go ignores it unless told, and
# encoding/json as before (docs/install.md, "Go version").
export GOTOOLCHAIN=go1.27.3
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$(pwd)
command -v curl >/dev/null 2>&1 || { echo "whatif.sh: run tests/bench/run.sh first (it installs curl)" >&2; exit 1; }

. tests/bench/harness.sh mcpctl-whatif

go build -trimpath -o "$tmp/mcpctl" .
go build -trimpath -o "$tmp/demo" ./tests/servers/demo
go build -trimpath -o "$tmp/noop" ./tests/bench/noop
go build -trimpath -o "$tmp/harness" ./tests/bench/harness
CGO_ENABLED=0 go build -trimpath -o "$tmp/static" .

# A copy of the module whose go.mod points jsonschema at a patched copy.
mkdir "$tmp/src"
tar -C "$root" --exclude=.git -cf - . | tar -C "$tmp/src" -xf -
js=$(go list -m -f '{{.Dir}}' github.com/santhosh-tekuri/jsonschema/v6)
cp -r "$js" "$tmp/jsonschema"
chmod -R u+w "$tmp/jsonschema"
old='range []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020}'
grep -qF "$old" "$tmp/jsonschema/draft.go" || { echo "whatif.sh: jsonschema's init changed; update the patch" >&2; exit 1; }
sed -i "s/range \[\]\*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020}/range []*Draft{Draft2020}/" "$tmp/jsonschema/draft.go"
(
	cd "$tmp/src"
	go mod edit -replace "github.com/santhosh-tekuri/jsonschema/v6=$tmp/jsonschema"
	go build -trimpath -o "$tmp/draft2020" .
	CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -o "$tmp/all" .
)

"$tmp/harness" -mcpctl "$tmp/mcpctl" -demo "$tmp/demo" -noop "$tmp/noop" -out '' \
	-variant "static=$tmp/static" \
	-variant "draft2020=$tmp/draft2020" \
	-variant "static+draft2020+nodocs=$tmp/all" \
	"$@" &
harness_pid=$!
status=0
wait "$harness_pid" || status=$?
harness_pid=
exit "$status"
