package conform

import (
	"context"
	"fmt"
	"strings"

	"github.com/difffuzz/difffuzz/value"
)

// errorCodes are the spec's error codes (docs/canonical-json.md §3).
var errorCodes = func() []string {
	codes := make([]string, len(value.Codes))
	for i, c := range value.Codes {
		codes[i] = string(c)
	}
	return codes
}()

// codeCase is a case built byte by byte, so that it can hold what the value
// model cannot (a non-string key, a bin value, an unknown ext type, a str
// that is not UTF-8), with the error code it must get.
type codeCase struct {
	code    string
	name    string // what is wrong with it, for messages
	msgpack string // one msgpack value
}

// mpStr is s as a msgpack str (fixstr or str 8), its bytes as they are.
func mpStr(s string) string {
	if len(s) < 32 {
		return string([]byte{0xa0 | byte(len(s))}) + s
	}
	return string([]byte{0xd9, byte(len(s))}) + s
}

var (
	toolKey = mpStr("tool_name")
	argsKey = mpStr("args")
)

// env is the msgpack of {"tool_name":"t","args":args}.
func env(args string) string { return "\x82" + toolKey + mpStr("t") + argsKey + args }

// member is the msgpack of a one-member map.
func member(key, value string) string { return "\x81" + key + value }

var codeCases = []codeCase{
	{"too_deep", "arrays to level 513 inside args", env(member(mpStr("a"), strings.Repeat("\x91", 510)+"\x90"))},
	{"too_deep", "objects to level 513", env(strings.Repeat("\x81\xa1a", 511) + "\x80")},
	{"too_deep", "513 arrays at the top level", strings.Repeat("\x91", 512) + "\x90"},

	{"non_string_key", "integer key", env(member("\x01", "\x02"))},
	{"non_string_key", "nil key", env(member("\xc0", "\x02"))},
	{"non_string_key", "float key", env(member("\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00", "\x02"))},
	{"non_string_key", "array key", env(member("\x90", "\x02"))},
	{"non_string_key", "bin key", env(member("\xc4\x01a", "\x02"))},
	{"non_string_key", "str key that is not UTF-8", env(member("\xa1\xff", "\x02"))},
	{"non_string_key", "str key holding a surrogate's 3-byte form (ED A0 80), not UTF-8", env(member("\xa3\xed\xa0\x80", "\x02"))},
	{"non_string_key", "ext 2 key of odd length", env(member("\xd4\x02\x00", "\x02"))},
	{"non_string_key", "integer key at the top level, before the envelope check", "\x82\x01\x02" + argsKey + "\x80"},

	{"lone_surrogate", "ext 2 value U+D800", env(member(mpStr("s"), "\xd5\x02\x00\xd8"))},
	{"lone_surrogate", "ext 2 key U+DC00", env(member("\xd5\x02\x00\xdc", "\x01"))},
	{"lone_surrogate", "ext 2 tool_name U+D800", "\x82" + toolKey + "\xd5\x02\x00\xd8" + argsKey + "\x80"},
	{"lone_surrogate", "high surrogate then a letter", env(member(mpStr("s"), "\xd6\x02\x3d\xd8\x41\x00"))},
	{"lone_surrogate", "low surrogate before high surrogate", env(member(mpStr("s"), "\xd6\x02\x00\xde\x3d\xd8"))},

	{"duplicate_key", "the same key twice", env("\x82\xa1a\x01\xa1a\x02")},
	{"duplicate_key", "the same key as fixstr and str 8", env("\x82\xa1a\x01\xd9\x01a\x02")},
	{"duplicate_key", "the same key as str and ext 2", env("\x82\xa1a\x01\xd5\x02a\x00\x02")},
	{"duplicate_key", "U+1F600 as str and as an ext 2 surrogate pair", env("\x82\xa4\xf0\x9f\x98\x80\x01\xd6\x02\x3d\xd8\x00\xde\x02")},
	{"duplicate_key", "tool_name twice, before the envelope check", "\x83" + toolKey + mpStr("t") + argsKey + "\x80" + toolKey + mpStr("t")},

	{"unsupported_value", "bin value", env(member(mpStr("v"), "\xc4\x01\x00"))},
	{"unsupported_value", "ext type 9", env(member(mpStr("v"), "\xd4\x09\x00"))},
	{"unsupported_value", "timestamp (ext -1)", env(member(mpStr("v"), "\xd6\xff\x00\x00\x00\x00"))},
	{"unsupported_value", `ext 1 payload "01"`, env(member(mpStr("v"), "\xd5\x0101"))},
	{"unsupported_value", `ext 1 payload "1.5"`, env(member(mpStr("v"), "\xc7\x03\x011.5"))},
	{"unsupported_value", "ext 1 empty payload", env(member(mpStr("v"), "\xc7\x00\x01"))},
	{"unsupported_value", "str value that is not UTF-8", env(member(mpStr("v"), "\xa2\xff\xfe"))},
	{"unsupported_value", "str value holding a surrogate's 3-byte form (ED A0 80), not UTF-8", env(member(mpStr("v"), "\xa3\xed\xa0\x80"))},
	{"unsupported_value", "ext 2 value of odd length", env(member(mpStr("v"), "\xd4\x02\x00"))},

	{"bad_envelope", "args is an array", env("\x90")},
	{"bad_envelope", "tool_name is an integer", "\x82" + toolKey + "\x01" + argsKey + "\x80"},
	{"bad_envelope", "a third member", "\x83" + toolKey + mpStr("t") + argsKey + "\x80" + mpStr("x") + "\xc0"},
	{"bad_envelope", "no args", "\x81" + toolKey + mpStr("t")},
	{"bad_envelope", "nil at the top level", "\xc0"},
	{"bad_envelope", "an array at the top level", "\x90"},
}

// errorCodeCheck sends every case of one code in one batch.
func (r *runner) errorCodeCheck(code string) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		name := "error-codes/" + code
		var cases []codeCase
		var raw [][]byte
		for _, c := range codeCases {
			if c.code == code {
				cases = append(cases, c)
				raw = append(raw, []byte(c.msgpack))
			}
		}
		results, err := r.rawBatch(name, raw)
		if err != nil {
			return "", err
		}
		var fails failures
		for i, c := range cases {
			if m := r.rawVerdict(results[i], wantCode(code), raw[i]); m != "" {
				fails.add(r, name, "%s (msgpack %s): %s", c.name, hexClip(c.msgpack), m)
			}
		}
		return fmt.Sprintf("%d cases", len(cases)), fails.err(len(cases), "cases")
	}
}

// hexClip is the start of a case's msgpack in hex, for messages.
func hexClip(s string) string {
	if len(s) > 24 {
		return fmt.Sprintf("%x...", s[:24])
	}
	return fmt.Sprintf("%x", s)
}
