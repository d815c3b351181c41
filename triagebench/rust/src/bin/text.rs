//! `triagebench_rust::canonical_text` as a difffuzz worker in the text model.
use difffuzz_kit::{serve, text::Text, Hello, SpecError};

fn main() {
    serve(Hello::new("rust-unwrap", "0.1.0"), Text, |text| {
        let mut out = Vec::new();
        triagebench_rust::canonical_text(text, &mut out);
        Ok::<_, SpecError>(out)
    })
}
