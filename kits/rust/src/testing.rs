//! For a team's own tests: the kit's answer to each case, computed in the
//! test's process, with no driver and no protocol around it.
//!
//! [`answer`] hands each [`Case`] to the function through the model
//! exactly as [`crate::serve`] does at protocol 4 (the driver's cases,
//! decoded by the model; the text model's JSON text; a panic caught with its
//! place; an error named by its type) and gives back each case's [`Answer`].
//! A case is built as the driver would send it: a [`Value`] of the
//! protocol's value model, which can say what JSON text and
//! `serde_json::Value` cannot (a repeated key, a lone surrogate, an integer
//! past 64 bits, a key that is not a string), or the JSON text of the text
//! model.
//!
//! ```
//! use difffuzz_kit::testing::{answer, Answer, Case, Value};
//! use difffuzz_kit::{ErrorCode, SpecError, Text};
//!
//! fn canonical(text: &difffuzz_kit::JsonText) -> Result<String, SpecError> {
//!     match text.trim() {
//!         "" => Err(SpecError::new(ErrorCode::BadEnvelope, "no text")),
//!         text => Ok(text.to_owned()),
//!     }
//! }
//!
//! let answers = answer(Text, canonical, [Case::text(" 1 "), Case::text("")]);
//! assert!(matches!(&answers[0], Answer::Canonical { canonical, .. } if canonical == b"1"));
//! assert!(matches!(&answers[1], Answer::Spec(e) if e.code == ErrorCode::BadEnvelope));
//!
//! // A case of an exact or native model: an object with a repeated key.
//! let repeated = Value::Object(vec![(Value::from("a"), Value::Null); 2]);
//! let _case = Case::value(&repeated);
//! ```
//!
//! (What the protocol itself asks of a worker, frames and handshake and
//! bench, is checked by `difffuzz adapter check`, not here.)

use crate::__private::IntoCaseError;
use crate::cases::{Func, Outcome, Work};
use crate::channel::FD_PROTOCOL;
use crate::{Inexpressible, Input, Output, SpecError};

/// Stack for the thread that answers the cases: room for the deepest case
/// the protocol allows, as [`crate::serve`] has.
const STACK_SIZE: usize = 64 << 20;

/// A value of the protocol's value model (docs/adapter-protocol.md,
/// "Values on the wire"), to build a case from.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer: a msgpack int in -2^63 ..= 2^64-1, else its decimal text
    /// in ext 1, as the driver sends a big integer.
    Int(i128),
    /// An integer of any size, as its decimal text (ext 1), checked by the
    /// kit to be `-?(0|[1-9][0-9]*)`.
    BigInt(String),
    /// A float 64 (NaN and the infinities included).
    Float(f64),
    /// A string of valid UTF-8.
    Str(String),
    /// A string as UTF-16 code units (ext 2), lone surrogates included.
    Utf16(Vec<u16>),
    /// Bytes (msgpack bin): outside the value model.
    Bin(Vec<u8>),
    /// An array.
    Array(Vec<Value>),
    /// An object's members in order, repeated keys and keys that are not
    /// strings included.
    Object(Vec<(Value, Value)>),
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(s.to_owned())
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i.into())
    }
}

impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value::Float(f)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

/// A `serde_json::Value` as the driver would send it (feature
/// `serde_json`): integers as ints, other numbers as floats, members in the
/// map's order.
#[cfg(feature = "serde_json")]
impl From<&serde_json::Value> for Value {
    fn from(value: &serde_json::Value) -> Value {
        use serde_json::Value as J;
        match value {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(i), _, _) => Value::Int(i.into()),
                (_, Some(u), _) => Value::Int(u.into()),
                (_, _, f) => Value::Float(f.unwrap_or(f64::NAN)),
            },
            J::String(s) => Value::Str(s.clone()),
            J::Array(items) => Value::Array(items.iter().map(Value::from).collect()),
            J::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (Value::Str(k.clone()), Value::from(v)))
                    .collect(),
            ),
        }
    }
}

