#!/usr/bin/env bash
# scripts/release/gokit.sh write|check [VERSION]: the Go kit's sums in the
# driver's go.sum (docs/releasing.md). The kit (kits/go) is a module of its
# own, released by the tag kits/go/vX.Y.Z on the commit of the driver's tag
# vX.Y.Z; the driver's go.mod requires it at that version, and its go.sum
# must hold the kit's sums, or `go install
# github.com/difffuzz/difffuzz/cmd/difffuzz@vX.Y.Z` fails. The sums depend
# on the kit's files alone, so they are computed before the tag, from the
# kit's folder zipped as the module proxy zips it (tools/goproxy; kits/go
# has a LICENSE of its own, so the go command adds none from the root).
#   write   put them into go.sum (step 1 of cutting a release)
#   check   fail, saying both, if go.sum's differ (the release workflow's
#           gokit job, before it pushes the kit's tag)
# VERSION defaults to the one go.mod requires of the kit.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:?usage: scripts/release/gokit.sh write|check [VERSION]}
kitmodule=$(awk '$1 == "module" { print $2; exit }' kits/go/go.mod)
version=${2:-$(awk -v m="$kitmodule" '$1 == m { print $2; exit }' go.mod)}
[[ -n $version ]] || { echo "gokit: go.mod does not require $kitmodule" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'chmod -R u+w "$scratch"; rm -rf "$scratch"' EXIT

# The kit's files as the tag holds them: the tracked ones.
git ls-files -z -- kits/go | tar --null -T - -cf - | tar -xf - -C "$scratch"
(cd tools && go run ./goproxy -dir "$scratch/kits/go" -version "$version" -o "$scratch/proxy") >/dev/null
sums=$(cd / && env GOWORK=off GOFLAGS=-modcacherw GOMODCACHE="$scratch/modcache" GOPROXY="file://$scratch/proxy" \
	GONOSUMDB="$kitmodule" GOTOOLCHAIN=local go mod download -json "$kitmodule@$version")
sum=$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",*$/\1/p' <<<"$sums")
gomodsum=$(sed -n 's/^[[:space:]]*"GoModSum": "\(.*\)",*$/\1/p' <<<"$sums")
[[ -n $sum && -n $gomodsum ]] || { echo "gokit: no sums of $kitmodule@$version: $sums" >&2; exit 1; }
want=$(printf '%s %s %s\n%s %s/go.mod %s' "$kitmodule" "$version" "$sum" "$kitmodule" "$version" "$gomodsum")

case $mode in
write)
	{ grep -v "^$kitmodule " go.sum || true; echo "$want"; } | LC_ALL=C sort >"$scratch/go.sum"
	cp "$scratch/go.sum" go.sum
	echo "gokit: go.sum holds $kitmodule@$version ($sum)"
	;;
check)
	have=$(grep "^$kitmodule $version[ /]" go.sum || true)
	if [[ $have != "$want" ]]; then
		echo "gokit: go.sum's sums of $kitmodule@$version differ from the kit's folder:" >&2
		echo "  go.sum:  ${have:-none}" >&2
		echo "  kits/go: $want" >&2
		echo "run scripts/release/gokit.sh write and commit go.sum" >&2
		exit 1
	fi
	echo "gokit: go.sum's sums of $kitmodule@$version are the kit's"
	;;
*)
	echo "gokit: unknown mode $mode (write or check)" >&2
	exit 2
	;;
esac
