//! A difffuzz worker for the naive baseline in the text model: each case
//! arrives as JSON text, as a tool call's arguments do, is read by
//! `serde_json::from_str` into a `Value` (the last repeated key kept, keys
//! sorted) and written compactly by serde_json.
use std::process::ExitCode;

use difffuzz_kit::{serve, Hello, Text};

fn main() -> ExitCode {
    let hello = Hello::new("serde_json-text", "1.0.154");
    serve(hello, Text, |text| {
        let value: serde_json::Value = serde_json::from_str(text)?;
        serde_json::to_vec(&value)
    })
}
