#!/usr/bin/env bash
# Imports run one way (make check-imports, part of make test; make packages):
# - the Go kit (kits/go) is what a team's worker imports, a module of its
#   own: it must import nothing of the driver's module (harness/, cmd/, an
#   implementation under test in adapters/, value/, internal/, ...), and its
#   go.mod must require nothing of it; the driver imports the kit, never the
#   reverse;
# - internal/ holds leaves: libraries that import nothing of harness/ or cmd/.
# Reads the modules' paths from go.mod and kits/go/go.mod.
set -euo pipefail
cd "$(dirname "$0")/.."
module=$(awk '$1 == "module" { print $2; exit }' go.mod)
kitmodule=$(awk '$1 == "module" { print $2; exit }' kits/go/go.mod)
status=0
# leaks PACKAGES PATTERN: the project's packages below PACKAGES that match PATTERN.
leaks() {
	go list -deps "$1" | grep -E "^$module/($2)(/|\$)" | sed 's/^/  /' || true
}
# The kit's packages, tests included, and what they import of the driver's
# module: any package of $module outside $kitmodule.
if l=$(go list -deps -test ./kits/go/... | grep -E "^$module(/|\$)" | grep -vE "^$kitmodule(/|\$|\.test\$| \[)" | sed 's/^/  /') && [[ -n $l ]]; then
	echo "check-imports: the Go kit ($kitmodule) imports packages of the driver's module, which a worker must not need:" >&2
	echo "$l" >&2
	status=1
fi
if grep -qE "^[[:space:]]*(require[[:space:]]+)?$module[[:space:]]" kits/go/go.mod; then
	echo "check-imports: kits/go/go.mod requires the driver's module $module" >&2
	status=1
fi
for pkg in $(go list ./internal/...); do
	if l=$(leaks "$pkg" 'harness|cmd') && [[ -n $l ]]; then
		echo "check-imports: $pkg is in internal/, which holds leaves, but imports:" >&2
		echo "$l" >&2
		status=1
	fi
done
((status == 0)) && echo "check-imports: $kitmodule imports nothing of $module; internal/ imports none of harness or cmd"
exit $status
