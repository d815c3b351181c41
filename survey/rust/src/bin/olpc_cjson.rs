//! olpc-cjson (OLPC canonical JSON) over a `serde_json::Value`.
use difffuzz_kit::{native::Native, serve, Hello, Refusal};
use difffuzz_survey_rust::version_of;
use serde::Serialize;

fn main() {
    serve(Hello::new("olpc-cjson", version_of("olpc-cjson")), Native, |value, out| {
        let mut ser = serde_json::Serializer::with_formatter(out, olpc_cjson::CanonicalFormatter::new());
        value.serialize(&mut ser).map_err(|e| Refusal::internal(e.to_string()))
    })
}
