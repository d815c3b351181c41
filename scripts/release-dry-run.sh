#!/usr/bin/env bash
# scripts/release-dry-run.sh: every step of a release that needs no
# credentials (docs/releasing.md), run by the release workflow's dry-run job
# on every pull request and by hand before a tag:
#   versions    every part's manifest at the driver's version, as one tag needs
#               (the Go kit's: the version go.mod requires of it)
#   driver      goreleaser release --snapshot --clean --skip=publish (dist/)
#   python      python -m build + twine check (out/release/python)
#   ts          npm publish --dry-run
#   rust        cargo publish --dry-run --locked
# Each runs unless named in SKIP (SKIP="driver rust"); goreleaser is taken
# from PATH or bin/tools. Exit status 0 when every step that ran passed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/out/release
skip=" ${SKIP:-} "
mkdir -p "$out"

step() { echo "release-dry-run: $*"; }
skipped() { [[ $skip == *" $1 "* ]] && step "$1: skipped (SKIP)"; }

versions() {
	local want part
	want=$(scripts/release/version.sh driver)
	for part in python ts rust go; do
		scripts/release/version.sh "$part" "v$want"
	done
}

driver() {
	local goreleaser
	goreleaser=$(command -v goreleaser || echo "$root/bin/tools/goreleaser")
	if [[ ! -x $goreleaser ]]; then
		echo "release-dry-run: no goreleaser on PATH or in bin/tools (docs/releasing.md installs it)" >&2
		return 1
	fi
	"$goreleaser" check
	nice "$goreleaser" release --snapshot --clean --skip=publish
}

python() {
	local venv=$out/venv
	if ! cmp -s scripts/release/requirements.txt "$venv/requirements.txt"; then
		rm -rf "$venv"
		python3 -m venv "$venv"
		"$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/release/requirements.txt
		cp scripts/release/requirements.txt "$venv/requirements.txt"
	fi
	rm -rf "$out/python" kits/python/build
	nice "$venv/bin/python" -m build --outdir "$out/python" kits/python
	rm -rf kits/python/build
	"$venv/bin/twine" check --strict "$out/python"/*
}

ts() (
	cd kits/ts
	npm ci --no-audit --no-fund --loglevel=error
	# prepack compiles the package; provenance needs the CI's OIDC token, so
	# only the real publish asks for it
	nice npm publish --dry-run --access public
)

rust() {
	nice cargo publish --dry-run --locked --manifest-path kits/rust/Cargo.toml \
		--target-dir "$root/kits/rust/target"
}

for s in versions driver python ts rust; do
	skipped "$s" && continue
	step "$s"
	"$s"
	step "$s: ok"
done
