package panel

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/probe"
	"github.com/difffuzz/difffuzz/value"
)

// ProbeTime bounds one family's probes through the panel: one batch of a
// few dozen small cases, which takes milliseconds unless a worker hangs.
const ProbeTime = 30 * time.Second

// profiles are one family's profiles in the panel, per adapter (the
// reference's empty), measured once; err says why they could not be.
type profiles struct {
	of  []probe.Profile
	bad []error // per adapter: its probes crashed or hung it
	err error   // the probes could not be run at all
}

// Family is sig, what input shows, named by its family's profile (package
// probe), the label of every bucket of the family in the implementations
// sig names. When sig's kind, shown by input, belongs to a family
// (probe.For), the family's probes run through the panel once (the
// profiles are kept for the panel's life), and when every
// implementation sig names has a profile that explains sig and their
// profiles give one cause, sig takes that cause. Otherwise sig is kept as
// it is: a shape no probe shows, implementations with other profiles, or
// probes that could not be run (a worker that crashed or hung on one, a
// lane that failed); the last is said once on the panel's log.
//
// A key_order sig is named otherwise (see keyOrder): by the one order of
// the implementation's profile that input is in; so is an acceptance of
// out-of-domain input (see domain): by the rule it does not keep.
func (l *Panel) Family(ctx context.Context, sig compare.Signature, input any) compare.Signature {
	f := probe.For(sig.Kind, input)
	if f == "" || f == probe.Domain && !l.domainApplies(sig) {
		return sig
	}
	ps := l.profilesOf(ctx, f)
	if ps.err != nil {
		return sig
	}
	switch f {
	case probe.KeyOrder:
		return l.keyOrder(ctx, sig, input, ps)
	case probe.Domain:
		return l.domain(sig, input, ps)
	}
	type label struct {
		kind  compare.Kind
		cause string
	}
	lb, ok := agreed(l, sig, ps, func(_ int, p probe.Profile) (label, bool) {
		k, c, ok := p.CauseOf(sig)
		return label{k, c}, ok
	})
	if !ok {
		return sig
	}
	return compare.Signature{Kind: lb.kind, Cause: lb.cause, Deviants: slices.Clone(sig.Deviants)}
}

// agreed is the one answer of every implementation sig names, each
// asked of its profile; ok is false when one has no profile (its probes
// failed), no answer, or another answer than the others.
func agreed[T comparable](l *Panel, sig compare.Signature, ps *profiles, answer func(ai int, p probe.Profile) (T, bool)) (T, bool) {
	var first T
	for i, name := range sig.Deviants {
		ai := slices.Index(l.names, name)
		if ai < 0 || ps.bad[ai] != nil {
			return first, false
		}
		a, ok := answer(ai, ps.of[ai])
		if !ok || i > 0 && a != first {
			return first, false
		}
		first = a
	}
	return first, len(sig.Deviants) > 0
}

// keyOrder is Family of a key_order sig, what input shows: each
// implementation sig names has its profile's order for it
// (probe.Profile.OrderCause), and when they all have the same, sig takes
// it. A profile of one order gives it whatever input is; one of several (a
// JavaScript object's integer-like keys first, its other keys by UTF-16
// units) gives the one input's keys are in, so input is judged again, once,
// for its texts.
func (l *Panel) keyOrder(ctx context.Context, sig compare.Signature, input any, ps *profiles) compare.Signature {
	var example *Judged
	cause, ok := agreed(l, sig, ps, func(ai int, p probe.Profile) (string, bool) {
		var ref, got []byte
		if len(p.Orders) > 1 {
			if example == nil {
				if example = l.judgeAgain(ctx, input); example == nil {
					return "", false
				}
			}
			ref, got = example.Outs[0].Canonical, example.Outs[ai].Canonical
		}
		return p.OrderCause(l.cmp.Contract(), ref, got)
	})
	if !ok {
		return sig
	}
	return compare.Signature{Kind: sig.Kind, Cause: cause, Deviants: slices.Clone(sig.Deviants)}
}

// domain is Family of an acceptance of out-of-domain input, what input
// shows: when input is out of the domain in several ways, and each
// implementation sig names rejects alone the way the reference named (its
// first) but accepts alone one other of them (probe.Profile.RuleBroken),
// sig is named by that one. The ways are read under this project's
// contract (value.Problems), which every contract shares (domainApplies).
func (l *Panel) domain(sig compare.Signature, input any, ps *profiles) compare.Signature {
	code, ok := agreed(l, sig, ps, func(_ int, p probe.Profile) (value.Code, bool) { return p.RuleBroken(sig, input) })
	if !ok {
		return sig
	}
	return compare.Accepting(sig.Kind, string(code), sig.Deviants)
}

// domainApplies reports whether the domain family may name sig: an
// acceptance of out-of-domain input. Any other rejection is not probed.
// Under any contract: the rules value.Problems walks (lone surrogates,
// repeated and non-string keys, values outside the model, nesting past
// 512) are every contract's, and a rule a contract drops (the envelope
// under rfc8785) names no probe the implementation is wrong on, so
// RuleBroken never names it; a rule only a contract adds (NaN under
// rfc8785) is not among the ways read, and leaves sig as it is.
func (l *Panel) domainApplies(sig compare.Signature) bool {
	_, ok := compare.AcceptedCode(sig)
	return ok
}

// judgeAgain is input judged through the panel, within ProbeTime as the
// probes are (see probeContext); nil when it cannot be.
func (l *Panel) judgeAgain(ctx context.Context, input any) *Judged {
	jctx, cancel, ok := probeContext(ctx)
	if !ok {
		return nil
	}
	defer cancel()
	js, err := l.Judge(jctx, []any{input})
	if err != nil || !js[0].Answered {
		return nil
	}
	return &js[0]
}

