package survey

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/difffuzz/difffuzz/harness/minimize"
	"github.com/difffuzz/difffuzz/value"
)

// minimizeAll shrinks the first example of each of lr's divergences, within
// cfg.MinimizeTime each, and records both answers to the result.
func minimizeAll(ctx context.Context, cfg Config, p *pair, lr *Library) {
	lr.sortDivergences()
	for _, d := range lr.Divergences {
		d.Original = text(d.first)
		input := d.first
		if cfg.MinimizeTime > 0 {
			v, err := minimizeOne(ctx, cfg, p, d)
			if err != nil {
				d.Note = err.Error()
				fmt.Fprintf(cfg.Stderr, "survey: %s: minimize %s: %v\n", lr.Name, d.Signature, err)
			}
			if v != nil {
				input = v
			}
		}
		d.Input = text(input)
		js, err := p.judge(context.WithoutCancel(ctx), []any{input})
		if err != nil {
			d.Note = fmt.Sprintf("could not run the example again: %v", err)
			continue
		}
		d.Reference, d.Library = answer(js[0].outs[0]), answer(js[0].outs[1])
	}
}

// minimizeOne shrinks d's first example while it keeps d's signature.
func minimizeOne(ctx context.Context, cfg Config, p *pair, d *Divergence) (any, error) {
	mctx, cancel := context.WithTimeout(ctx, cfg.MinimizeTime)
	defer cancel()
	fails := func(ctx context.Context, cands []any) ([]bool, error) {
		js, err := p.judge(ctx, cands)
		if err != nil {
			return nil, err
		}
		res := make([]bool, len(js))
		for i, j := range js {
			res[i] = slices.Contains(j.sigs, d.Signature)
		}
		return res, nil
	}
	v, st, err := minimize.Minimize(mctx, d.first, fails, minimize.Options{})
	d.Rounds, d.Minimized = st.Rounds, st.Minimal
	switch {
	case err == nil, errors.Is(err, context.DeadlineExceeded):
		return v, nil
	case errors.Is(err, minimize.ErrNotReproducible):
		return nil, fmt.Errorf("not reproducible: the example no longer shows %q", d.Signature)
	}
	return v, fmt.Errorf("minimize: %w", err)
}

// text is a value in extended JSON, as a bug report writes it.
func text(v any) string { return string(value.AppendText(nil, v)) }
