package main

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// word is one argument of a command line: its text, and whether that text is
// final (no expansion left for a shell, Kubernetes or GitHub to make).
type word struct {
	text    string
	literal bool
}

func lit(s string) word { return word{text: s, literal: true} }

func literals(ss []string) []word {
	out := make([]word, len(ss))
	for i, s := range ss {
		out[i] = lit(s)
	}
	return out
}

// invocation is one difffuzz command line found in a file: the arguments
// after the program name.
type invocation struct {
	where string
	args  []word
}

var ghExpr = regexp.MustCompile(`\$\{\{[^}]*\}\}`)

// shellInvocations parses a shell script and returns every simple command
// whose program is difffuzz (any path ending in /difffuzz). GitHub
// expressions are replaced by a placeholder first, as the runner substitutes
// them before the shell runs.
func shellInvocations(script, where string) ([]invocation, error) {
	script = ghExpr.ReplaceAllString(script, "__GITHUB_EXPRESSION__")
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), where)
	if err != nil {
		return nil, err
	}
	var out []invocation
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		args := call.Args
		// exec and command run their arguments as the command.
		for len(args) > 1 {
			if w := renderWord(args[0]); w.literal && (w.text == "exec" || w.text == "command") {
				args = args[1:]
				continue
			}
			break
		}
		prog := renderWord(args[0])
		if !prog.literal || path.Base(prog.text) != "difffuzz" {
			return true
		}
		inv := invocation{where: fmt.Sprintf("%s:%d", where, call.Pos().Line())}
		for _, a := range args[1:] {
			inv.args = append(inv.args, renderWord(a))
		}
		out = append(out, inv)
		return true
	})
	return out, nil
}

// renderWord gives a shell word's text after quote removal; any expansion
// makes it non-literal and is kept in its $NAME form.
func renderWord(w *syntax.Word) word {
	var b strings.Builder
	literal := renderParts(&b, w.Parts)
	return word{text: b.String(), literal: literal}
}

func renderParts(b *strings.Builder, parts []syntax.WordPart) bool {
	literal := true
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescapeLit(p.Value))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if !renderParts(b, p.Parts) {
				literal = false
			}
		case *syntax.ParamExp:
			literal = false
			b.WriteString("$" + p.Param.Value)
		default:
			literal = false
			b.WriteString("$(…)")
		}
	}
	return literal
}

func unescapeLit(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// k8sVar matches a Kubernetes $(VAR) reference in command or args.
var k8sVar = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// k8sWords turns Kubernetes args into words: a $(VAR) is expanded by the
// kubelet, so such a word is not literal.
func k8sWords(ss []string) []word {
	out := make([]word, len(ss))
	for i, s := range ss {
		out[i] = word{text: s, literal: !k8sVar.MatchString(s)}
	}
	return out
}
