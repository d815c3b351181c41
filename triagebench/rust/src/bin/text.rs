//! `triagebench_rust::canonical_text` as a difffuzz worker in the text model.
use difffuzz_kit::{json_text::Text, serve, Hello};

fn main() {
    serve(Hello::new("rust-unwrap", "0.1.0"), Text, |text, out| {
        triagebench_rust::canonical_text(text, out);
        Ok(())
    })
}
