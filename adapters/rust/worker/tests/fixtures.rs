//! The golden fixtures (tests/fixtures/canonical-json-fuzz/*.jsonl): every
//! line's `msgpack` case, decoded by the kit into the exact model, must give the
//! reference canonical text and signature byte for byte, or the same error
//! code. `CANONJSON_FIXTURES_DIR` points the test at another folder.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use difffuzz_kit::__private::decode;

fn fixtures_dir() -> PathBuf {
    match std::env::var_os("CANONJSON_FIXTURES_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../tests/fixtures/canonical-json-fuzz"),
    }
}

/// Sorted, so failures are reported in a stable order.
fn fixture_files(dir: &Path) -> Vec<PathBuf> {
    let entries =
        fs::read_dir(dir).unwrap_or_else(|e| panic!("fixture folder {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("readable folder entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    files
}

/// The contract the crate's canonical functions follow: the fixtures must be
/// written for it.
const FIXTURE_CONTRACT: &str = "difffuzz";

/// Checks a fixture file's header line `{"contract": NAME}` (line `number` of
/// file `name`): NAME must be `FIXTURE_CONTRACT`, since fixtures of another
/// contract would hold the crate to the wrong answers.
fn check_header(name: &str, number: usize, line: &str) -> Result<(), String> {
    let contract = serde_json::from_str::<serde_json::Value>(line)
        .ok()
        .and_then(|json| json.get("contract")?.as_str().map(str::to_owned));
    match contract {
        None => Err(format!(
            "{name}:{number}: want the header line {{\"contract\": \"{FIXTURE_CONTRACT}\"}} first \
             (fixtures written before contracts? make fixtures regenerates them)"
        )),
        Some(c) if c != FIXTURE_CONTRACT => Err(format!(
            "{name}:{number}: fixtures of contract \"{c}\", but these tests hold the crate to contract \"{FIXTURE_CONTRACT}\""
        )),
        Some(_) => Ok(()),
    }
}

/// What a fixture line expects.
enum Expected {
    Canonical { text: String, signature: String },
    Error(String),
}

struct Fixture {
    category: String,
    msgpack: Vec<u8>,
    expected: Expected,
}

fn parse_line(line: &str) -> Result<Fixture, String> {
    let json: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let text = |name: &str| json.get(name).and_then(serde_json::Value::as_str);
    let category = text("category").ok_or("no category")?.to_owned();
    let msgpack = base64::engine::general_purpose::STANDARD
        .decode(text("msgpack").ok_or("no msgpack")?)
        .map_err(|e| format!("msgpack is not base64: {e}"))?;
    let expected = match (text("canonical"), text("signature"), text("error")) {
        (Some(canonical), Some(signature), None) => Expected::Canonical {
            text: canonical.to_owned(),
            signature: signature.to_owned(),
        },
        (None, None, Some(code)) => Expected::Error(code.to_owned()),
        _ => return Err("needs canonical+signature or error, not both or neither".into()),
    };
    Ok(Fixture {
        category,
        msgpack,
        expected,
    })
}

/// None when this implementation agrees with the fixture, else why not.
fn check(fixture: &Fixture) -> Option<String> {
    let value = match decode::decode(&mut canonjson_worker::Exact::default(), &fixture.msgpack) {
        Ok(v) => v,
        Err(e) => return Some(format!("wire decoder refused the case: {e:?}")),
    };
    match (&fixture.expected, canonjson::canonical(&value)) {
        (Expected::Canonical { text, signature }, Ok(got)) => {
            if let Some(diff) = first_difference(text.as_bytes(), got.as_bytes()) {
                return Some(format!("canonical text {diff}"));
            }
            let got_signature = blake3::hash(got.as_bytes()).to_hex();
            (got_signature.as_str() != signature)
                .then(|| format!("signature: expected {signature}, got {got_signature}"))
        }
        (Expected::Canonical { text, .. }, Err(e)) => Some(format!(
            "expected canonical {}, got error {e}",
            excerpt(text.as_bytes(), 0)
        )),
        (Expected::Error(code), Ok(got)) => Some(format!(
            "expected error {code}, got canonical {}",
            excerpt(got.as_bytes(), 0)
        )),
        (Expected::Error(code), Err(e)) => {
            (e.code() != code).then(|| format!("expected error {code}, got {e}"))
        }
    }
}

/// "differs at byte N: expected ...x..., got ...y...", or None when equal.
fn first_difference(want: &[u8], got: &[u8]) -> Option<String> {
    if want == got {
        return None;
    }
    let at = want
        .iter()
        .zip(got)
        .position(|(a, b)| a != b)
        .unwrap_or(want.len().min(got.len()));
    Some(format!(
        "differs at byte {at} (lengths {} and {}): expected {}, got {}",
        want.len(),
        got.len(),
        excerpt(want, at),
        excerpt(got, at)
    ))
}

/// A little context around `at`, escaped so control bytes stay visible.
fn excerpt(bytes: &[u8], at: usize) -> String {
    const CONTEXT: usize = 24;
    let start = at.saturating_sub(CONTEXT);
    let end = (at + CONTEXT).min(bytes.len());
    let mut out = String::new();
    if start > 0 {
        out.push_str("...");
    }
    let _ = write!(out, "{:?}", String::from_utf8_lossy(&bytes[start..end]));
    if end < bytes.len() {
        out.push_str("...");
    }
    out
}

/// Failures listed in full before the summary; the rest only counted.
const FAILURES_SHOWN: usize = 25;

#[test]
fn every_fixture_line_matches_the_reference() {
    let dir = fixtures_dir();
    let files = fixture_files(&dir);
    assert!(
        !files.is_empty(),
        "no *.jsonl fixture files in {} (run `make fixtures`): refusing to pass on nothing",
        dir.display()
    );
    let mut lines = 0usize;
    let mut failures = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let content = fs::read_to_string(file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut header = false;
        for (index, line) in content.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            if !header {
                header = true;
                if let Err(why) = check_header(&name, index + 1, line) {
                    panic!("{why}");
                }
                continue;
            }
            lines += 1;
            let problem = match parse_line(line) {
                Ok(fixture) => check(&fixture).map(|why| (fixture.category, why)),
                Err(why) => Some(("?".to_owned(), format!("malformed fixture line: {why}"))),
            };
            if let Some((category, why)) = problem {
                failures.push(format!("{name}:{}: category {category}: {why}", index + 1));
            }
        }
    }
    assert!(
        lines > 0,
        "fixture files in {} hold no lines",
        dir.display()
    );
    if !failures.is_empty() {
        let shown: Vec<&str> = failures
            .iter()
            .take(FAILURES_SHOWN)
            .map(String::as_str)
            .collect();
        panic!(
            "{} of {lines} fixture lines in {} disagree:\n{}",
            failures.len(),
            dir.display(),
            shown.join("\n")
        );
    }
    eprintln!("{lines} fixture lines in {} files agree", files.len());
}

#[test]
fn a_fixture_file_of_another_contract_or_without_its_header_fails_with_why() {
    assert_eq!(
        check_header("x.jsonl", 1, r#"{"contract": "difffuzz"}"#),
        Ok(())
    );
    assert_eq!(
        check_header("x.jsonl", 1, r#"{"contract": "rfc8785"}"#),
        Err(r#"x.jsonl:1: fixtures of contract "rfc8785", but these tests hold the crate to contract "difffuzz""#.to_owned())
    );
    let old = check_header(
        "x.jsonl",
        1,
        r#"{"category":"c","msgpack":"AQ==","error":"bad_envelope"}"#,
    );
    assert!(
        old.as_ref().is_err_and(|why| why
            .starts_with(r#"x.jsonl:1: want the header line {"contract": "difffuzz"} first"#)),
        "{old:?}"
    );
}

#[test]
fn first_difference_names_the_offset_with_context() {
    assert_eq!(first_difference(b"abc", b"abc"), None);
    let cases: [(&[u8], &[u8], &str); 3] = [
        (b"{\"a\":1e+21}", b"{\"a\":1e21}", "differs at byte 7 "),
        (b"ab", b"abc", "differs at byte 2 (lengths 2 and 3)"),
        (b"x", b"", "differs at byte 0 (lengths 1 and 0)"),
    ];
    for (want, got, prefix) in cases {
        let message = first_difference(want, got).unwrap();
        assert!(message.starts_with(prefix), "{message}");
    }
}
