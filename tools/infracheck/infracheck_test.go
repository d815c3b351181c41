package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The files infracheck reads, copied from the repository into a scratch
// folder so that each case can break one of them.
var inputs = []string{
	"Dockerfile", ".dockerignore", "docker-compose.yml",
	"deploy/pvc.yaml", "deploy/shards-job.yaml", "deploy/merge-job.yaml",
	".github/workflows/nightly-difffuzz.yml", ".github/workflows/pr.yml", ".github/workflows/action.yml",
	".github/workflows/release.yml",
	"action.yml", "scripts/action/install.sh", "scripts/action/build.sh", "scripts/action/fuzz.sh",
	"go.mod", "difffuzz.toml", "known-divergences.txt",
	"adapters/python/pyproject.toml", "adapters/ts/package.json",
}

// Folders the .dockerignore check wants present; a stand-in file each.
var stubs = []string{"Makefile", "go.sum", "cmd/x.go", "harness/x.go", "internal/x.go", "adapters/go/x.go", "corpus/x.json", "docs/x.md", "tests/x"}

// cli is the difffuzz binary: INFRACHECK_CLI, or built from the checkout.
func cli(t *testing.T) string {
	if p := os.Getenv("INFRACHECK_CLI"); p != "" {
		return p
	}
	out := filepath.Join(t.TempDir(), "difffuzz")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/difffuzz")
	cmd.Dir = "../.."
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/difffuzz: %v\n%s", err, b)
	}
	return out
}

func scratch(t *testing.T) string {
	dir := t.TempDir()
	for _, f := range inputs {
		data, err := os.ReadFile(filepath.Join("../..", f))
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, f, data)
	}
	for _, f := range stubs {
		write(t, dir, f, []byte("x\n"))
	}
	return dir
}

