package panel

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"testing"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/adapter"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/probe"
	"github.com/difffuzz/difffuzz/kits/go/wire"
	"github.com/difffuzz/difffuzz/value"

	_ "github.com/difffuzz/difffuzz/harness/inprocess" // the reference
)

// spoiled is the reference with bugs planted in its text: each of its
// results has every old text of spoil replaced by the new, and crashes
// fails a batch holding a case whose text holds it, as a worker that dies.
type spoiled struct {
	adapter.Adapter
	name    string
	spoil   *strings.Replacer
	crashes string
	// accepts are the error codes of the reference's that sdk answers
	// with one text instead, as an SDK that does not keep those rules.
	accepts []string
	batches int
}

func (s *spoiled) Name() string { return s.name }

func (s *spoiled) RunBatch(ctx context.Context, b *adapter.Batch, out []wire.Result) error {
	s.batches++
	if err := s.Adapter.RunBatch(ctx, b, out); err != nil {
		return err
	}
	for i := range b.Cases {
		if s.crashes != "" && strings.Contains(string(out[i].Canonical), s.crashes) {
			return &adapter.Failure{Adapter: s.name, Kind: adapter.Crash, Err: errContains(s.crashes)}
		}
		if slices.Contains(s.accepts, out[i].Error) {
			out[i] = wire.Result{Canonical: []byte(`{"args":{},"tool_name":"b"}`)}
		}
		if out[i].Canonical != nil && s.spoil != nil {
			out[i].Canonical = []byte(s.spoil.Replace(string(out[i].Canonical)))
			d := blake3.Sum256(out[i].Canonical)
			out[i].Digest = d[:]
		}
	}
	return nil
}

type errContains string

func (e errContains) Error() string { return "crashed on a text holding " + string(e) }

// familyLane is the reference and one spoiled copy of it, sdk.
func familyLane(t *testing.T, sdk *spoiled, log *syncBuffer) *Panel {
	t.Helper()
	ref, err := adapter.NewInProcess("go")
	if err != nil {
		t.Fatal(err)
	}
	impl, err := adapter.NewInProcess("go")
	if err != nil {
		t.Fatal(err)
	}
	sdk.Adapter = impl
	return newLane(0, log, &namedAdapter{ref, "reference"}, sdk)
}

type namedAdapter struct {
	adapter.Adapter
	name string
}

func (n *namedAdapter) Name() string { return n.name }

// A bucket of the float-formatting family is named by the formatter's
// profile, measured once; a shape no probe shows keeps its label, as does
// a kind of no family.
func TestFamily(t *testing.T) {
	log := &syncBuffer{}
	sdk := &spoiled{name: "sdk", spoil: strings.NewReplacer(`:0.1}`, `:0.10000000000000001}`, `{"":0}`, `{"":-0}`, `:Infinity}`, `:+Inf}`)}
	l := familyLane(t, sdk, log)
	defer l.Close()
	ctx := context.Background()
	float := probe.Cases(probe.Floats)[0].Input()
	family := "number: floats formatted otherwise: 0.1 as 0.10000000000000001, -0.0 as -0, Infinity as +Inf: sdk"
	for _, tt := range []struct{ sig, want string }{
		{"number: -0 written with its sign (want 0): sdk", family},
		{"number: a non-finite number written as a number JSON lacks: sdk", family},
		{"number: not the shortest digits that round-trip: sdk", family},
		{"number: an integer with other digits: sdk", "number: an integer with other digits: sdk"},
		{"structure: a member dropped: sdk", "structure: a member dropped: sdk"},
	} {
		if got := l.Family(ctx, compare.MustParseSignature(tt.sig), float); got.String() != tt.want {
			t.Errorf("Family(%s) = %s, want %s", tt.sig, got, tt.want)
		}
	}
	// An integer's digits are not the float formatter's.
	sig := compare.MustParseSignature("number: not the shortest digits that round-trip: sdk")
	if got := l.Family(ctx, sig, value.Object{{Key: "a", Value: int64(7)}}); !got.Equal(sig) {
		t.Errorf("Family(%s) of an input without a float = %s, want it kept", sig, got)
	}
	if sdk.batches != 1 {
		t.Errorf("the float probes ran in %d batches, want 1: a family is probed once a panel", sdk.batches)
	}
	// The string escaper is right: its shapes keep their labels.
	sig = compare.MustParseSignature(`string_escape: U+007F written raw (want \u007f): sdk`)
	if got := l.Family(ctx, sig, float); !got.Equal(sig) {
		t.Errorf("Family(%s) = %s with a right escaper", sig, got)
	}
}

