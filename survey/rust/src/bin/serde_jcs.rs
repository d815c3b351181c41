//! serde_jcs (RFC 8785) over a `serde_json::Value`.
use difffuzz_kit::{native::Native, serve, Hello};
use difffuzz_survey_rust::version_of;

fn main() {
    serve(
        Hello::new("serde_jcs", version_of("serde_jcs")),
        Native,
        serde_jcs::to_vec,
    )
}
