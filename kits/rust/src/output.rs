//! What the function returns for a case it canonicalized: the text alone,
//! which the kit hashes, or the text with the SDK's own digest of it, which
//! the kit sends in place of its own (docs/your-sdk.md, "Your SDK's own
//! signature"). One function shape for both, as in the other kits: Python's
//! `bytes` or `(text, digest)`, TypeScript's bytes or `{ text, digest }`.

/// A function's canonical text, with or without the SDK's own digest.
///
/// Implemented for `Vec<u8>` and `String` (the text: the kit hashes it with
/// BLAKE3) and for [`Signed`] (the text and the SDK's digest of it). The kit
/// keeps the text it is handed, so returning a `Vec<u8>` costs no copy.
pub trait Output {
    /// The digest's type: any bytes; the kit checks that there are 32.
    type Digest: AsRef<[u8]>;

    /// The canonical text, and the SDK's own digest of it if it has one.
    fn into_parts(self) -> (Vec<u8>, Option<Self::Digest>);
}

impl Output for Vec<u8> {
    type Digest = [u8; 32];

    fn into_parts(self) -> (Vec<u8>, Option<[u8; 32]>) {
        (self, None)
    }
}

impl Output for String {
    type Digest = [u8; 32];

    fn into_parts(self) -> (Vec<u8>, Option<[u8; 32]>) {
        (self.into_bytes(), None)
    }
}

/// The canonical text with the SDK's own digest of it (BLAKE3-256, 32
/// bytes), for an SDK that signs: the kit sends that digest instead of
/// hashing the text itself, so the driver checks the SDK's hashing too. A
/// digest that is not BLAKE3 of the text is a `digest` finding; one that is
/// not 32 bytes long is the case's `internal` result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed<D = [u8; 32]> {
    /// The canonical text.
    pub canonical: Vec<u8>,
    /// The SDK's digest of `canonical`, as it computes it.
    pub digest: D,
}

impl<D: AsRef<[u8]>> Output for Signed<D> {
    type Digest = D;

    fn into_parts(self) -> (Vec<u8>, Option<D>) {
        (self.canonical, Some(self.digest))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text is kept as it is handed over; a signature comes with it.
    #[test]
    fn each_output_is_its_text_and_maybe_a_digest() {
        let text = b"{}".to_vec();
        let at = text.as_ptr();
        let (kept, digest) = Output::into_parts(text);
        assert_eq!((kept.as_ptr(), digest), (at, None), "a Vec is not copied");
        assert_eq!(
            Output::into_parts(String::from("[]")),
            (b"[]".to_vec(), None)
        );
        let signed = Signed {
            canonical: b"1".to_vec(),
            digest: vec![9u8; 3],
        };
        assert_eq!(signed.into_parts(), (b"1".to_vec(), Some(vec![9u8; 3])));
    }
}
