# difffuzz: every target installs what it needs first, from the project's own
# pinned files (requirements.txt, package-lock.json, Cargo.lock, go.sum).

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := difffuzz

DURATION ?= 60s
ARGS ?=

VENV   := adapters/python/.venv
PY     := $(VENV)/bin/python
TS_JS  := adapters/ts/dist/src/worker.js
TS_KIT := kits/ts/dist/src/index.js
RUST_W := adapters/rust/target/release/worker
DIFFFUZZ := bin/difffuzz

GO_SRC := $(shell find . -name '*.go' -not -path '*/node_modules/*' -not -path './adapters/ts/*' -not -path './adapters/rust/*' -not -path './adapters/python/*') go.mod $(wildcard go.sum) go.work kits/go/go.mod $(wildcard kits/go/go.sum)
# The packages of the workspace's two modules (go.work): the driver's
# (./..., which stops at kits/go, a module of its own) and the Go kit's,
# less the Go files some npm packages ship inside node_modules (flatted
# does), which are not ours to vet or test.
GO_PKGS = $$(go list ./... ./kits/go/... | grep -v /node_modules/)

.PHONY: difffuzz test build bench soak fixtures fixtures-check jcs-numbers replay smoke infra-check \
        test-go test-python test-ts test-rust python ts rust go examples conform clean

## build: every adapter and the driver
build: python ts rust go

python: $(VENV)/.installed
$(VENV)/.installed: adapters/python/requirements.txt adapters/python/pyproject.toml kits/python/pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r adapters/python/requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e adapters/python
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e kits/python
	touch $@

ts: $(TS_JS)
# the kit (@difffuzz/kit) is built first: adapters/ts and survey/ts link to it (file:../../kits/ts)
kits/ts/node_modules/.installed: kits/ts/package.json kits/ts/package-lock.json
	cd kits/ts && npm ci --no-audit --no-fund --loglevel=error
	touch $@
$(TS_KIT): kits/ts/node_modules/.installed $(shell find kits/ts/src kits/ts/test kits/ts/example -name '*.ts' 2>/dev/null) kits/ts/tsconfig.json
	cd kits/ts && npm run --silent build
adapters/ts/node_modules/.installed: adapters/ts/package.json adapters/ts/package-lock.json kits/ts/package.json | kits/ts/node_modules/.installed
	cd adapters/ts && npm ci --no-audit --no-fund --loglevel=error
	touch $@
$(TS_JS): $(TS_KIT) adapters/ts/node_modules/.installed $(shell find adapters/ts/src adapters/ts/test -name '*.ts' 2>/dev/null) adapters/ts/tsconfig.json
	cd adapters/ts && npm run --silent build

rust: $(RUST_W)
$(RUST_W): $(shell find adapters/rust/src adapters/rust/worker/src kits/rust/src -name '*.rs' 2>/dev/null) adapters/rust/Cargo.toml adapters/rust/worker/Cargo.toml adapters/rust/Cargo.lock kits/rust/Cargo.toml
	cargo build --quiet --release --locked --manifest-path adapters/rust/Cargo.toml -p canonjson-worker

# One go build for the four commands, so that they compile the packages
# they share once, never twice side by side under make -j; go's own cache
# makes it a second when nothing changed.
go:
	go build -o bin/ ./cmd/difffuzz ./cmd/canonjson-worker ./cmd/mutant ./cmd/fakeworker

## examples: the kits' example workers (docs/your-sdk.md), for conform; the
## Python one runs from the venv (python), the TypeScript one is built with its
## kit (ts)
GO_EXAMPLE   := bin/kit-example-go
GO_TEXT_EXAMPLE := bin/kit-example-go-text
RUST_EXAMPLE := kits/rust/example/target/release/example-worker
RUST_TEXT_EXAMPLE := kits/rust/example/target/release/text_worker
examples: python ts $(GO_EXAMPLE) $(GO_TEXT_EXAMPLE) $(RUST_EXAMPLE) $(RUST_TEXT_EXAMPLE)
$(RUST_TEXT_EXAMPLE): $(RUST_EXAMPLE)
$(GO_EXAMPLE): $(GO_SRC) | go
	go build -o $@ ./kits/go/example
$(GO_TEXT_EXAMPLE): $(GO_SRC) | go
	go build -o $@ ./kits/go/example/text
