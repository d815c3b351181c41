package survey

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/difffuzz/difffuzz/internal/atomicfile"
)

// Paths are the files a survey writes; "" skips one.
type Paths struct {
	Markdown string // docs/survey.md
	SVG      string // docs/survey.svg, shown at the top of the page
	JSON     string // out/survey.json
}

// Write renders r to every path, each file replaced atomically, so that an
// interrupted survey never leaves a torn page. Errors are collected.
func Write(r *Result, p Paths) error {
	var errs []error
	put := func(path string, render func(*bytes.Buffer) error) {
		if path == "" {
			return
		}
		var buf bytes.Buffer
		err := render(&buf)
		if err == nil {
			err = atomicfile.WriteAll(path, buf.Bytes())
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("survey: %s: %w", path, err))
		}
	}
	put(p.JSON, func(b *bytes.Buffer) error { return WriteJSON(b, r) })
	put(p.SVG, func(b *bytes.Buffer) error { WriteSVG(b, r); return nil })
	put(p.Markdown, func(b *bytes.Buffer) error { return WriteMarkdown(b, r, svgLink(p)) })
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return nil
}

// svgLink is the picture's path as the page links it.
func svgLink(p Paths) string {
	if p.SVG == "" {
		return ""
	}
	rel, err := filepath.Rel(filepath.Dir(p.Markdown), p.SVG)
	if err != nil {
		return p.SVG
	}
	return filepath.ToSlash(rel)
}
