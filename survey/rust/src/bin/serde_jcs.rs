//! serde_jcs (RFC 8785) over a `serde_json::Value`.
use difffuzz_kit::{native::Native, serve, Hello, Refusal};
use difffuzz_survey_rust::version_of;

fn main() {
    serve(Hello::new("serde_jcs", version_of("serde_jcs")), Native, |value, out| {
        let text = serde_jcs::to_vec(value).map_err(|e| Refusal::internal(e.to_string()))?;
        out.extend_from_slice(&text);
        Ok(())
    })
}
