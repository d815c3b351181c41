//! The kit's error codes against docs/adapter-protocol.md, read from the
//! page itself so that neither can change without the other.
use difffuzz_kit::{Code, SpecError};

const PROTOCOL_DOC: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/adapter-protocol.md"
);

/// The spec's codes the page lists for a result's `error`, then the one it
/// adds for an implementation that failed.
fn documented_codes() -> Vec<String> {
    let page = std::fs::read_to_string(PROTOCOL_DOC).expect("read docs/adapter-protocol.md");
    let text = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let lead = "`code` is one of the spec's codes (";
    let start = text
        .find(lead)
        .expect("the page no longer lists the error codes as this test reads them")
        + lead.len();
    let (list, rest) = text[start..]
        .split_once("), or `")
        .expect("no `internal` after the spec's codes");
    let mut codes: Vec<String> = list
        .split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect();
    codes.push(rest.split('`').next().unwrap_or_default().to_string());
    codes
}

#[test]
fn the_error_codes_are_the_protocol_pages() {
    let spelled: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(spelled, documented_codes());
    assert_eq!(Code::ALL.last(), Some(&Code::Internal));
}

#[test]
fn each_spelling_names_its_code() {
    for (code, name) in Code::TABLE {
        assert_eq!(Code::from_name(name), Some(code));
        assert_eq!(code.to_string(), name);
    }
    assert_eq!(Code::from_name("TooDeep"), None);
    let error = SpecError::from_name("no_such_code", "why");
    assert_eq!(error.code, Code::Internal);
    assert!(error.message.contains("no_such_code"), "{}", error.message);
    assert_eq!(
        SpecError::new(Code::TooDeep, "513 levels").to_string(),
        "too_deep: 513 levels"
    );
}
