#!/usr/bin/env bash
# The layering of the module's packages (make check-imports, part of make
# test). docs/architecture.md lists the packages in its first code block,
# from the programs down to the leaves; that order is the layering, so the
# page a newcomer reads and the rule that holds are one text. A package may
# import only packages listed below it, or on its own line. A package the
# list does not place (by its path, or the longest listed path it is under)
# fails too: a new package must be given its place.
set -euo pipefail
cd "$(dirname "$0")/.."
module=$(awk '$1 == "module" { print $2; exit }' go.mod)
doc=docs/architecture.md

# layers: "path rank" for each path the page lists; the rank is the line's
# order, and the paths on one line share it. A listed line starts with a
# path, ends its paths with two spaces, and separates them with ", ".
layers=$(awk '
	/^```/ { if (++fence == 2) exit; next }
	fence == 1 && /^[a-z]/ {
		head = $0
		sub(/   *.*/, "", head)
		rank++
		n = split(head, paths, /, */)
		for (i = 1; i <= n; i++) { p = paths[i]; sub(/\/$/, "", p); print p, rank }
	}' "$doc")
[[ -n $layers ]] || { echo "check-layers: no package list in $doc" >&2; exit 2; }

# Every package of the driver's module and of the Go kit's (a module of its
# own, in the workspace) with the packages of either that it imports.
graph=$(go list -f '{{.ImportPath}}{{range .Imports}} {{.}}{{end}}' ./... ./kits/go/... | grep -v /node_modules/)

awk -v module="$module/" -v doc="$doc" '
	NR == FNR { rank[$1] = $2; next }
	# place: the rank of the longest listed path that p is, or is under.
	function place(p,   q) {
		for (q = p; q != ""; ) {
			if (q in rank) return rank[q]
			if (q !~ /\//) return 0
			sub(/\/[^\/]*$/, "", q)
		}
		return 0
	}
	{
		p = substr($1, length(module) + 1)
		r = place(p)
		if (!r) { printf "check-layers: %s is not placed in %s\n", p, doc > "/dev/stderr"; bad = 1; next }
		for (i = 2; i <= NF; i++) {
			if (index($i, module) != 1) continue
			q = substr($i, length(module) + 1)
			s = place(q)
			if (s && s < r) {
				printf "check-layers: %s imports %s, which %s lists above it\n", p, q, doc > "/dev/stderr"
				bad = 1
			}
		}
		n++
	}
	END {
		if (bad) exit 1
		printf "check-layers: the %d packages of %s import only packages listed below them in %s\n", n, module, doc
	}' <(echo "$layers") <(echo "$graph")
