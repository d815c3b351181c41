#!/usr/bin/env bash
# The action's second step (action.yml): builds the team's workers. With
# DIFFFUZZ_BUILD (the build input), runs it with bash. Otherwise runs the
# `build` command of each adapter of the config (DIFFFUZZ_CONFIG, default
# difffuzz.toml) that the run will use, in the config file's folder, each
# command once: the adapters named by -adapters in DIFFFUZZ_ARGS, or else
# every adapter not marked default = false. Reading the config needs Python
# 3.11 or later (tomllib), which GitHub's runners have.
set -euo pipefail
config=${DIFFFUZZ_CONFIG:-difffuzz.toml}

if [[ -n ${DIFFFUZZ_BUILD:-} ]]; then
	echo "difffuzz: build: $DIFFFUZZ_BUILD"
	exec bash -euo pipefail -c "$DIFFFUZZ_BUILD"
fi
if [[ ! -f $config ]]; then
	echo "difffuzz: no build input and no config $config: nothing to build" >&2
	exit 1
fi

# build_commands prints each build command to run, NUL-terminated.
build_commands() {
	python3 - "$config" "${DIFFFUZZ_ARGS:-}" <<'PY'
import shlex, sys, tomllib

with open(sys.argv[1], "rb") as f:
    adapters = tomllib.load(f).get("adapter", [])
args, names = shlex.split(sys.argv[2]), None
for i, a in enumerate(args):
    flag, _, value = a.lstrip("-").partition("=")
    if a.startswith("-") and flag == "adapters":
        names = (value or (args[i + 1] if i + 1 < len(args) else "")).split(",")
seen = []
for a in adapters:
    used = a.get("name") in names if names is not None else a.get("default", True)
    if used and a.get("build") and a["build"] not in seen:
        seen.append(a["build"])
sys.stdout.write("".join(c + "\0" for c in seen))
PY
}

commands=()
while IFS= read -r -d '' c; do
	commands+=("$c")
done < <(build_commands)

cd "$(dirname "$config")"
if [[ ${#commands[@]} -eq 0 ]]; then
	echo "difffuzz: the adapters of $config that run have no build command"
fi
for c in "${commands[@]}"; do
	echo "difffuzz: build: $c"
	bash -euo pipefail -c "$c"
done
