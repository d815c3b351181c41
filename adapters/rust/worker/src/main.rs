//! The difffuzz worker for the Rust implementation: the worker kit serving
//! `canonjson` over the exact model (`docs/adapter-protocol.md`).

use difffuzz_kit::{serve, Hello, Refusal};

fn main() {
    let hello = Hello::new("canonjson-rust", canonjson::VERSION);
    serve(hello, canonjson_worker::Exact::default(), |value, out| {
        canonjson::canonical_into(value, out).map_err(|e| Refusal::from_name(e.code(), e.message()))
    })
}
