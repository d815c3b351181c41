package wire

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// An internal result's error_type and frames (version 4) survive the trip,
// and a result without them reads as it did in version 3.
func TestFramesRoundTrip(t *testing.T) {
	eight := make([]Frame, MaxFrames)
	for i := range eight {
		eight[i] = Frame{File: fmt.Sprintf("/src/sdk/f%d.go", i), Function: fmt.Sprintf("sdk.f%d", i), Line: i + 1}
	}
	tests := []struct {
		name string
		in   Result
		want Result // what decodes; the same as in when zero
	}{
		{"type and frames", Result{Error: ErrorInternal, Message: "panic: x", ErrorType: "panic",
			Frames: []Frame{{File: "/src/sdk/canon.go", Function: "sdk.escape", Line: 41}, {Function: "encoding/json.Unmarshal"}}}, Result{}},
		{"type alone", Result{Error: ErrorInternal, Message: "bad", ErrorType: "*json.SyntaxError"}, Result{}},
		{"frames alone", Result{Error: ErrorInternal, Message: "bad", Frames: []Frame{{Function: "sdk.f"}}}, Result{}},
		{"neither", Result{Error: ErrorInternal, Message: "bad"}, Result{}},
		{"spec code with frames", Result{Error: "too_deep", Message: "deep", ErrorType: "x", Frames: []Frame{{Function: "f"}}}, Result{}},
		{"eight frames", Result{Error: ErrorInternal, Frames: eight}, Result{}},
		{"capped at eight", Result{Error: ErrorInternal, Frames: append(eight, Frame{Function: "ninth"})}, Result{Error: ErrorInternal, Frames: eight}},
		{"quoted input", Result{Error: ErrorInternal, Message: `can't encode '\udcee'`, ErrorType: "UnicodeEncodeError",
			Frames: []Frame{{File: `C:\sdk\canon.py`, Function: "_escape", Line: 1 << 30}}}, Result{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frame, err := NewEncoder().Results(1, []Result{tt.in, {Digest: make([]byte, DigestSize)}})
			if err != nil {
				t.Fatal(err)
			}
			var m Message
			if err := NewDecoder().Decode(frame[4:], &m); err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if want.Error == "" {
				want = tt.in
			}
			// %+v prints a nil slice as an empty one, as the wire does.
			if w, g := fmt.Sprintf("%+v", want), fmt.Sprintf("%+v", m.Results[0]); w != g {
				t.Errorf("result\nwant %s\n got %s", w, g)
			}
			if m.Results[1].Digest == nil {
				t.Errorf("the next result lost its digest: %+v", m.Results[1])
			}
		})
	}
}

// A reader keeps the first MaxFrames of a longer list and skips the rest,
// whatever they hold.
func TestFramesOverCapSkipped(t *testing.T) {
	frames := make([]any, MaxFrames+2)
	for i := range frames {
		frames[i] = map[string]any{"function": fmt.Sprint("f", i)}
	}
	frames[MaxFrames+1] = []any{"not even a map"}
	m, err := decodeResult(map[string]any{"error": "internal", "frames": frames})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Results[0].Frames; len(got) != MaxFrames || got[MaxFrames-1].Function != fmt.Sprint("f", MaxFrames-1) {
		t.Errorf("frames = %+v", got)
	}
}

