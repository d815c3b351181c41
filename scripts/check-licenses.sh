#!/usr/bin/env bash
# Lists every dependency of the driver and of the four worker kits, direct and
# transitive, with its license, and fails on one outside the allow list
# (make check-licenses; the list and its sources: tools/licenses).
#
# Usage: scripts/check-licenses.sh [MARKDOWN]   (e.g. docs/licenses.md: the list is written there)
# Environment: PY, the Python with difffuzz-kit installed (default
# adapters/python/.venv/bin/python, made by make python). The npm list is read
# from kits/ts/package-lock.json, the Rust one from cargo metadata (which
# downloads the crates' manifests once).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
py=${PY:-adapters/python/.venv/bin/python}
[[ $py == /* ]] || py=$root/$py
cd tools
exec go run ./licenses -root "$root" -python "$py" -md "${1:-}"