$(RUST_EXAMPLE): $(shell find kits/rust/src kits/rust/example/src -name '*.rs' 2>/dev/null) kits/rust/Cargo.toml kits/rust/example/Cargo.toml kits/rust/example/Cargo.lock
	cargo build --quiet --release --locked --manifest-path kits/rust/example/Cargo.toml

## conform (part of make test): difffuzz adapter check on every worker, the
## project's four and the kits' four examples, each example against its
## failure list (kits/*/example/known-failures.txt: the naive baselines fail
## on content). A worker's whole output goes to out/conform/NAME.txt, and to
## the terminal when its check fails.
CONFORM_CASES ?= 2000
CONFORM = @mkdir -p out/conform; $(DIFFFUZZ) adapter check -cases $(CONFORM_CASES) $(2) '$(1)' >out/conform/$(3).txt 2>&1 \
	&& echo "conform $(3): $$(tail -n 1 out/conform/$(3).txt)" \
	|| { cat out/conform/$(3).txt; echo "conform $(3): FAILED (make conform)"; exit 1; }
conform: build examples
	$(call CONFORM,python,,python)
	$(call CONFORM,ts,,ts)
	$(call CONFORM,rust,,rust)
	$(call CONFORM,go-worker,,go-worker)
	$(call CONFORM,$(PY) kits/python/example/worker.py,-known kits/python/example/known-failures.txt,python-example)
	$(call CONFORM,$(PY) kits/python/example/text_worker.py,-known kits/python/example/text-known-failures.txt,python-text-example)
	$(call CONFORM,node kits/ts/dist/example/worker.js,-known kits/ts/example/known-failures.txt,ts-example)
	$(call CONFORM,node kits/ts/dist/example/text_worker.js,-known kits/ts/example/text-known-failures.txt,ts-text-example)
	$(call CONFORM,$(RUST_EXAMPLE),-known kits/rust/example/known-failures.txt,rust-example)
	$(call CONFORM,$(RUST_TEXT_EXAMPLE),-known kits/rust/example/text-known-failures.txt,rust-text-example)
	$(call CONFORM,$(GO_EXAMPLE),-known kits/go/example/known-failures.txt,go-example)
	$(call CONFORM,$(GO_TEXT_EXAMPLE),-known kits/go/example/text-known-failures.txt,go-text-example)

## packages: the four kits as packages a team installs with no path into a
## checkout (docs/your-sdk.md): out/packages/ gets the wheel, the npm tarball,
## the .crate and out/packages/goproxy, the Go module in the GOPROXY layout
## (GO_VERSION, default v0.0.0-dev). check-install installs each one into a
## scratch folder and runs a worker on it (it needs the package registries).
.PHONY: packages check-install check-licenses new-team
packages: python kits/ts/node_modules/.installed
	scripts/packages.sh out/packages
check-install: packages go
	scripts/check-install.sh out/packages
## new-team (part of make test): a team's first day outside the checkout, in
## a scratch git repository: difffuzz init for the four languages, each kit
## installed from its package, a correct SDK in three workers that print on
## every case and a planted bug in the fourth; difffuzz run must find that bug
## alone, with no protocol error or restart (scripts/new-team.sh; it needs the
## package registries)
# The team's Rust worker is built from the .crate, which so proves it builds
# alone: packages need not build it a second time.
new-team: export CRATE_VERIFY = 0
new-team: packages go
	scripts/new-team.sh out/packages
## check-licenses: every dependency of the driver and the kits, direct and
## transitive, with its license, against an allow list; writes docs/licenses.md
check-licenses: python
	scripts/check-licenses.sh docs/licenses.md

## action-test (part of make test): the GitHub Action's steps (action.yml),
## all but the upload, as scripts against a scratch folder and bin/fakeworker
.PHONY: action-test check-imports check-tracked
action-test: go
	scripts/action/test.sh

## check-imports (part of make test): kits/go, a module of its own, imports
## nothing of the driver's module, internal/ holds leaves (nothing of harness/
## or cmd/), and every package imports only those docs/architecture.md lists
## below it
check-imports:
	scripts/check-imports.sh
	scripts/check-layers.sh
## check-tracked (part of make test): no built binary is tracked
check-tracked:
	scripts/check-tracked.sh
