//! `triagebench_rust::canonical` as a difffuzz worker in the native model.
use std::process::ExitCode;

use difffuzz_kit::{serve, Hello, Native, SpecError};

fn main() -> ExitCode {
    serve(Hello::new("rust-unwrap", "0.1.0"), Native, |value| {
        let mut out = Vec::new();
        triagebench_rust::canonical(value, &mut out);
        Ok::<_, SpecError>(out)
    })
}
