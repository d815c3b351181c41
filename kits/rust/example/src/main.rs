//! A difffuzz worker for a naive baseline: serde_json's compact output of a
//! `serde_json::Value` (keys sorted, as its default BTreeMap keeps them).
use std::process::ExitCode;

use difffuzz_kit::{serve, Hello, Native};

fn main() -> ExitCode {
    let hello = Hello::new("serde_json", "1.0.154");
    serve(hello, Native, serde_json::to_vec)
}
