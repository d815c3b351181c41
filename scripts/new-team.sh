#!/usr/bin/env bash
# The new-team test (make new-team, part of make test): a team's first day,
# outside this checkout, on the packages of make packages as a release's
# assets would be downloaded, beside the team's repository. In a fresh git
# repository in a scratch folder it does what docs/your-sdk.md says for a
# network without the kits' registries: `difffuzz init LANG -kit-source
# PACKAGES` for python, ts, rust and go, then each language's own install and
# build commands, with no edit of a file init wrote (the environment of the
# go command is the one init prints). It puts the team's SDK where each
# skeleton's naive baseline is (the SDK's dependencies added with npm install
# and cargo add), and runs `difffuzz run` on the four workers together,
# against the built-in reference, from the team's own difffuzz.toml. The run
# must find the planted bug and nothing else.
#
# The design. The naive baselines that init writes are not canonical JSON
# (the kits' examples have known-failures lists), and a run of them finds
# dozens of buckets that change whenever the generator does; a known list of
# them would go stale, and a planted bug could hide behind them. So each
# worker gets a correct SDK instead: the project's own implementation of its
# language, copied into the team's repository as the team's SDK would be
# there (Python's canonjson package, TypeScript's canonical.ts, Rust's
# canonjson crate and its exact model; Go's canonjson package with the
# packages it imports, as a module of its own). Make smoke runs these
# four against the reference and must find nothing, so here any divergence
# is the planted one, and the test can demand, exactly:
#
#   - the run exits 1 (a new divergence) after exactly CASES cases;
#   - at least one bucket, and every bucket names the planted worker alone
#     (deviants = [sdk-python]) and the planted cause: kind number, the cause
#     the driver gives it ($cause below), the signature made of the two, and
#     a minimized case that holds a number of 1e21 or more;
#   - no worker failed a case (internal error, crash, hang); none had a
#     protocol error or a restart, although sdk-ts, sdk-rust and sdk-go print
#     a line to stdout and one to stderr on every case (the kits serve on
#     descriptors 3 and 4), and each was started as often as the others;
#   - none of the team's files (git ls-files of the scratch repository) names
#     this checkout;
#   - each manifest names the kit's package of the folder (go.mod: the
#     version in the proxy, and the environment init printed);
#   - the Go worker needs the kit's module alone: nothing of the driver's
#     module is downloaded or in its go.sum.
#
# The planted bug: sdk-python's worker wraps the SDK's float formatter so
# that a finite float of magnitude 1e21 or more is written as an integer in
# full (1000000000000000000000 for 1e+21).
#
# Then a JCS team's first day, in a second scratch repository: `difffuzz
# init python -contract rfc8785`, an RFC 8785 SDK (canonjson's rfc8785
# Encoding) with one planted bug, -0 written with its sign (RFC 8785
# §3.2.2.3 writes 0), and `difffuzz run` from that repository: exactly one
# bucket, the planted cause, judged by rfc8785 (JCS_CASES cases, default
# 3000).
#
# Usage: scripts/new-team.sh [PACKAGES]   (default out/packages)
# Environment: DIFFFUZZ (the driver; default bin/difffuzz), CASES (default
# 20000), SEED (default 1), GO_VERSION (that of make packages; default
# v0.0.0-dev), KEEP=1 keeps the scratch folder and says where it is.
# The package registries must be reachable (PyPI, npm, crates.io, the Go
# proxy): the installs fetch the kits' dependencies at the kits' ranges and
# the versions this project pins.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
pkgs=$(cd "${1:-out/packages}" && pwd)
difffuzz=$root/${DIFFFUZZ:-bin/difffuzz}
cases=${CASES:-20000}
seed=${SEED:-1}
go_version=${GO_VERSION:-v0.0.0-dev}
planted=sdk-python
# The planted bug's cause, as the driver names it (harness/compare).
cause="a number of 1e21 or more printed in full (want exponent form)"
scratch=$(mktemp -d)
cleanup() {
	if [[ -n ${KEEP:-} ]]; then
		echo "new-team: kept $scratch"
	else
		chmod -R u+w "$scratch"
		rm -rf "$scratch"
	fi
}
trap cleanup EXIT
repo=$scratch/repo
start=$SECONDS

