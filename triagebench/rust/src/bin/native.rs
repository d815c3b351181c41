//! `triagebench_rust::canonical` as a difffuzz worker in the native model.
use difffuzz_kit::{native::Native, serve, Hello, SpecError};

fn main() {
    serve(Hello::new("rust-unwrap", "0.1.0"), Native, |value| {
        let mut out = Vec::new();
        triagebench_rust::canonical(value, &mut out);
        Ok::<_, SpecError>(out)
    })
}
