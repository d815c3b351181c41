#!/usr/bin/env bash
# Runs the action's steps (action.yml), all but the upload, as the runner
# would, against a scratch folder and the project's fake worker, with the
# runner's files ($GITHUB_PATH, $GITHUB_ENV, $GITHUB_OUTPUT,
# $GITHUB_STEP_SUMMARY) in it (make action-test, part of make test):
#
#   install  builds difffuzz from this checkout (no version), puts it on the path
#   build    runs the build commands of the adapters that run, or the build input
#   fuzz     a worker with a known bug: exit 1, findings, both reports, the
#            summary in the job summary; the same config with -adapters naming
#            a correct worker: exit 0
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
config=scripts/action/testdata/difffuzz.toml

fail() {
	echo "action-test: $*" >&2
	exit 1
}

# runner STEP: a step's environment as the runner gives it.
runner() {
	env GITHUB_ACTION_PATH="$root" RUNNER_TEMP="$scratch/runner" GITHUB_PATH="$scratch/path" \
		GITHUB_ENV="$scratch/env" GITHUB_OUTPUT="$scratch/output" GITHUB_STEP_SUMMARY="$scratch/summary" "$@"
}

mkdir -p "$scratch/runner"
runner scripts/action/install.sh >"$scratch/install.log" 2>&1 || { cat "$scratch/install.log"; fail "install failed"; }
bin=$scratch/runner/difffuzz/bin
[[ -x $bin/difffuzz ]] || fail "install: no $bin/difffuzz"
grep -qxF "$bin" "$scratch/path" || fail "install: $bin is not in \$GITHUB_PATH"
grep -qxF "DIFFFUZZ=$bin/difffuzz" "$scratch/env" || fail "install: no DIFFFUZZ in \$GITHUB_ENV"

rm -f bin/fakeworker bin/fakeworker.built-for-fixed
runner DIFFFUZZ_CONFIG=$config scripts/action/build.sh >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; fail "build failed"; }
[[ -x bin/fakeworker ]] || fail "build: the config's build command did not run"
[[ ! -e bin/fakeworker.built-for-fixed ]] || fail "build: built an adapter that does not run by default"
runner DIFFFUZZ_CONFIG=$config DIFFFUZZ_ARGS="-adapters=go,team-sdk-fixed" scripts/action/build.sh >"$scratch/build.log" 2>&1 ||
	{ cat "$scratch/build.log"; fail "build -adapters failed"; }
[[ -e bin/fakeworker.built-for-fixed ]] || fail "build: -adapters named an adapter whose build did not run"
rm -f bin/fakeworker.built-for-fixed
runner DIFFFUZZ_BUILD="touch '$scratch/built by input'" scripts/action/build.sh >"$scratch/build.log" 2>&1 ||
	{ cat "$scratch/build.log"; fail "build input failed"; }
[[ -e "$scratch/built by input" ]] || fail "build: the build input did not run"

# fuzz WANT OUT ARGS: one fuzz step, with its exit status checked.
fuzz() {
	local want=$1 out=$2 args=$3 status=0
	: >"$scratch/output"
	runner DIFFFUZZ="$bin/difffuzz" DIFFFUZZ_CONFIG=$config DIFFFUZZ_DURATION=60s DIFFFUZZ_OUT="$out" DIFFFUZZ_CONTRACT="${CONTRACT:-}" \
		DIFFFUZZ_ARGS="$args" scripts/action/fuzz.sh >"$scratch/fuzz.log" 2>&1 || status=$?
	if [[ $status != "$want" ]]; then
		cat "$scratch/fuzz.log"
		fail "fuzz $args: exit $status, want $want"
	fi
	grep -qxF "exit-status=$want" "$scratch/output" || fail "fuzz: no exit-status=$want in \$GITHUB_OUTPUT"
	for f in report.json junit.xml summary.md events.jsonl exit-status; do
		[[ -s $out/$f ]] || fail "fuzz: no $out/$f"
	done
	tail -n 1 "$out/events.jsonl" | grep -q "\"exit\":$want" || fail "fuzz: the event stream's summary does not say exit $want"
}

fuzz 1 "$scratch/out" "-cases 3000 -seed '1' -minimize-time 2s"
[[ -n $(ls -A "$scratch/out/findings") ]] || fail "fuzz: the planted bug left no findings"
grep -q "::error title=difffuzz::" "$scratch/fuzz.log" || fail "fuzz: no error annotation for the divergence"
cmp -s "$scratch/out/summary.md" "$scratch/summary" || fail "fuzz: the job summary is not the run's summary"
fuzz 0 "$scratch/out-fixed" "-adapters go,team-sdk-fixed -cases 2000 -seed 1"
# the contract input: the fixed worker writes this project's contract, so a
# run judged by RFC 8785 finds it departing from that one, and says so
CONTRACT=rfc8785 fuzz 1 "$scratch/out-jcs" "-adapters go,team-sdk-fixed -cases 2000 -seed 1 -minimize-time -1s"
grep -q '"contract": "rfc8785"' "$scratch/out-jcs/report.json" || fail "fuzz: the contract input did not reach the run"
echo "action-test: install, build (config, -adapters, input) and fuzz (a planted bug: exit 1, findings, reports, summary; fixed: exit 0) passed"