// probeContext is the context probes run in: ProbeTime whatever is left
// of ctx (a bucket's share of the minimization budget may be nearly
// spent), so that a bucket's label does not hang on when it was
// minimized. Not ok when ctx was interrupted (cancelled): then nothing
// is run.
func probeContext(ctx context.Context) (context.Context, context.CancelFunc, bool) {
	if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, nil, false
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ProbeTime)
	return pctx, cancel, true
}

// Families is Family of each of sigs, what input shows, two that become
// one merged.
func (l *Panel) Families(ctx context.Context, sigs []compare.Signature, input any) []compare.Signature {
	var out []compare.Signature
	for _, s := range sigs {
		s = l.Family(ctx, s, input)
		if i := slices.IndexFunc(out, func(t compare.Signature) bool { return t.Bucket() == s.Bucket() }); i >= 0 {
			out[i] = out[i].Merge(s)
			continue
		}
		out = append(out, s)
	}
	return out
}

// CollisionLabel is the collision implementation x shows between inputs a
// and b, judged ja and jb, as a bucket is labelled: named by x's deviation
// that names it (compare.CollisionSignature), or, when x deviates on both
// where the reference's texts differ and the collision is named by that
// place, by what x did to both; each read through its family's profile (Family), so
// that one formatter or key writer is one bucket whether it made two calls
// one or wrote one wrong (run's collision twins). ok is false when x no
// longer gives the two one digest.
func (l *Panel) CollisionLabel(ctx context.Context, x int, a, b any, ja, jb Judged) (compare.Signature, bool) {
	if !compare.Collides(ja.Outs[0], jb.Outs[0], ja.Outs[x], jb.Outs[x]) {
		return compare.Signature{}, false
	}
	sig, ok := compare.CollisionSignature(l.names[x], ja.Outs[0], jb.Outs[0], ja.Outs[x], ja.Signatures, jb.Signatures)
	if !ok {
		return sig, false
	}
	name := l.names[x]
	familyOf := func(s compare.Signature, input any) (compare.Signature, bool) {
		dev := compare.Signature{Kind: s.Kind, Cause: s.Cause, Deviants: []string{name}}
		f := l.Family(ctx, dev, input)
		return f, f.Bucket() != dev.Bucket()
	}
	named := func(cause string) compare.Signature {
		return compare.Signature{Kind: compare.KindCollision, Cause: cause, Deviants: sig.Deviants}
	}
	da, db := compare.DeviationOf(name, ja.Signatures), compare.DeviationOf(name, jb.Signatures)
	for _, d := range []struct {
		s     *compare.Signature
		input any
	}{{da, a}, {db, b}} {
		if d.s == nil || d.s.Cause != sig.Cause {
			continue
		}
		if f, ok := familyOf(*d.s, d.input); ok {
			return named(f.Cause), true
		}
		return sig, true
	}
	if da != nil && db != nil && compare.AtMerge(ja.Outs[0], jb.Outs[0], ja.Outs[x]) {
		fa, oka := familyOf(*da, a)
		fb, okb := familyOf(*db, b)
		if oka && okb && fa.Bucket() == fb.Bucket() {
			return named(fa.Cause), true
		}
	}
	return sig, true
}

// profilesOf measures family f's profiles of the panel's implementations,
// once. The probes run in probeContext: only an interruption (ctx
// cancelled) stops them, and then nothing is kept.
func (l *Panel) profilesOf(ctx context.Context, f probe.Family) *profiles {
	if ps, ok := l.families[f]; ok {
		return ps
	}
	pctx, cancel, ok := probeContext(ctx)
	if !ok {
		return &profiles{err: ctx.Err()}
	}
	defer cancel()
	ps := l.measure(pctx, f)
	if l.families == nil {
		l.families = map[probe.Family]*profiles{}
	}
	l.families[f] = ps
	l.sayFailed(f, ps)
	return ps
}

// measure runs family f's probes through the panel and reads each
// implementation's profile.
func (l *Panel) measure(ctx context.Context, f probe.Family) *profiles {
	ps := &profiles{of: make([]probe.Profile, len(l.names)), bad: make([]error, len(l.names))}
	js, err := l.Judge(ctx, probe.Inputs(f))
	if err != nil {
		ps.err = fmt.Errorf("probing %s: %w", f, err)
		return ps
	}
	ref := make([]compare.Outcome, len(js))
	for i, j := range js {
		if !j.Answered {
			for ai := 1; ai < len(l.names); ai++ {
				ps.bad[ai] = fmt.Errorf("probing %s: a worker broke the protocol on a probe", f)
			}
			return ps
		}
		ref[i] = j.Outs[0]
	}
	for ai := 1; ai < len(l.names); ai++ {
		got := make([]compare.Outcome, len(js))
		for i, j := range js {
			got[i] = j.Outs[ai]
		}
		ps.of[ai], ps.bad[ai] = probe.Measure(l.cmp.Contract(), f, l.names[ai], ref, got)
	}
	return ps
}

// sayFailed says on the panel's log that f's buckets keep the labels their
// examples show, where the probes could not be run.
func (l *Panel) sayFailed(f probe.Family, ps *profiles) {
	if l.log == nil {
		return
	}
	if ps.err != nil {
		fmt.Fprintf(l.log, "difffuzz: %v: the %s buckets keep the labels their examples show\n", ps.err, f)
		return
	}
	for ai, err := range ps.bad {
		if err != nil {
			fmt.Fprintf(l.log, "difffuzz: %v: %s's %s buckets keep the labels their examples show\n", err, l.names[ai], f)
		}
	}
}
