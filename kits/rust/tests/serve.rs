//! The protocol loop, run in memory over the native model: hello, batches,
//! inexpressible cases, panics, benches, malformed requests, exit statuses.
//! Messages are built and read with rmpv, not with the kit's own code.
//!
//! What `difffuzz adapter check` (harness/conform) checks of every worker is
//! left to it: `make conform` runs it on the example worker and on
//! adapters/rust's (bodies that are no msgpack or no map, input that ends
//! inside a frame). What is here is this kit's own: the hello it builds, how
//! a panic, an error or a spec error maps to a result, bench, and the requests conform does
//! not send.
#![cfg(feature = "serde_json")]

use std::error::Error;

use difffuzz_kit::__private::{run, FD_PROTOCOL, PROTOCOL};
use difffuzz_kit::{CaseError, ErrorCode, Hello, Native, Reason, Signed, SpecError};
use rmpv::Value as Mp;

mod common;
use common::{field, frame};

fn frames(mut bytes: &[u8]) -> Vec<Mp> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let len = u32::from_be_bytes(bytes[..4].try_into().unwrap()) as usize;
        let mut body = &bytes[4..4 + len];
        out.push(rmpv::decode::read_value(&mut body).unwrap());
        assert!(body.is_empty(), "one value per frame");
        bytes = &bytes[4 + len..];
    }
    out
}

fn map(members: Vec<(&str, Mp)>) -> Mp {
    Mp::Map(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

/// The test's implementation: serde_json's compact text; a case whose
/// `tool_name` is "panic" panics, "unwrap" unwraps a None, "fail" fails
/// with serde_json's error and "refuse" is refused.
fn implementation(value: &serde_json::Value) -> Result<Vec<u8>, CaseError> {
    match value.get("tool_name").and_then(|v| v.as_str()) {
        Some("panic") => panic!("boom"), // the panic's place
        Some("unwrap") => Ok(vec!["".parse::<u8>().unwrap()]), // the unwrap's place
        Some("fail") => serde_json::from_str::<Vec<u8>>("[1,").map_err(CaseError::from_error),
        Some("refuse") => Err(CaseError::from_name("bad_envelope", "refused")),
        _ => serde_json::to_vec(value).map_err(CaseError::from_error),
    }
}

/// The line of this file that ends with the comment `marker`.
fn line_of(marker: &str) -> u64 {
    let comment = format!("// {marker}");
    let at = include_str!("serve.rs")
        .lines()
        .position(|line| line.ends_with(&comment))
        .unwrap_or_else(|| panic!("no line ends with {comment}"));
    at as u64 + 1
}

/// Runs the loop over `input` on a thread with room for deep cases, in
/// protocol 2; returns the exit status and every frame written.
fn serve(input: Vec<u8>) -> (u8, Vec<Mp>) {
    serve_at(PROTOCOL, input)
}

/// [`serve`] in `protocol`.
fn serve_at(protocol: u64, input: Vec<u8>) -> (u8, Vec<Mp>) {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut output = Vec::new();
            let hello = Hello::new("test-sdk", "9.9.9");
            let code = run(
                &hello,
                protocol,
                Native,
                implementation,
                input.as_slice(),
                &mut output,
            );
            (code, frames(&output))
        })
        .unwrap()
        .join()
        .unwrap()
}

fn batch(id: u64, cases: Vec<Mp>) -> Mp {
    map(vec![
        ("type", "batch".into()),
        ("id", id.into()),
        ("cases", Mp::Array(cases)),
    ])
}

#[test]
fn hello_announces_the_native_model_and_all_six_reasons() {
    let (code, out) = serve(vec![]);
    assert_eq!(code, 0, "end of input exits 0");
    let want = map(vec![
        ("type", "hello".into()),
        ("protocol", 2.into()),
        ("language", "rust".into()),
        ("name", "test-sdk".into()),
        ("version", "9.9.9".into()),
        ("model", "native".into()),
        (
            "inexpressible",
            Mp::Array(Reason::ALL.iter().map(|r| r.as_str().into()).collect()),
        ),
    ]);
    assert_eq!(out, [want]);
}

