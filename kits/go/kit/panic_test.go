package kit_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/difffuzz/difffuzz/kits/go/kit"
	"github.com/difffuzz/difffuzz/kits/go/wire"
)

// The implementation's functions for TestPanicFrames, each panicking in
// its own way; noinline keeps each one a frame of its own.

//go:noinline
func escape(s string) byte { return s[len(s)] } // index out of range, raised by the runtime

//go:noinline
func canonicalize(dst []byte, _ any) ([]byte, error) { return append(dst, escape("ab")), nil }

//go:noinline
func repeat(dst []byte, _ any) ([]byte, error) { return append(dst, strings.Repeat("x", -1)...), nil }

//go:noinline
func sortKeys(dst []byte, _ any) ([]byte, error) {
	keys := []string{"b", "a"}
	sort.Slice(keys, func(i, j int) bool { panic("less: " + keys[i]) })
	return dst, nil
}

const here = "github.com/difffuzz/difffuzz/kits/go/kit_test."

// A panic's frames are the implementation's, innermost first, with no frame
// of the kit or the runtime: a run of the standard library is its entry
// point, with no file and no line.
func TestPanicFrames(t *testing.T) {
	tests := []struct {
		name string
		fn   kit.Func[[]byte]
		want []string // each frame's function, and "@" when it has a file and line
	}{
		{"runtime error", canonicalize, []string{here + "escape@", here + "canonicalize@"}},
		{"inside the standard library", repeat, []string{"strings.Repeat", here + "repeat@"}},
		{"a callback from the standard library", sortKeys, []string{here + "sortKeys.func1@", "sort.Slice", here + "sortKeys@"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := kit.Compute(kit.Exact, tt.fn, nil, false, nil)
			if r.Error != wire.ErrorInternal || r.ErrorType != kit.PanicType {
				t.Fatalf("result %+v, want an internal panic", r)
			}
			var got []string
			for _, f := range r.Frames {
				s := f.Function
				if f.File != "" && f.Line > 0 {
					s += "@"
				}
				got = append(got, s)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("frames %q, want %q\n%+v", got, tt.want, r.Frames)
			}
			if f := r.Frames[0]; f.File != "" && !strings.HasSuffix(f.File, "panic_test.go") {
				t.Errorf("innermost frame's file %q", f.File)
			}
		})
	}
}
