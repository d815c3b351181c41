package survey

import (
	"context"
	"fmt"

	"github.com/difffuzz/difffuzz/harness/panel"
	"github.com/difffuzz/difffuzz/value"
)

// minimizeAll shrinks the first example of each of lr's divergences, within
// cfg.MinimizeTime each, and records both answers to the result.
func minimizeAll(ctx context.Context, cfg Config, l *panel.Panel, lr *Library) {
	lr.sortDivergences()
	for _, d := range lr.Divergences {
		d.Original = text(d.first)
		input := d.first
		if cfg.MinimizeTime > 0 {
			if m, err := minimizeOne(ctx, cfg, l, d); err != nil {
				d.Note = err.Error()
				fmt.Fprintf(cfg.Stderr, "survey: %s: minimize %s: %v\n", lr.Name, d.Signature, err)
			} else {
				input, d.Rounds, d.Minimized = m.Input, m.Rounds, m.Minimal
			}
		}
		d.Input = text(input)
		js, err := l.Judge(context.WithoutCancel(ctx), []any{input})
		if err != nil {
			d.Note = fmt.Sprintf("could not run the example again: %v", err)
			continue
		}
		d.Reference, d.Library = answer(js[0].Outs[0]), answer(js[0].Outs[1])
	}
}

// minimizeOne shrinks d's first example while it keeps d's signature, on
// the lane, as a fuzzing run minimizes a bucket's.
func minimizeOne(ctx context.Context, cfg Config, l *panel.Panel, d *Divergence) (*panel.Minimized, error) {
	mctx, cancel := context.WithTimeout(ctx, cfg.MinimizeTime)
	defer cancel()
	m, err := l.Minimize(mctx, d.first, d.Signature)
	if err != nil {
		return nil, fmt.Errorf("minimize: %w", err)
	}
	return m, nil
}

// text is a value in extended JSON, as a bug report writes it.
func text(v any) string { return string(value.AppendText(nil, v)) }