// The reference spells every probe as the probe package's tests expect,
// in the text around the probed value that Spelling reads.
func TestProbesThroughReference(t *testing.T) {
	sdk := &spoiled{name: "sdk", spoil: strings.NewReplacer()}
	l := familyLane(t, sdk, &syncBuffer{})
	defer l.Close()
	for _, f := range []probe.Family{probe.Floats, probe.Strings, probe.KeyOrder} {
		js, err := l.Judge(context.Background(), probe.Inputs(f))
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range probe.Cases(f) {
			if _, ok := c.Spelling(js[i].Outs[0].Canonical); !ok || !js[i].Verdict.Agree {
				t.Errorf("probe %s (key %v): the reference wrote %s, not the probe's fixed text around a spelling", c.Name, c.Key, js[i].Outs[0].Canonical)
			}
		}
	}
}

// A worker that crashes on a probe keeps its buckets' labels, and the panel
// says so.
func TestFamilyProbeCrash(t *testing.T) {
	log := &syncBuffer{}
	sdk := &spoiled{name: "sdk", spoil: strings.NewReplacer(`{"":0}`, `{"":-0}`), crashes: "Infinity"}
	l := familyLane(t, sdk, log)
	defer l.Close()
	sig := compare.MustParseSignature("number: -0 written with its sign (want 0): sdk")
	if got := l.Family(context.Background(), sig, probe.Cases(probe.Floats)[0].Input()); !got.Equal(sig) {
		t.Errorf("Family(%s) = %s after a crash on a probe, want it kept", sig, got)
	}
	if !strings.Contains(log.String(), "keep the labels their examples show") {
		t.Errorf("the panel did not say its probes failed: %q", log.String())
	}
}

// envelope is a valid input whose args hold keys, each 0, in their order.
func envelope(keys ...string) value.Object {
	args := value.Object{}
	for _, k := range keys {
		args = append(args, value.Member{Key: k, Value: int64(0)})
	}
	return value.Object{{Key: "tool_name", Value: ""}, {Key: "args", Value: args}}
}

// A key_order bucket is named by the one order of the implementation's
// profile its example is in; by the profile's one order, when it has one,
// without judging the example again.
func TestFamilyKeyOrder(t *testing.T) {
	const (
		escaped = "keys sorted by their escaped text"
		js      = "integer-like keys first (JavaScript property order)"
	)
	bsZero, astral := envelope("\b", "0"), envelope("\uf8ff", "\U0001F4A9")
	for _, tt := range []struct {
		name   string
		spoil  *strings.Replacer
		sig    string
		input  value.Object
		want   string
		judged int // batches: the probes', and the example's judged again
	}{
		// ts-stringify: a JavaScript object's keys sorted by UTF-16 units.
		{"integer-like first", jsObject, "key_order: " + escaped + ": sdk", bsZero, "key_order: " + js + ": sdk", 2},
		{"UTF-16", jsObject, "key_order: keys out of order: sdk", astral, "key_order: keys in UTF-16 order: sdk", 2},
		// serde_jcs: keys sorted as written, escapes and all.
		{"one order", escapedText, "key_order: " + js + ": sdk", bsZero, "key_order: " + escaped + ": sdk", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sdk := &spoiled{name: "sdk", spoil: tt.spoil}
			l := familyLane(t, sdk, &syncBuffer{})
			defer l.Close()
			if got := l.Family(context.Background(), compare.MustParseSignature(tt.sig), tt.input); got.String() != tt.want {
				t.Errorf("Family(%s) = %s, want %s", tt.sig, got, tt.want)
			}
			if sdk.batches != tt.judged {
				t.Errorf("%d batches, want %d", sdk.batches, tt.judged)
			}
		})
	}
}