func write(t *testing.T, dir, f string, data []byte) {
	p := filepath.Join(dir, filepath.FromSlash(f))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs every check as main does and returns the output and whether any
// failed.
func run(root, bin string) (string, bool) {
	r := &repo{root: root, cli: bin}
	var b bytes.Buffer
	failed := false
	for _, c := range allChecks() {
		detail, problems := c.run(r)
		if len(problems) == 0 {
			b.WriteString("ok   " + c.name + ": " + detail + "\n")
			continue
		}
		failed = true
		b.WriteString("FAIL " + c.name + "\n       " + strings.Join(problems, "\n       ") + "\n")
	}
	return b.String(), failed
}

func TestRepositoryPasses(t *testing.T) {
	out, failed := run(scratch(t), cli(t))
	if failed {
		t.Fatalf("the repository's files fail:\n%s", out)
	}
}

// Each case breaks one thing; the checks must name it.
func TestBrokenFilesFail(t *testing.T) {
	bin := cli(t)
	cases := []struct{ file, old, new, want string }{
		{"Dockerfile", `CMD ["-duration", "10m"]`, `CMD -duration 10m`, "JSONArgsRecommended"},
		{"Dockerfile", "AS runtime", "as runtime", "FromAsCasing"},
		{"Dockerfile", "bin:$PATH", "bin:$PATHX", "UndefinedVar"},
		{"Dockerfile", "USER 10001:10001\n", "", "other than root"},
		{"Dockerfile", "COPY --from=build /opt/difffuzz/adapters/ts/dist ./adapters/ts/dist\n", "", "does not copy adapters/ts/dist/src/worker.js"},
		{"Dockerfile", `"difffuzz", "run", "-corpus"`, `"difffuzz", "-corpus"`, "ENTRYPOINT must start with difffuzz run"},
		{"Dockerfile", `"-report", "/data/report.json"`, `"-report", "/tmp/report.json"`, "-report under /data/"},
		{"Dockerfile", "    make build \\\n", "    make \\\n", "no stage runs `make build`"},
		{"Dockerfile", "FROM debian:bookworm-slim", "FROM debian:trixie-slim", "Debian releases"},
		{".dockerignore", "\nadapters/rust/target\n", "\n", "does not exclude adapters/rust/target"},
		{".dockerignore", "\ndeploy\n", "\ndeploy\nharness\n", "excludes harness/x.go"},
		{"docker-compose.yml", "stop_grace_period: 2m", "stop_grace_periodd: 2m", "stop_grace_periodd"},
		{"docker-compose.yml", `command: ["-duration", "10m"]`, `command: ["run", "-duration", "10m"]`, "must be flags of difffuzz run"},
		{"docker-compose.yml", "target: /data", "target: /srv", "no volume mounted at /data"},
		{"docker-compose.yml", `command: ["-duration", "10m"]`, `command: ["-duraton", "10m"]`, "unknown flag -duraton"},
		{"deploy/shards-job.yaml", "parallelism: 4", "parallelism: 3", "parallelism 3 != completions 4"},
		{"deploy/shards-job.yaml", "$(JOB_COMPLETION_INDEX)/4", "$(JOB_COMPLETION_INDEX)/5", "-shard .../5 but completions is 4"},
		{"deploy/shards-job.yaml", "backoffLimitPerIndex: 1", "backofLimitPerIndex: 1", `unknown field "backofLimitPerIndex"`},
		{"deploy/shards-job.yaml", "memory: 8Gi", "memory: 8Gx", "quantities must match"},
		{"deploy/shards-job.yaml", "$(DIFFFUZZ_DURATION)", "$(DURATION)", "$(DURATION) is not defined"},
		{"deploy/shards-job.yaml", "restartPolicy: Never", "restartPolicy: Always", "restartPolicy must be Never or OnFailure"},
		{"deploy/shards-job.yaml", "            - -seed\n", "            - -sed\n", "unknown flag -sed"},
		{"deploy/pvc.yaml", "    - ReadWriteMany", "    - ReadWriteOnce", "want accessModes ReadWriteMany"},
		{"deploy/merge-job.yaml", `value: "4"`, `value: "3"`, "SHARDS=3 but difffuzz-shards runs 4 shards"},
		{"deploy/merge-job.yaml", `-o "$run/merged/corpus"`, `-out "$run/merged/corpus"`, "unknown flag -out"},
		{".github/workflows/nightly-difffuzz.yml", `-duration "$DURATION"`, `-durations "$DURATION"`, "unknown flag -durations"},
		{".github/workflows/nightly-difffuzz.yml", "actions/checkout@v6", "actions/checkout@main", "pin actions"},
		{".github/workflows/nightly-difffuzz.yml", "      checks: write\n", "      checks: write\n      pull-requests: write\n", "pull-requests: write"},
		{".github/workflows/nightly-difffuzz.yml", `go-version: "1.26"`, `go-version: "1.25"`, `want "1.26"`},
		{".github/workflows/nightly-difffuzz.yml", "-known known-divergences.txt ||", "||", "difffuzz run without -known"},
		{".github/workflows/nightly-difffuzz.yml", "cache-dependency-path: adapters/ts/package-lock.json", "cache-dependency-path: package.json", "does not key its cache on adapters/ts/package-lock.json"},
		{".github/workflows/pr.yml", "run: make test", "run: make build", "no step runs make test"},
		{".github/workflows/release.yml", "    if: startsWith(github.ref, 'refs/tags/v')\n", "", "job driver: permissions: contents: write"},
		{".github/workflows/release.yml", "pypa/gh-action-pypi-publish@dc37677b2e1c63e2034f94d8a5b11f265b73ba33", "pypa/gh-action-pypi-publish@release/v1", "pin actions"},
		{"action.yml", `run: '"$GITHUB_ACTION_PATH/scripts/action/fuzz.sh"'`, `run: difffuzz run -duration ${{ inputs.duration }}`, "splices an expression"},
		{"action.yml", `run: '"$GITHUB_ACTION_PATH/scripts/action/build.sh"'`, `run: '"$GITHUB_ACTION_PATH/scripts/action/make.sh"'`, "scripts/action/make.sh does not exist"},
		{"action.yml", "      shell: bash\n      env:\n        DIFFFUZZ_VERSION", "      env:\n        DIFFFUZZ_VERSION", "needs shell: bash"},
		{"action.yml", "    - name: Upload the findings and the reports\n      if: always()\n", "    - name: Upload the findings and the reports\n", "upload if: always()"},
		{"action.yml", "${{ inputs.working-directory }}/${{ inputs.out }}", "${{ inputs.working-directory }}/${{ inputs.output }}", "inputs.output is not declared"},
		{"action.yml", "actions/upload-artifact@v7", "actions/upload-artifact@main", "pin actions"},
		{"scripts/action/fuzz.sh", `-junit "$out/junit.xml"`, `-junitt "$out/junit.xml"`, "unknown flag -junitt"},
	}
	for _, c := range cases {
		t.Run(c.file+": "+c.want, func(t *testing.T) {
			dir := scratch(t)
			p := filepath.Join(dir, filepath.FromSlash(c.file))
			data, _ := os.ReadFile(p)
			if !bytes.Contains(data, []byte(c.old)) {
				t.Fatalf("%s has no %q", c.file, c.old)
			}
			write(t, dir, c.file, bytes.Replace(data, []byte(c.old), []byte(c.new), 1))
			out, failed := run(dir, bin)
			if !failed || !strings.Contains(out, c.want) {
				t.Errorf("want a failure naming %q, got:\n%s", c.want, out)
			}
		})
	}
}