## check-docs (part of make test): docs/architecture.md names every package,
## README.md stays at most 200 lines
.PHONY: check-docs
check-docs:
	scripts/check-docs.sh

## release-dry-run (not part of make test; the release workflow runs it on
## every pull request): every step of a release that needs no credentials,
## the GoReleaser snapshot into dist/ included (docs/releasing.md)
.PHONY: release-dry-run
release-dry-run:
	scripts/release-dry-run.sh

## cross-build (part of make test-long: cold, it compiles the standard
## library six times over): the driver vets and builds for every
## system a release ships (.goreleaser.yaml, docs/releasing.md); what
## differs outside Linux is in docs/adapter-protocol.md ("Process")
CROSS_TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
.PHONY: cross-build
cross-build:
	for t in $(CROSS_TARGETS); do \
		export GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0; \
		go vet ./... ./kits/go/... && go build -trimpath -o /dev/null ./cmd/difffuzz \
			|| { echo "cross-build: $$t fails"; exit 1; }; \
	done
	@echo "cross-build: vet and build passed for $(CROSS_TARGETS)"

## difffuzz: the default fuzzing job (make difffuzz DURATION=1h ARGS='-seed 1')
difffuzz: build
	$(DIFFFUZZ) run -duration $(DURATION) $(ARGS)

## test: every test of every language (the Go ones under -short), the
## fixture check, the corpus replay, a short fuzzing run of all four adapters
## that must find nothing, and the new-team test (a team's four workers from
## the packages, one bug planted). Five minutes on 2 cores from a fresh clone.
# The checks start once deps has ended, also under make -j, so that no two
# makes build one file at once.
test: deps
	$(MAKE) --no-print-directory test-checks
.PHONY: test-checks
test-checks: test-go test-python test-ts test-rust conform fixtures-check replay smoke survey-short action-test check-imports check-tracked check-docs new-team

## test-long (the PR workflow, after make test): what make test leaves out
## because it adds little a minute: Go's long tests (real timed benches, the
## longer end-to-end runs) with the race run in full, the offline lint of the
## CI, container and Kubernetes files, whose tools take minutes to build, the
## driver's cross-build for every system a release ships, and the lint of the
## survey's workers, whose libraries make test does not install.
.PHONY: test-long test-go-long
test-long: test-go-long infra-check cross-build lint-survey

## lint-survey (part of test-long): the survey's workers, linted as the kits
## are: go vet and staticcheck over survey/go (a module of its own), rustfmt
## and clippy over survey/rust, ruff and mypy --strict over survey/python,
## ESLint with typescript-eslint over survey/ts
.PHONY: lint-survey
lint-survey: python survey-ts bin/staticcheck
	cd survey/go && go vet ./... && ../../bin/staticcheck ./...
	cargo fmt --check --manifest-path survey/rust/Cargo.toml
	cargo clippy --quiet --locked --manifest-path survey/rust/Cargo.toml --all-targets -- -D warnings
	cd survey/python && ../../$(VENV)/bin/ruff check . && ../../$(VENV)/bin/ruff format --check . && ../../$(VENV)/bin/mypy
	cd survey/ts && npm run --silent lint
	@echo "lint-survey: vet, staticcheck, rustfmt, clippy, ruff, mypy and ESLint found nothing in survey/"

STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
bin/staticcheck: Makefile | go
	GOBIN=$(CURDIR)/bin go install $(STATICCHECK)

## deps (make test's first step): every install and build the tests use, two
## at a time, since half of them wait on the network and not the processor;
## each one's output is printed whole when it ends (make 4's output-sync)
.PHONY: deps
deps:
	$(MAKE) --no-print-directory -j2 $(if $(filter output-sync,$(.FEATURES)),--output-sync=target) build examples bin/staticcheck

GOFILES = $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')
test-go: bin/staticcheck
	test -z "$$(gofmt -l $(GOFILES))" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	go vet $(GO_PKGS)
	bin/staticcheck $(GO_PKGS)
	go test -short $(GO_PKGS)
	# the packages where goroutines share state, once more under the race
	# detector; the end-to-end proofs of labels, which share nothing more
	# than the runs above, run under it in test-go-long
	go test -short -race -skip 'LabelsAreProven' ./harness/run/ ./harness/panel/ ./harness/adapter/
	@echo "test-go: gofmt, vet, staticcheck, every package's short tests and the race run passed"