// Key writers, as the reference's texts of the probes and examples of
// TestFamilyKeyOrder rewritten.
var (
	jsObject = strings.NewReplacer(
		`{"\uf8ff":0,"\ud83d\udca9":0}`, `{"\ud83d\udca9":0,"\uf8ff":0}`,
		`{"10":0,"9":0}`, `{"9":0,"10":0}`,
		`{"!":0,"0":0}`, `{"0":0,"!":0}`,
		`{"\b":0,"0":0}`, `{"0":0,"\b":0}`)
	escapedText = strings.NewReplacer(
		`{"\uf8ff":0,"\ud83d\udca9":0}`, `{"\ud83d\udca9":0,"\uf8ff":0}`,
		`{"\b":0,"A":0}`, `{"A":0,"\b":0}`,
		`{"\"":0,"A":0}`, `{"A":0,"\"":0}`,
		`{"\b":0,"0":0}`, `{"0":0,"\b":0}`)
)

// A collision is named by its implementation's defect: where its deviation
// on one case names it, or, when it deviates on both and the pair is named
// by where the reference's texts differ, where one defect explains both.
func TestCollisionLabel(t *testing.T) {
	e400, two, thr := "1"+zeros400, "2"+zeros400, "3"+zeros400
	// Integers through a double: past the doubles, JSON.stringify's null.
	sdk := &spoiled{name: "sdk", spoil: strings.NewReplacer(e400, "null", two, "null", thr, "null",
		"18446744073709551617", "18446744073709552000")}
	l := familyLane(t, sdk, &syncBuffer{})
	defer l.Close()
	a, b := bigEnvelope(t, two), bigEnvelope(t, thr)
	js, err := l.Judge(context.Background(), []any{a, b})
	if err != nil {
		t.Fatal(err)
	}
	plain, ok := compare.CollisionSignature("sdk", js[0].Outs[0], js[1].Outs[0], js[0].Outs[1], js[0].Signatures, js[1].Signatures)
	if !ok || plain.Kind != compare.KindCollision || strings.HasPrefix(plain.Cause, "integers past") {
		t.Fatalf("the pair's own signature %s: the test sees nothing", plain)
	}
	got, ok := l.CollisionLabel(context.Background(), 1, a, b, js[0], js[1])
	want := "collision: integers past 2^53 written otherwise: 2^64+1 as 18446744073709552000, 10^400 as null: sdk"
	if !ok || got.String() != want {
		t.Errorf("CollisionLabel = %s, %v; want %s (the pair's own: %s)", got, ok, want, plain)
	}
	if _, ok := l.CollisionLabel(context.Background(), 1, a, a, js[0], js[0]); ok {
		t.Error("one case with itself: a collision")
	}
}

var zeros400 = strings.Repeat("0", 400)

// bigEnvelope is {"tool_name":"","args":{"":N}} for the integer digits.
func bigEnvelope(t *testing.T, digits string) value.Object {
	t.Helper()
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		t.Fatalf("bad integer %s", digits)
	}
	return value.Object{{Key: "tool_name", Value: ""}, {Key: "args", Value: value.Object{{Key: "", Value: n}}}}
}

