package value

import (
	"strings"
	"testing"
)

func TestParseIntegerDigitLimit(t *testing.T) {
	if _, err := Parse([]byte(strings.Repeat("9", MaxTextIntDigits))); err != nil {
		t.Errorf("%d digits: %v", MaxTextIntDigits, err)
	}
	_, err := Parse([]byte("-" + strings.Repeat("9", MaxTextIntDigits+1)))
	if err == nil || !strings.Contains(err.Error(), "over the limit") || !strings.Contains(err.Error(), "line 1, column 1") {
		t.Errorf("%d digits: err = %v, want the limit with its position", MaxTextIntDigits+1, err)
	}
}
