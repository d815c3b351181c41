//! Unit tests: every rule of the spec and the shared test vectors, table-driven.

use super::*;

// --- builders --------------------------------------------------------------

fn s(text: &str) -> Value {
    Value::Str(text.to_owned())
}

fn int(i: i128) -> Value {
    Value::Int(i)
}

fn big(text: &str) -> Value {
    Value::BigInt(BigInt::parse(text).expect("valid big integer"))
}

fn float(f: f64) -> Value {
    Value::Float(f)
}

fn arr(items: Vec<Value>) -> Value {
    Value::Array(items)
}

fn obj(members: Vec<(&str, Value)>) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (Key::from(k), v))
            .collect(),
    )
}

fn obj_keys(members: Vec<(Key, Value)>) -> Value {
    Value::Object(members)
}

/// A string holding lone surrogates, from UTF-16 code units.
fn lone(units: &[u16]) -> Value {
    let v = Value::from_utf16(units.to_vec());
    assert!(
        matches!(v, Value::LoneSurrogates(_)),
        "{units:x?} is not lone"
    );
    v
}

fn lone_key(units: &[u16]) -> Key {
    Key::from_utf16(units.to_vec())
}

/// The signed value `{"tool_name":"t","args":args}`.
fn call(args: Value) -> Value {
    obj(vec![("tool_name", s("t")), ("args", args)])
}

/// `levels` nested arrays, the innermost empty.
fn nest(levels: usize) -> Value {
    (1..levels).fold(arr(vec![]), |inner, _| arr(vec![inner]))
}

fn nest_text(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

fn code_of(v: &Value) -> &'static str {
    match canonical(v) {
        Ok(text) => panic!("expected an error, got {text}"),
        Err(e) => e.code(),
    }
}

fn ok(v: &Value) -> String {
    canonical(v).unwrap_or_else(|e| panic!("unexpected {e}"))
}

/// Asserts that each (name, args value, expected args text) case prints
/// `{"args":{"v":<expected>},"tool_name":"t"}`.
fn assert_member_texts(cases: &[(&str, Value, &str)]) {
    for (name, value, expected) in cases {
        let got = ok(&call(obj(vec![("v", value.clone())])));
        let want = format!(r#"{{"args":{{"v":{expected}}},"tool_name":"t"}}"#);
        assert_eq!(got, want, "case {name}");
    }
}

// --- worked examples (spec section 5) ----------------------------------------

#[test]
fn worked_examples() {
    let astral_key = Key::from_utf16(vec![0xd83d, 0xde00]);
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "ping",
            obj(vec![("tool_name", s("ping")), ("args", obj(vec![]))]),
            r#"{"args":{},"tool_name":"ping"}"#,
        ),
        (
            "sorted, 1.0 prints 1",
            call(obj(vec![
                ("b", int(1)),
                ("a", arr(vec![Value::Bool(true), Value::Null, float(1.0)])),
            ])),
            r#"{"args":{"a":[true,null,1],"b":1},"tool_name":"t"}"#,
        ),
        (
            "non-finite and negative zero",
            call(obj(vec![
                ("x", float(f64::NAN)),
                ("y", float(f64::NEG_INFINITY)),
                ("z", float(-0.0)),
            ])),
            r#"{"args":{"x":NaN,"y":-Infinity,"z":0},"tool_name":"t"}"#,
        ),
        (
            "float 1e21 vs integer 10^21",
            call(obj(vec![
                ("f", float(1e21)),
                ("i", int(1_000_000_000_000_000_000_000)),
            ])),
            r#"{"args":{"f":1e+21,"i":1000000000000000000000},"tool_name":"t"}"#,
        ),
        (
            "small floats",
            call(obj(vec![
                ("a", float(1e-7)),
                ("b", float(0.000001)),
                ("c", float(5e-324)),
            ])),
            r#"{"args":{"a":1e-7,"b":0.000001,"c":5e-324},"tool_name":"t"}"#,
        ),
        (
            "escapes",
            obj(vec![
                ("tool_name", s("é")),
                ("args", obj(vec![("s", s("\u{2028}\u{7f}\u{1f600}"))])),
            ]),
            r#"{"args":{"s":"\u2028\u007f\ud83d\ude00"},"tool_name":"\u00e9"}"#,
        ),
        (
            "code point order",
            call(obj_keys(vec![
                (Key::from("\u{ff61}"), int(1)),
                (astral_key, int(2)),
            ])),
            r#"{"args":{"\uff61":1,"\ud83d\ude00":2},"tool_name":"t"}"#,
        ),
        (
            "ordinary keys",
            call(obj(vec![
                ("__proto__", int(1)),
                ("1", int(2)),
                ("01", int(3)),
                ("", int(4)),
            ])),
            r#"{"args":{"":4,"01":3,"1":2,"__proto__":1},"tool_name":"t"}"#,
        ),
    ];
    for (name, value, expected) in &cases {
        assert_eq!(ok(value), *expected, "example {name}");
    }
}

