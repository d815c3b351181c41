package main

import (
	"fmt"
	"strings"

	"github.com/difffuzz/difffuzz/harness/scaffold"
	"github.com/difffuzz/difffuzz/harness/triage"
)

// initCmd is "difffuzz init LANG": a team's worker skeleton, written into
// its own repository (package scaffold). LANG may come before the flags or
// after them.
func (c *CLI) initCmd(args []string) int {
	langs := strings.Join(scaffold.Languages(), "|")
	fs := c.newFlagSet("init", langs+"\n\nwrites a worker on the language's kit (the naive baseline where your SDK's function goes),\nits manifest, an empty known-failures list (adapter check -write-known fills it) and a difffuzz.toml naming it, into -dir;\nthe language may also come before the flags. docs/your-sdk.md walks through it.")
	var cfg scaffold.Config
	fs.StringVar(&cfg.Dir, "dir", scaffold.DefaultDir, "the `folder` to write (made if missing; no file of the skeleton may exist in it)")
	fs.StringVar(&cfg.Model, "model", scaffold.DefaultModel, "the value `model`: native, or text (the case as JSON text, as a tool call's arguments arrive); exact is not available yet")
	fs.StringVar(&cfg.Name, "name", scaffold.DefaultName, "the adapter's `name` in difffuzz.toml")
	fs.StringVar(&cfg.Contract, "contract", "", "the contract your SDKs claim, written into difffuzz.toml: a built-in (difffuzz, rfc8785) or a contract `file` (default: none, this project's contract)")
	fs.StringVar(&cfg.KitSource, "kit-source", "", "install the kit from `PATH` instead of its registry: a package of make packages or a release\n(python: difffuzz_kit-*.whl, ts: difffuzz-kit-*.tgz, rust: difffuzz-kit-*.crate, unpacked into vendor/;\ngo: the goproxy folder), a folder of them such as out/packages/ (the newest of LANG), or the kit's folder, kits/LANG of a checkout")
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cfg.Lang, args = args[0], args[1:]
	}
	if code := c.parse(fs, args); code >= 0 {
		return code
	}
	switch {
	case cfg.Lang == "" && fs.NArg() == 1:
		cfg.Lang = fs.Arg(0)
	case cfg.Lang == "" || fs.NArg() > 0:
		return c.usageError(fs, "want one language, %s (flags before or after it)", langs)
	}
	files, err := scaffold.Write(cfg)
	if err != nil {
		return c.usageError(fs, "%v", err)
	}
	fmt.Fprintf(c.Stdout, "wrote %s/:", cfg.Dir)
	for _, p := range scaffold.Paths(files) {
		fmt.Fprintf(c.Stdout, " %s", p)
	}
	fmt.Fprintf(c.Stdout, "\n%s", scaffold.NextSteps(cfg))
	return triage.ExitOK
}
