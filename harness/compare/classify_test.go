package compare

import "testing"

// TestClassify covers every kind of difference the survey of other
// libraries shows (docs/survey.md): a key spelled otherwise is an escaping
// difference, never an ordering one, however it is spelled.
func TestClassify(t *testing.T) {
	tests := []struct {
		name string
		a, b string // the reference's text, the other's
		want Kind
	}{
		// Keys spelled otherwise: the same code points.
		{"raw line separator key", `{"\u2028":0}`, "{\"\u2028\":0}", KindString},
		{"raw BMP key", `{"args":{"\u00e9":1},"tool_name":"t"}`, `{"args":{"é":1},"tool_name":"t"}`, KindString},
		{"raw astral key", `{"\ud83d\ude00":1}`, `{"😀":1}`, KindString},
		{"raw astral key after a raw one", `{"é\ud83d\ude00":1}`, `{"é😀":1}`, KindString},
		{"raw DEL key", `{"\u007f":1}`, "{\"\x7f\":1}", KindString},
		{"upper-case hex key", `{"\u00e9":1}`, `{"\u00E9":1}`, KindString},
		{"escaped solidus key", `{"a/b":1}`, `{"a\/b":1}`, KindString},
		{"short escape key", `{"\n":1}`, `{"\u000a":1}`, KindString},
		{"html escape key", `{"<":1}`, `{"\u003c":1}`, KindString},
		{"raw surrogate (WTF-8) key", `{"\ud800":1}`, "{\"\xed\xa0\x80\":1}", KindString},
		// Keys that are other keys: the members come in another order.
		{"UTF-16 order, raw", `{"\uff61":1,"\ud83d\ude00":2}`, `{"😀":2,"｡":1}`, KindKeyOrder},
		{"UTF-16 order, escaped", `{"\uff61":1,"\ud83d\ude00":2}`, `{"\ud83d\ude00":2,"\uff61":1}`, KindKeyOrder},
		{"prefix key", `{"a":1,"ab":2}`, `{"ab":2,"a":1}`, KindKeyOrder},
		{"two lone surrogates", `{"\ud800":1,"\udc00":2}`, `{"\udc00":2,"\ud800":1}`, KindKeyOrder},
		{"a pair is not its high half", `{"\ud83d\ude00":1}`, `{"\ud83d":1}`, KindKeyOrder},
		{"invalid byte is no code point", "{\"\xe9\":1}", `{"\u00e9":1}`, KindKeyOrder},
		{"next key differs", `{"a":1,"b":2}`, `{"a":1,"c":2}`, KindKeyOrder},
		// Values.
		{"raw BMP value", `{"s":"\u00e9"}`, `{"s":"é"}`, KindString},
		{"html escape value", `{"s":"<"}`, `{"s":"\u003c"}`, KindString},
		{"raw DEL value", `{"s":"\u007f"}`, "{\"s\":\"\x7f\"}", KindString},
		{"exponent padding", `[1e-7]`, `[1e-07]`, KindNumber},
		{"exponent form", `[1e+21]`, `[1000000000000000000000]`, KindNumber},
		{"negative zero", `[0]`, `[-0]`, KindNumber},
		{"float zero", `[1]`, `[1.0]`, KindNumber},
		{"NaN as null", `{"x":NaN}`, `{"x":null}`, KindNumber},
		{"Infinity as null", `[Infinity]`, `[null]`, KindNumber},
		{"big integer rounded", `[9007199254740993]`, `[9007199254740992]`, KindNumber},
		{"other literal", `[true]`, `[null]`, KindStructure},
		{"a member more", `{"a":"x"}`, `{"a":"x","b":2}`, KindStructure},
		{"an element more", `{"a":[[]]}`, `{"a":[[],2]}`, KindStructure},
	}
	for _, tt := range tests {
		off := FirstDiff([]byte(tt.a), []byte(tt.b))
		if off < 0 {
			t.Fatalf("%s: the texts are equal", tt.name)
		}
		if got := Classify([]byte(tt.a), []byte(tt.b), off); got != tt.want {
			t.Errorf("%s: Classify(%s, %s) = %s, want %s", tt.name, tt.a, tt.b, got, tt.want)
		}
		if got := Classify([]byte(tt.b), []byte(tt.a), off); got != tt.want {
			t.Errorf("%s: reversed: %s, want %s", tt.name, got, tt.want)
		}
	}
}