// A frames field of the wrong shape is a broken answer, named by where it
// broke.
func TestMalformedFrames(t *testing.T) {
	tests := []struct {
		name   string
		result map[string]any
		want   string
	}{
		{"error_type not a str", map[string]any{"error": "internal", "error_type": 7}, `error_type: want a str, got an integer`},
		{"error_type bin", map[string]any{"error": "internal", "error_type": []byte("panic")}, `error_type: want a str, got a bin`},
		{"error_type nil", map[string]any{"error": "internal", "error_type": nil}, `error_type: want a str, got nil`},
		{"frames not an array", map[string]any{"error": "internal", "frames": "sdk.f"}, `frames: want an array, got a str`},
		{"frame not a map", map[string]any{"error": "internal", "frames": []any{"sdk.f"}}, `frames: frame 0: want a map, got a str`},
		{"function not a str", map[string]any{"error": "internal", "frames": []any{map[string]any{"function": 1}}}, `frame 0: function: want a str, got an integer`},
		{"file not a str", map[string]any{"error": "internal", "frames": []any{map[string]any{"file": true}}}, `frame 0: file: want a str, got a bool`},
		{"line a float", map[string]any{"error": "internal", "frames": []any{map[string]any{"line": 4.0}}}, `frame 0: line: want an integer, got a float`},
		{"line a str", map[string]any{"error": "internal", "frames": []any{map[string]any{"line": "41"}}}, `frame 0: line: want an integer, got a str`},
		{"line negative", map[string]any{"error": "internal", "frames": []any{map[string]any{"line": -1}}}, `frame 0: line: line -1 is out of range`},
		{"line huge", map[string]any{"error": "internal", "frames": []any{map[string]any{"line": uint64(1) << 40}}}, `line 1099511627776 is out of range`},
		{"second frame bad", map[string]any{"error": "internal", "frames": []any{map[string]any{}, map[string]any{"line": nil}}}, `frame 1: line: want an integer, got nil`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeResult(tt.result)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one with %q", err, tt.want)
			}
		})
	}
}

// decodeResult decodes a results message of one result, encoded from r
// by msgpack's own encoder (keys sorted, so that a test reads alike each
// run).
func decodeResult(r map[string]any) (*Message, error) {
	var buf strings.Builder
	enc := msgpack.NewEncoder(&buf)
	enc.SetSortMapKeys(true)
	if err := enc.Encode(map[string]any{"type": "results", "id": 1, "results": []any{r}}); err != nil {
		return nil, err
	}
	var m Message
	return &m, NewDecoder().Decode([]byte(buf.String()), &m)
}

func TestSupportedProtocol(t *testing.T) {
	for _, tt := range []struct {
		v    int
		fds  bool
		want bool
	}{
		{1, false, true}, {2, false, true}, {3, false, false}, {4, false, false},
		{2, true, false}, {3, true, true}, {4, true, true}, {5, true, false}, {0, true, false},
	} {
		if got := SupportedProtocol(tt.v, tt.fds); got != tt.want {
			t.Errorf("SupportedProtocol(%d, fds %v) = %v, want %v", tt.v, tt.fds, got, tt.want)
		}
	}
}

func TestTakesText(t *testing.T) {
	for _, tt := range []struct {
		h    Hello
		want bool
	}{
		{Hello{Protocol: 4, Model: ModelText}, true},
		{Hello{Protocol: 3, Model: ModelText}, false},
		{Hello{Protocol: 2, Model: ModelText}, false},
		{Hello{Protocol: 4, Model: ModelNative}, false},
		{Hello{Protocol: 4}, false},
	} {
		if got := tt.h.TakesText(); got != tt.want {
			t.Errorf("%+v: TakesText = %v, want %v", tt.h, got, tt.want)
		}
	}
}

// TextCases is the array of bin EncodeCases makes of the same texts, for
// any number of them (the array's header grows past 15 and 65,535).
func TestTextCases(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 300, 65536} {
		texts := make([]any, n)
		tc := NewTextCases(nil)
		for i := range texts {
			text := []byte(fmt.Sprintf(`{"n":%d}`, i))
			if i == 7 {
				text = make([]byte, 300) // a bin 16
			}
			texts[i] = text
			tc.Add(text)
		}
		want, err := EncodeCases(texts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.Bytes(); tc.Len() != n || string(got) != string(want) {
			t.Errorf("%d texts: %d added, % x..., want % x...", n, tc.Len(), got[:min(len(got), 8)], want[:min(len(want), 8)])
		}
	}
}
