#!/usr/bin/env bash
# The action's first step (action.yml): installs difffuzz into BIN
# ($RUNNER_TEMP/difffuzz/bin; DIFFFUZZ_BIN overrides) and puts it on the job's
# PATH ($GITHUB_PATH) and in $GITHUB_ENV as DIFFFUZZ.
#
# With DIFFFUZZ_VERSION (the action's ref, or its version input) and a module
# path a go install can fetch (one with a dot in its first element), it runs
#   go install MODULE/cmd/difffuzz@DIFFFUZZ_VERSION
# with MODULE read from the action's go.mod. A ref is a module query: a tag
# (v1.2.0), a commit, a branch, or a major tag like v1, which go resolves to
# the latest v1.x.y release. Otherwise (a local action, uses: ./, or a module
# path without a dot), or when that go install fails (a ref the module proxy
# cannot resolve), it builds ./cmd/difffuzz from the action's own checkout,
# which GitHub fetched at the action's ref.
set -euo pipefail
action=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${DIFFFUZZ_BIN:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/difffuzz/bin}
version=${DIFFFUZZ_VERSION:-}
module=$(awk '$1 == "module" { print $2; exit }' "$action/go.mod")
mkdir -p "$bin"
bin=$(cd "$bin" && pwd)

installed=false
if [[ -n $version && ${module%%/*} == *.* ]]; then
	echo "difffuzz: go install $module/cmd/difffuzz@$version"
	if GOBIN=$bin go install "$module/cmd/difffuzz@$version"; then
		installed=true
	else
		echo "::warning title=difffuzz::go install $module/cmd/difffuzz@$version failed; building the action's checkout instead"
	fi
elif [[ -n $version ]]; then
	echo "difffuzz: the module path \"$module\" has no dot, which go install refuses"
fi
if [[ $installed == false ]]; then
	echo "difffuzz: building ./cmd/difffuzz from $action"
	(cd "$action" && go build -o "$bin/difffuzz" ./cmd/difffuzz)
fi

if [[ -n ${GITHUB_PATH:-} ]]; then
	echo "$bin" >>"$GITHUB_PATH"
fi
if [[ -n ${GITHUB_ENV:-} ]]; then
	echo "DIFFFUZZ=$bin/difffuzz" >>"$GITHUB_ENV"
fi
echo "difffuzz: installed $bin/difffuzz"
