#!/usr/bin/env bash
# Imports run one way (make check-imports, part of make test; make packages):
# - the Go kit (kits/go) is what a team's worker imports: it must import
#   nothing of the driver's harness/ or cmd/, nor an implementation under test
#   (adapters/);
# - internal/ holds leaves: libraries that import nothing of harness/ or cmd/.
# Reads the module path from go.mod.
set -euo pipefail
cd "$(dirname "$0")/.."
module=$(awk '$1 == "module" { print $2; exit }' go.mod)
status=0
# leaks PACKAGES PATTERN: the project's packages below PACKAGES that match PATTERN.
leaks() {
	go list -deps "$1" | grep -E "^$module/($2)(/|\$)" | sed 's/^/  /' || true
}
if l=$(leaks ./kits/go/... 'adapters|harness|cmd') && [[ -n $l ]]; then
	echo "check-imports: the Go kit ($module/kits/go) imports packages a worker must not need:" >&2
	echo "$l" >&2
	status=1
fi
for pkg in $(go list ./internal/...); do
	if l=$(leaks "$pkg" 'harness|cmd') && [[ -n $l ]]; then
		echo "check-imports: $pkg is in internal/, which holds leaves, but imports:" >&2
		echo "$l" >&2
		status=1
	fi
done
((status == 0)) && echo "check-imports: $module/kits/go imports none of adapters, harness or cmd; internal/ imports none of harness or cmd"
exit $status