test-go-long:
	go test $(GO_PKGS)
	go test -race ./harness/run/ ./harness/panel/ ./harness/adapter/
	@echo "test-go-long: every package's tests in full and the race run passed"

test-python: python lint-python
	cd adapters/python && .venv/bin/python -m pytest -q
	cd kits/python && ../../$(PY) -m pytest -q
	@echo "test-python: the library's and the kit's tests passed"

## lint-python (part of test-python): ruff (lint and format) and mypy --strict
## over the kit (kits/python, its tests and examples) and the library
## (adapters/python, its worker and tests), with the versions pinned in
## adapters/python/requirements.txt and the settings of each one's pyproject.toml
.PHONY: lint-python
lint-python: python
	for d in kits/python adapters/python; do \
		(cd $$d && ../../$(VENV)/bin/ruff check . && ../../$(VENV)/bin/ruff format --check . && ../../$(VENV)/bin/mypy) || exit 1; \
	done
	@echo "lint-python: ruff and mypy found nothing in kits/python and adapters/python"

test-ts: ts
	cd kits/ts && npm test --silent && npm run --silent lint
	cd adapters/ts && npm test --silent && npm run --silent lint
	@echo "test-ts: the kit's and the library's tests and lint passed"

test-rust: lint-rust
	cargo test --quiet --locked --manifest-path adapters/rust/Cargo.toml --workspace
	cargo test --quiet --locked --manifest-path kits/rust/Cargo.toml --features serde_json
	@echo "test-rust: the library's, the worker's and the kit's tests passed"

## lint-rust (part of test-rust): rustfmt, and clippy with warnings as errors,
## over the kit (every target, with its serde_json feature) and the library
## with its worker
.PHONY: lint-rust
lint-rust:
	cargo fmt --check --manifest-path kits/rust/Cargo.toml
	cargo fmt --check --manifest-path adapters/rust/Cargo.toml --all
	cargo clippy --quiet --locked --manifest-path kits/rust/Cargo.toml --all-targets --features serde_json -- -D warnings
	cargo clippy --quiet --locked --manifest-path adapters/rust/Cargo.toml --workspace --all-targets -- -D warnings
	@echo "lint-rust: rustfmt and clippy -D warnings found nothing in kits/rust and adapters/rust"

fixtures: python
	$(PY) tests/fixtures/generate_canonical_json_fixtures.py --out tests/fixtures/canonical-json-fuzz

fixtures-check: python
	$(PY) tests/fixtures/generate_canonical_json_fixtures.py --check tests/fixtures/canonical-json-fuzz

## jcs-numbers (not part of make test; needs node): the Go implementation's
## number text against Node's String(x) on JCS_NUMBERS doubles (default 10
## million: every boundary class, then random bit patterns), streamed through
## one node process; prints the seed, the count, the mismatches and the time
## (docs/canonical-json.md §7). JCS_SEED=S repeats a run.
JCS_NUMBERS ?= 10000000
jcs-numbers:
	go run ./adapters/go/jcsnumbers -n $(JCS_NUMBERS) $(if $(JCS_SEED),-seed $(JCS_SEED))

replay: build
	$(DIFFFUZZ) replay corpus/

smoke: build
	rm -rf out/smoke
	$(DIFFFUZZ) run -cases 20000 -seed 1 -corpus out/smoke/corpus -report out/smoke/report.json

## infra-check: lint the CI workflows, Dockerfile, compose file and Kubernetes
## manifests offline; installs its pinned tools into bin/tools (docs/nightly.md)
infra-check:
	scripts/check-infra.sh

bench: build
	$(DIFFFUZZ) bench -diverge-worker bin/fakeworker

## soak (not part of make test): all four adapters for DURATION (make soak
## DURATION=1h), the driver's and every worker's resident set sampled each
## minute into out/soak.json; fails if the driver's median over the last 10
## minutes is more than 10% above its median over minutes 10-20 (cmd/soak).
## SOAK_ARGS='-max-memory 1GiB' adds flags to the run.
SOAK_ARGS ?=
soak: build
	go build -o bin/soak ./cmd/soak
	bin/soak -duration $(DURATION) -- $(SOAK_ARGS)

