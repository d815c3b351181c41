package probe

import (
	"strings"
	"testing"
	"unicode/utf8"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/value"
)

// refSpelling is the reference's spelling of each probe under this
// project's contract (docs/canonical-json.md), by name and key; the lane's
// test holds the in-process reference to it.
var refSpelling = map[string]string{
	"0.1": "0.1", "1e-7": "1e-7", "1e-8": "1e-8", "0.00001": "0.00001", "1e20": "100000000000000000000",
	"1e21": "1e+21", "1e23": "1e+23", "1.0": "1", "2^60": "1152921504606847000",
	"49812407423580900.0": "49812407423580900", "5e-324": "5e-324", "-0.0": "0",
	"NaN": "NaN", "Infinity": "Infinity", "-Infinity": "-Infinity",
	"`\"`": `\"`, "`\\`": `\\`, "`/`": "/", "U+000A": `\n`, "U+0008": `\b`, "U+0001": `\u0001`,
	"U+0000": `\u0000`, "U+007F": `\u007f`, "U+0085": `\u0085`, "U+00E9": `\u00e9`, "U+2028": `\u2028`,
	"U+1F600": `\ud83d\ude00`,
}

// where names a probe's context in the test's tables.
func where(c Case) string {
	if c.Key {
		return "key " + c.Name
	}
	return c.Name
}

// text is an outcome writing spelling where c's value goes.
func text(c Case, spelling string) compare.Outcome {
	prefix, suffix := c.wrapping()
	t := []byte(prefix + spelling + suffix)
	d := blake3.Sum256(t)
	return compare.Outcome{Canonical: t, Digest: d[:]}
}

// outcomes are the reference's outcomes of f's probes, and an
// implementation's that spells the probes in wrong (by where) its way.
func outcomes(t *testing.T, f Family, wrong map[string]string) (ref, got []compare.Outcome) {
	t.Helper()
	for _, c := range Cases(f) {
		want, ok := refSpelling[c.Name]
		if !ok {
			t.Fatalf("no reference spelling of probe %s", c.Name)
		}
		ref = append(ref, text(c, want))
		if sp, ok := wrong[where(c)]; ok {
			got = append(got, text(c, sp))
			continue
		}
		got = append(got, text(c, want))
	}
	return ref, got
}

func TestProfileCause(t *testing.T) {
	for _, tt := range []struct {
		name   string
		family Family
		wrong  map[string]string
		kind   compare.Kind
		cause  string // "" for an empty profile
	}{
		{"right", Floats, nil, "", ""},
		{"one planted bug keeps its shape", Floats, map[string]string{"-0.0": "-0"},
			compare.KindNumber, "-0 written with its sign (want 0)"},
		{"%.17g", Floats, map[string]string{"0.1": "0.10000000000000001", "-0.0": "-0", "Infinity": "+Inf"},
			compare.KindNumber, "floats formatted otherwise: 0.1 as 0.10000000000000001, -0.0 as -0, Infinity as +Inf"},
		{"too many for their spellings", Floats, map[string]string{"0.1": "0.10000000000000001", "1e-7": "9.9999999999999995e-08",
			"0.00001": "1.0000000000000001e-05", "1e23": "9.9999999999999992e+22", "-0.0": "-0"},
			compare.KindNumber, "floats formatted otherwise: 0.1 as 0.10000000000000001, 1e-7 as 9.9999999999999995e-08, also 0.00001 1e23 -0.0"},
		// A class wrong in keys and values alike is its class's cause,
		// one bucket already, and two such classes are two causes.
		{"one class in keys and values", Strings, map[string]string{"U+007F": "\x7f", "key U+007F": "\x7f"}, "", ""},
		{"two classes in keys and values", Strings, map[string]string{"U+007F": "\x7f", "key U+007F": "\x7f", "U+00E9": "\u00e9", "key U+00E9": "\u00e9"}, "", ""},
		{"values only", Strings, map[string]string{"U+2028": "\u2028", "U+0001": `\x01`}, "", ""},
		{"one class in keys only keeps its shape", Strings, map[string]string{"key U+0001": "\x01"},
			compare.KindString, `a control character written raw (want \uXXXX)`},
		{"keys spliced raw", Strings, map[string]string{"key `\"`": `"`, "key U+0001": "\x01", "key U+007F": "\x7f", "U+007F": "\x7f"},
			compare.KindKeyEscape, "characters in keys written otherwise: `\"` U+0001 raw"},
		{"keys escaped otherwise", Strings, map[string]string{"key U+2028": "\u2028", "key U+0001": `\x01`, "key U+0000": `\x00`},
			compare.KindString, `characters in keys written otherwise: U+0001 as \x01, U+0000 as \x00, U+2028 raw`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ref, got := outcomes(t, tt.family, tt.wrong)
			p, err := Measure(tt.family, "sdk", ref, got)
			if err != nil {
				t.Fatal(err)
			}
			kind, cause, ok := p.Cause()
			if ok != (tt.cause != "") || kind != tt.kind || cause != tt.cause {
				t.Errorf("Cause() = %q, %q, %v; want %q, %q", kind, cause, ok, tt.kind, tt.cause)
			}
			if len(p.Wrong) != len(tt.wrong) { // every wrong probe is seen, the function's own or not
				t.Errorf("%d probes wrong, want %d: %+v", len(p.Wrong), len(tt.wrong), p.Wrong)
			}
		})
	}
}

