package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"runtime"
	"strconv"
	"testing"
)

// fakeStack is a made-up stack for keepFrames, innermost first.
type fakeStack []runtime.Frame

func (s *fakeStack) Next() (runtime.Frame, bool) {
	if len(*s) == 0 {
		return runtime.Frame{}, false
	}
	f := (*s)[0]
	*s = (*s)[1:]
	return f, len(*s) > 0
}

func fr(function string, line int) runtime.Frame {
	return runtime.Frame{Function: function, File: "/src/" + function + ".go", Line: line}
}

func TestKeepFrames(t *testing.T) {
	kitFrames := []runtime.Frame{fr(kitPackage+".call[...].func1", 10), fr(wirePackage+".Answer", 9),
		fr(kitPackage+".(*server).batch", 8), fr("main.main", 3), fr("runtime.main", 1)}
	sdk := func(name string, line int) Frame {
		return Frame{File: "/src/example.com/sdk." + name + ".go", Function: "example.com/sdk." + name, Line: line}
	}
	deep := make([]runtime.Frame, 12)
	var deepWant []Frame
	for i := range deep {
		deep[i] = fr("example.com/sdk.f"+strconv.Itoa(i), i)
		if i < MaxFrames {
			deepWant = append(deepWant, sdk("f"+strconv.Itoa(i), i))
		}
	}
	tests := []struct {
		name  string
		stack []runtime.Frame
		want  []Frame
	}{
		{"the implementation's frames, the runtime's left out",
			[]runtime.Frame{fr("runtime.gopanic", 1), fr("runtime.panicIndex", 2), fr("example.com/sdk.escape", 41), fr("example.com/sdk.Canonical", 88)},
			[]Frame{sdk("escape", 41), sdk("Canonical", 88)}},
		{"a run of the standard library is its entry point",
			[]runtime.Frame{fr("runtime.gopanic", 1), fr("reflect.Value.Index", 5), fr("encoding/json.(*decodeState).array", 6),
				fr("encoding/json.Unmarshal", 7), fr("example.com/sdk.parse", 12)},
			[]Frame{{Function: "encoding/json.Unmarshal"}, sdk("parse", 12)}},
		{"a callback from the standard library",
			[]runtime.Frame{fr("example.com/sdk.less", 3), fr("sort.insertionSort", 4), fr("sort.Slice", 5), fr("example.com/sdk.sortKeys", 6)},
			[]Frame{sdk("less", 3), {Function: "sort.Slice"}, sdk("sortKeys", 6)}},
		{"all in the standard library",
			[]runtime.Frame{fr("runtime.gopanic", 1), fr("strings.Repeat", 2)},
			[]Frame{{Function: "strings.Repeat"}}},
		{"the worker's glue in package main is kept",
			[]runtime.Frame{fr("example.com/sdk.f", 1), fr("main.main.func1", 2)},
			[]Frame{sdk("f", 1), {File: "/src/main.main.func1.go", Function: "main.main.func1", Line: 2}}},
		{"the map's internals are the runtime's",
			[]runtime.Frame{fr("internal/runtime/maps.(*Map).assign", 1), fr("example.com/sdk.f", 2)},
			[]Frame{sdk("f", 2)}},
		{"capped", deep, deepWant},
		{"no frame of the implementation", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fakeStack(append(append([]runtime.Frame{}, tt.stack...), kitFrames...))
			if got := keepFrames(&s); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("frames\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestPackageOf(t *testing.T) {
	for _, tt := range []struct {
		function, pkg string
		std           bool
	}{
		{"encoding/json.(*decodeState).object", "encoding/json", true},
		{"strings.Repeat", "strings", true},
		{"main.main.func1", "main", false},
		{"github.com/difffuzz/difffuzz/kits/go/kit.compute", "github.com/difffuzz/difffuzz/kits/go/kit", false},
		{"gopkg.in/yaml%2ev3.Marshal", "gopkg.in/yaml%2ev3", false},
		{"example.com/sdk.F[...]", "example.com/sdk", false},
	} {
		pkg := packageOf(tt.function)
		if pkg != tt.pkg || isStd(pkg) != tt.std {
			t.Errorf("%s: package %q (std %v), want %q (std %v)", tt.function, pkg, isStd(pkg), tt.pkg, tt.std)
		}
	}
	if kitPackage != "github.com/difffuzz/difffuzz/kits/go/kit" || wirePackage != "github.com/difffuzz/difffuzz/kits/go/wire" {
		t.Errorf("kitPackage = %q, wirePackage = %q", kitPackage, wirePackage)
	}
}

// sdkError is an SDK's own error type.
type sdkError struct{ at int }

func (e *sdkError) Error() string { return "bad byte at " + strconv.Itoa(e.at) }

func TestErrorType(t *testing.T) {
	syntax := json.Unmarshal([]byte("{"), new(any))
	tests := []struct {
		err  error
		want string
	}{
		{errors.New("no"), ""},
		{fmt.Errorf("parse: %w", errors.New("no")), ""},
		{fmt.Errorf("a: %w, b: %w", errors.New("x"), errors.New("y")), ""},
		// Through a join or several %w: the first that has a type.
		{errors.Join(errors.New("x"), &sdkError{1}), "*wire.sdkError"},
		{fmt.Errorf("%w: %w", errors.New("bad"), fmt.Errorf("at: %w", syntax)), "*json.SyntaxError"},
		{errors.Join(errors.New("x"), errors.New("y")), ""},
		{&sdkError{3}, "*wire.sdkError"},
		{fmt.Errorf("canonical: %w", &sdkError{3}), "*wire.sdkError"},
		{syntax, "*json.SyntaxError"},
		{fmt.Errorf("args: %w", syntax), "*json.SyntaxError"},
		// The innermost that is more than a message: the SDK's wrapper
		// around a library's error names the library's.
		{&fs.PathError{Op: "open", Path: "x", Err: &sdkError{1}}, "*wire.sdkError"},
		{&fs.PathError{Op: "open", Path: "x", Err: errors.New("gone")}, "*fs.PathError"},
	}
	for _, tt := range tests {
		if got := ErrorType(tt.err); got != tt.want {
			t.Errorf("ErrorType(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