#[test]
fn a_batch_answers_canonical_refused_internal_and_inexpressible_in_order() {
    let mp_str = |s: &str| Mp::from(s);
    let call = |v: Mp| {
        map(vec![
            ("tool_name", "t".into()),
            ("args", map(vec![("v", v)])),
        ])
    };
    let cases = vec![
        call(Mp::from(1)),
        map(vec![("tool_name", "panic".into())]),
        call(Mp::Map(vec![
            (mp_str("a"), 1.into()),
            (mp_str("a"), 2.into()),
        ])),
        call(Mp::Ext(2, vec![0x00, 0xd8])),
        call(Mp::Ext(1, b"18446744073709551616".to_vec())),
        call(Mp::F64(f64::NAN)),
        call(Mp::Map(vec![(Mp::from(1), Mp::Nil)])),
        call(Mp::Binary(vec![1])),
        call(Mp::Ext(9, vec![])),
        map(vec![("tool_name", "refuse".into())]),
        // After an inexpressible member the rest of the case is stepped over.
        call(Mp::Array(vec![Mp::Binary(vec![]), Mp::from(2)])),
        call(Mp::Ext(1, b"-0".to_vec())),
    ];
    let mut input = frame(&batch(7, cases));
    input.extend(frame(&map(vec![
        ("type", "batch".into()),
        ("id", 8.into()),
        ("digest_only", true.into()),
        ("cases", Mp::Array(vec![call(Mp::from(1))])),
    ])));
    let (code, out) = serve(input);
    assert_eq!(code, 0);
    let results = field(&out[1], "results").as_array().unwrap();
    let text = r#"{"args":{"v":1},"tool_name":"t"}"#;
    let canonical = map(vec![
        ("canonical", Mp::Binary(text.into())),
        (
            "digest",
            Mp::Binary(blake3::hash(text.as_bytes()).as_bytes().to_vec()),
        ),
    ]);
    assert_eq!(results[0], canonical);
    assert_eq!(field(&results[1], "error"), &Mp::from("internal"));
    assert_eq!(field(&results[1], "message"), &Mp::from("panic: boom"));
    assert_eq!(results[1].as_map().map(Vec::len), Some(2), "protocol 2");
    let reasons: Vec<&str> = results[2..9]
        .iter()
        .map(|r| field(r, "inexpressible").as_str().unwrap())
        .collect();
    assert_eq!(
        reasons,
        [
            "duplicate_key",
            "lone_surrogate",
            "big_int",
            "non_finite",
            "non_string_key",
            "unsupported_value",
            "unsupported_value"
        ]
    );
    assert_eq!(
        field(&results[9], "error"),
        &Mp::from(ErrorCode::BadEnvelope.as_str())
    );
    assert_eq!(
        field(&results[10], "inexpressible"),
        &Mp::from("unsupported_value")
    );
    // "-0" in ext 1 is the integer 0, which a Number holds.
    let zero = field(&results[11], "canonical");
    assert_eq!(
        zero,
        &Mp::Binary(br#"{"args":{"v":0},"tool_name":"t"}"#.to_vec())
    );
    assert_eq!(results.len(), 12);
    // Each results message says what its batch cost.
    for response in &out[1..3] {
        let cpu = field(response, "batch_cpu_ns").as_u64();
        assert!(cpu.is_some_and(|ns| ns > 0), "batch_cpu_ns {cpu:?}");
    }
    // digest_only: the digest alone.
    let digest_only = field(&out[2], "results").as_array().unwrap();
    assert_eq!(
        digest_only,
        &[map(vec![("digest", field(&canonical, "digest").clone())])]
    );
}

#[test]
fn bench_answers_all_version_2_figures() {
    let cases = vec![
        map(vec![("tool_name", "t".into()), ("args", map(vec![]))]),
        Mp::Binary(vec![]), // inexpressible: not timed, still counted
    ];
    let request = map(vec![
        ("type", "bench".into()),
        ("id", 3.into()),
        ("cases", Mp::Array(cases)),
        ("rounds", 5.into()),
    ]);
    let (code, out) = serve(frame(&request));
    assert_eq!(code, 0);
    let bench = &out[1];
    assert_eq!(field(bench, "type"), &Mp::from("bench"));
    assert_eq!(field(bench, "id"), &Mp::from(3));
    assert_eq!(field(bench, "count"), &Mp::from(10));
    for name in ["elapsed_ns", "cpu_ns", "decode_elapsed_ns", "decode_cpu_ns"] {
        let ns = field(bench, name).as_u64().expect("unsigned");
        assert!(ns < 10_000_000_000, "{name} {ns}");
    }
}

#[test]
fn malformed_requests_get_errors_and_the_loop_goes_on() {
    let mut input = Vec::new();
    input.extend(frame(&map(vec![("type", "nope".into()), ("id", 4.into())])));
    input.extend(frame(&map(vec![
        ("type", "batch".into()),
        ("id", 6.into()),
        ("digest_only", 1.into()),
        ("cases", Mp::Array(vec![])),
    ])));
    input.extend(frame(&batch(9, vec![])));
    let (code, out) = serve(input);
    assert_eq!(code, 0);
    let types: Vec<&str> = out
        .iter()
        .map(|m| field(m, "type").as_str().unwrap())
        .collect();
    assert_eq!(types, ["hello", "error", "error", "results"]);
    assert_eq!(field(&out[1], "id"), &Mp::from(4));
    assert_eq!(field(&out[2], "id"), &Mp::from(6));
}

/// conform lets a worker answer a bad length and go on; this kit exits
/// (input that ends inside a frame is conform's alone).
#[test]
fn a_bad_length_gets_an_error_then_exit_2() {
    for (name, input) in [
        ("zero length", vec![0, 0, 0, 0]),
        ("over the cap", (64u32 << 20 | 1).to_be_bytes().to_vec()),
    ] {
        let (code, out) = serve(input);
        assert_eq!(code, 2, "{name}");
        assert_eq!(out.len(), 2, "{name}: hello and an error");
        assert_eq!(field(&out[1], "type"), &Mp::from("error"), "{name}");
    }
}

#[test]
fn the_deepest_case_on_the_wire_is_decoded() {
    let deep = (1..1000).fold(Mp::Array(vec![]), |inner, _| Mp::Array(vec![inner]));
    let (code, out) = serve(frame(&batch(1, vec![deep])));
    assert_eq!(code, 0);
    let result = &field(&out[1], "results").as_array().unwrap()[0];
    let text = field(result, "canonical").as_slice().unwrap();
    assert_eq!(text.len(), 2000, "1000 levels of []");
}

/// A signing SDK's digest is the one sent, in full and digest-only answers
/// alike (the driver judges it against the text); one that is not 32 bytes
/// long is the case's `internal` result, and a spec error stays one.
#[test]
fn a_signing_sdks_own_digest_is_sent_and_a_wrong_length_is_internal() {
    let own = [7u8; 32];
    let sign = move |value: &serde_json::Value| {
        let canonical = implementation(value)?;
        let digest = match value.get("tool_name").and_then(|v| v.as_str()) {
            Some("short") => own[..31].to_vec(),
            _ => own.to_vec(),
        };
        Ok::<_, CaseError>(Signed { canonical, digest })
    };
    let cases = || {
        vec![
            map(vec![("tool_name", "t".into()), ("args", map(vec![]))]),
            map(vec![("tool_name", "short".into()), ("args", map(vec![]))]),
            map(vec![("tool_name", "refuse".into())]),
        ]
    };
    let mut digest_only = batch(2, cases());
    if let Mp::Map(members) = &mut digest_only {
        members.push(("digest_only".into(), true.into()));
    }
    let mut input = frame(&batch(1, cases()));
    input.extend(frame(&digest_only));
    let mut output = Vec::new();
    let code = run(
        &Hello::new("t", "1"),
        PROTOCOL,
        Native,
        sign,
        input.as_slice(),
        &mut output,
    );
    assert_eq!(code, 0);
    let out = frames(&output);
    let full = field(&out[1], "results").as_array().unwrap();
    assert_eq!(field(&full[0], "digest"), &Mp::Binary(own.to_vec()));
    assert_eq!(
        field(&full[0], "canonical"),
        &Mp::Binary(br#"{"args":{},"tool_name":"t"}"#.to_vec())
    );
    assert_eq!(field(&full[1], "error").as_str(), Some("internal"));
    assert_eq!(
        field(&full[1], "message").as_str(),
        Some("the SDK's digest is 31 bytes long, want 32 (BLAKE3-256)")
    );
    assert_eq!(field(&full[2], "error").as_str(), Some("bad_envelope"));
    let digests = field(&out[2], "results").as_array().unwrap();
    assert_eq!(digests[0], map(vec![("digest", Mp::Binary(own.to_vec()))]));
}

/// At protocol 4 an `internal` result names the failure's type, and a
/// panic's place: the implementation's own line, for a `panic!` and for an
/// `unwrap` alike (not the kit's, not the standard library's). A spec error
/// stays one. At protocol 2 neither is sent.
#[test]
fn a_failure_says_its_type_and_place_at_protocol_4() {
    let cases = || {
        ["panic", "unwrap", "fail", "refuse"]
            .into_iter()
            .map(|name| map(vec![("tool_name", name.into())]))
            .collect()
    };
    let (code, out) = serve_at(FD_PROTOCOL, frame(&batch(1, cases())));
    assert_eq!((code, field(&out[0], "protocol")), (0, &Mp::from(4)));
    let results = field(&out[1], "results").as_array().unwrap();
    let place = |marker: &str| {
        Mp::Array(vec![map(vec![
            ("file", "tests/serve.rs".into()),
            ("function", "serve::implementation".into()),
            ("line", line_of(marker).into()),
        ])])
    };
    let panicked = |message: &str, marker: &str| {
        map(vec![
            ("error", "internal".into()),
            ("message", message.into()),
            ("error_type", "panic".into()),
            ("frames", place(marker)),
        ])
    };
    assert_eq!(results[0], panicked("panic: boom", "the panic's place"));
    assert_eq!(
        results[1],
        panicked(
            "panic: called `Result::unwrap()` on an `Err` value: ParseIntError { kind: Empty }",
            "the unwrap's place"
        )
    );
    let failed = map(vec![
        ("error", "internal".into()),
        (
            "message",
            "EOF while parsing a value at line 1 column 3".into(),
        ),
        ("error_type", "serde_json::error::Error".into()),
    ]);
    assert_eq!(results[2], failed);
    let refused = map(vec![
        ("error", "bad_envelope".into()),
        ("message", "refused".into()),
    ]);
    assert_eq!(results[3], refused);

    let (_, out) = serve(frame(&batch(1, cases())));
    let results = field(&out[1], "results").as_array().unwrap();
    for (result, message) in results.iter().zip([
        "panic: boom",
        "panic: called `Result::unwrap()` on an `Err` value: ParseIntError { kind: Empty }",
        "EOF while parsing a value at line 1 column 3",
    ]) {
        let want = map(vec![
            ("error", "internal".into()),
            ("message", message.into()),
        ]);
        assert_eq!(result, &want);
    }
}

/// Any error converts into a CaseError with its type's name, a SpecError
/// into the spec's answer.
#[test]
fn errors_convert_with_their_types_name() {
    let spec = SpecError::new(ErrorCode::DuplicateKey, "twice");
    assert_eq!(
        CaseError::from_error(spec.clone()),
        CaseError::Spec(spec.clone())
    );
    assert_eq!(CaseError::from(spec.clone()), CaseError::Spec(spec));
    let io = std::io::Error::other("disk");
    assert_eq!(
        CaseError::from_error(io),
        CaseError::Internal {
            error_type: "std::io::error::Error",
            message: "disk".to_owned()
        }
    );
    // An SDK's error that says little itself: its sources' texts follow,
    // each once (one that its own text holds already is not repeated).
    let wrapped = Wrapped("invalid JSON", Some(Box::new(Wrapped("bad number", None))));
    assert_eq!(
        CaseError::from_error(wrapped),
        CaseError::Internal {
            error_type: "serve::Wrapped",
            message: "invalid JSON: bad number".to_owned()
        }
    );
    let repeats = Wrapped(
        "bad number at 3",
        Some(Box::new(Wrapped("bad number", None))),
    );
    assert!(
        matches!(CaseError::from_error(repeats), CaseError::Internal { message, .. } if message == "bad number at 3")
    );
    let utf8 = String::from_utf8(vec![0xff]).unwrap_err();
    assert!(matches!(
        CaseError::from_error(utf8),
        CaseError::Internal {
            error_type: "alloc::string::FromUtf8Error",
            ..
        }
    ));
}

/// A function may return `Box<dyn Error>` or `Box<dyn Error + Send +
/// Sync>`, `?` boxing every error: a boxed SpecError (or CaseError) is
/// what it holds, anything else `internal`, named by its type where the kit
/// can tell it (the standard library's errors, serde_json's), else
/// `Box<dyn Error>`.
#[test]
fn boxed_errors_are_answered_by_what_they_hold() {
    /// Fails as a case's `tool_name` says, into either box.
    fn failing<B>(value: &serde_json::Value) -> Result<Vec<u8>, B>
    where
        B: From<SpecError>
            + From<std::io::Error>
            + From<serde_json::Error>
            + From<CaseError>
            + From<&'static str>,
    {
        match value.get("tool_name").and_then(|v| v.as_str()) {
            Some("refuse") => Err(SpecError::new(ErrorCode::TooDeep, "deep").into()),
            Some("io") => Err(std::io::Error::other("disk").into()),
            Some("json") => Ok(serde_json::from_str::<Vec<u8>>("[1,")?),
            Some("text") => Err("a message alone".into()),
            Some("named") => Err(CaseError::from_error(std::fmt::Error).into()),
            _ => Ok(serde_json::to_vec(value)?),
        }
    }
    let names = ["refuse", "io", "json", "text", "named"];
    let cases: Vec<Mp> = names
        .iter()
        .map(|&name| map(vec![("tool_name", name.into())]))
        .collect();
    let answers = |out: &[u8]| {
        let out = frames(out);
        field(&out[1], "results").as_array().unwrap().clone()
    };
    let hello = Hello::new("t", "1");
    let input = frame(&batch(1, cases));
    let mut output = Vec::new();
    let boxed = failing::<Box<dyn Error>>;
    let code = run(
        &hello,
        FD_PROTOCOL,
        Native,
        boxed,
        input.as_slice(),
        &mut output,
    );
    assert_eq!(code, 0);
    let results = answers(&output);
    assert_eq!(
        results[0],
        map(vec![
            ("error", "too_deep".into()),
            ("message", "deep".into())
        ])
    );
    let internal = |error_type: &str, message: &str| {
        map(vec![
            ("error", "internal".into()),
            ("message", message.into()),
            ("error_type", error_type.into()),
        ])
    };
    assert_eq!(results[1], internal("std::io::error::Error", "disk"));
    assert_eq!(
        results[2],
        internal(
            "serde_json::error::Error",
            "EOF while parsing a value at line 1 column 3"
        )
    );
    assert_eq!(results[3], internal("Box<dyn Error>", "a message alone"));
    assert_eq!(
        results[4],
        internal(
            "core::fmt::Error",
            "an error occurred when formatting an argument"
        )
    );

    let mut output = Vec::new();
    let send_boxed = failing::<Box<dyn Error + Send + Sync>>;
    let code = run(
        &hello,
        FD_PROTOCOL,
        Native,
        send_boxed,
        input.as_slice(),
        &mut output,
    );
    assert_eq!(code, 0);
    assert_eq!(answers(&output), results, "the same in a Send + Sync box");
}

/// An error with a text and maybe a source, as an SDK's own error type.
#[derive(Debug)]
struct Wrapped(&'static str, Option<Box<Wrapped>>);

impl std::fmt::Display for Wrapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Wrapped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.1
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}