impl Value {
    /// The value in msgpack, as the driver writes it.
    fn write(&self, out: &mut Vec<u8>) {
        use rmp::encode as e;
        let fine = "writing to a Vec cannot fail";
        match self {
            Value::Null => e::write_nil(out).expect(fine),
            Value::Bool(b) => e::write_bool(out, *b).expect(fine),
            Value::Int(i) => {
                if let Ok(i) = i64::try_from(*i) {
                    e::write_sint(out, i).map(drop).expect(fine);
                } else if let Ok(u) = u64::try_from(*i) {
                    e::write_uint(out, u).map(drop).expect(fine);
                } else {
                    write_ext(out, 1, i.to_string().as_bytes());
                }
            }
            Value::BigInt(decimal) => write_ext(out, 1, decimal.as_bytes()),
            Value::Float(f) => e::write_f64(out, *f).expect(fine),
            Value::Str(s) => e::write_str(out, s).expect(fine),
            Value::Utf16(units) => {
                let bytes: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
                write_ext(out, 2, &bytes);
            }
            Value::Bin(bytes) => e::write_bin(out, bytes).expect(fine),
            Value::Array(items) => {
                e::write_array_len(out, len32(items.len())).expect(fine);
                items.iter().for_each(|item| item.write(out));
            }
            Value::Object(members) => {
                e::write_map_len(out, len32(members.len())).expect(fine);
                for (key, value) in members {
                    key.write(out);
                    value.write(out);
                }
            }
        }
    }
}

fn write_ext(out: &mut Vec<u8>, ty: i8, payload: &[u8]) {
    rmp::encode::write_ext_meta(out, len32(payload.len()), ty).expect("writing to a Vec");
    out.extend_from_slice(payload);
}

fn len32(len: usize) -> u32 {
    u32::try_from(len).expect("msgpack lengths are 32 bits")
}

/// One case, as the driver sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case(Vec<u8>);

impl Case {
    /// A case of a [`crate::Model`] (exact or native): the value in msgpack.
    pub fn value(value: &Value) -> Case {
        let mut out = Vec::new();
        value.write(&mut out);
        Case(out)
    }

    /// A case of the text model ([`crate::Text`]): JSON text, which the
    /// function gets unchanged.
    pub fn text(json: &str) -> Case {
        let mut out = Vec::new();
        rmp::encode::write_bin(&mut out, json.as_bytes()).expect("writing to a Vec");
        Case(out)
    }

    /// A case written by hand as msgpack, for what [`Value`] cannot spell
    /// (a str that is not UTF-8, an unknown ext type, a chosen int width).
    pub fn msgpack(bytes: impl Into<Vec<u8>>) -> Case {
        Case(bytes.into())
    }
}

/// The kit's answer to one case, as its result in the protocol says it.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The canonical text, and the digest the kit sends: BLAKE3 of the text,
    /// or the SDK's own ([`crate::Signed`]).
    Canonical {
        /// The function's text.
        canonical: Vec<u8>,
        /// The digest sent for it.
        digest: [u8; 32],
    },
    /// The spec's error the function returned.
    Spec(SpecError),
    /// The `internal` result: the function failed or panicked.
    Internal {
        /// The error's type (`serde_json::error::Error`, `Box<dyn Error>`),
        /// or `panic`.
        error_type: String,
        /// The error's text, or `panic: ` and the panic's.
        message: String,
        /// Where a panic was raised; None for an error.
        place: Option<Place>,
    },
    /// The model cannot hold the case: the function was not called.
    Inexpressible(Inexpressible),
}

/// Where a panic was raised, as a result's `frames` say it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// As the compiler gives it (`src/lib.rs`).
    pub file: String,
    /// The line of the `panic!`, or of the call to `unwrap`, `expect` or an
    /// index.
    pub line: u32,
    /// The function around the line, when the build has line tables; ""
    /// without them.
    pub function: String,
}

/// Answers each case as [`crate::serve`] would at protocol 4: decoded by
/// `input`, handed to `f`, its outcome (text, spec error, failure, panic)
/// or the model's refusal. The cases are answered in order by one `input`
/// and one `f`, on a thread with room for the deepest case.
///
/// Panics when a case is not one msgpack value (only [`Case::msgpack`] can
/// make one), as the driver's request would be refused whole.
pub fn answer<I, F, O, E, M>(input: I, f: F, cases: impl IntoIterator<Item = Case>) -> Vec<Answer>
where
    I: Input + Send,
    F: FnMut(&I::Value) -> Result<O, E> + Send,
    O: Output,
    E: IntoCaseError<M>,
{
    let cases: Vec<Case> = cases.into_iter().collect();
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("difffuzz-kit-testing".to_owned())
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, move || {
                let mut work = Work::new(input, Func::new(f), FD_PROTOCOL);
                cases
                    .iter()
                    .enumerate()
                    .map(|(i, case)| answer_one(&mut work, i, case))
                    .collect()
            })
            .expect("start the thread that answers the cases")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