// A family's cause fits a signature however much is wrong, and names one
// profile: every wrong probe with a long spelling.
func TestCauseFits(t *testing.T) {
	for _, f := range []Family{Floats, Strings} {
		wrong := map[string]string{}
		for _, c := range Cases(f) {
			if f == Floats || c.Key { // a key writer's own
				wrong[where(c)] = strings.Repeat("9", 40) + c.Name
			}
		}
		ref, got := outcomes(t, f, wrong)
		p, err := Measure(f, "sdk", ref, got)
		if err != nil {
			t.Fatal(err)
		}
		_, cause, ok := p.Cause()
		if !ok || len(cause) > compare.MaxCause || !utf8.ValidString(cause) || strings.ContainsAny(cause, "\n\r") || strings.Contains(cause, "; ") {
			t.Errorf("%s: cause %q (%d bytes) does not fit a signature", f, cause, len(cause))
		}
		var sig compare.Signature
		if err := sig.UnmarshalText([]byte("number: " + cause + ": sdk")); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestExplains(t *testing.T) {
	ref, got := outcomes(t, Strings, map[string]string{"key `\"`": `"`, "key U+0001": "\x01", "U+007F": "\x7f", "key U+007F": "\x7f", "U+00E9": "\u00e9"})
	p, err := Measure(Strings, "sdk", ref, got)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		sig  string
		want bool
	}{
		{`string_escape: a control character written raw (want \uXXXX): sdk`, true},
		// Wrong in values too: its class's own cause.
		{`string_escape: U+007F written raw (want \u007f): sdk`, false},
		{"key_escape: a `\"` in a key left unescaped: sdk", true},
		// One key writer that escapes nothing, whatever follows the quote.
		{"key_escape: a `\\` in a key written as printable ASCII: sdk", true},
		{"string_escape: a lone surrogate written as U+FFFD: sdk", false},
		{`string_escape: non-ASCII written raw (want \uXXXX): sdk`, false},
	} {
		if got := p.Explains(compare.MustParseSignature(tt.sig)); got != tt.want {
			t.Errorf("Explains(%s) = %v, want %v", tt.sig, got, tt.want)
		}
	}
}

// A probe that crashed the implementation tells nothing of its function.
func TestMeasureCrash(t *testing.T) {
	ref, got := outcomes(t, Floats, nil)
	got[3] = compare.Outcome{Failure: compare.FailCrash}
	if _, err := Measure(Floats, "sdk", ref, got); err == nil || !strings.Contains(err.Error(), "crash") {
		t.Errorf("Measure with a crash: err = %v, want one naming the crash", err)
	}
	if _, err := Measure(Floats, "sdk", ref[:2], got); err == nil {
		t.Error("Measure of too few outcomes: no error")
	}
}

func TestOf(t *testing.T) {
	for k, want := range map[compare.Kind]Family{
		compare.KindNumber: Floats, compare.KindString: Strings, compare.KindKeyEscape: Strings,
		compare.KindKeyOrder: KeyOrder, compare.KindStructure: "", compare.KindCollision: "", compare.KindRejection: "",
	} {
		if got := Of(k); got != want {
			t.Errorf("Of(%s) = %q, want %q", k, got, want)
		}
	}
}

func TestApplies(t *testing.T) {
	for _, tt := range []struct {
		f     Family
		input any
		want  bool
	}{
		{Floats, Cases(Floats)[0].Input(), true},
		{Floats, value.Object{{Key: "a", Value: []any{int64(1), value.RawObject{{Key: int64(2), Value: 0.5}}}}}, true},
		{Floats, value.Object{{Key: "a", Value: int64(12345678901234567)}}, false},
		{Strings, value.Object{{Key: "a", Value: int64(1)}}, true},
	} {
		if got := Applies(tt.f, tt.input); got != tt.want {
			t.Errorf("Applies(%s, %v) = %v, want %v", tt.f, tt.input, got, tt.want)
		}
	}
}
