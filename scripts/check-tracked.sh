#!/usr/bin/env bash
# No built binary is tracked: a compiled program in the repository goes
# stale with every change of its source and bloats every clone (make
# check-tracked, part of make test). A tracked file is a binary when it starts
# with the magic number of an executable: ELF, Mach-O or a Windows PE.
set -euo pipefail
cd "$(dirname "$0")/.."
found=()
while IFS= read -r -d '' f; do
	[[ -f $f ]] || continue
	magic=$(head -c 4 -- "$f" | od -An -tx1 | tr -d ' \n')
	case $magic in
	7f454c46 | cffaedfe | cefaedfe | feedfacf | feedface | cafebabe | 4d5a*) found+=("$f") ;;
	esac
done < <(git ls-files -z)
if ((${#found[@]})); then
	echo "check-tracked: built binaries are tracked; remove them (git rm --cached) and build them instead:" >&2
	printf '  %s\n' "${found[@]}" >&2
	exit 1
fi
echo "check-tracked: no built binary among $(git ls-files | wc -l) tracked files"
