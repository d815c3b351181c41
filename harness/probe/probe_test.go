package probe

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"lukechampine.com/blake3"

	"github.com/difffuzz/difffuzz/contract"
	"github.com/difffuzz/difffuzz/harness/compare"
	"github.com/difffuzz/difffuzz/harness/jsontext"
	"github.com/difffuzz/difffuzz/value"
)

// refSpelling is the reference's spelling of each probe under this
// project's contract (docs/canonical-json.md), by name and key; the lane's
// test holds the in-process reference to it.
var refSpelling = map[string]string{
	"0.1": "0.1", "1e-7": "1e-7", "1e-8": "1e-8", "0.00001": "0.00001", "1e20": "100000000000000000000",
	"1e21": "1e+21", "1e23": "1e+23", "1743639072792995.2": "1743639072792995.2", "3728.8897006372813": "3728.8897006372813", "1.0": "1",
	"2^53+2": "9007199254740994", "2^60": "1152921504606847000",
	"49812407423580900.0": "49812407423580900", "5e-324": "5e-324", "-0.0": "0",
	"NaN": "NaN", "Infinity": "Infinity", "-Infinity": "-Infinity",
	"`\"`": `\"`, "`\\`": `\\`, "`/`": "/", "U+000A": `\n`, "U+0008": `\b`, "U+0001": `\u0001`,
	"U+0000": `\u0000`, "U+007F": `\u007f`, "U+0085": `\u0085`, "U+00E9": `\u00e9`, "U+2028": `\u2028`,
	"U+1F600": `\ud83d\ude00`,
	"2^53+1":  "9007199254740993", "2^64+1": "18446744073709551617", "-2^63-1": "-9223372036854775809",
	"10^21+1": "1000000000000000000001", "10^400": "1" + strings.Repeat("0", 400),
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

// echo, as a wrong spelling, is the one the probe's text gives its value.
const echo = "ECHO"

// echoed is the token the text of float probe name, as a text worker gets
// it (package jsontext), spells its value with: the text's last member.
func echoed(t *testing.T, name string) string {
	t.Helper()
	for _, c := range Cases(Floats) {
		if c.Name != name {
			continue
		}
		text, err := jsontext.Append(nil, c.Input())
		if err != nil {
			t.Fatal(err)
		}
		s := string(text)
		return strings.Trim(s[strings.LastIndexByte(s, ':')+1:], " \t\r\n}")
	}
	t.Fatalf("no float probe %s", name)
	return ""
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
			if sp == echo {
				sp = echoed(t, c.Name)
			}
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
		want   []string // each defect's "kind: cause"
	}{
		{"right", Floats, nil, nil},
		{"one planted bug keeps its shape", Floats, map[string]string{"-0.0": "-0"},
			[]string{"number: -0 written with its sign (want 0)"}},
		{"%.17g", Floats, map[string]string{"0.1": "0.10000000000000001", "-0.0": "-0", "Infinity": "+Inf"},
			[]string{"number: floats formatted otherwise: 0.1 as 0.10000000000000001, -0.0 as -0, Infinity as +Inf"}},
		{"too many for their spellings", Floats, map[string]string{"0.1": "0.10000000000000001", "1e-7": "9.9999999999999995e-08",
			"0.00001": "1.0000000000000001e-05", "1e23": "9.9999999999999992e+22", "-0.0": "-0"},
			[]string{"number: floats formatted otherwise: 0.1 as 0.10000000000000001, 1e-7 as 9.9999999999999995e-08, also 0.00001 1e23 -0.0"}},
		// A parser that reads 17 digits as a neighbour: another value, not
		// another spelling, is the defect of its own.
		{"lost precision", Floats, map[string]string{"3728.8897006372813": "3728.8897006372817", "1e-7": "1e-07"},
			[]string{"number: an exponent spelled otherwise (with leading zeros)", "number: a number written with another value"}},
		// A formatter that echoes the text it was given (package jsontext).
		{"echoes the input", Floats, map[string]string{"0.1": echo, "1e23": echo, "1.0": echo},
			[]string{"number: numbers written as the input text spells them"}},
		{"two echoes are not enough", Floats, map[string]string{"0.1": echo, "1e23": echo},
			[]string{"number: floats formatted otherwise: 0.1 as " + echoed(t, "0.1") + ", 1e23 as " + echoed(t, "1e23")}},
		{"integers through a double", Integers, map[string]string{"2^53+1": "9007199254740992", "2^64+1": "18446744073709552000",
			"10^21+1": "1e+21", "10^400": "null"},
			[]string{"number: integers past 2^53 written otherwise: 2^53+1 as 9007199254740992, 2^64+1 as 18446744073709552000, also 10^21+1 10^400"}},
		{"one class in keys and values", Strings, map[string]string{"U+007F": "\x7f", "key U+007F": "\x7f"},
			[]string{`string_escape: U+007F written raw (want \u007f)`}},
		// An escaper that writes raw what JSON does not require escaped:
		// DEL, C1 and non-ASCII are one rule, in keys and values alike.
		{"written raw in keys and values", Strings, map[string]string{"U+007F": "\x7f", "key U+007F": "\x7f", "U+00E9": "\u00e9",
			"key U+00E9": "\u00e9", "U+0085": "\u0085", "U+1F600": "\U0001F600"},
			[]string{"string_escape: characters written raw: U+007F U+0085 U+00E9 U+1F600"}},
		// Wrong otherwise in values: each class its own cause.
		{"values only", Strings, map[string]string{"U+2028": `\u2028x`, "U+0001": `\x01`}, nil},
		{"one class in keys only keeps its shape", Strings, map[string]string{"key U+0001": "\x01"},
			[]string{`string_escape: a control character written raw (want \uXXXX)`}},
		{"keys spliced raw", Strings, map[string]string{"key `\"`": `"`, "key U+0001": "\x01", "key U+007F": "\x7f", "U+007F": "\x7f"},
			[]string{"key_escape: characters in keys written otherwise: `\"` U+0001 raw", `string_escape: U+007F written raw (want \u007f)`}},
		{"keys escaped otherwise", Strings, map[string]string{"key U+2028": "\u2028", "key U+0001": `\x01`, "key U+0000": `\x00`},
			[]string{`string_escape: characters in keys written otherwise: U+0001 as \x01, U+0000 as \x00, U+2028 raw`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ref, got := outcomes(t, tt.family, tt.wrong)
			p, err := Measure(contract.Default, tt.family, "sdk", ref, got)
			if err != nil {
				t.Fatal(err)
			}
			var causes []string
			for _, d := range p.defects() {
				sig := d.wrong[0].Shape
				kind, cause, ok := p.CauseOf(sig)
				if !ok {
					t.Errorf("CauseOf(%s): no defect explains it", sig)
				}
				causes = append(causes, string(kind)+": "+cause)
			}
			if !slices.Equal(causes, tt.want) {
				t.Errorf("causes %q, want %q", causes, tt.want)
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
	for _, f := range []Family{Floats, Integers, Strings} {
		wrong := map[string]string{}
		for _, c := range Cases(f) {
			if f != Strings || c.Key { // a key writer's own
				wrong[where(c)] = strings.Repeat("9", 40) + c.Name
			}
		}
		ref, got := outcomes(t, f, wrong)
		p, err := Measure(contract.Default, f, "sdk", ref, got)
		if err != nil {
			t.Fatal(err)
		}
		_, cause, ok := p.CauseOf(p.Wrong[0].Shape)
		if !ok || len(cause) > compare.MaxCause || !utf8.ValidString(cause) || strings.ContainsAny(cause, "\n\r") || strings.Contains(cause, "; ") {
			t.Errorf("%s: cause %q (%d bytes) does not fit a signature", f, cause, len(cause))
		}
		var sig compare.Signature
		if err := sig.UnmarshalText([]byte("number: " + cause + ": sdk")); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestExplainsNumbers(t *testing.T) {
	for _, tt := range []struct {
		name   string
		family Family
		wrong  map[string]string
		sig    string
		want   bool
	}{
		{"another value, as the probes show it", Floats, map[string]string{"3728.8897006372813": "3728.8897006372817"},
			"number: a number written with another value: sdk", true},
		// Every shape of another value is the lost precision's.
		{"fewer digits", Floats, map[string]string{"3728.8897006372813": "3728.8897006372817"},
			"number: a number rounded to fewer digits: sdk", true},
		{"an integer's other digits", Floats, map[string]string{"3728.8897006372813": "3728.8897006372817"},
			"number: an integer with other digits: sdk", true},
		{"not a spelling", Floats, map[string]string{"3728.8897006372813": "3728.8897006372817"},
			"number: a number below 1e-6 printed in full (want exponent form): sdk", false},
		{"a style is no lost value", Floats, map[string]string{"1e-7": "1e-07", "0.1": "0.10000000000000001"},
			"number: a number written with another value: sdk", false},
		// A big-integer path is every number of an input whose big number
		// is an integer, whatever its shape.
		{"a big integer's other shape", Integers, map[string]string{"2^64+1": "18446744073709552000", "-2^63-1": "-9223372036854775808"},
			"number: an integer past 2^53 with other digits: sdk", true},
		{"big integers right", Integers, nil, "number: an integer past 2^53 with other digits: sdk", false},
	} {
		ref, got := outcomes(t, tt.family, tt.wrong)
		p, err := Measure(contract.Default, tt.family, "sdk", ref, got)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Explains(compare.MustParseSignature(tt.sig)); got != tt.want {
			t.Errorf("%s: Explains(%s) = %v, want %v", tt.name, tt.sig, got, tt.want)
		}
	}
}

func TestExplains(t *testing.T) {
	ref, got := outcomes(t, Strings, map[string]string{"key `\"`": `"`, "key U+0001": "\x01", "U+007F": "\x7f", "key U+007F": "\x7f", "U+00E9": "\u00e9",
		"U+000A": `\u000a`, "key U+000A": `\u000a`})
	p, err := Measure(contract.Default, Strings, "sdk", ref, got)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		sig  string
		want bool
	}{
		{`string_escape: a control character written raw (want \uXXXX): sdk`, true},
		// Raw in values: the raw writer's.
		{`string_escape: U+007F written raw (want \u007f): sdk`, true},
		{`string_escape: non-ASCII written raw (want \uXXXX): sdk`, true},
		// Wrong otherwise in values too: its class's own cause.
		{`string_escape: a control character with a short escape written as \uXXXX (want its short escape): sdk`, false},
		{"key_escape: a `\"` in a key left unescaped: sdk", true},
		// One key writer that escapes nothing, whatever follows the quote.
		{"key_escape: a `\\` in a key written as printable ASCII: sdk", true},
		{"string_escape: a lone surrogate written as U+FFFD: sdk", false},
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
	if _, err := Measure(contract.Default, Floats, "sdk", ref, got); err == nil || !strings.Contains(err.Error(), "crash") {
		t.Errorf("Measure with a crash: err = %v, want one naming the crash", err)
	}
	if _, err := Measure(contract.Default, Floats, "sdk", ref[:2], got); err == nil {
		t.Error("Measure of too few outcomes: no error")
	}
}

func TestFor(t *testing.T) {
	float := Cases(Floats)[0].Input()
	big := value.Object{{Key: "a", Value: int64(1<<53 + 1)}}
	small := value.Object{{Key: "a", Value: int64(12345)}}
	for _, tt := range []struct {
		k     compare.Kind
		input any
		want  Family
	}{
		{compare.KindNumber, float, Floats},
		{compare.KindNumber, value.Object{{Key: "a", Value: []any{int64(1), value.RawObject{{Key: int64(2), Value: 0.5}}}}}, Floats},
		{compare.KindNumber, value.Object{{Key: "a", Value: []any{big, 0.5}}}, Floats},
		{compare.KindNumber, big, Integers},
		{compare.KindNumber, value.Object{{Key: "a", Value: bigInt("-18446744073709551617")}}, Integers},
		{compare.KindNumber, value.Object{{Key: "a", Value: uint64(1<<53 + 1)}}, Integers},
		{compare.KindNumber, small, ""},
		{compare.KindNumber, value.Object{{Key: "a", Value: int64(-1 << 53)}}, ""},
		{compare.KindString, small, Strings},
		{compare.KindKeyEscape, small, Strings},
		{compare.KindKeyOrder, small, KeyOrder},
		{compare.KindStructure, float, ""},
		{compare.KindCollision, float, ""},
		{compare.KindRejection, big, Domain},
		{compare.KindInternal, big, ""},
	} {
		if got := For(tt.k, tt.input); got != tt.want {
			t.Errorf("For(%s, %v) = %q, want %q", tt.k, tt.input, got, tt.want)
		}
	}
}