#[test]
fn signature_is_lowercase_hex_blake3_of_the_canonical_text() {
    let ping = obj(vec![("tool_name", s("ping")), ("args", obj(vec![]))]);
    let sig = signature(&ping).unwrap();
    assert_eq!(sig.len(), 64);
    assert!(sig
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
    let bytes = br#"{"args":{},"tool_name":"ping"}"#;
    assert_eq!(bytes.len(), 30);
    assert_eq!(sig, blake3::hash(bytes).to_hex().as_str());
    assert_eq!(digest(&ping).unwrap(), *blake3::hash(bytes).as_bytes());
    // The published BLAKE3 vector for empty input pins the hash itself.
    assert_eq!(
        blake3::hash(b"").to_hex().as_str(),
        "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"
    );
}

#[test]
fn errors_carry_their_code_into_signature_and_digest() {
    let bad = arr(vec![]);
    assert_eq!(signature(&bad).unwrap_err().code(), "bad_envelope");
    assert_eq!(digest(&bad).unwrap_err().kind(), ErrorCode::BadEnvelope);
    let e = canonical(&bad).unwrap_err();
    assert!(e.to_string().starts_with("bad_envelope: "), "{e}");
    assert!(!e.message().is_empty());
}

#[test]
fn error_code_spellings() {
    let spelled: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(
        spelled,
        [
            "too_deep",
            "non_string_key",
            "lone_surrogate",
            "duplicate_key",
            "unsupported_value",
            "bad_envelope"
        ]
    );
}

// --- floats (spec 4.5) ---------------------------------------------------------

#[test]
fn float_vectors() {
    assert_member_texts(&[
        ("NaN", float(f64::NAN), "NaN"),
        (
            "NaN with payload",
            float(f64::from_bits(0x7ff8_dead_beef_0001)),
            "NaN",
        ),
        ("negative NaN", float(-f64::NAN), "NaN"),
        ("+Infinity", float(f64::INFINITY), "Infinity"),
        ("-Infinity", float(f64::NEG_INFINITY), "-Infinity"),
        ("-0.0", float(-0.0), "0"),
        ("+0.0", float(0.0), "0"),
        ("5e-324", float(5e-324), "5e-324"),
        ("-5e-324", float(-5e-324), "-5e-324"),
        ("1e21", float(1e21), "1e+21"),
        ("-1e21", float(-1e21), "-1e+21"),
        ("1e-7", float(1e-7), "1e-7"),
        ("1e-6", float(1e-6), "0.000001"),
        ("-1e-6", float(-1e-6), "-0.000001"),
        ("9.99e-7", float(9.99e-7), "9.99e-7"),
        (
            "2^53+1 as float",
            float(9007199254740993.0),
            "9007199254740992",
        ),
        (
            "2^53-1 as float",
            float(9007199254740991.0),
            "9007199254740991",
        ),
        (
            "-(2^53-1) as float",
            float(-9007199254740991.0),
            "-9007199254740991",
        ),
        ("max double", float(f64::MAX), "1.7976931348623157e+308"),
        ("min double", float(f64::MIN), "-1.7976931348623157e+308"),
        ("0.1", float(0.1), "0.1"),
        ("1.5", float(1.5), "1.5"),
        ("123.456", float(123.456), "123.456"),
        ("1e20", float(1e20), "100000000000000000000"),
        ("1.0", float(1.0), "1"),
        ("123.0", float(123.0), "123"),
        ("1.5e300", float(1.5e300), "1.5e+300"),
        ("1.5e-300", float(1.5e-300), "1.5e-300"),
        ("1.2345e21", float(1.2345e21), "1.2345e+21"),
        (
            "123456789012345680000",
            float(123456789012345680000.0),
            "123456789012345680000",
        ),
        ("0.000001234", float(0.000001234), "0.000001234"),
        ("1.234e-7", float(1.234e-7), "1.234e-7"),
        (
            "smallest normal",
            float(f64::MIN_POSITIVE),
            "2.2250738585072014e-308",
        ),
        ("0.1+0.2", float(0.1 + 0.2), "0.30000000000000004"),
        ("-1.5", float(-1.5), "-1.5"),
    ]);
}

/// Shortest round-trip digits of `x > 0` and the spec's `n`, from std alone.
/// std's `{:e}` gives a shortest form but breaks exact ties upwards, while
/// ECMAScript (like Python's repr) takes the even one, so ties are detected
/// from the exact expansion and resolved here.
fn shortest_digits(x: f64) -> (String, i32) {
    let split = |text: &str| {
        let (mantissa, exp) = text.split_once('e').unwrap();
        let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
        (digits, exp.parse::<i32>().unwrap() + 1)
    };
    let (digits, n) = split(&format!("{x:e}"));
    let k = digits.len();
    // A tie needs k+1 significant digits ending in 5; probe cheaply first.
    if !split(&format!("{x:.k$e}")).0.ends_with('5') {
        return (digits, n);
    }
    // 800 digits after the point hold any double's expansion exactly.
    let (exact, exact_n) = split(&format!("{x:.800e}"));
    let exact = exact.trim_end_matches('0');
    if exact.len() != k + 1 || !exact.ends_with('5') {
        return (digits, n);
    }
    let down = exact[..k].to_owned();
    if (down.as_bytes()[k - 1] - b'0').is_multiple_of(2) {
        let chosen = down.trim_end_matches('0').to_owned();
        let back: f64 = format!("0.{chosen}e{exact_n}").parse().unwrap();
        assert_eq!(back, x, "tie-even candidate must round-trip");
        return (chosen, exact_n);
    }
    (digits, n) // down is odd, so the even candidate is the upward one std chose
}

/// Independent oracle for spec 4.5: the layout rules written out from the spec.
fn ecmascript_layout(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if f == 0.0 {
        return "0".into();
    }
    let sign = if f < 0.0 { "-" } else { "" };
    let (digits, n) = shortest_digits(f.abs());
    let k = digits.len() as i32;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let sign_e = if e >= 0 { "+" } else { "-" };
        let rest = if k > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        format!("{}{rest}e{sign_e}{}", &digits[..1], e.abs())
    };
    format!("{sign}{body}")
}

