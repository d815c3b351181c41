#!/usr/bin/env bash
# Builds the four worker kits as packages a team installs with no path into a
# checkout of this repository (make packages; docs/your-sdk.md):
#
#   out/packages/difffuzz_kit-VERSION-py3-none-any.whl   pip wheel kits/python
#   out/packages/difffuzz-kit-VERSION.tgz                npm pack in kits/ts (prepack builds dist/)
#   out/packages/difffuzz-kit-VERSION.crate              cargo package in kits/rust (verified: it builds alone)
#   out/packages/goproxy/                                the Go modules at $GO_VERSION, in the GOPROXY
#                                                        layout (tools/goproxy): the kit (kits/go, a
#                                                        module of its own) and the driver, which
#                                                        requires the kit at that version
#
# Before that it checks what a package must not get wrong: each kit's LICENSE
# is the repository's, and the Go kit imports nothing of the driver's
# harness/ or of an implementation (adapters/). scripts/check-install.sh
# installs each package into a scratch folder and runs a worker on it.
#
# Usage: scripts/packages.sh [OUT]   (OUT defaults to out/packages)
# Environment: PY (the Python with pip; default adapters/python/.venv/bin/python),
# GO_VERSION (default v0.0.0-dev), CRATE_VERIFY=0 skips cargo package's build of
# the crate alone (make new-team builds a worker from the .crate anyway).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-out/packages}
py=${PY:-adapters/python/.venv/bin/python}
go_version=${GO_VERSION:-v0.0.0-dev}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

for kit in python ts rust go; do
	if ! cmp -s LICENSE "kits/$kit/LICENSE"; then
		echo "packages: kits/$kit/LICENSE differs from LICENSE (cp LICENSE kits/$kit/LICENSE)" >&2
		exit 1
	fi
done

scripts/check-imports.sh >/dev/null
module=$(awk '$1 == "module" { print $2; exit }' go.mod)
kitmodule=$(awk '$1 == "module" { print $2; exit }' kits/go/go.mod)

echo "packages: python wheel"
# setuptools builds in kits/python/build and would reuse a stale one.
rm -rf kits/python/build
nice "$py" -m pip wheel --quiet --disable-pip-version-check --no-deps --wheel-dir "$out" kits/python
rm -rf kits/python/build

echo "packages: npm tarball"
(cd kits/ts && nice npm pack --silent --pack-destination "$out" >/dev/null)

verify=()
if [[ ${CRATE_VERIFY:-1} == 0 ]]; then
	verify=(--no-verify)
fi
echo "packages: crate (cargo package builds it alone from the .crate${verify:+; not here: CRATE_VERIFY=0})"
nice cargo package --quiet --locked --allow-dirty "${verify[@]}" --manifest-path kits/rust/Cargo.toml \
	--target-dir "$root/kits/rust/target"
cp kits/rust/target/package/difffuzz-kit-*.crate "$out/"

echo "packages: Go module proxy ($kitmodule@$go_version, $module@$go_version)"
# The modules' files as a repository host would serve them: the tracked ones
# (and new ones not ignored), as they are in the working tree. The driver's
# zip leaves out kits/go, a module of its own (goproxy skips a folder with a
# go.mod), which gets a zip of its own: a worker that requires the kit
# downloads nothing of the driver's.
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [[ -f $f ]] && printf '%s\0' "$f"; done |
	tar --null -T - -cf - | tar -xf - -C "$scratch"
(cd tools && go run ./goproxy -dir "$scratch/kits/go" -version "$go_version" -o "$out/goproxy") >/dev/null
# The driver requires the kit at the version in the proxy, as a release's
# go.mod does at the release's tag (docs/releasing.md), with the kit's sums
# in its go.sum, so that go install MODULE/cmd/difffuzz@VERSION takes the
# kit from the proxy. A module cache of its own: the same -dev version
# differs from one make packages to the next.
(
	cd "$scratch"
	export GOWORK=off GOFLAGS=-modcacherw GOMODCACHE=$scratch/.modcache GOPROXY=file://$out/goproxy GONOSUMDB=$kitmodule GOTOOLCHAIN=local
	go mod edit -require="$kitmodule@$go_version"
	sums=$(cd / && go mod download -json "$kitmodule@$go_version")
	sum=$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",*$/\1/p' <<<"$sums")
	gomodsum=$(sed -n 's/^[[:space:]]*"GoModSum": "\(.*\)",*$/\1/p' <<<"$sums")
	[[ -n $sum && -n $gomodsum ]] || { echo "packages: no sums of $kitmodule@$go_version: $sums" >&2; exit 1; }
	grep -v "^$kitmodule " go.sum >go.sum.new || true
	printf '%s %s %s\n%s %s/go.mod %s\n' "$kitmodule" "$go_version" "$sum" "$kitmodule" "$go_version" "$gomodsum" >>go.sum.new
	mv go.sum.new go.sum
	rm -rf "$GOMODCACHE" go.work
)
(cd tools && go run ./goproxy -dir "$scratch" -version "$go_version" -o "$out/goproxy") >/dev/null

ls -1 "$out"
