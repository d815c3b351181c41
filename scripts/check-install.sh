#!/usr/bin/env bash
# Installs each package of scripts/packages.sh (make packages) the way a team
# does, into a scratch folder with no path into this checkout, builds a worker
# on it (the kit's example worker, docs/your-sdk.md) and runs
# `difffuzz adapter check` on that worker against the example's failure list
# (make check-install). The package registries must be reachable: the
# installs fetch the kits' dependencies (and TypeScript, and the Go modules).
#
#   python  a fresh venv; pip install the wheel
#   ts      a fresh folder with package.json and tsconfig.json as
#           docs/your-sdk.md shows them (scripts/check-install/ts-worker/);
#           npm install the tarball; tsc
#   rust    a fresh crate depending on the unpacked .crate with the
#           serde_json feature, and on no serde_json of its own (the kit
#           re-exports it); no lock file, so the newest releases in the
#           kit's ranges
#   go      a clean GOPATH and module cache; GOPROXY=file://.../goproxy then
#           proxy.golang.org; go install MODULE/cmd/difffuzz@VERSION (which
#           takes the kit's module from the proxy too); then a fresh module
#           that go-gets KITMODULE/kit@VERSION (the kit's module,
#           MODULE/kits/go) and builds the example worker
#
# Usage: scripts/check-install.sh [PACKAGES]   (default out/packages)
# Environment: ONLY=python,ts,rust,go (default all), DIFFFUZZ (the driver
# that checks the workers; default bin/difffuzz), CASES (default 2000).
# The parts and their helpers run through wants, by name:
# shellcheck disable=SC2329
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
pkgs=$(cd "${1:-out/packages}" && pwd)
only=${ONLY:-python,ts,rust,go}
difffuzz=$root/${DIFFFUZZ:-bin/difffuzz}
cases=${CASES:-2000}
go_version=${GO_VERSION:-v0.0.0-dev}
scratch=$(mktemp -d)
trap 'chmod -R u+w "$scratch"; rm -rf "$scratch"' EXIT
failed=0

wants() { [[ ,$only, == *,$1,* ]]; }

# check NAME WORKER-COMMAND KNOWN-LIST: the adapter check of an installed worker.
check() {
	local name=$1 command=$2 known=$3
	if "$difffuzz" adapter check -cases "$cases" -known "$known" "$command" >"$scratch/$name.check" 2>&1; then
		echo "ok   $name: $(tail -n 1 "$scratch/$name.check")"
	else
		sed 's/^/       /' "$scratch/$name.check"
		echo "FAIL $name: the installed kit's worker fails its check"
		failed=1
	fi
}

# step NAME COMMAND...: run an install or build step quietly, its log shown on failure.
step() {
	local name=$1
	shift
	if ! "$@" >"$scratch/step.log" 2>&1; then
		sed 's/^/       /' "$scratch/step.log"
		echo "FAIL $name"
		return 1
	fi
}

python_part() {
	local wheel venv=$scratch/py/venv
	wheel=$(ls "$pkgs"/difffuzz_kit-*.whl)
	mkdir -p "$scratch/py"
	step "python: venv" python3 -m venv "$venv" &&
		step "python: pip install $(basename "$wheel")" nice "$venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" &&
		cp kits/python/example/worker.py "$scratch/py/worker.py" &&
		check python-wheel "$venv/bin/python $scratch/py/worker.py" kits/python/example/known-failures.txt
}

# doc_block NAME: the code block under <!-- ts-worker: NAME --> in docs/your-sdk.md.
doc_block() {
	awk -v mark="<!-- ts-worker: $1 -->" '
		$0 == mark { found = 1; next }
		found && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }
	' docs/your-sdk.md
}

