//! The native model: `serde_json::Value`, what a Rust SDK receives in
//! production (feature `serde_json`).
//!
//! serde_json is built with its default features, so `Map` is a `BTreeMap`:
//! members come out sorted by key (byte order, which is code-point order)
//! and input order is gone, as it would be in the SDK. A case the model
//! cannot hold is never converted lossily; the kit answers it
//! `inexpressible`:
//!
//! | the case holds | reason |
//! |---|---|
//! | an integer outside i64 and u64 | `big_int` |
//! | NaN or an infinity (`Number` is finite) | `non_finite` |
//! | a lone surrogate (`String` cannot hold one) | `lone_surrogate` |
//! | bin, an unknown or malformed ext, a str that is not UTF-8 | `unsupported_value` |
//! | a key that is not a string | `non_string_key` |
//! | a key repeated in one object (compared after decoding) | `duplicate_key` |

use serde_json::{Map, Number, Value};

use crate::{Built, Inexpressible, Model, ModelKind, Reason};

/// The native model over `serde_json::Value`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Native;

fn refuse<T>(reason: Reason, message: impl Into<std::borrow::Cow<'static, str>>) -> Built<T> {
    Err(Inexpressible::new(reason, message))
}

fn text_of_utf16(units: &[u16]) -> Built<String> {
    String::from_utf16(units)
        .or_else(|_| refuse(Reason::LoneSurrogate, "String cannot hold a lone surrogate"))
}

impl Model for Native {
    type Value = Value;
    type Key = String;
    type Array = Vec<Value>;
    type Object = Map<String, Value>;

    const KIND: ModelKind = ModelKind::Native;
    const INEXPRESSIBLE: &'static [Reason] = &Reason::ALL;

    fn null(&mut self) -> Built<Value> {
        Ok(Value::Null)
    }

    fn bool(&mut self, b: bool) -> Built<Value> {
        Ok(Value::Bool(b))
    }

    fn int(&mut self, i: i128) -> Built<Value> {
        if let Ok(n) = i64::try_from(i) {
            Ok(Value::Number(n.into()))
        } else if let Ok(n) = u64::try_from(i) {
            Ok(Value::Number(n.into()))
        } else {
            refuse(Reason::BigInt, format!("{i} is outside i64 and u64"))
        }
    }

    fn big_int(&mut self, decimal: &str) -> Built<Value> {
        // The decimal syntax is checked; only the range can fail here, and
        // "-0" parses as 0, which is what the integer is.
        match decimal.parse::<i128>() {
            Ok(i) => self.int(i),
            Err(_) => refuse(Reason::BigInt, format!("{decimal} is outside i64 and u64")),
        }
    }

    fn float(&mut self, f: f64) -> Built<Value> {
        match Number::from_f64(f) {
            Some(n) => Ok(Value::Number(n)),
            None => refuse(Reason::NonFinite, format!("Number cannot hold {f}")),
        }
    }

    fn str(&mut self, s: &str) -> Built<Value> {
        Ok(Value::String(s.to_owned()))
    }

    fn utf16(&mut self, units: Vec<u16>) -> Built<Value> {
        text_of_utf16(&units).map(Value::String)
    }

    fn unsupported(&mut self, what: &str) -> Built<Value> {
        refuse(Reason::UnsupportedValue, what.to_owned())
    }

    fn array(&mut self, capacity: usize) -> Built<Vec<Value>> {
        Ok(Vec::with_capacity(capacity))
    }

    fn push(&mut self, array: &mut Vec<Value>, item: Value) -> Built<()> {
        array.push(item);
        Ok(())
    }

    fn end_array(&mut self, array: Vec<Value>) -> Built<Value> {
        Ok(Value::Array(array))
    }

    fn object(&mut self, _capacity: usize) -> Built<Map<String, Value>> {
        Ok(Map::new())
    }

    fn key_str(&mut self, s: &str) -> Built<String> {
        Ok(s.to_owned())
    }

    fn key_utf16(&mut self, units: Vec<u16>) -> Built<String> {
        text_of_utf16(&units)
    }

    fn non_string_key(&mut self) -> Built<()> {
        refuse(Reason::NonStringKey, "Map keys are strings")
    }

    fn key_value(&mut self, _key: Value) -> Built<String> {
        // non_string_key refuses first, so this is never reached.
        self.non_string_key().map(|()| String::new())
    }

    fn check_key(&mut self, object: &Map<String, Value>, key: &String) -> Built<()> {
        if object.contains_key(key) {
            return refuse(
                Reason::DuplicateKey,
                format!("key {key:?} repeated: Map would keep one"),
            );
        }
        Ok(())
    }

    fn insert(&mut self, object: &mut Map<String, Value>, key: String, value: Value) -> Built<()> {
        object.insert(key, value);
        Ok(())
    }

    fn end_object(&mut self, object: Map<String, Value>) -> Built<Value> {
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::decode::{decode, Fault};

    /// The case in `bytes` as the native model builds it, or the reason it
    /// cannot.
    fn native(bytes: &[u8]) -> Result<Value, Reason> {
        match decode(&mut Native, bytes) {
            Ok(value) => Ok(value),
            Err(Fault::Inexpressible(why)) => Err(why.reason),
            Err(Fault::Malformed(e)) => panic!("{bytes:x?}: {e}"),
        }
    }

    #[test]
    fn what_a_value_holds_it_holds_exactly() {
        let u64_max = [0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
        assert_eq!(native(&u64_max), Ok(json!(u64::MAX)));
        assert_eq!(native(&[0xd4, 1, b'0']), Ok(json!(0)));
        assert_eq!(native(&[0xd5, 2, b'e', 0]), Ok(json!("e")));
        // Keys come out sorted, as Map (a BTreeMap) keeps them.
        let members = [0x82, 0xa1, b'b', 1, 0xa1, b'a', 0x90];
        let value = native(&members).expect("an object");
        assert_eq!(value, json!({"a": [], "b": 1}));
        assert_eq!(serde_json::to_string(&value).unwrap(), r#"{"a":[],"b":1}"#);
    }

    /// Each of the six reasons, from the case that gives it.
    #[test]
    fn what_a_value_cannot_hold_is_inexpressible() {
        let big = b"18446744073709551616";
        let mut big_int = vec![0xc7, big.len() as u8, 1];
        big_int.extend(big);
        for (bytes, reason) in [
            (&big_int[..], Reason::BigInt),
            (&[0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0], Reason::NonFinite),
            (&[0xd5, 2, 0x00, 0xdc], Reason::LoneSurrogate),
            (&[0x81, 0x01, 0xc0], Reason::NonStringKey),
            (
                &[0x82, 0xa1, b'k', 1, 0xd5, 2, b'k', 0, 2],
                Reason::DuplicateKey,
            ),
            (&[0xc4, 0], Reason::UnsupportedValue),
        ] {
            assert_eq!(native(bytes), Err(reason), "{bytes:x?}");
        }
        assert_eq!(<Native as Model>::INEXPRESSIBLE, Reason::ALL);
    }
}
