//! `triagebench_rust::canonical` as a difffuzz worker in the native model.
use difffuzz_kit::{native::Native, serve, Hello};

fn main() {
    serve(Hello::new("rust-unwrap", "0.1.0"), Native, |value, out| {
        triagebench_rust::canonical(value, out);
        Ok(())
    })
}
