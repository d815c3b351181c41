//! `difffuzz_kit::testing` as a team's test uses it: its SDK's function on
//! cases in the native model, each answer checked, a panic's place in the
//! team's own file.
#![cfg(feature = "serde_json")]

use std::error::Error;

use difffuzz_kit::testing::{answer, Answer, Case, Place, Value};
use difffuzz_kit::{ErrorCode, Inexpressible, Native, Reason, SpecError};

/// A team's SDK: serde_json's compact text, refusing an empty object,
/// failing on a string "fail" and panicking on "panic".
fn sdk(value: &serde_json::Value) -> Result<Vec<u8>, Box<dyn Error>> {
    match value {
        serde_json::Value::Object(m) if m.is_empty() => {
            Err(SpecError::new(ErrorCode::BadEnvelope, "empty").into())
        }
        serde_json::Value::String(s) if s == "fail" => Ok(serde_json::from_str("[")?),
        serde_json::Value::String(s) if s == "panic" => panic!("sdk panic"), // the panic's place
        _ => Ok(serde_json::to_vec(value)?),
    }
}

#[test]
fn a_teams_function_answered_case_by_case() {
    let json: serde_json::Value = serde_json::from_str(r#"{"b":[1,2.5],"a":null}"#).unwrap();
    let cases = [
        Case::value(&Value::from(&json)),
        Case::value(&Value::Object(vec![])),
        Case::value(&Value::from("fail")),
        Case::value(&Value::from("panic")),
        Case::value(&Value::Object(vec![
            (Value::from("k"), Value::Null),
            (Value::from("k"), Value::Null),
        ])),
    ];
    let answers = answer(Native, sdk, cases);
    let text = br#"{"a":null,"b":[1,2.5]}"#.to_vec();
    assert_eq!(
        answers[0],
        Answer::Canonical {
            digest: *blake3::hash(&text).as_bytes(),
            canonical: text,
        }
    );
    assert_eq!(
        answers[1],
        Answer::Spec(SpecError::new(ErrorCode::BadEnvelope, "empty"))
    );
    assert!(
        matches!(&answers[2], Answer::Internal { error_type, place: None, .. }
            if error_type == "serde_json::error::Error"),
        "{:?}",
        answers[2]
    );
    let line = include_str!("testing.rs")
        .lines()
        .position(|l| l.ends_with("// the panic's place"))
        .unwrap()
        + 1;
    assert_eq!(
        answers[3],
        Answer::Internal {
            error_type: "panic".into(),
            message: "panic: sdk panic".into(),
            place: Some(Place {
                file: "tests/testing.rs".into(),
                line: line as u32,
                function: "testing::sdk".into(),
            }),
        }
    );
    assert!(
        matches!(
            &answers[4],
            Answer::Inexpressible(Inexpressible {
                reason: Reason::DuplicateKey,
                ..
            })
        ),
        "{:?}",
        answers[4]
    );
}
