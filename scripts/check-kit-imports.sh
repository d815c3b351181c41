#!/usr/bin/env bash
# The Go kit (kits/go) is what a team's worker imports: it must import nothing
# of the driver's harness/ or cmd/, nor an implementation under test
# (adapters/). Reads the module path from go.mod (make kit-imports, part of
# make test; make packages).
set -euo pipefail
cd "$(dirname "$0")/.."
module=$(awk '$1 == "module" { print $2; exit }' go.mod)
leaks=$(go list -deps ./kits/go/... | grep -E "^$module/(adapters|harness|cmd)(/|\$)" | sed 's/^/  /' || true)
if [[ -n $leaks ]]; then
	echo "kit-imports: the Go kit ($module/kits/go) imports packages a worker must not need:" >&2
	echo "$leaks" >&2
	exit 1
fi
echo "kit-imports: $module/kits/go imports none of $module/adapters, harness or cmd"