## mutants: hunt every one-bug implementation of the mutant zoo with difffuzz
## run against the in-process Go, up to MUTANT_DURATION each (README "Fuzzing
## power"); writes docs/mutants.md. MUTANT_ARGS='-only NAME,NAME -md=' hunts a
## few and leaves the page alone. Its short version is a Go test
## (cmd/mutanthunt), so part of make test.
MUTANT_DURATION ?= 60s
MUTANT_ARGS ?=
.PHONY: mutants
mutants: go
	go run ./cmd/mutanthunt -duration $(MUTANT_DURATION) -md docs/mutants.md $(MUTANT_ARGS)

clean:
	rm -rf bin out adapters/ts/dist kits/ts/dist adapters/rust/target kits/rust/target kits/rust/example/target $(VENV)

## survey: every library of survey/survey.toml against the reference; writes
## docs/survey.md, docs/survey.svg and out/survey.json (SURVEY_ARGS='-cases N')
SURVEY_ARGS ?=
SURVEY_PY := survey/python/.venv
.PHONY: survey survey-build survey-go survey-python survey-ts survey-rust survey-short
survey: go survey-build
	$(DIFFFUZZ) survey $(SURVEY_ARGS)
survey-build: survey-go survey-python survey-ts survey-rust
survey-go:
	cd survey/go && go build -o ../../bin/survey/ ./cmd/...
survey-python: $(SURVEY_PY)/.installed
$(SURVEY_PY)/.installed: survey/python/requirements.txt kits/python/pyproject.toml
	python3 -m venv $(SURVEY_PY)
	$(SURVEY_PY)/bin/pip install --quiet --disable-pip-version-check -r survey/python/requirements.txt
	$(SURVEY_PY)/bin/pip install --quiet --disable-pip-version-check --no-deps -e kits/python
	touch $@
survey-ts: ts survey/ts/node_modules/.installed
	cd survey/ts && npm run --silent build
survey/ts/node_modules/.installed: survey/ts/package.json survey/ts/package-lock.json
	cd survey/ts && npm ci --no-audit --no-fund --loglevel=error
	touch $@
survey-rust:
	cargo build --quiet --release --locked --manifest-path survey/rust/Cargo.toml
## survey-short (part of make test): two Go libraries, a few thousand cases,
## and a test of what they must show
survey-short: go survey-go
	$(DIFFFUZZ) survey -libraries go-encoding-json,gowebpki-jcs -cases 3000 -minimize-time 2s -readings '' -md '' -svg out/survey-short/survey.svg -json out/survey-short/survey.json
	SURVEY_JSON=$(CURDIR)/out/survey-short/survey.json go test -count=1 -run TestShortSurvey ./harness/survey/

## triage-bench: difffuzz's triage on code nobody here wrote (docs/triage.md,
## "Triage benchmark"): each implementation of triagebench/impls (SDK-style
## code of our own with the bugs real code has, and the survey's public
## libraries at their pinned versions) is run for TRIAGE_DURATION in each
## of its models against the in-process reference, and its buckets are
## scored against its list of true causes; writes the table into
## docs/triage.md. TRIAGE_ARGS='-short -only py-dumps-utf8 -md=' is a smoke
## test that leaves the page alone; -strict exits 1 when a target fails.
TRIAGE_DURATION ?= 60s
TRIAGE_ARGS ?=
.PHONY: triage-bench triagebench-build triagebench-ts triagebench-rust
triage-bench: triagebench-build
	go run ./triagebench/cmd/triagebench -duration $(TRIAGE_DURATION) -md docs/triage.md $(TRIAGE_ARGS)
triagebench-build: go python survey-build triagebench-ts triagebench-rust
	go build -o bin/triagebench-go/ ./triagebench/go/cmd/...
triagebench-ts: ts triagebench/ts/node_modules/.installed
	cd triagebench/ts && npm run --silent build
triagebench/ts/node_modules/.installed: triagebench/ts/package.json triagebench/ts/package-lock.json
	cd triagebench/ts && npm ci --no-audit --no-fund --loglevel=error
	touch $@
triagebench-rust:
	cargo build --quiet --release --locked --manifest-path triagebench/rust/Cargo.toml