#[test]
fn exact_ties_round_to_even_digits() {
    // 667082108456853.25 exactly: .2 and .3 both round-trip; ECMAScript,
    // Python and Node print .2.
    let tie = f64::from_bits(0x4302_f5a9_40e2_7caa);
    assert_eq!(float_text(tie), "667082108456853.2");
    assert_eq!(ecmascript_layout(tie), "667082108456853.2");
}

fn float_text(f: f64) -> String {
    let mut out = Vec::new();
    write_float(f, &mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn float_layout_matches_the_spec_oracle_on_many_doubles() {
    // Boundaries of every layout branch, then a deterministic spread of bit
    // patterns across the whole exponent range.
    let mut samples: Vec<f64> = Vec::new();
    for e in -330..=310 {
        let p = format!("1e{e}").parse::<f64>().unwrap();
        samples.extend([p, p * 1.5, p * 9.99, p * 0.999_999_999_999_999_9]);
        samples.extend([p.next_up(), p.next_down()]);
    }
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..200_000 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        samples.push(f64::from_bits(state));
    }
    samples.extend([
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        2f64.powi(53),
        2f64.powi(70),
    ]);
    for f in samples {
        for x in [f, -f] {
            assert_eq!(
                float_text(x),
                ecmascript_layout(x),
                "bits {:#018x}",
                x.to_bits()
            );
        }
    }
}

// --- integers (spec 4.4) --------------------------------------------------------

#[test]
fn integer_vectors() {
    let p53 = 1i128 << 53;
    assert_member_texts(&[
        ("0", int(0), "0"),
        ("-1", int(-1), "-1"),
        ("2^53-1", int(p53 - 1), "9007199254740991"),
        ("2^53", int(p53), "9007199254740992"),
        ("2^53+1", int(p53 + 1), "9007199254740993"),
        ("-(2^53-1)", int(-(p53 - 1)), "-9007199254740991"),
        ("-2^53", int(-p53), "-9007199254740992"),
        ("-(2^53+1)", int(-(p53 + 1)), "-9007199254740993"),
        ("2^63", int(1 << 63), "9223372036854775808"),
        ("-2^63", int(i64::MIN.into()), "-9223372036854775808"),
        ("2^64-1", int(u64::MAX.into()), "18446744073709551615"),
        ("2^64", int(1 << 64), "18446744073709551616"),
        ("-2^64", int(-(1 << 64)), "-18446744073709551616"),
        (
            "10^30",
            int(10i128.pow(30)),
            "1000000000000000000000000000000",
        ),
        (
            "-10^30",
            int(-(10i128.pow(30))),
            "-1000000000000000000000000000000",
        ),
        (
            "big 2^63",
            big("9223372036854775808"),
            "9223372036854775808",
        ),
        (
            "big 2^64",
            big("18446744073709551616"),
            "18446744073709551616",
        ),
        (
            "big -2^64",
            big("-18446744073709551616"),
            "-18446744073709551616",
        ),
        (
            "big 10^30",
            big("1000000000000000000000000000000"),
            "1000000000000000000000000000000",
        ),
        (
            "big -10^30",
            big("-1000000000000000000000000000000"),
            "-1000000000000000000000000000000",
        ),
        (
            "big 10^40",
            big(&format!("1{}", "0".repeat(40))),
            &format!("1{}", "0".repeat(40)),
        ),
        ("big 5", big("5"), "5"),
        ("big -0 is 0", big("-0"), "0"),
    ]);
}

#[test]
fn integer_and_float_are_distinct_types_that_may_print_alike() {
    let as_int = ok(&call(obj(vec![("v", int(1))])));
    let as_float = ok(&call(obj(vec![("v", float(1.0))])));
    assert_eq!(as_int, as_float);
    assert_ne!(int(1), float(1.0));
    assert_ne!(
        ok(&call(obj(vec![("v", int(1_000_000_000_000_000_000_000))]))),
        ok(&call(obj(vec![("v", float(1e21))])))
    );
}

#[test]
fn big_int_parse_accepts_exactly_the_decimal_syntax() {
    let cases: &[(&str, Option<&str>)] = &[
        ("0", Some("0")),
        ("-0", Some("0")),
        ("7", Some("7")),
        ("-7", Some("-7")),
        (
            "123456789012345678901234567890",
            Some("123456789012345678901234567890"),
        ),
        ("", None),
        ("-", None),
        ("00", None),
        ("01", None),
        ("-01", None),
        ("+1", None),
        ("1e3", None),
        ("1.0", None),
        (" 1", None),
        ("1 ", None),
        ("--1", None),
        ("0x10", None),
        ("١", None),
    ];
    for (text, want) in cases {
        let got = BigInt::parse(text);
        assert_eq!(got.as_ref().map(BigInt::as_str), *want, "parse {text:?}");
    }
}

// --- strings (spec 4.3) ---------------------------------------------------------

#[test]
fn string_vectors() {
    let long_ascii = "a".repeat(100_000);
    let long_quoted = format!("\"{long_ascii}\"");
    assert_member_texts(&[
        ("empty", s(""), r#""""#),
        ("quote", s("\""), r#""\"""#),
        ("backslash", s("\\"), r#""\\""#),
        ("slash stays", s("a/b"), r#""a/b""#),
        ("html stays", s("<>&'"), r#""<>&'""#),
        ("short escapes", s("\u{8}\u{c}\n\r\t"), r#""\b\f\n\r\t""#),
        ("NUL", s("\0"), r#""\u0000""#),
        ("US", s("\u{1f}"), r#""\u001f""#),
        ("space", s(" "), r#"" ""#),
        ("tilde", s("~"), r#""~""#),
        ("DEL", s("\u{7f}"), r#""\u007f""#),
        ("U+0080", s("\u{80}"), r#""\u0080""#),
        ("e acute", s("é"), r#""\u00e9""#),
        ("U+2028", s("\u{2028}"), r#""\u2028""#),
        ("U+2029", s("\u{2029}"), r#""\u2029""#),
        ("BOM", s("\u{feff}"), r#""\ufeff""#),
        ("U+E000", s("\u{e000}"), r#""\ue000""#),
        ("U+FFFF", s("\u{ffff}"), r#""\uffff""#),
        ("U+10000", s("\u{10000}"), r#""\ud800\udc00""#),
        ("U+1F600", s("\u{1f600}"), r#""\ud83d\ude00""#),
        ("U+10FFFF", s("\u{10ffff}"), r#""\udbff\udfff""#),
        ("mixed", s("a\"b\\c\u{1}d€e"), r#""a\"b\\c\u0001d\u20ace""#),
        ("100,000 chars", s(&long_ascii), &long_quoted),
    ]);
}

#[test]
fn every_control_character_and_del() {
    let short = [
        (8u32, "\\b"),
        (9, "\\t"),
        (10, "\\n"),
        (12, "\\f"),
        (13, "\\r"),
    ];
    for cp in (0u32..0x20).chain([0x7f]) {
        let c = char::from_u32(cp).unwrap();
        let want = short
            .iter()
            .find(|(code, _)| *code == cp)
            .map(|(_, esc)| esc.to_string())
            .unwrap_or_else(|| format!("\\u{cp:04x}"));
        assert_member_texts(&[("control", s(&c.to_string()), &format!("\"{want}\""))]);
    }
}

#[test]
fn every_printable_ascii_character_but_quote_and_backslash_is_itself() {
    for b in 0x20u8..0x7f {
        let c = b as char;
        let want = match c {
            '"' => "\\\"".to_owned(),
            '\\' => "\\\\".to_owned(),
            _ => c.to_string(),
        };
        assert_member_texts(&[("printable", s(&c.to_string()), &format!("\"{want}\""))]);
    }
}

#[test]
fn long_non_ascii_string() {
    let text = "é\u{1f600}".repeat(50_000);
    let want = format!("\"{}\"", "\\u00e9\\ud83d\\ude00".repeat(50_000));
    assert_member_texts(&[("100,000 non-ASCII chars", s(&text), &want)]);
}

#[test]
fn keys_are_escaped_like_values() {
    let v = call(obj(vec![("\n\u{e9}\u{1f600}\"", int(1))]));
    assert_eq!(
        ok(&v),
        r#"{"args":{"\n\u00e9\ud83d\ude00\"":1},"tool_name":"t"}"#
    );
}

// --- key order (spec 4.2) ------------------------------------------------------------

#[test]
fn key_order_vectors() {
    let astral = || Key::from_utf16(vec![0xd83d, 0xde00]);
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "U+FF61 before U+1F600 (code points, not UTF-16 units)",
            obj_keys(vec![(astral(), int(2)), (Key::from("\u{ff61}"), int(1))]),
            r#"{"\uff61":1,"\ud83d\ude00":2}"#,
        ),
        (
            "U+E000 and U+FFFF before astral",
            obj(vec![
                ("\u{10000}", int(1)),
                ("\u{ffff}", int(2)),
                ("\u{e000}", int(3)),
            ]),
            r#"{"\ue000":3,"\uffff":2,"\ud800\udc00":1}"#,
        ),
        (
            "prefix first",
            obj(vec![
                ("b", int(1)),
                ("ab", int(2)),
                ("a", int(3)),
                ("", int(4)),
            ]),
            r#"{"":4,"a":3,"ab":2,"b":1}"#,
        ),
        (
            "digit keys are strings",
            obj(vec![("2", int(1)), ("10", int(2)), ("1", int(3))]),
            r#"{"1":3,"10":2,"2":1}"#,
        ),
        (
            "special names are ordinary",
            obj(vec![
                ("constructor", int(1)),
                ("__proto__", int(2)),
                ("01", int(3)),
                ("1", int(4)),
                ("", int(5)),
                ("toString", int(6)),
            ]),
            r#"{"":5,"01":3,"1":4,"__proto__":2,"constructor":1,"toString":6}"#,
        ),
        (
            "upper case before lower case",
            obj(vec![("a", int(1)), ("B", int(2)), ("_", int(3))]),
            r#"{"B":2,"_":3,"a":1}"#,
        ),
        (
            "nested objects sorted too",
            obj(vec![
                (
                    "z",
                    obj(vec![
                        ("y", int(1)),
                        ("x", arr(vec![obj(vec![("b", int(1)), ("a", int(2))])])),
                    ]),
                ),
                ("a", Value::Null),
            ]),
            r#"{"a":null,"z":{"x":[{"a":2,"b":1}],"y":1}}"#,
        ),
    ];
    for (name, args, want) in cases {
        let got = ok(&call(args));
        assert_eq!(
            got,
            format!(r#"{{"args":{want},"tool_name":"t"}}"#),
            "{name}"
        );
    }
}

#[test]
fn large_objects_sort_and_keep_every_member() {
    let members: Vec<(String, Value)> = (0..200)
        .rev()
        .map(|i| (format!("k{i:03}"), int(i)))
        .collect();
    let args = Value::Object(members.into_iter().map(|(k, v)| (Key::Str(k), v)).collect());
    let inner: Vec<String> = (0..200).map(|i| format!("\"k{i:03}\":{i}")).collect();
    assert_eq!(
        ok(&call(args)),
        format!(r#"{{"args":{{{}}},"tool_name":"t"}}"#, inner.join(","))
    );
}

// --- structure -------------------------------------------------------------------------

#[test]
fn structure_vectors() {
    assert_member_texts(&[
        ("null", Value::Null, "null"),
        ("true", Value::Bool(true), "true"),
        ("false", Value::Bool(false), "false"),
        ("empty array", arr(vec![]), "[]"),
        ("empty object", obj(vec![]), "{}"),
        (
            "nested empties",
            arr(vec![arr(vec![]), obj(vec![]), arr(vec![obj(vec![])])]),
            "[[],{},[{}]]",
        ),
        (
            "array order kept",
            arr(vec![int(3), int(1), int(2)]),
            "[3,1,2]",
        ),
        (
            "mixed",
            arr(vec![s("x"), float(2.5), Value::Null, Value::Bool(false)]),
            r#"["x",2.5,null,false]"#,
        ),
    ]);
}

#[test]
fn envelope_member_order_does_not_matter() {
    let reversed = obj(vec![("args", obj(vec![])), ("tool_name", s("t"))]);
    assert_eq!(ok(&reversed), r#"{"args":{},"tool_name":"t"}"#);
}

// --- depth (spec section 3) -------------------------------------------------------------

/// `{"tool_name":"t","args":{"a":<k nested arrays>}}` has depth k + 2.
fn call_of_depth(depth: usize) -> Value {
    call(obj(vec![("a", nest(depth - 2))]))
}

#[test]
fn depth_vectors() {
    let want = |depth: usize| {
        format!(
            r#"{{"args":{{"a":{}}},"tool_name":"t"}}"#,
            nest_text(depth - 2)
        )
    };
    assert_eq!(ok(&call(obj(vec![]))), r#"{"args":{},"tool_name":"t"}"#);
    assert_eq!(ok(&call_of_depth(3)), want(3));
    assert_eq!(ok(&call_of_depth(50)), want(50));
    assert_eq!(ok(&call_of_depth(MAX_DEPTH)), want(512));
    assert_eq!(code_of(&call_of_depth(MAX_DEPTH + 1)), "too_deep");
    assert_eq!(code_of(&call_of_depth(1000)), "too_deep");
    // Objects count like arrays.
    let deep_objects = (0..511).fold(obj(vec![]), |inner, _| obj(vec![("k", inner)]));
    assert_eq!(code_of(&call(deep_objects)), "too_deep");
    let ok_objects = (0..509).fold(obj(vec![]), |inner, _| obj(vec![("k", inner)]));
    assert!(canonical(&call(ok_objects)).is_ok());
    // Bare arrays: the walk passes at 512 (then the envelope fails) and stops at 513.
    assert_eq!(code_of(&nest(512)), "bad_envelope");
    assert_eq!(code_of(&nest(513)), "too_deep");
    assert_eq!(code_of(&nest(1000)), "too_deep");
}

/// A quarter of a default thread stack: enough for the walk's ~513 levels
/// even in a debug build, far too small for recursion that does not stop there.
const SMALL_STACK: usize = 512 << 10;

#[test]
fn depth_1000_neither_validation_nor_drop_overflows_a_small_stack() {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(|| {
            for value in [nest(1000), call_of_depth(1000)] {
                assert_eq!(code_of(&value), "too_deep");
                drop(value);
            }
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
}

#[test]
fn validation_stops_at_the_limit_however_deep_the_value() {
    let deep = nest(200_000);
    let result = std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(move || {
            let code = code_of(&deep);
            // Dropping 200,000 levels recurses; that is the caller's value,
            // not the library's walk, so keep it out of this small stack.
            std::mem::forget(deep);
            code
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert_eq!(result, "too_deep");
}

// --- errors and precedence (spec section 3) ------------------------------------------------

#[test]
fn error_vectors() {
    let many = |dup_at: usize, lone_at: Option<usize>| {
        let members = (0..30).map(|i| {
            let key = if i == dup_at {
                "k05".to_owned()
            } else {
                format!("k{i:02}")
            };
            let value = if Some(i) == lone_at {
                lone(&[0xd800])
            } else {
                int(i as i128)
            };
            (Key::Str(key), value)
        });
        Value::Object(members.collect())
    };
    let cases: Vec<(&str, Value, &str)> = vec![
        // Spec examples, in the spec's order.
        (
            "dup",
            call(obj(vec![("a", int(1)), ("a", int(2))])),
            "duplicate_key",
        ),
        (
            "lone tool_name",
            obj(vec![("tool_name", lone(&[0xd800])), ("args", obj(vec![]))]),
            "lone_surrogate",
        ),
        (
            "dup key before its lone value",
            call(obj(vec![("a", int(1)), ("a", lone(&[0xdc00]))])),
            "duplicate_key",
        ),
        (
            "lone keys before duplicate check",
            obj_keys(vec![
                (
                    Key::from("args"),
                    obj_keys(vec![
                        (lone_key(&[0xdc00]), int(1)),
                        (lone_key(&[0xdc00]), int(2)),
                    ]),
                ),
                (Key::from("tool_name"), s("t")),
            ]),
            "lone_surrogate",
        ),
        (
            "args array",
            obj(vec![("tool_name", s("t")), ("args", arr(vec![]))]),
            "bad_envelope",
        ),
        (
            "tool_name int",
            obj(vec![("tool_name", int(1)), ("args", obj(vec![]))]),
            "bad_envelope",
        ),
        (
            "extra member",
            obj(vec![
                ("tool_name", s("t")),
                ("args", obj(vec![])),
                ("x", Value::Null),
            ]),
            "bad_envelope",
        ),
        ("513 arrays", nest(513), "too_deep"),
        (
            "walk before envelope",
            obj(vec![
                ("tool_name", s("t")),
                ("args", obj(vec![("a", int(1)), ("a", int(1))])),
                ("x", int(0)),
            ]),
            "duplicate_key",
        ),
        // Each code on its own.
        (
            "non-string key",
            call(obj_keys(vec![(Key::NonString(Box::new(int(1))), s("x"))])),
            "non_string_key",
        ),
        (
            "null key",
            call(obj_keys(vec![(
                Key::NonString(Box::new(Value::Null)),
                int(1),
            )])),
            "non_string_key",
        ),
        (
            "lone in array",
            call(obj(vec![("a", arr(vec![int(1), lone(&[0xdbff])]))])),
            "lone_surrogate",
        ),
        (
            "low then high is two lone",
            call(obj(vec![("a", lone(&[0xde00, 0xd83d]))])),
            "lone_surrogate",
        ),
        (
            "lone key",
            call(obj_keys(vec![(lone_key(&[0x61, 0xd800]), int(1))])),
            "lone_surrogate",
        ),
        (
            "unsupported value",
            call(obj(vec![("a", Value::Unsupported("bin".into()))])),
            "unsupported_value",
        ),
        (
            "unreadable key is a non-string key, not its value's error",
            call(obj_keys(vec![(
                Key::NonString(Box::new(Value::Unsupported("odd ext 2".into()))),
                int(1),
            )])),
            "non_string_key",
        ),
        ("top-level array", arr(vec![]), "bad_envelope"),
        ("top-level scalar", s("x"), "bad_envelope"),
        ("top-level null", Value::Null, "bad_envelope"),
        ("empty object", obj(vec![]), "bad_envelope"),
        (
            "missing args",
            obj(vec![("tool_name", s("t"))]),
            "bad_envelope",
        ),
        (
            "missing tool_name",
            obj(vec![("args", obj(vec![]))]),
            "bad_envelope",
        ),
        (
            "args null",
            obj(vec![("tool_name", s("t")), ("args", Value::Null)]),
            "bad_envelope",
        ),
        (
            "tool_name float",
            obj(vec![("tool_name", float(1.0)), ("args", obj(vec![]))]),
            "bad_envelope",
        ),
        (
            "wrong names",
            obj(vec![("tool", s("t")), ("args", obj(vec![]))]),
            "bad_envelope",
        ),
        (
            "dup tool_name",
            obj(vec![
                ("tool_name", s("t")),
                ("tool_name", s("u")),
                ("args", obj(vec![])),
            ]),
            "duplicate_key",
        ),
        // Order between codes: first found in pre-order, input order.
        (
            "non-string key before its lone value",
            call(obj_keys(vec![(
                Key::NonString(Box::new(int(1))),
                lone(&[0xd800]),
            )])),
            "non_string_key",
        ),
        (
            "earlier lone value before later non-string key",
            call(obj_keys(vec![
                (Key::from("a"), lone(&[0xd800])),
                (Key::NonString(Box::new(int(1))), int(1)),
            ])),
            "lone_surrogate",
        ),
        (
            "unsupported value before later duplicate",
            call(obj(vec![
                ("a", Value::Unsupported("bin".into())),
                ("a", int(1)),
            ])),
            "unsupported_value",
        ),
        (
            "lone before deeper too_deep",
            call(obj(vec![("a", lone(&[0xd800])), ("b", nest(600))])),
            "lone_surrogate",
        ),
        (
            "too_deep before later lone",
            call(obj(vec![("b", nest(600)), ("a", lone(&[0xd800]))])),
            "too_deep",
        ),
        (
            "too_deep in tool_name beats bad envelope",
            obj(vec![("tool_name", nest(600)), ("args", obj(vec![]))]),
            "too_deep",
        ),
        (
            "third occurrence is not first",
            call(obj(vec![
                ("a", int(1)),
                ("b", int(1)),
                ("b", int(2)),
                ("a", int(3)),
            ])),
            "duplicate_key",
        ),
        (
            "valid surrogate pair key equals its str twin",
            call(obj_keys(vec![
                (Key::from("\u{1f600}"), int(1)),
                (Key::from_utf16(vec![0xd83d, 0xde00]), int(2)),
            ])),
            "duplicate_key",
        ),
        // Large objects take the sorting path of duplicate detection.
        ("large: dup", call(many(25, None)), "duplicate_key"),
        (
            "large: lone before dup",
            call(many(25, Some(10))),
            "lone_surrogate",
        ),
        (
            "large: dup before lone",
            call(many(25, Some(27))),
            "duplicate_key",
        ),
        (
            "large: dup key before its own lone value",
            call(many(25, Some(25))),
            "duplicate_key",
        ),
    ];
    for (name, value, want) in &cases {
        assert_eq!(code_of(value), *want, "case {name}");
    }
}

#[test]
fn first_duplicate_agrees_between_pairwise_and_sorting_paths() {
    // Same key pattern padded past the pairwise limit must give the same index.
    let patterns: &[&[&str]] = &[
        &["a", "b", "a"],
        &["a", "b", "b", "a"],
        &["x", "y", "z"],
        &["q", "q"],
    ];
    for pattern in patterns {
        let small: Vec<(Key, Value)> = pattern
            .iter()
            .map(|k| (Key::from(*k), Value::Null))
            .collect();
        let mut large = small.clone();
        large.extend((0..40).map(|i| (Key::Str(format!("pad{i}")), Value::Null)));
        assert_eq!(
            first_duplicate(&small),
            first_duplicate(&large),
            "{pattern:?}"
        );
    }
    let keys = ["p", "q", "r", "q", "p"];
    let members: Vec<(Key, Value)> = keys.iter().map(|k| (Key::from(*k), Value::Null)).collect();
    assert_eq!(first_duplicate(&members), Some(3));
}

#[test]
fn utf16_constructors_classify_once() {
    assert_eq!(
        Value::from_utf16(vec![0x61, 0xd83d, 0xde00]),
        s("a\u{1f600}")
    );
    assert!(matches!(
        Value::from_utf16(vec![0xd83d]),
        Value::LoneSurrogates(_)
    ));
    assert_eq!(Key::from_utf16(vec![0x62]), Key::from("b"));
    match Key::from_utf16(vec![0xdfff, 0x62]) {
        Key::LoneSurrogates(l) => assert_eq!(l.units(), &[0xdfff, 0x62]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn canonical_into_appends_and_leaves_buffer_alone_on_error() {
    let mut out = b"prefix:".to_vec();
    canonical_into(&call(obj(vec![])), &mut out).unwrap();
    assert_eq!(out, br#"prefix:{"args":{},"tool_name":"t"}"#);
    let before = out.clone();
    assert!(canonical_into(&call(obj(vec![("a", lone(&[0xd800]))])), &mut out).is_err());
    assert_eq!(out, before);
}
