//! olpc-cjson (OLPC canonical JSON) over a `serde_json::Value`.
use std::process::ExitCode;

use difffuzz_kit::{serve, Hello, Native};
use difffuzz_survey_rust::version_of;
use serde::Serialize;

fn main() -> ExitCode {
    serve(
        Hello::new("olpc-cjson", version_of("olpc-cjson")),
        Native,
        |value| {
            let mut text = Vec::new();
            let mut ser = serde_json::Serializer::with_formatter(
                &mut text,
                olpc_cjson::CanonicalFormatter::new(),
            );
            value.serialize(&mut ser).map(|()| text)
        },
    )
}