fn answer_one<I, F>(work: &mut Work<I, F>, i: usize, case: &Case) -> Answer
where
    I: Input,
    F: crate::cases::Canonicalize<I::Value>,
{
    let mut rd = case.0.as_slice();
    let outcome = work
        .run_case(&mut rd)
        .unwrap_or_else(|e| panic!("case {i} is not msgpack: {e}"));
    assert!(
        rd.is_empty(),
        "case {i}: {} bytes after its value",
        rd.len()
    );
    match outcome {
        Outcome::Canonical(digest) => Answer::Canonical {
            canonical: std::mem::take(&mut work.canonical),
            digest,
        },
        Outcome::Refused(spec) => Answer::Spec(spec),
        Outcome::Failed(failure) => Answer::Internal {
            error_type: failure.error_type.to_string(),
            message: failure.message,
            place: failure.place.map(|place| Place {
                file: place.file,
                line: place.line,
                function: place.function,
            }),
        },
        Outcome::Inexpressible(why) => Answer::Inexpressible(why),
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use super::*;
    use crate::decode::tests::Shape;
    use crate::{CaseError, ErrorCode, JsonText, Reason, Signed, Text};

    /// Every value reaches the model as the driver would send it.
    #[test]
    fn values_are_sent_as_the_driver_sends_them() {
        let shape = |v: &String| Ok::<_, SpecError>(v.clone());
        let values = [
            (Value::Null, "null"),
            (Value::from(true), "true"),
            (Value::from(-5), "int -5"),
            (Value::Int(u64::MAX.into()), "int 18446744073709551615"),
            (Value::Int(1 << 70), "big 1180591620717411303424"),
            (Value::BigInt("-0".into()), "big -0"),
            (Value::from(1.5), "float 1.5"),
            (Value::from("é"), "\"é\""),
            (Value::Utf16(vec![0xd800]), "utf16 [55296]"),
            (
                Value::Array(vec![Value::Null, Value::Array(vec![])]),
                "[null,[]]",
            ),
            (
                Value::Object(vec![
                    (Value::from("a"), Value::from(1)),
                    (Value::from("a"), Value::from(2)),
                    (Value::from(3), Value::Null),
                ]),
                "{\"a\":int 1,\"a\":int 2,(int 3):null}",
            ),
        ];
        let cases = values.iter().map(|(v, _)| Case::value(v));
        let answers = answer(Shape, shape, cases);
        for ((_, want), got) in values.iter().zip(&answers) {
            let want = want.as_bytes().to_vec();
            assert!(
                matches!(got, Answer::Canonical { canonical, digest }
                    if *canonical == want && digest == blake3::hash(&want).as_bytes()),
                "{got:?}"
            );
        }
        let refused = answer(Shape, shape, [Case::value(&Value::Bin(vec![1]))]);
        assert!(
            matches!(&refused[0], Answer::Inexpressible(why) if why.reason == Reason::UnsupportedValue),
            "{refused:?}"
        );
    }

    /// Each kind of answer, from one function.
    #[test]
    fn each_outcome_is_its_answer() {
        let f = |text: &JsonText| -> Result<Signed<Vec<u8>>, Box<dyn Error + Send + Sync>> {
            match text.as_str() {
                "spec" => Err(SpecError::new(ErrorCode::TooDeep, "deep").into()),
                "io" => Err(std::io::Error::other("disk").into()),
                "panic" => panic!("boom"),
                "signed" => Ok(Signed {
                    canonical: b"s".to_vec(),
                    digest: vec![7; 32],
                }),
                _ => Err(CaseError::from_name("nope", "?").into()),
            }
        };
        let cases = ["spec", "io", "panic", "signed", "other"].map(Case::text);
        let answers = answer(Text, f, cases);
        assert_eq!(
            answers[0],
            Answer::Spec(SpecError::new(ErrorCode::TooDeep, "deep"))
        );
        assert_eq!(
            answers[1],
            Answer::Internal {
                error_type: "std::io::error::Error".into(),
                message: "disk".into(),
                place: None
            }
        );
        // A panic in the kit's own source is no place of the
        // implementation's (tests/testing.rs has a team's).
        assert_eq!(
            answers[2],
            Answer::Internal {
                error_type: "panic".into(),
                message: "panic: boom".into(),
                place: None
            }
        );
        assert_eq!(
            answers[3],
            Answer::Canonical {
                canonical: b"s".to_vec(),
                digest: [7; 32]
            }
        );
        assert!(
            matches!(&answers[4], Answer::Internal { error_type, .. } if error_type == "difffuzz_kit::ErrorCode"),
            "{:?}",
            answers[4]
        );
    }

    #[test]
    #[should_panic(expected = "case 0 is not msgpack")]
    fn a_case_that_is_no_msgpack_panics() {
        answer(
            Shape,
            |v: &String| Ok::<_, SpecError>(v.clone()),
            [Case::msgpack([0xc1])],
        );
    }
}
