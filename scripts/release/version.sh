#!/usr/bin/env bash
# scripts/release/version.sh PART [TAG]: the version PART is released at,
# from its own manifest; with TAG (v1.2.3, or refs/tags/v1.2.3), check that
# the tag names that version and fail, saying both, if it does not. PART is
# driver (internal/version), python (kits/python), ts (kits/ts), rust
# (kits/rust) or go (kits/go, a Go module of its own: the version the
# driver's go.mod requires of it, which its tag kits/go/vX.Y.Z releases). The release workflow's publish jobs run it before they
# publish; scripts/release-dry-run.sh checks every part against the
# driver's. One tag releases all of it (docs/releasing.md).
set -euo pipefail
cd "$(dirname "$0")/../.."

part=${1:?usage: scripts/release/version.sh driver|python|ts|rust|go [TAG]}
case $part in
driver)
	where=internal/version/version.go
	version=$(sed -n 's/^var Version = "\(.*\)"$/\1/p' "$where")
	;;
python)
	# pyproject.toml's version is dynamic: difffuzz_kit.__version__
	where=kits/python/src/difffuzz_kit/__init__.py
	version=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$where")
	;;
ts)
	where=kits/ts/package.json
	version=$(node -p "require('./$where').version")
	;;
rust)
	where=kits/rust/Cargo.toml
	version=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["package"]["version"])' "$where")
	;;
go)
	where=go.mod
	kitmodule=$(awk '$1 == "module" { print $2; exit }' kits/go/go.mod)
	version=$(awk -v m="$kitmodule" '$1 == m { sub(/^v/, "", $2); print $2; exit }' "$where")
	;;
*)
	echo "version: unknown part $part (driver, python, ts, rust or go)" >&2
	exit 2
	;;
esac
if [[ -z $version ]]; then
	echo "version: no version found in $where" >&2
	exit 1
fi
if [[ $# -lt 2 ]]; then
	echo "$version"
	exit 0
fi
tag=${2#refs/tags/}
if [[ $tag != "v$version" ]]; then
	echo "version: tag $tag does not match $where, which says $part $version: tag v$version, or bump $where and tag again" >&2
	exit 1
fi
echo "version: $part $version matches tag $tag"
