package canonjson

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/contract"
)

// RFC 8785 conformance of the rfc8785 contract: the RFC's own examples,
// written below with their sections, and the test vectors of its authors'
// reference implementation (github.com/cyberphone/json-canonicalization,
// testdata/input and testdata/output), read from the Go module cache at the
// version survey/go/go.mod pins, never copied into this repository.
//
// A vector's input is parsed as JCS parses JSON: every number is a double
// (RFC 8785 §3.2.2.3), so that 56 and 56.0 are the same value, as they are
// to JSON.parse. The value model of this package tells integers from floats;
// parsing the input as doubles gives the value that JCS canonicalizes,
// whereas reading 56 as the integer 56 would test a different (if here
// equal) input.

// jcsModule is the module that holds the vectors; its version is the one
// survey/go/go.mod requires.
const jcsModule = "github.com/cyberphone/json-canonicalization"

// jcsTestdata is the vectors' folder: $JCS_TESTDATA if set (the Makefile
// sets it for the Python tests), else the module's testdata/ as `go mod
// download` reports it. The test is skipped when neither is at hand.
func jcsTestdata(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("JCS_TESTDATA"); dir != "" {
		return dir
	}
	cmd := exec.Command("go", "mod", "download", "-json", jcsModule)
	cmd.Dir = filepath.Join("..", "..", "survey", "go") // resolves the version its go.mod pins
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); err != nil || jerr != nil || info.Dir == "" {
		t.Skipf("RFC 8785 vectors unavailable: go mod download %s (in survey/go): %v %s %s; set JCS_TESTDATA to the testdata folder to run them",
			jcsModule, err, strings.TrimSpace(stderr.String()), info.Error)
	}
	return filepath.Join(info.Dir, "testdata")
}

// parseJCS parses JSON text as RFC 8785 reads it: numbers as doubles,
// objects as Object with their members in input order (duplicates kept,
// for the encoder to reject).
func parseJCS(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	v, err := parseJCSValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the value: %v", err)
	}
	return v, nil
}

func parseJCSValue(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('['):
		arr := []any{}
		for d.More() {
			el, err := parseJCSValue(d)
			if err != nil {
				return nil, err
			}
			arr = append(arr, el)
		}
		_, err := d.Token() // ']'
		return arr, err
	case json.Delim('{'):
		obj := Object{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := parseJCSValue(d)
			if err != nil {
				return nil, err
			}
			obj = append(obj, Member{Key: k.(string), Value: v})
		}
		_, err := d.Token() // '}'
		return obj, err
	}
	return tok, nil // nil, bool, float64 or string
}

// TestRFC8785Vectors canonicalizes every input vector under rfc8785 and
// compares the bytes with its output vector (and the output with its hex
// form in outhex/, the bytes as the authors wrote them down).
func TestRFC8785Vectors(t *testing.T) {
	dir := jcsTestdata(t)
	inputs, err := filepath.Glob(filepath.Join(dir, "input", "*.json"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no vectors in %s/input: %v", dir, err)
	}
	enc := mustEncoding(t, contract.RFC8785)
	for _, in := range inputs {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			want := readVector(t, dir, name)
			v, err := parseJCS(readFile(t, in))
			if err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			got, err := enc.Canonical(v)
			if err != nil {
				t.Fatalf("Canonical: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// readVector is output/name, checked against outhex/name's hex bytes.
func readVector(t *testing.T, dir, name string) []byte {
	t.Helper()
	want := readFile(t, filepath.Join(dir, "output", name))
	hexText := readFile(t, filepath.Join(dir, "outhex", strings.TrimSuffix(name, ".json")+".txt"))
	fromHex, err := hex.DecodeString(strings.Join(strings.Fields(string(hexText)), ""))
	if err != nil || !bytes.Equal(fromHex, want) {
		t.Fatalf("output/%s and its outhex disagree (%v)", name, err)
	}
	return want
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rfc8785Examples are RFC 8785's own examples of whole documents.
var rfc8785Examples = []struct{ name, input, want string }{
	{
		"§3.2.2 primitive data types",
		`{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`,
		`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
	},
	{
		"§3.2.3 sorting of object properties",
		`{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`,
		"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\"," +
			"\"\u20ac\":\"Euro Sign\",\"\U0001f600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}",
	},
}

// TestRFC8785Examples canonicalizes the RFC's example documents.
func TestRFC8785Examples(t *testing.T) {
	enc := mustEncoding(t, contract.RFC8785)
	for _, tc := range rfc8785Examples {
		v, err := parseJCS([]byte(tc.input))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := enc.Canonical(v)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s:\ngot  %s, %v\nwant %s", tc.name, got, err, tc.want)
		}
	}
}

// TestRFC8785Numbers checks RFC 8785 Appendix B, "Number Serialization
// Samples": IEEE 754 bit patterns and their text, NaN and Infinity being
// errors (§3.2.2.3: unsupported_value here).
func TestRFC8785Numbers(t *testing.T) {
	enc := mustEncoding(t, contract.RFC8785)
	for _, tc := range []struct{ bits, want string }{
		{"0000000000000000", "0"},
		{"8000000000000000", "0"},
		{"0000000000000001", "5e-324"},
		{"8000000000000001", "-5e-324"},
		{"7fefffffffffffff", "1.7976931348623157e+308"},
		{"ffefffffffffffff", "-1.7976931348623157e+308"},
		{"4340000000000000", "9007199254740992"},
		{"c340000000000000", "-9007199254740992"},
		{"4430000000000000", "295147905179352830000"},
		{"7fffffffffffffff", ""},
		{"7ff0000000000000", ""},
		{"44b52d02c7e14af5", "9.999999999999997e+22"},
		{"44b52d02c7e14af6", "1e+23"},
		{"44b52d02c7e14af7", "1.0000000000000001e+23"},
		{"444b1ae4d6e2ef4e", "999999999999999700000"},
		{"444b1ae4d6e2ef4f", "999999999999999900000"},
		{"444b1ae4d6e2ef50", "1e+21"},
		{"3eb0c6f7a0b5ed8c", "9.999999999999997e-7"},
		{"3eb0c6f7a0b5ed8d", "0.000001"},
		{"41b3de4355555553", "333333333.3333332"},
		{"41b3de4355555554", "333333333.33333325"},
		{"41b3de4355555555", "333333333.3333333"},
		{"41b3de4355555556", "333333333.3333334"},
		{"41b3de4355555557", "333333333.33333343"},
		{"becbf647612f3696", "-0.0000033333333333333333"},
		{"43143ff3c1cb0959", "1424953923781206.2"},
	} {
		u, err := strconv.ParseUint(tc.bits, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		x := math.Float64frombits(u)
		got, err := enc.Canonical(x)
		if tc.want == "" {
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeUnsupported {
				t.Errorf("%s (%v): got %q, %v; want unsupported_value", tc.bits, x, got, err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: got %q, %v; want %s", tc.bits, got, err, tc.want)
		}
	}
}
