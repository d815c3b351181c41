//! The naive Rust baseline: serde_json's compact output of a
//! `serde_json::Value`, whose default map (a BTreeMap) keeps keys sorted.
use std::process::ExitCode;

use difffuzz_kit::{serve, Hello, Native};
use difffuzz_survey_rust::version_of;

fn main() -> ExitCode {
    serve(
        Hello::new("serde_json", version_of("serde_json")),
        Native,
        serde_json::to_vec,
    )
}
