//! The text model: at protocol 4 each case is a bin of the JSON text the
//! driver wrote, handed to the function unchanged; on stdin and stdout
//! (protocol 2) each case is an `internal` error, since such a driver sends
//! values.

use difffuzz_kit::__private::{run, FD_PROTOCOL, PROTOCOL};
use difffuzz_kit::{Hello, JsonText, SpecError, Text};
use rmpv::Value as Mp;

mod common;
use common::{batch, field, frame, read_frame};

/// Runs the text model in `protocol` over one batch of `cases`, the
/// function echoing the text it is given; returns the hello and the
/// response.
fn echo(protocol: u64, cases: Vec<Mp>) -> (Mp, Mp) {
    let input = frame(&batch(1, cases));
    let mut output = Vec::new();
    let echo = |text: &JsonText| Ok::<_, SpecError>(text.as_bytes().to_vec());
    let hello = Hello::new("echo", "1");
    let code = run(&hello, protocol, Text, echo, input.as_slice(), &mut output);
    assert_eq!(code, 0);
    let mut rd = output.as_slice();
    (read_frame(&mut rd), read_frame(&mut rd))
}

#[test]
fn the_drivers_text_reaches_the_function_unchanged() {
    let texts: [&[u8]; 4] = [
        br#"{"tool_name":"t","args":{}}"#,
        b" [ 1.5e2 , 0.15E+3 ,\t\"\\u00e9\xc3\xa9\" ] ",
        br#"{"a":1,"a":2,"s":"\ud800"}"#,
        b"",
    ];
    let cases = texts.iter().map(|t| Mp::Binary(t.to_vec())).collect();
    let (hello, response) = echo(FD_PROTOCOL, cases);
    assert_eq!(field(&hello, "protocol"), &Mp::from(4));
    assert_eq!(field(&hello, "model"), &Mp::from("text"));
    let reasons = Mp::Array(vec!["non_string_key".into(), "unsupported_value".into()]);
    assert_eq!(field(&hello, "inexpressible"), &reasons);
    let results = field(&response, "results").as_array().unwrap();
    assert_eq!(results.len(), texts.len());
    for (result, text) in results.iter().zip(texts) {
        assert_eq!(field(result, "canonical"), &Mp::Binary(text.to_vec()));
        let digest = blake3::hash(text);
        assert_eq!(
            field(result, "digest"),
            &Mp::Binary(digest.as_bytes().to_vec())
        );
    }
}

/// A case that is not a bin of UTF-8 breaks the protocol: the request gets
/// an `error` response, as for any request the worker cannot read.
#[test]
fn a_case_that_is_not_text_is_the_requests_error() {
    for case in [Mp::from("{}"), Mp::Binary(vec![b'"', 0xff, b'"'])] {
        let (_, response) = echo(FD_PROTOCOL, vec![case.clone()]);
        assert_eq!(field(&response, "type"), &Mp::from("error"), "{case}");
        let message = field(&response, "message").as_str().unwrap();
        assert!(
            message.contains("not a bin of UTF-8 JSON text"),
            "{message}"
        );
    }
}

#[test]
fn on_stdin_and_stdout_each_case_says_the_text_model_needs_protocol_4() {
    let cases = vec![Mp::Map(vec![("a".into(), 1.into())]), Mp::Nil];
    let (hello, response) = echo(PROTOCOL, cases);
    assert_eq!(field(&hello, "protocol"), &Mp::from(2));
    let results = field(&response, "results").as_array().unwrap();
    assert_eq!(results.len(), 2);
    for result in results {
        assert_eq!(field(result, "error"), &Mp::from("internal"));
        let message = field(result, "message").as_str().unwrap();
        assert!(
            message.contains("needs a driver of protocol 4"),
            "{message}"
        );
    }
}
