//! `triagebench_rust::canonical_text` as a difffuzz worker in the text model.
use std::process::ExitCode;

use difffuzz_kit::{serve, Hello, SpecError, Text};

fn main() -> ExitCode {
    serve(Hello::new("rust-unwrap", "0.1.0"), Text, |text| {
        let mut out = Vec::new();
        triagebench_rust::canonical_text(text, &mut out);
        Ok::<_, SpecError>(out)
    })
}
