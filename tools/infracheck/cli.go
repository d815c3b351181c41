package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// cliFlags is a subcommand's flag set as "difffuzz flags" lists it: name ->
// whether the flag takes a value.
type cliFlags map[string]bool

// loadFlags runs "difffuzz flags SUBCOMMAND" and reads its flags from the
// JSON it prints, never from -h's text, whose wording is for people.
func loadFlags(cli string, sub ...string) (cliFlags, error) {
	cmd := exec.Command(cli, append([]string{"flags"}, sub...)...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s flags %s: %v\n%s", cli, strings.Join(sub, " "), err, errs.String())
	}
	var list struct {
		Flags []struct {
			Name       string `json:"name"`
			TakesValue bool   `json:"takes_value"`
		} `json:"flags"`
	}
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		return nil, fmt.Errorf("%s flags %s: %v", cli, strings.Join(sub, " "), err)
	}
	flags := cliFlags{}
	for _, f := range list.Flags {
		flags[f.Name] = f.TakesValue
	}
	if len(flags) == 0 {
		return nil, fmt.Errorf("%s flags %s listed no flags:\n%s", cli, strings.Join(sub, " "), out.String())
	}
	return flags, nil
}

// checkInvocations checks every difffuzz command line the other checks found
// against the CLI: known subcommand, known flags, a value for each flag that
// takes one, well-formed literal values, and the arguments each subcommand
// requires.
func checkInvocations(r *repo) (string, []string) {
	var p problems
	if len(r.invocations) == 0 {
		p.add("no difffuzz command line found in the Dockerfile, compose file, manifests or workflows")
		return "", p
	}
	runFlags, err := loadFlags(r.cli, "run")
	if err != nil {
		p.add("%v", err)
		return "", p
	}
	mergeFlags, err := loadFlags(r.cli, "corpus", "merge")
	if err != nil {
		p.add("%v", err)
		return "", p
	}
	replayFlags, err := loadFlags(r.cli, "replay")
	if err != nil {
		p.add("%v", err)
		return "", p
	}
	counts := map[string]int{}
	for _, inv := range r.invocations {
		if len(inv.args) == 0 || !inv.args[0].literal {
			p.add("%s: difffuzz without a literal subcommand", inv.where)
			continue
		}
		switch sub := inv.args[0].text; sub {
		case "run":
			counts["run"]++
			flags, pos := parseFlags(&p, inv, runFlags, inv.args[1:])
			if len(pos) > 0 {
				p.add("%s: difffuzz run takes no arguments, got %s", inv.where, texts(pos))
			}
			checkValues(&p, inv, flags)
		case "corpus":
			if len(inv.args) < 2 || inv.args[1].text != "merge" {
				p.add("%s: difffuzz corpus wants the subcommand merge", inv.where)
				continue
			}
			counts["corpus merge"]++
			flags, pos := parseFlags(&p, inv, mergeFlags, inv.args[2:])
			if _, ok := flags["o"]; !ok {
				p.add("%s: difffuzz corpus merge without -o", inv.where)
			}
			if len(pos) == 0 {
				p.add("%s: difffuzz corpus merge without a DIR to merge", inv.where)
			}
		case "replay":
			counts["replay"]++
			parseFlags(&p, inv, replayFlags, inv.args[1:])
		default:
			p.add("%s: difffuzz %s: not a subcommand these files should run", inv.where, sub)
		}
	}
	return fmt.Sprintf("%d command lines (%d run, %d corpus merge, %d replay) match the flags of %s",
		len(r.invocations), counts["run"], counts["corpus merge"], counts["replay"], r.cli), p
}

// parseFlags follows the flag package: flags until the first non-flag
// argument or "--"; "-name=value" or "-name value" for a flag with a value.
// It returns the last value of each flag (a repeated flag wins) and the
// positional arguments.
func parseFlags(p *problems, inv invocation, known cliFlags, args []word) (map[string]word, []word) {
	got := map[string]word{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.text == "--" {
			return got, args[i+1:]
		}
		if !strings.HasPrefix(a.text, "-") || a.text == "-" {
			return got, args[i:]
		}
		name := strings.TrimLeft(a.text, "-")
		name, value, hasValue := strings.Cut(name, "=")
		takesValue, ok := known[name]
		switch {
		case !ok:
			p.add("%s: unknown flag -%s", inv.where, name)
		case takesValue && !hasValue:
			if i+1 >= len(args) {
				p.add("%s: flag -%s needs a value", inv.where, name)
				continue
			}
			i++
			got[name] = args[i]
		case takesValue:
			got[name] = word{text: value, literal: a.literal}
		default:
			got[name] = lit("true")
		}
	}
	return got, nil
}

// checkValues checks the literal values of difffuzz run's flags.
func checkValues(p *problems, inv invocation, flags map[string]word) {
	for name, v := range flags {
		if !v.literal {
			continue
		}
		var err error
		switch name {
		case "duration", "minimize-time", "timeout", "case-timeout":
			_, err = time.ParseDuration(v.text)
		case "seed":
			_, err = strconv.ParseUint(v.text, 0, 64)
		case "cases":
			_, err = strconv.ParseUint(v.text, 10, 64)
		case "batch", "workers", "max-depth", "max-width":
			_, err = strconv.Atoi(v.text)
		case "shard":
			_, _, err = parseShard(v.text)
		}
		if err != nil {
			p.add("%s: -%s %q: %v", inv.where, name, v.text, err)
		}
	}
}

// parseShard reads "I/N" as difffuzz does.
func parseShard(s string) (uint64, uint64, error) {
	is, ns, ok := strings.Cut(s, "/")
	i, err1 := strconv.ParseUint(is, 10, 64)
	n, err2 := strconv.ParseUint(ns, 10, 64)
	if !ok || err1 != nil || err2 != nil || n == 0 || i >= n {
		return 0, 0, fmt.Errorf("want I/N with 0 <= I < N")
	}
	return i, n, nil
}

func texts(ws []word) string {
	var s []string
	for _, w := range ws {
		s = append(s, strconv.Quote(w.text))
	}
	return strings.Join(s, " ")
}

// flagValue returns the last value of -name in args, or false. It looks at
// every argument before "--", so it needs no flag set: a flag's value is the
// argument after it, or what follows "=".
func flagValue(args []word, name string) (word, bool) {
	var got word
	found := false
	for i := 0; i < len(args); i++ {
		a := args[i].text
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		n, v, has := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if n != name {
			continue
		}
		switch {
		case has:
			got, found = word{text: v, literal: args[i].literal}, true
		case i+1 < len(args):
			got, found = args[i+1], true
			i++
		}
	}
	return got, found
}
