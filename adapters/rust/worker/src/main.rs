//! The difffuzz worker for the Rust implementation: the worker kit serving
//! `canonjson` over the exact model (`docs/adapter-protocol.md`).

use std::process::ExitCode;

use difffuzz_kit::{serve, CaseError, Hello};

fn main() -> ExitCode {
    let hello = Hello::new("canonjson-rust", canonjson::VERSION);
    serve(hello, canonjson_worker::Exact::default(), |value| {
        let mut text = Vec::new();
        canonjson::canonical_into(value, &mut text)
            .map(|()| text)
            .map_err(|e| CaseError::from_name(e.code(), e.message()))
    })
}
