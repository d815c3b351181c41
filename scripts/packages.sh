#!/usr/bin/env bash
# Builds the four worker kits as packages a team installs with no path into a
# checkout of this repository (make packages; docs/your-sdk.md):
#
#   out/packages/difffuzz_kit-VERSION-py3-none-any.whl   pip wheel kits/python
#   out/packages/difffuzz-kit-VERSION.tgz                npm pack in kits/ts (prepack builds dist/)
#   out/packages/difffuzz-kit-VERSION.crate              cargo package in kits/rust (verified: it builds alone)
#   out/packages/goproxy/                                the Go module (driver and kits/go) at
#                                                        $GO_VERSION, in the GOPROXY layout (tools/goproxy)
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

for kit in python ts rust; do
	if ! cmp -s LICENSE "kits/$kit/LICENSE"; then
		echo "packages: kits/$kit/LICENSE differs from LICENSE (cp LICENSE kits/$kit/LICENSE)" >&2
		exit 1
	fi
done

scripts/check-imports.sh >/dev/null
module=$(awk '$1 == "module" { print $2; exit }' go.mod)

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

echo "packages: Go module proxy ($module@$go_version)"
# The module's files as a repository host would serve them: the tracked ones
# (and new ones not ignored), as they are in the working tree.
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [[ -f $f ]] && printf '%s\0' "$f"; done |
	tar --null -T - -cf - | tar -xf - -C "$scratch"
(cd tools && go run ./goproxy -dir "$scratch" -version "$go_version" -o "$out/goproxy") >/dev/null

ls -1 "$out"
