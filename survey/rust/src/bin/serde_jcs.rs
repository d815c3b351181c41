//! serde_jcs (RFC 8785) over a `serde_json::Value`.
use std::process::ExitCode;

use difffuzz_kit::{serve, Hello, Native};
use difffuzz_survey_rust::version_of;

fn main() -> ExitCode {
    serve(
        Hello::new("serde_jcs", version_of("serde_jcs")),
        Native,
        serde_jcs::to_vec,
    )
}
