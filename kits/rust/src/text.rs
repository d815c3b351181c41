//! The text model (docs/your-sdk.md, "The text model"): a case as the JSON
//! text a tool call's arguments arrive in, for an SDK that parses them with
//! its own parser (`serde_json::from_str`) before canonicalizing.
//!
//! The driver writes the text, with its varied spellings, and sends it as
//! the case (protocol 4, docs/adapter-protocol.md "The text model's bytes"):
//! the kit hands it to the function unchanged and has no JSON writer of its
//! own. A case JSON text cannot spell never arrives: the driver answers it
//! `inexpressible` on the worker's behalf. On stdin and stdout (protocol 2)
//! the driver sends values, not text, so there each case is answered with
//! an `internal` error saying that the text model needs a driver of
//! protocol 4.

use std::ops::Deref;

use rmp::Marker;

use crate::decode::{DecodeError, Fault};
use crate::{Input, ModelKind, Reason};

/// Each case's `internal` message where the driver sends values instead.
pub(crate) const NEEDS_PROTOCOL: &str =
    "the text model needs a driver of protocol 4 (on the descriptors it offers): this one sends values, not JSON text";

/// The text model: the function gets a [`JsonText`], which derefs to `str`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Text;

/// One case as JSON text (`&*case` or [`JsonText::as_str`]): valid UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonText(String);

impl JsonText {
    /// The case's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for JsonText {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Input for Text {
    type Value = JsonText;
    const KIND: ModelKind = ModelKind::Text;
    /// What the driver answers on the worker's behalf, for cases JSON text
    /// cannot spell (bin data and other values outside the spec, keys that
    /// are not strings).
    const INEXPRESSIBLE: &'static [Reason] = &[Reason::NonStringKey, Reason::UnsupportedValue];

    /// A msgpack bin of UTF-8 JSON text; anything else is the driver's
    /// fault, and the request's.
    fn read_case(&mut self, rd: &mut &[u8], _levels: usize) -> Result<JsonText, Fault> {
        let mut bin = *rd;
        match rd.first().map(|&b| Marker::from_u8(b)) {
            Some(Marker::Bin8 | Marker::Bin16 | Marker::Bin32) => {}
            Some(_) => return Err(DecodeError::NotText.into()),
            None => return Err(DecodeError::Truncated.into()),
        }
        let len = rmp::decode::read_bin_len(&mut bin).map_err(|_| DecodeError::Truncated)?;
        let (text, rest) = bin
            .split_at_checked(len as usize)
            .ok_or(DecodeError::Truncated)?;
        let text = std::str::from_utf8(text).map_err(|_| DecodeError::NotText)?;
        *rd = rest;
        Ok(JsonText(text.to_owned()))
    }

    fn recycle(&mut self, value: JsonText) {
        drop(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> (Result<JsonText, Fault>, usize) {
        let mut rd = bytes;
        let got = Text.read_case(&mut rd, 0);
        (got, rd.len())
    }

    /// A bin of UTF-8 is the case's text, unchanged, and the reader stops
    /// after it; nesting is the text's own business.
    #[test]
    fn a_bin_of_utf8_is_the_text() {
        let (text, left) = read(&[0xc4, 4, b'[', b'[', b']', b']', 0xc0]);
        let text = text.expect("text");
        assert_eq!((&*text, text.as_str(), left), ("[[]]", "[[]]", 1));
        let (empty, _) = read(&[0xc4, 0]);
        assert_eq!(empty.map(|t| t.len()), Ok(0));
    }

    #[test]
    fn anything_else_is_the_requests_fault() {
        for (bytes, want) in [
            (&[0xa2, b'{', b'}'][..], DecodeError::NotText),
            (&[0xc4, 1, 0xff], DecodeError::NotText),
            (&[0xc4, 3, b'1'], DecodeError::Truncated),
            (&[], DecodeError::Truncated),
        ] {
            assert_eq!(read(bytes).0, Err(Fault::Malformed(want)), "{bytes:x?}");
        }
    }

    /// What the text model declares: what JSON text cannot spell.
    #[test]
    fn the_text_model_declares_what_text_cannot_spell() {
        assert_eq!(<Text as Input>::KIND, ModelKind::Text);
        assert_eq!(
            <Text as Input>::INEXPRESSIBLE,
            [Reason::NonStringKey, Reason::UnsupportedValue]
        );
    }
}
