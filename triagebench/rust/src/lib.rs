//! The SDK that trusts its input: it takes the tool call apart with
//! `unwrap` (a missing `tool_name` or a text that does not parse panics),
//! writes floats with `f64`'s `Display` (never an exponent), and escapes
//! each non-ASCII `char` as `\u` and its code point in hex, however many
//! digits that takes. It knows nothing of the protocol (see `src/bin`).
//! The bugs are listed in `triagebench/impls/rust-unwrap.toml`.
use serde_json::Value;
use std::io::Write;

/// The canonical text of a tool call given as a `Value`; panics when the
/// call is not an object with a string `tool_name` and an object `args`.
pub fn canonical(call: &Value, out: &mut Vec<u8>) {
    let call = call.as_object().unwrap();
    let name = call["tool_name"].as_str().unwrap();
    let args = call["args"].as_object().unwrap();
    out.extend_from_slice(b"{\"args\":");
    write_object(args, out);
    out.extend_from_slice(b",\"tool_name\":");
    write_string(name, out);
    out.push(b'}');
}

/// The canonical text of a tool call given as JSON text; panics when the
/// text does not parse.
pub fn canonical_text(text: &str, out: &mut Vec<u8>) {
    let call: Value = serde_json::from_str(text).unwrap();
    canonical(&call, out);
}

fn write_value(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => write!(out, "{b}").unwrap(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => write!(out, "{i}").unwrap(),
            (_, Some(u)) => write!(out, "{u}").unwrap(),
            _ => write!(out, "{}", n.as_f64().unwrap()).unwrap(),
        },
        Value::String(s) => write_string(s, out),
        Value::Array(a) => {
            out.push(b'[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(x, out);
            }
            out.push(b']');
        }
        Value::Object(o) => write_object(o, out),
    }
}

/// Writes an object; serde_json's default `Map` is a `BTreeMap`, so its
/// keys come sorted.
fn write_object(o: &serde_json::Map<String, Value>, out: &mut Vec<u8>) {
    out.push(b'{');
    for (i, (k, v)) in o.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_string(k, out);
        out.push(b':');
        write_value(v, out);
    }
    out.push(b'}');
}

fn write_string(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                write!(out, "\\u{:04x}", c as u32).unwrap()
            }
            c => out.push(c as u8),
        }
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> String {
        let mut out = Vec::new();
        canonical_text(t, &mut out);
        String::from_utf8(out).unwrap()
    }

    /// The planted bugs are really there: the benchmark's cause list counts on them.
    #[test]
    fn planted_bugs() {
        let cases = [
            (
                r#"{"tool_name":"t","args":{"a":1e21}}"#,
                r#"{"args":{"a":1000000000000000000000},"tool_name":"t"}"#,
            ),
            (
                r#"{"tool_name":"t","args":{"a":1e-7}}"#,
                r#"{"args":{"a":0.0000001},"tool_name":"t"}"#,
            ),
            (
                r#"{"tool_name":"\ud83d\ude00","args":{}}"#,
                r#"{"args":{},"tool_name":"\u1f600"}"#,
            ),
            (
                r#"{"tool_name":"t","args":{},"x":1}"#,
                r#"{"args":{},"tool_name":"t"}"#,
            ),
            (
                r#"{"tool_name":"t","args":{"a":1,"a":2}}"#,
                r#"{"args":{"a":2},"tool_name":"t"}"#,
            ),
        ];
        for (input, want) in cases {
            assert_eq!(text(input), want, "{input}");
        }
    }

    #[test]
    #[should_panic(expected = "called `Result::unwrap()` on an `Err` value")]
    fn nan_panics() {
        text(r#"{"tool_name":"t","args":{"a":NaN}}"#);
    }

    #[test]
    #[should_panic(expected = "no entry found for key")]
    fn missing_tool_name_panics() {
        text(r#"{"args":{}}"#);
    }
}
