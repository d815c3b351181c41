#!/usr/bin/env bash
# The docs that must keep up with the code (make check-docs, part of make
# test): docs/architecture.md names every Go package and program of the
# module and of tools/, and README.md stays a page a newcomer reads (at most
# 200 lines; the rest belongs in docs/).
set -euo pipefail
cd "$(dirname "$0")/.."
module=$(awk '$1 == "module" { print $2; exit }' go.mod)
missing=()
for p in $(go list ./... | grep -v /node_modules/ | sed "s|^$module/||"); do
	grep -qF "$p" docs/architecture.md || missing+=("$p")
done
# tools/ is a module of its own, whose dependencies make test never needs:
# its programs are its folders with a main package.
for p in $(git ls-files 'tools/*.go' | xargs grep -l '^package main' | xargs -n1 dirname | sort -u); do
	grep -qF "$p" docs/architecture.md || missing+=("$p")
done
status=0
if ((${#missing[@]})); then
	echo "check-docs: docs/architecture.md does not name these packages:" >&2
	printf '  %s\n' "${missing[@]}" >&2
	status=1
fi
lines=$(wc -l <README.md)
if ((lines > 200)); then
	echo "check-docs: README.md has $lines lines, at most 200: move the detail to docs/" >&2
	status=1
fi
((status == 0)) && echo "check-docs: docs/architecture.md names every package; README.md has $lines lines"
exit $status
