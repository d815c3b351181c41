package main

import "strings"

// allowed reports whether an SPDX license expression is satisfied by the
// allowed ids: OR needs one side, AND both; "a WITH exception" counts as a;
// the old Cargo form "MIT/Apache-2.0" is an OR. An empty or malformed
// expression is not allowed.
func allowed(expr string, allow map[string]bool) bool {
	p := &spdxParser{toks: tokens(strings.ReplaceAll(expr, "/", " OR ")), allow: allow}
	ok, good := p.or()
	return good && p.i == len(p.toks) && ok
}

func tokens(s string) []string {
	s = strings.ReplaceAll(s, "(", " ( ")
	s = strings.ReplaceAll(s, ")", " ) ")
	return strings.Fields(s)
}

type spdxParser struct {
	toks  []string
	i     int
	allow map[string]bool
}

func (p *spdxParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

// or parses "and (OR and)*"; good is false on a syntax error.
func (p *spdxParser) or() (ok, good bool) {
	ok, good = p.and()
	for good && strings.EqualFold(p.peek(), "OR") {
		p.i++
		var r bool
		r, good = p.and()
		ok = ok || r
	}
	return ok, good
}

func (p *spdxParser) and() (ok, good bool) {
	ok, good = p.term()
	for good && strings.EqualFold(p.peek(), "AND") {
		p.i++
		var r bool
		r, good = p.term()
		ok = ok && r
	}
	return ok, good
}

func (p *spdxParser) term() (ok, good bool) {
	t := p.peek()
	switch {
	case t == "(":
		p.i++
		ok, good = p.or()
		if !good || p.peek() != ")" {
			return false, false
		}
		p.i++
	case t == "" || t == ")" || strings.EqualFold(t, "OR") || strings.EqualFold(t, "AND") || strings.EqualFold(t, "WITH"):
		return false, false
	default:
		p.i++
		ok, good = p.allow[strings.TrimSuffix(t, "+")], true
	}
	if strings.EqualFold(p.peek(), "WITH") {
		p.i += 2
		if p.i > len(p.toks) {
			return false, false
		}
	}
	return ok, good
}

// normalize turns the free-form license names of older package metadata into
// SPDX ids; an SPDX expression passes through.
func normalize(s string) string {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "apache 2.0", "apache-2", "apache 2", "apache license 2.0", "apache license, version 2.0", "apache software license", "apache":
		return "Apache-2.0"
	case "mit license", "mit":
		return "MIT"
	case "bsd license", "new bsd license", "bsd 3-clause", "3-clause bsd license":
		return "BSD-3-Clause"
	case "isc license (iscl)", "isc license":
		return "ISC"
	}
	return s
}

// classify names the license of a license file's text, or "".
func classify(text string) string {
	t := strings.Join(strings.Fields(text), " ")
	has := func(s string) bool { return strings.Contains(t, s) }
	switch {
	case has("GNU GENERAL PUBLIC LICENSE"), has("GNU LESSER GENERAL PUBLIC"), has("GNU AFFERO"):
		return "GPL-family"
	case has("Mozilla Public License"):
		return "MPL-2.0"
	case has("Apache License") && has("Version 2.0"):
		return "Apache-2.0"
	case has("Permission is hereby granted, free of charge"):
		return "MIT"
	case has("Redistribution and use in source and binary forms"):
		if has("Neither the name") || has("names of its contributors") || has("name of the copyright holder") {
			return "BSD-3-Clause"
		}
		return "BSD-2-Clause"
	case has("Permission to use, copy, modify, and/or distribute"), has("Permission to use, copy, modify, and distribute this software for any purpose"):
		return "ISC"
	case has("Creative Commons Attribution 4.0 International"):
		return "CC-BY-4.0"
	case has("CC0 1.0 Universal"):
		return "CC0-1.0"
	case has("This is free and unencumbered software released into the public domain"):
		return "Unlicense"
	}
	return ""
}