// An acceptance of input out of the domain twice is named by the rule its
// implementation does not keep: a repeated key whose first value holds a
// lone surrogate, accepted by an SDK that keeps the last of a repeated key
// and rejects lone surrogates, is its duplicate key's.
func TestFamilyDomain(t *testing.T) {
	twice, err := value.Parse([]byte(`{"tool_name":"b","args":"\udc00","args":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	const named = "rejection: accepts out-of-domain input (want lone_surrogate): sdk"
	for _, tt := range []struct {
		name    string
		accepts []string
		want    string
	}{
		{"last key wins", []string{"duplicate_key"}, "rejection: accepts out-of-domain input (want duplicate_key): sdk"},
		{"lone surrogates too", []string{"duplicate_key", "lone_surrogate"}, named},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := familyLane(t, &spoiled{name: "sdk", accepts: tt.accepts}, &syncBuffer{})
			defer l.Close()
			if got := l.Family(context.Background(), compare.MustParseSignature(named), twice); got.String() != tt.want {
				t.Errorf("Family = %s, want %s", got, tt.want)
			}
		})
	}
}

// The domain family names the rule under rfc8785 too: the rules it reads
// are every contract's.
func TestFamilyDomainUnderRFC8785(t *testing.T) {
	twice, err := value.Parse([]byte(`{"tool_name":"b","args":"\udc00","args":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := adapter.NewInProcessFor("go", contract.RFC8785)
	if err != nil {
		t.Fatal(err)
	}
	impl, err := adapter.NewInProcessFor("go", contract.RFC8785)
	if err != nil {
		t.Fatal(err)
	}
	l := newLane(0, &syncBuffer{}, &namedAdapter{ref, "reference"}, &spoiled{Adapter: impl, name: "sdk", accepts: []string{"duplicate_key"}})
	defer l.Close()
	l.JudgeBy(contract.RFC8785)
	named := compare.MustParseSignature("rejection: accepts out-of-domain input (want lone_surrogate): sdk")
	if got, want := l.Family(context.Background(), named, twice).String(), "rejection: accepts out-of-domain input (want duplicate_key): sdk"; got != want {
		t.Errorf("Family = %s, want %s", got, want)
	}
}

// A collision named where the reference's texts differ, past a context
// both cases share and the SDK writes wrong alike, names nothing the SDK
// did: its pair is shrunk keeping only the collision, which drops the
// context, and then named by what the small pair shows.
func TestMinimizePairOwnCause(t *testing.T) {
	// An SDK that drops a __proto__ member (a JavaScript object) and
	// writes U+0080 raw.
	sdk := &spoiled{name: "sdk", spoil: strings.NewReplacer(
		`,"__proto__":{"\"":0}`, "", `,"__proto__":{"":0}`, "",
		`"__proto__":{"\"":0},`, "", `"__proto__":{"":0},`, "",
		`{"__proto__":{"\"":0}}`, "{}", `{"__proto__":{"":0}}`, "{}",
		`\u0080`, "\u0080")}
	l := familyLane(t, sdk, &syncBuffer{})
	defer l.Close()
	parse := func(s string) any {
		v, err := value.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	a := parse(`{"tool_name":"","args":{"":{"\u0080":0},"__proto__":{"\"":0}}}`)
	b := parse(`{"tool_name":"","args":{"":{"\u0080":0},"__proto__":{"":0}}}`)
	js, err := l.Judge(context.Background(), []any{a, b})
	if err != nil {
		t.Fatal(err)
	}
	kept, ok := compare.CollisionSignature("sdk", js[0].Outs[0], js[1].Outs[0], js[0].Outs[1], js[0].Signatures, js[1].Signatures)
	if !ok || l.ownCause(context.Background(), a, b, 1, kept) {
		t.Fatalf("the pair's own signature %s (%v) is one of the SDK's deviations: the test sees nothing", kept, ok)
	}
	m, err := l.MinimizePair(context.Background(), a, b, 1, kept)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := l.CollisionLabel(context.Background(), 1, m.A, m.B, m.JA, m.JB)
	if want := "collision: a member `__proto__` dropped: sdk"; !ok || got.String() != want {
		t.Errorf("minimized to %s and %s, labelled %s; want %s", value.AppendText(nil, m.A), value.AppendText(nil, m.B), got, want)
	}
}