ts_part() {
	local tgz dir=$scratch/ts f
	for f in package.json tsconfig.json; do
		if ! diff <(doc_block "$f") "scripts/check-install/ts-worker/$f" >"$scratch/doc.diff"; then
			sed 's/^/       /' "$scratch/doc.diff"
			echo "FAIL ts: docs/your-sdk.md shows $f otherwise than scripts/check-install/ts-worker/$f"
			return 1
		fi
	done
	tgz=$(ls "$pkgs"/difffuzz-kit-*.tgz)
	mkdir -p "$dir/src"
	cp "$tgz" "$dir/"
	sed "s/difffuzz-kit-[0-9][^\"]*\.tgz/$(basename "$tgz")/" scripts/check-install/ts-worker/package.json >"$dir/package.json"
	cp scripts/check-install/ts-worker/tsconfig.json "$dir/"
	cp kits/ts/example/worker.ts "$dir/src/worker.ts"
	(
		cd "$dir"
		step "ts: npm install $(basename "$tgz")" nice npm install --no-audit --no-fund --loglevel=error &&
			step "ts: tsc" nice npm run --silent build
	) && check ts-tarball "node $dir/dist/worker.js" kits/ts/example/known-failures.txt
}

rust_part() {
	local crate dir=$scratch/rs
	crate=$(ls "$pkgs"/difffuzz-kit-*.crate)
	mkdir -p "$dir/worker/src"
	tar -xzf "$crate" -C "$dir"
	cat >"$dir/worker/Cargo.toml" <<-TOML
		[package]
		name = "my-sdk-worker"
		version = "0.1.0"
		edition = "2021"
		publish = false

		[dependencies]
		difffuzz-kit = { path = "../$(basename "$crate" .crate)", features = ["serde_json"] }
		serde_json = "1"
	TOML
	# The example as it is: serde_json is a dependency of the worker's own,
	# as in the skeleton difffuzz init writes (the kit re-exports none).
	cp kits/rust/example/src/main.rs "$dir/worker/src/main.rs"
	step "rust: cargo build (the kit from $(basename "$crate"))" \
		nice cargo build --quiet --release --manifest-path "$dir/worker/Cargo.toml" &&
		check rust-crate "$dir/worker/target/release/my-sdk-worker" kits/rust/example/known-failures.txt
}

go_part() {
	local module proxy=$pkgs/goproxy
	module=$(awk '$1 == "module" { print $2; exit }' go.mod)
	if [[ ${module%%/*} != *.* ]]; then
		# go install fetches only a path whose first element has a dot.
		echo "go: the module path \"$module\" in go.mod has no dot in its first element, which go install refuses" >&2
		return 1
	fi
	local kitmodule gopath=$scratch/go/gopath bin=$scratch/go/bin w=$scratch/go/worker
	kitmodule=$(awk '$1 == "module" { print $2; exit }' kits/go/go.mod)
	mkdir -p "$gopath" "$bin" "$w"
	# Only the modules themselves (the driver's and, below its path, the
	# kit's) skip the checksum database (they are in no public one); their
	# dependencies are checked against go.sum's sums through
	# proxy.golang.org's sumdb proxy.
	local env=(env -u GOFLAGS -u GOWORK GOPATH="$gopath" GOMODCACHE="$gopath/pkg/mod" GOBIN="$bin"
		GOTOOLCHAIN=local GOPROXY="file://$proxy,https://proxy.golang.org" GONOSUMDB="$module")
	step "go: go install $module/cmd/difffuzz@$go_version" nice "${env[@]}" go install "$module/cmd/difffuzz@$go_version" || return 1
	sed "s#\"[^\"]*/kits/go/kit\"#\"$kitmodule/kit\"#" kits/go/example/main.go >"$w/main.go"
	(
		cd "$w"
		step "go: go mod init" "${env[@]}" go mod init example.com/my-sdk-worker &&
			step "go: go get $kitmodule/kit@$go_version" nice "${env[@]}" go get "$kitmodule/kit@$go_version" &&
			step "go: go build the example worker" nice "${env[@]}" go build -o worker .
	) && difffuzz=$bin/difffuzz check go-module "$w/worker" kits/go/example/known-failures.txt
}

for part in python ts rust go; do
	if wants "$part"; then
		"${part}_part" || failed=1
	fi
done
exit "$failed"