# step NAME COMMAND...: one install or build step, quiet; its log on failure.
step() {
	local name=$1
	shift
	if ! "$@" >"$scratch/step.log" 2>&1; then
		sed 's/^/       /' "$scratch/step.log"
		echo "new-team: FAIL $name"
		exit 1
	fi
}

fail() {
	echo "new-team: FAIL $*"
	exit 1
}

# The packages, as a release's assets are downloaded: beside the team's
# repository, not in it.
packages=$scratch/packages
cp -r "$pkgs" "$packages"
wheel=$(cd "$packages" && ls difffuzz_kit-*.whl)
tgz=$(cd "$packages" && ls difffuzz-kit-*.tgz)
crate=$(cd "$packages" && ls difffuzz-kit-*.crate)

# The Go modules' paths: the driver's, and the kit's (kits/go, a module of
# its own, which a team's worker requires).
gomodule=$(awk '$1 == "module" { print $2; exit }' go.mod)
gokitmodule=$(awk '$1 == "module" { print $2; exit }' kits/go/go.mod)
[[ ${gokitmodule%%/*} == *.* ]] || fail "go: the module path \"$gokitmodule\" in kits/go/go.mod has no dot in its first element, which go refuses to fetch"

mkdir -p "$repo"
git -C "$repo" init -q
echo "new-team: a team's repository in $repo (difffuzz init -kit-source $(basename "$pkgs")/: $wheel $tgz $crate, Go module $gokitmodule@$go_version)"

for lang in python ts rust go; do
	step "$lang: difffuzz init -kit-source" bash -c "cd '$repo' && '$difffuzz' init $lang -dir $lang -name sdk-$lang -kit-source '$packages'"
	cp "$scratch/step.log" "$scratch/init-$lang.log"
done

# python: requirements.txt names the wheel; pip installs it into a venv.
# The SDK: canonjson, beside the worker.
(
	cd "$repo/python"
	grep -qxF "$packages/$wheel" requirements.txt || fail "python: init's requirements.txt does not name $packages/$wheel"
	cp -r "$root/adapters/python/canonjson" canonjson
	find canonjson -name __pycache__ -prune -exec rm -rf {} +
	cat >worker.py <<-'PY'
		"""The difffuzz worker of sdk-python: the team's SDK (canonjson) on the kit,
		in the exact model, with a PLANTED BUG: a float of 1e21 or more is
		written as an integer in full, where canonical JSON writes 1e+21."""

		import math
		import sys

		from difffuzz_kit import serve

		from canonjson import Object, Unsupported, __version__, _canonical, canonical

		_format_float = _canonical.format_float


		def _planted_format_float(x: float) -> str:
		    if math.isfinite(x) and abs(x) >= 1e21:
		        return str(int(x))
		    return _format_float(x)


		_canonical.format_float = _planted_format_float

		if __name__ == "__main__":
		    sys.exit(serve(canonical, name="canonjson-python", version=__version__, members=Object, unsupported=Unsupported))
	PY
	step "python: venv" python3 -m venv .venv
	step "python: pip install -r requirements.txt" nice .venv/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
)
echo "new-team: python: the wheel in a venv, worker.py on canonjson (planted: floats of 1e21 and more in full)"

# ts: package.json names the tarball, which npm install installs; the SDK,
# canonical.ts, beside the worker in src/ (init's tsconfig.json compiles src/
# to dist/), and its one dependency at the project's pin.
hash_wasm=$(node -p 'require("./adapters/ts/package.json").dependencies["hash-wasm"]')
(
	cd "$repo/ts"
	[[ -f src/worker.ts ]] || fail "ts: init wrote no src/worker.ts"
	grep -qF "\"@difffuzz/kit\": \"file:$packages/$tgz\"" package.json || fail "ts: init's package.json does not name file:$packages/$tgz"
	cp "$root/adapters/ts/src/canonical.ts" src/canonical.ts
	cat >src/worker.ts <<-'TS'
		/**
		 * The difffuzz worker of sdk-ts: the team's SDK (canonical.ts) on the kit,
		 * in the exact model. The SDK logs: a line to stdout and one to stderr
		 * on every case, which the kit keeps off the protocol.
		 */
		import { serve } from "@difffuzz/kit";
		import { JsonObject, canonicalBytes } from "./canonical.js";

		await serve(
		  (value) => {
		    console.log("debug: sdk-ts canonicalizes a case");
		    console.error("warn: sdk-ts logs to stderr too");
		    return canonicalBytes(value);
		  },
		  { name: "canonjson-ts", version: "0.1.0", model: "exact", object: (members) => new JsonObject(members) },
		);
	TS
	step "ts: npm install (the kit from $tgz)" nice npm install --no-audit --no-fund --loglevel=error
	step "ts: npm install hash-wasm@$hash_wasm" nice npm install --no-audit --no-fund --loglevel=error "hash-wasm@$hash_wasm"
	step "ts: npm run build" nice npm run --silent build
)
echo "new-team: ts: the tarball, src/worker.ts on canonical.ts, printing on stdout and stderr"

# rust: init unpacked the .crate into vendor/, which Cargo.toml names; the
# SDK, the canonjson crate, in the team's repository (cargo add), with the
# worker's exact model.
(
	mkdir -p "$repo/sdk/canonjson"
	cp -r "$root/adapters/rust/src" "$repo/sdk/canonjson/src"
	# The library's manifest without its workspace and profiles.
	awk '/^\[/ { keep = ($0 !~ /^\[workspace\]/ && $0 !~ /^\[profile/) } keep' \
		"$root/adapters/rust/Cargo.toml" >"$repo/sdk/canonjson/Cargo.toml"
	cd "$repo/rust"
	vendored=vendor/${crate%.crate}
	[[ -f $vendored/Cargo.toml ]] || fail "rust: init did not unpack $crate into $vendored/"
	grep -q "^difffuzz-kit = { path = \"$vendored\"" Cargo.toml || fail "rust: init's Cargo.toml does not name $vendored"
	step "rust: cargo add --path ../sdk/canonjson" nice cargo add --quiet --path ../sdk/canonjson
	cp "$root/adapters/rust/worker/src/lib.rs" src/exact.rs
	cat >src/main.rs <<-'RS'
		//! The difffuzz worker of sdk-rust: the team's SDK (canonjson) on the kit,
		//! in the exact model (exact.rs). The SDK logs: a line to stdout and one to
		//! stderr on every case, which the kit keeps off the protocol.
		mod exact;

		use std::process::ExitCode;

		use difffuzz_kit::{serve, CaseError, Hello};

		fn main() -> ExitCode {
		    let hello = Hello::new("canonjson-rust", canonjson::VERSION);
		    serve(hello, exact::Exact::default(), |value| {
		        println!("debug: sdk-rust canonicalizes a case");
		        eprintln!("warn: sdk-rust logs to stderr too");
		        let mut text = Vec::new();
		        canonjson::canonical_into(value, &mut text)
		            .map(|()| text)
		            .map_err(|e| CaseError::from_name(e.code(), e.message()))
		    })
		}
	RS
	step "rust: cargo build --release (the kit from $crate)" nice cargo build --quiet --release
)
echo "new-team: rust: the unpacked crate, src/main.rs on the canonjson crate, printing on stdout and stderr"

# go: the kit's module from the file:// proxy (then proxy.golang.org for its
# dependencies, checked against the checksum database) in the environment
# init printed, which go.mod states too; in a module cache of the scratch
# folder, so that no stale copy of the same version is used. The SDK, the
# Go implementation (package canonjson, with the packages it imports from
# this repository: value, contract, internal/tomlstrict), is copied into the
# team's repository as a module of its own, example.com/canonjson, as a
# team's SDK would be there, and the worker's go.mod replaces it with that
# folder (go mod edit). The worker requires the kit's module alone: nothing
# of the driver's module may be downloaded, nor be in its go.sum.
goproxy_line="GOPROXY=file://$packages/goproxy,https://proxy.golang.org GONOSUMDB=$gokitmodule"
grep -qxF "       export $goproxy_line" "$scratch/init-go.log" || fail "go: init did not print the environment 'export $goproxy_line'"
read -ra goproxy_env <<<"$goproxy_line"
goenv=(env -u GOFLAGS -u GOWORK GOFLAGS=-modcacherw GOPATH="$scratch/gopath" GOMODCACHE="$scratch/gopath/pkg/mod"
	GOTOOLCHAIN=local "${goproxy_env[@]}")
(
	sdk=$repo/sdk/canonjson-go
	for pkg in adapters/go value contract internal/tomlstrict; do
		dest=$sdk/${pkg#adapters/go}
		mkdir -p "$dest"
		for f in "$root/$pkg"/*.go; do
			[[ $f == *_test.go ]] && continue
			sed -e "s#\"$gomodule/adapters/go\"#\"example.com/canonjson\"#" \
				-e "s#\"$gomodule/\(value\|contract\|internal/tomlstrict\)\"#\"example.com/canonjson/\1\"#" \
				"$f" >"$dest/$(basename "$f")"
		done
	done
	cd "$sdk"
	# Its requirements: the kit's module (value aliases the kit's model
	# types) at the proxy's version, the rest at this project's versions.
	pin() { awk -v m="$1" '$1 == m { print m " " $2; exit }' "$root/go.mod"; }
	cat >go.mod <<-MOD
		module example.com/canonjson

		go $(awk '$1 == "go" { print $2; exit }' "$root/go.mod")

		require (
		 	$gokitmodule $go_version
		 	$(pin github.com/pelletier/go-toml/v2)
		 	$(pin lukechampine.com/blake3)
		)
	MOD
	step "go: go mod tidy (the SDK, example.com/canonjson)" nice "${goenv[@]}" go mod tidy
)
(
	cd "$repo/go"
	grep -qxF "require $gokitmodule $go_version" go.mod || fail "go: init's go.mod does not require $gokitmodule $go_version"
	grep -qxF "//	$goproxy_line" go.mod || fail "go: init's go.mod does not state the environment $goproxy_line"
	cat >main.go <<-GO
		// The difffuzz worker of sdk-go: the team's SDK on the kit, in the exact
		// model. The SDK logs: a line to stdout and one to stderr on every case,
		// which the kit keeps off the protocol.
		package main

		import (
		 	"fmt"
		 	"os"

		 	"example.com/canonjson"
		 	"$gokitmodule/kit"
		)

		func main() {
		 	opts := kit.Options{Name: "canonjson-go", Version: "0.1.0"}
		 	kit.Main(opts, kit.Exact, func(dst []byte, v any) ([]byte, error) {
		 		fmt.Println("debug: sdk-go canonicalizes a case")
		 		fmt.Fprintln(os.Stderr, "warn: sdk-go logs to stderr too")
		 		return canonjson.AppendCanonical(dst, v)
		 	})
		}
	GO
	gofmt -w main.go
	step "go: go mod edit (the SDK's folder)" "${goenv[@]}" go mod edit -require=example.com/canonjson@v0.0.0 -replace=example.com/canonjson=../sdk/canonjson-go
	step "go: go mod tidy" nice "${goenv[@]}" go mod tidy
	step "go: go build -o worker ." nice "${goenv[@]}" go build -o worker .
	if grep -q "^$gomodule " go.sum || [[ -e $scratch/gopath/pkg/mod/cache/download/$gomodule/@v ]]; then
		fail "go: the worker downloaded the driver's module $gomodule; it must need the kit's alone"
	fi
	echo "new-team: go: the worker's go.sum: $(awk '!/\/go.mod /{ print $1 "@" $2 }' go.sum | sort -u | tr '\n' ' ')"
)
echo "new-team: go: $gokitmodule@$go_version from the proxy, nothing of $gomodule; main.go on the SDK example.com/canonjson, printing on stdout and stderr"

# The team's difffuzz.toml at the repository's root: the four [[adapter]]
# tables init wrote, each with its folder.
{
	echo "# The team's workers, from the four difffuzz.toml files of difffuzz init."
	for lang in python ts rust go; do
		echo
		awk -v dir="$lang" '/^\[\[adapter\]\]/ { on = 1 } on { print } on && /^name = / { print "dir = \"" dir "\"" }' "$repo/$lang/difffuzz.toml"
	done
} >"$repo/difffuzz.toml"
echo "out/" >"$repo/.gitignore"
git -C "$repo" add -A
git -C "$repo" -c user.name=new-team -c user.email=new-team@example.com commit -q -m "difffuzz workers"
if git -C "$repo" grep -l -F "$root" >"$scratch/names-root"; then
	sed 's/^/       /' "$scratch/names-root"
	fail "these files of the team's repository name the checkout $root"
fi
echo "new-team: committed $(git -C "$repo" ls-files | wc -l) files; none names the checkout ($((SECONDS - start))s so far)"

# The run, from the team's repository, on its difffuzz.toml.
rc=0
(cd "$repo" && nice "$difffuzz" run -cases "$cases" -seed "$seed") >"$scratch/run.log" 2>&1 || rc=$?
sed 's/^/       /' "$scratch/run.log" | tail -n 25
if [[ $rc != 1 ]]; then
	fail "difffuzz run exited $rc, want 1 (a new divergence: the planted one)"
fi
python3 - "$repo/out/report.json" "$planted" "$cause" "$cases" <<'PY' || fail "the report shows more or less than the planted bug"
import json
import re
import sys

path, planted, cause, cases = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
r = json.load(open(path))
problems = []
want = {"reference", "sdk-python", "sdk-ts", "sdk-rust", "sdk-go"}
names = {a["name"] for a in r["adapters"]}
if names != want:
    problems.append(f"adapters {sorted(names)}, want {sorted(want)}")
if r["cases"] != cases or r.get("interrupted") or r.get("error"):
    problems.append(f"cases {r['cases']} (want {cases}), interrupted {r.get('interrupted')}, error {r.get('error')!r}")
for a in r["adapters"]:
    n = a["name"]
    if a["protocol_errors"]:
        problems.append(f"{n}: {a['protocol_errors']} protocol errors")
    if a["restarts"]:
        problems.append(f"{n}: {a['restarts']} restarts")
    if a["failures"]:
        problems.append(f"{n}: {a['failures']} failed cases (internal errors, crashes, hangs), want none")
starts = {a["starts"] for a in r["adapters"] if a["name"] != "reference"}
if len(starts) != 1 or min(starts) < 1:
    problems.append(f"the workers' starts differ or are 0: {starts}")
groups = r["distinct"]
if not groups or not r["divergences"]:
    problems.append("no bucket: the planted bug was not found")
# A number of 1e21 or more, as the reference writes it (1e+21, -1.5e+300).
big = re.compile(r"e\+(2[1-9]|[3-9][0-9]|[1-9][0-9]{2})\b")
for g in groups:
    where = f"bucket {g['signature']!r}"
    if (g["kind"], g.get("cause"), g.get("deviants")) != ("number", cause, [planted]):
        problems.append(f"{where}: kind {g['kind']!r}, cause {g.get('cause')!r}, deviants {g.get('deviants')}; want 'number', {cause!r}, [{planted!r}]")
    if g["signature"] != f"number: {cause}: {planted}":
        problems.append(f"{where}: want the signature 'number: {cause}: {planted}'")
    case = g.get("minimized_input") or g["example"]
    if not big.search(case):
        problems.append(f"{where}: its case holds no number of 1e21 or more: {case[:200]}")
for p in problems:
    print("       " + p)
if problems:
    sys.exit(1)
for a in r["adapters"]:
    print(f"       {a['name']}: {a['batches']} batches, {a['failures']} failed cases, {a['protocol_errors']} protocol errors, {a['starts']} starts, {a['restarts']} restarts")
for g in groups:
    print(f"       bucket {g['signature']!r}: {g['count']} cases, minimized {(g.get('minimized_input') or g['example'])[:120]}")
PY
if grep -q "to its protocol stream" "$scratch/run.log"; then
	fail "the driver saw a worker's printed line on the protocol"
fi
echo "new-team: ok: $cases cases, the planted bug of $planted alone, no protocol error or restart from the printing workers ($((SECONDS - start))s)"

# A JCS team's first day, in a repository of its own: a team that signs
# JSON with RFC 8785 runs `difffuzz init python -contract rfc8785`, whose
# difffuzz.toml says contract = "rfc8785", so that the built-in reference
# follows RFC 8785 and writes non-ASCII raw and keys in UTF-16 order as the
# team's SDK does. The SDK is canonjson's Encoding of the rfc8785 contract
# (canonjson.contract.RFC8785), with one planted RFC 8785 bug: -0 written
# with its sign, where Number::toString writes 0 (§3.2.2.3). The run must
# find exactly one bucket, that one, by sdk-jcs alone, in a report judged by
# rfc8785.
jcs_repo=$scratch/jcs-repo
jcs_cases=${JCS_CASES:-3000}
jcs_cause="-0 written with its sign (want 0)"
jcs_start=$SECONDS
mkdir -p "$jcs_repo"
git -C "$jcs_repo" init -q
step "jcs: difffuzz init python -contract rfc8785" bash -c "cd '$jcs_repo' && '$difffuzz' init python -name sdk-jcs -contract rfc8785 -kit-source '$packages'"
jcs_dir=$jcs_repo/difffuzz-worker
grep -qxF 'contract = "rfc8785"' "$jcs_dir/difffuzz.toml" || fail "jcs: init -contract rfc8785 did not write contract = \"rfc8785\" into difffuzz.toml"
(
	cd "$jcs_dir"
	cp -r "$root/adapters/python/canonjson" canonjson
	find canonjson -name __pycache__ -prune -exec rm -rf {} +
	cat >worker.py <<-'PY'
		"""The difffuzz worker of sdk-jcs: the team's RFC 8785 SDK (canonjson's
		Encoding of the rfc8785 contract) on the kit, in the exact model, with a
		PLANTED BUG: -0 is written with its sign, where RFC 8785 §3.2.2.3
		(ECMAScript's Number::toString) writes 0."""

		import math
		import sys

		from difffuzz_kit import serve

		from canonjson import Encoding, Object, Unsupported, __version__
		from canonjson.contract import RFC8785


		class PlantedEncoding(Encoding):
		    __slots__ = ()

		    def _float(self, x: float) -> str:
		        if x == 0.0 and math.copysign(1.0, x) < 0:
		            return "-0"
		        return super()._float(x)


		if __name__ == "__main__":
		    jcs = PlantedEncoding(RFC8785)
		    sys.exit(serve(jcs.canonical, name="canonjson-jcs", version=__version__, members=Object, unsupported=Unsupported))
	PY
	step "jcs: python venv" python3 -m venv .venv
	step "jcs: pip install -r requirements.txt" nice .venv/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
)
echo "new-team: jcs: init -contract rfc8785, worker.py on canonjson's rfc8785 Encoding (planted: -0 written with its sign)"
rc=0
(cd "$jcs_dir" && nice "$difffuzz" run -cases "$jcs_cases" -seed "$seed") >"$scratch/jcs-run.log" 2>&1 || rc=$?
sed 's/^/       /' "$scratch/jcs-run.log" | tail -n 12
if [[ $rc != 1 ]]; then
	fail "jcs: difffuzz run exited $rc, want 1 (a new divergence: the planted one)"
fi
python3 - "$jcs_dir/out/report.json" "$jcs_cause" "$jcs_cases" <<'PY' || fail "jcs: the report shows more or less than the planted bug"
import json
import sys

path, cause, cases = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = json.load(open(path))
problems = []
if r.get("contract") != "rfc8785":
    problems.append(f"judged by {r.get('contract')!r}, want 'rfc8785'")
if {a["name"] for a in r["adapters"]} != {"reference", "sdk-jcs"}:
    problems.append(f"adapters {[a['name'] for a in r['adapters']]}, want reference and sdk-jcs")
if r["cases"] != cases or r.get("interrupted") or r.get("error"):
    problems.append(f"cases {r['cases']} (want {cases}), interrupted {r.get('interrupted')}, error {r.get('error')!r}")
for a in r["adapters"]:
    if a["protocol_errors"] or a["restarts"] or a["failures"]:
        problems.append(f"{a['name']}: {a['protocol_errors']} protocol errors, {a['restarts']} restarts, {a['failures']} failed cases")
groups = r["distinct"]
if len(groups) != 1:
    problems.append(f"{len(groups)} buckets, want exactly one: {[g['signature'] for g in groups]}")
for g in groups:
    if (g["kind"], g.get("cause"), g.get("deviants")) != ("number", cause, ["sdk-jcs"]):
        problems.append(f"bucket {g['signature']!r}: want kind 'number', cause {cause!r}, deviants ['sdk-jcs']")
    case = g.get("minimized_input") or g["example"]
    if "-0.0" not in case:
        problems.append(f"bucket {g['signature']!r}: its case holds no -0.0: {case[:200]}")
for p in problems:
    print("       " + p)
if problems:
    sys.exit(1)
g = groups[0]
print(f"       bucket {g['signature']!r}: {g['count']} cases, minimized {(g.get('minimized_input') or g['example'])[:120]}")
PY
echo "new-team: ok: the JCS team's planted bug found as one bucket in $jcs_cases cases under rfc8785 ($((SECONDS - jcs_start))s; $((SECONDS - start))s in all)"
