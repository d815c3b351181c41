package contract

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBuiltinAllows checks what each built-in leaves open: ours nothing,
// RFC 8785 what the RFC does.
func TestBuiltinAllows(t *testing.T) {
	if Default.Allows.Open() {
		t.Errorf("difffuzz leaves %+v open, want nothing", Default.Allows)
	}
	want := Allows{ErrorCodes: ErrorCodesAny, DepthFloor: 64, RefuseUnsafeInts: true, BigInts: BigIntsDouble}
	if d := cmp.Diff(want, RFC8785.Allows); d != "" {
		t.Errorf("rfc8785 allows (-want +got):\n%s", d)
	}
}

// TestLoadAllows checks that a file closes what its base leaves open, key
// by key, and keeps the rest.
func TestLoadAllows(t *testing.T) {
	got, err := Load(filepath.Join("testdata", "jcs-strict.toml"))
	if err != nil {
		t.Fatal(err)
	}
	want := Allows{ErrorCodes: ErrorCodesExact, RefuseUnsafeInts: true, BigInts: BigIntsDouble}
	if d := cmp.Diff(want, got.Allows); d != "" {
		t.Errorf("allows (-want +got):\n%s", d)
	}
	shallow, err := Parse([]byte("base = \"rfc8785\"\nmax_depth = 3\n"), "shallow")
	if err != nil || shallow.Allows.DepthFloor != RFC8785.Allows.DepthFloor {
		t.Errorf("rfc8785 with max_depth 3: %v, floor %d, want its base's", err, shallow.Allows.DepthFloor)
	}
	open, err := Parse([]byte("[allows]\nerror_codes = \"any\"\n"), "ours")
	if err != nil {
		t.Fatal(err)
	}
	if open.Allows != (Allows{ErrorCodes: ErrorCodesAny}) {
		t.Errorf("a difffuzz file opening error codes: %+v", open.Allows)
	}
}

func TestParseRejectsAllows(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"bad codes", "[allows]\nerror_codes = \"some\"\n", `allows.error_codes = "some"`},
		{"floor past the wire", "[allows]\ndepth_floor = 1001\n", "allows.depth_floor = 1001: want 0"},
		{"negative floor", "[allows]\ndepth_floor = -1\n", "allows.depth_floor = -1"},
		{"unknown big ints", "[allows]\nbig_ints = \"float\"\n", `allows.big_ints = "float"`},
		{"unknown key", "[allows]\nanything = true\n", `unknown key "allows.anything"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc), "x")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse(%q) = %v, want an error with %q", tc.doc, err, tc.want)
			}
		})
	}
}

// TestVariants checks the contracts a library may follow instead: one an
// allowance that changes output, each leaving nothing open itself.
func TestVariants(t *testing.T) {
	if vs := Default.Variants(); len(vs) != 0 {
		t.Errorf("difffuzz has variants %v", vs)
	}
	doubles := RFC8785
	doubles.Numbers.BigInts = BigIntsDouble
	if vs := doubles.Variants(); len(vs) != 1 || vs[0].Numbers.BigInts != BigIntsDouble {
		t.Errorf("big_ints = double allowing double: variants %+v, want the depth one alone", vs)
	}
	vs := RFC8785.Variants()
	if len(vs) != 3 || vs[0].MaxDepth != MaxWireDepth || vs[1].Numbers.BigInts != BigIntsDouble ||
		vs[2].MaxDepth != MaxWireDepth || vs[2].Numbers.BigInts != BigIntsDouble {
		t.Fatalf("rfc8785 variants: %+v", vs)
	}
	for _, v := range vs {
		if v.Allows.Open() || v.Check() != nil {
			t.Errorf("variant %+v: open or fails its check (%v)", v, v.Check())
		}
	}
}
