#!/usr/bin/env bash
# The action's third step (action.yml): fuzzes for DIFFFUZZ_DURATION (default
# 10m) with the config DIFFFUZZ_CONFIG, judged by the contract
# DIFFFUZZ_CONTRACT (default: the config's), and the extra flags DIFFFUZZ_ARGS
# (split as a shell would, quotes allowed), and writes into DIFFFUZZ_OUT
# (default difffuzz-out), the folder the action uploads:
#
#   findings/      the corpus of findings (-corpus)
#   report.json    the JSON report (-report)
#   junit.xml      the JUnit report (-junit)
#   summary.md     the Markdown summary (-summary), also appended to
#                  $GITHUB_STEP_SUMMARY
#   events.jsonl   the run's events (-events), one JSON object a line
#   exit-status    difffuzz run's exit status, also the step's output
#                  exit-status ($GITHUB_OUTPUT)
#
# Exits with difffuzz run's status: 0 nothing new, 1 a new divergence (or a
# stale known-list entry), 2 a setup error.
set -euo pipefail
# install.sh sets DIFFFUZZ (through $GITHUB_ENV) and puts it on the PATH.
if [[ -n ${DIFFFUZZ:-} ]]; then
	PATH=$(dirname "$DIFFFUZZ"):$PATH
fi
out=${DIFFFUZZ_OUT:-difffuzz-out}
args=()
if [[ -n ${DIFFFUZZ_ARGS:-} ]]; then
	# xargs splits as the shell would (quotes, backslashes), without running anything.
	while IFS= read -r -d '' a; do
		args+=("$a")
	done < <(printf '%s' "$DIFFFUZZ_ARGS" | xargs -r printf '%s\0')
fi
mkdir -p "$out/findings"
if [[ -n ${DIFFFUZZ_CONTRACT:-} ]]; then
	args=(-contract "$DIFFFUZZ_CONTRACT" "${args[@]}")
fi

status=0
difffuzz run -config "${DIFFFUZZ_CONFIG:-difffuzz.toml}" -duration "${DIFFFUZZ_DURATION:-10m}" \
	-corpus "$out/findings" -report "$out/report.json" -junit "$out/junit.xml" \
	-summary "$out/summary.md" -events "$out/events.jsonl" "${args[@]}" || status=$?

echo "$status" >"$out/exit-status"
# The last event is the run's summary; a run that ended at setup wrote none.
if [[ -s $out/events.jsonl ]] && ! tail -n 1 "$out/events.jsonl" | grep -q '"type":"summary"'; then
	echo "::warning title=difffuzz::the run's event stream has no summary: it ended abnormally"
fi
if [[ -n ${GITHUB_OUTPUT:-} ]]; then
	echo "exit-status=$status" >>"$GITHUB_OUTPUT"
fi
if [[ -f $out/summary.md && -n ${GITHUB_STEP_SUMMARY:-} ]]; then
	cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"
fi
case $status in
0) ;;
1) echo "::error title=difffuzz::a new divergence (exit 1): see the job summary and the uploaded $out folder" ;;
*) echo "::error title=difffuzz::difffuzz run exited $status (a setup error): see the log above" ;;
esac
exit "$status"
