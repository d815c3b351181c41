//! The difffuzz worker kit for Rust: it owns the whole adapter protocol
//! (`docs/adapter-protocol.md`, versions 2 to 4), so that a worker for any
//! implementation of canonical JSON is a value model and one function.
//!
//! ```no_run
//! # #[cfg(feature = "serde_json")]
//! # mod example {
//! use std::process::ExitCode;
//!
//! use difffuzz_kit::{serve, Hello, Native};
//!
//! fn main() -> ExitCode {
//!     let hello = Hello::new("serde_json", "1.0.154");
//!     serve(hello, Native, serde_json::to_vec)
//! }
//! # }
//! # fn main() {}
//! ```
//!
//! The kit reads frames (and their caps), decodes each case straight into
//! the [`Model`]'s own value type (no intermediate tree), calls the function,
//! hashes its output with BLAKE3, and answers batches, `digest_only` batches
//! and benches. The function returns the canonical text ([`Output`]: a
//! `Vec<u8>`, a `String`, or [`Signed`] with the SDK's own digest), a
//! [`SpecError`] for a value the spec rejects, or any other error (a
//! `Box<dyn Error>` too), which is the case's `internal` result named by the
//! error's type. A panic in the function or the model is an `internal`
//! result for that case alone, with the place it was raised (see [`serve`]).
//! A case the model cannot hold is answered `inexpressible` without calling
//! the function.
//!
//! Three models: an exact one is written by the worker over its library's
//! own value type (the [`Model`] trait is the hook: the kit knows no
//! library, the library knows no kit); `Native` (feature `serde_json`) is
//! `serde_json::Value`, what a Rust SDK receives in production; [`Text`]
//! hands the function the case as the JSON text the driver wrote
//! ([`JsonText`]), for an SDK that parses its input with its own parser.
//!
//! The crate's names are those of docs/your-sdk.md, "The kits' vocabulary"
//! (tests/vocabulary.rs holds them to it), and [`testing`] for a team's own
//! tests. The protocol's machinery (frames, the channel, the decoder) is
//! private:
//!
//! ```compile_fail
//! use difffuzz_kit::frame::read_frame;
//! ```
//! ```compile_fail
//! use difffuzz_kit::decode::decode;
//! ```
//! ```compile_fail
//! use difffuzz_kit::channel::FD_PROTOCOL;
//! ```
//! ```compile_fail
//! use difffuzz_kit::run;
//! ```
//! ```compile_fail
//! use difffuzz_kit::Code;
//! ```

use std::borrow::Cow;
use std::error::Error;
use std::fmt;
use std::str::FromStr;

mod cases;
mod channel;
mod cpu;
mod decode;
mod frame;
#[cfg(feature = "serde_json")]
mod native;
mod output;
mod panics;
mod request;
mod response;
mod serve;
pub mod testing;
mod text;

#[cfg(feature = "serde_json")]
pub use native::Native;
pub use output::{Output, Signed};
pub use serve::serve;
pub use text::{JsonText, Text};

/// Not the kit's API: what the kit's own tests, the project's worker
/// (adapters/rust) and the survey reach into, which may change in any
/// release. A worker needs none of it.
#[doc(hidden)]
pub mod __private {
    pub use crate::channel::{FDS_ENV, FD_PROTOCOL, PROTOCOL};
    pub use crate::serve::run;

    /// The msgpack mapping of the value model, for tests of a model.
    pub mod decode {
        pub use crate::decode::{
            decode, expect_end, read_value, skip_value, DecodeError, Fault, MAX_WIRE_NESTING,
        };
    }

    /// Framing, for tests.
    pub mod frame {
        pub use crate::frame::{read_frame, write_frame, FrameError, MAX_FRAME_LEN};
    }

    use std::error::Error;

    use crate::CaseError;

    /// The function's error types: any `std::error::Error`, a
    /// `Box<dyn Error>` and a `Box<dyn Error + Send + Sync>`, which are not
    /// errors themselves. One trait with an impl for each would overlap (for
    /// all the compiler knows, std may make the boxes errors some day), so
    /// each impl has a marker type of its own, `M`, which the compiler
    /// infers: a worker never names it.
    pub trait IntoCaseError<M> {
        /// The error as the kit answers it.
        fn into_case_error(self) -> CaseError;
    }

    /// Which of [`IntoCaseError`]'s impls an error takes: any
    /// `std::error::Error`...
    pub enum AnError {}
    /// ...a `Box<dyn Error>`...
    pub enum ABox {}
    /// ...or a `Box<dyn Error + Send + Sync>`.
    pub enum ASendBox {}

    impl<E: Error + 'static> IntoCaseError<AnError> for E {
        fn into_case_error(self) -> CaseError {
            CaseError::from_error(self)
        }
    }

    impl IntoCaseError<ABox> for Box<dyn Error> {
        fn into_case_error(self) -> CaseError {
            CaseError::from(self)
        }
    }

    impl IntoCaseError<ASendBox> for Box<dyn Error + Send + Sync> {
        fn into_case_error(self) -> CaseError {
            CaseError::from(self)
        }
    }
}

/// Who the worker is: its hello frame, less what the [`Model`] says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    /// The implementation's package name, e.g. `"canonjson-rust"`.
    pub name: String,
    /// The implementation's version, so findings record who disagreed.
    pub version: String,
    /// The language the implementation is written in; `"rust"` by default.
    pub language: String,
}

impl Hello {
    /// A hello for `name` at `version`, in Rust.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Hello {
        Hello {
            name: name.into(),
            version: version.into(),
            language: "rust".to_owned(),
        }
    }

    /// The same hello for an implementation in another language (a Rust
    /// worker driving a library through FFI, say).
    pub fn language(mut self, language: impl Into<String>) -> Hello {
        self.language = language.into();
        self
    }
}

/// Which value model a worker hands its implementation (the hello's `model`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelKind {
    /// Lossless: ordered members with duplicates, any-size integers, lone
    /// surrogates, int told apart from float. Never answers `inexpressible`.
    Exact,
    /// What an SDK receives in production; some cases it cannot hold.
    Native,
    /// The case as JSON text ([`Text`]), for an SDK that parses it
    /// itself; only bin data and non-string keys cannot be spelled.
    Text,
}

impl ModelKind {
    /// The protocol's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ModelKind::Exact => "exact",
            ModelKind::Native => "native",
            ModelKind::Text => "text",
        }
    }
}

/// Why a case cannot be held by a native model (the protocol's reasons).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// An object with a repeated key.
    DuplicateKey,
    /// A string or key with a lone surrogate.
    LoneSurrogate,
    /// An integer the model's numbers cannot hold exactly.
    BigInt,
    /// NaN, Infinity or -Infinity.
    NonFinite,
    /// A map key that is not a string.
    NonStringKey,
    /// A bin value, another ext type, a malformed payload.
    UnsupportedValue,
}

impl Reason {
    /// Every reason, for a model that can give them all.
    pub const ALL: [Reason; 6] = [
        Reason::DuplicateKey,
        Reason::LoneSurrogate,
        Reason::BigInt,
        Reason::NonFinite,
        Reason::NonStringKey,
        Reason::UnsupportedValue,
    ];

    /// The protocol's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::DuplicateKey => "duplicate_key",
            Reason::LoneSurrogate => "lone_surrogate",
            Reason::BigInt => "big_int",
            Reason::NonFinite => "non_finite",
            Reason::NonStringKey => "non_string_key",
            Reason::UnsupportedValue => "unsupported_value",
        }
    }
}

/// A case (or the part of it being built) that the model cannot hold without
/// loss: the kit answers it with this reason and never calls the function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inexpressible {
    /// Compared by the driver; must be one the model declares.
    pub reason: Reason,
    /// For people.
    pub message: Cow<'static, str>,
}

impl Inexpressible {
    /// The case holds something of this `reason`.
    pub fn new(reason: Reason, message: impl Into<Cow<'static, str>>) -> Inexpressible {
        Inexpressible {
            reason,
            message: message.into(),
        }
    }
}

/// What a model step gives: the built part, or why the case cannot be held.
pub type Built<T> = Result<T, Inexpressible>;

/// A value model: how the kit builds one case, straight from the wire, into
/// the type the implementation takes. The kit walks the msgpack value in
/// order (pre-order, members key then value) and calls one method per item;
/// a method that returns [`Inexpressible`] ends the case (an exact model never
/// does). Methods take `&mut self` so a model can keep pools of buffers and
/// get them back in [`Model::recycle`].
pub trait Model {
    /// One case as the implementation takes it.
    type Value;
    /// An object key.
    type Key;
    /// An array being filled.
    type Array;
    /// An object being filled.
    type Object;

    /// Announced in the hello: `Exact` or `Native` (a model walks values;
    /// the text model is [`Text`]).
    const KIND: ModelKind;
    /// Every reason this model may give, announced in the hello: the driver
    /// fails a worker that gives one it did not declare. Empty for `Exact`.
    const INEXPRESSIBLE: &'static [Reason];

    /// msgpack nil.
    fn null(&mut self) -> Built<Self::Value>;
    /// msgpack true / false.
    fn bool(&mut self, b: bool) -> Built<Self::Value>;
    /// An integer of the msgpack int family: -2^63 ..= 2^64-1.
    fn int(&mut self, i: i128) -> Built<Self::Value>;
    /// An ext 1 integer, checked to be `-?(0|[1-9][0-9]*)`: usually outside
    /// the int family, but any integer may be so written (`-0` included).
    fn big_int(&mut self, decimal: &str) -> Built<Self::Value>;
    /// A float 64, or a float 32 widened exactly.
    fn float(&mut self, f: f64) -> Built<Self::Value>;
    /// A str that is valid UTF-8.
    fn str(&mut self, s: &str) -> Built<Self::Value>;
    /// An ext 2 string as UTF-16 code units: usually with a lone surrogate,
    /// but it may be a proper string.
    fn utf16(&mut self, units: Vec<u16>) -> Built<Self::Value>;
    /// Something outside the value model (bin, another ext type, a malformed
    /// ext payload, a str that is not UTF-8); `what` says which, for people.
    fn unsupported(&mut self, what: &str) -> Built<Self::Value>;

    /// A new array of `len` items, of which at most `capacity` are reserved
    /// (a lying length cannot make the model reserve gigabytes).
    fn array(&mut self, capacity: usize) -> Built<Self::Array>;
    /// The next item of `array`.
    fn push(&mut self, array: &mut Self::Array, item: Self::Value) -> Built<()>;
    /// The filled array.
    fn end_array(&mut self, array: Self::Array) -> Built<Self::Value>;

    /// A new object; `capacity` as for [`Model::array`].
    fn object(&mut self, capacity: usize) -> Built<Self::Object>;
    /// A str key that is valid UTF-8.
    fn key_str(&mut self, s: &str) -> Built<Self::Key>;
    /// A well-formed ext 2 key (even length), as for [`Model::utf16`].
    fn key_utf16(&mut self, units: Vec<u16>) -> Built<Self::Key>;
    /// Called when a key is not a string (an int, a str that is not UTF-8,
    /// an odd-length ext 2, ...), before it is read: a model without such
    /// keys refuses here, so the key's own contents are never looked at.
    fn non_string_key(&mut self) -> Built<()> {
        Ok(())
    }
    /// The non-string key, read as a value.
    fn key_value(&mut self, key: Self::Value) -> Built<Self::Key>;
    /// Called with each key before its value is read, so a model that merges
    /// repeated keys refuses the case at the point the walk meets the repeat.
    fn check_key(&mut self, object: &Self::Object, key: &Self::Key) -> Built<()> {
        let _ = (object, key);
        Ok(())
    }
    /// The next member of `object`.
    fn insert(
        &mut self,
        object: &mut Self::Object,
        key: Self::Key,
        value: Self::Value,
    ) -> Built<()>;
    /// The filled object.
    fn end_object(&mut self, object: Self::Object) -> Built<Self::Value>;

    /// Takes back a case once it is answered, e.g. to keep its buffers for
    /// the next one; the default drops it.
    fn recycle(&mut self, value: Self::Value) {
        drop(value);
    }
}

/// The spec's error codes: what a [`SpecError`] says. `internal` is not
/// one of them: an implementation that failed returns any other error (or
/// panics), and the kit answers `internal` for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// Nesting deeper than the spec allows.
    TooDeep,
    /// An object key that is not a string.
    NonStringKey,
    /// A string or key with a lone surrogate.
    LoneSurrogate,
    /// Two equal keys in one object.
    DuplicateKey,
    /// A value outside the model.
    UnsupportedValue,
    /// The top level is not `{"tool_name": <string>, "args": <object>}`.
    BadEnvelope,
}

impl ErrorCode {
    /// Every code with its protocol spelling, in the order of
    /// docs/adapter-protocol.md (results): the kit's one table of them,
    /// which drives [`ErrorCode::as_str`], [`ErrorCode::ALL`] and `parse`,
    /// and which a test holds to the page. A code's place in the table is
    /// its discriminant.
    pub const TABLE: [(ErrorCode, &'static str); 6] = [
        (ErrorCode::TooDeep, "too_deep"),
        (ErrorCode::NonStringKey, "non_string_key"),
        (ErrorCode::LoneSurrogate, "lone_surrogate"),
        (ErrorCode::DuplicateKey, "duplicate_key"),
        (ErrorCode::UnsupportedValue, "unsupported_value"),
        (ErrorCode::BadEnvelope, "bad_envelope"),
    ];

    /// Every code, in the table's order.
    pub const ALL: [ErrorCode; 6] = {
        let mut all = [ErrorCode::TooDeep; 6];
        let mut i = 0;
        while i < all.len() {
            all[i] = ErrorCode::TABLE[i].0;
            i += 1;
        }
        all
    };

    /// The protocol's spelling.
    pub fn as_str(self) -> &'static str {
        ErrorCode::TABLE[self as usize].1
    }
}

// Each code's place in ErrorCode::TABLE is its discriminant, as as_str
// counts on.
const _: () = {
    let mut i = 0;
    while i < ErrorCode::TABLE.len() {
        assert!(ErrorCode::TABLE[i].0 as usize == i);
        i += 1;
    }
};

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The code of a spelling, for a library that spells its codes as the spec
/// does: `"duplicate_key".parse::<ErrorCode>()`. A name outside the spec is
/// the implementation's bug, so the error is that case's `internal` result
/// (`?` in the function answers it so).
impl FromStr for ErrorCode {
    type Err = CaseError;

    fn from_str(name: &str) -> Result<ErrorCode, CaseError> {
        ErrorCode::TABLE
            .iter()
            .find(|(_, spelling)| *spelling == name)
            .map(|&(code, _)| code)
            .ok_or_else(|| CaseError::Internal {
                error_type: std::any::type_name::<ErrorCode>(),
                message: format!("unknown error code {name:?}"),
            })
    }
}

/// The function's answer for a value the spec rejects: the error result
/// `{"error": code, "message": message}`. Any other error the function
/// returns is the case's `internal` result, named by its type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct SpecError {
    /// Compared across implementations.
    pub code: ErrorCode,
    /// For people.
    pub message: String,
}

impl SpecError {
    /// A spec error with one of the spec's codes.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> SpecError {
        SpecError {
            code,
            message: message.into(),
        }
    }
}

/// Why a case has no canonical text, as the kit answers it: the spec's
/// error, or the implementation's failure named by its error type.
///
/// The function may return any error type (see [`serve`]); the kit turns
/// it into a `CaseError` as [`CaseError::from_error`] does: a
/// [`SpecError`] stays the spec's answer, anything else is the case's
/// `internal` result. `CaseError` is an error itself, so a function that
/// returns `Box<dyn Error>` may box one, and the kit finds it in the box.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseError {
    /// The spec rejects the value.
    Spec(SpecError),
    /// The implementation failed.
    Internal {
        /// The error's type, e.g. `serde_json::error::Error`.
        error_type: &'static str,
        /// The error's text, for people.
        message: String,
    },
}

impl CaseError {
    /// Any error, as the kit answers it: a [`SpecError`] is the spec's
    /// answer, a `CaseError` itself, and anything else the implementation's
    /// failure, named by its type (`std::any::type_name`, e.g.
    /// `serde_json::error::Error`) so that the driver buckets failures by
    /// type rather than by a message that quotes the input.
    pub fn from_error<E: Error + 'static>(e: E) -> CaseError {
        let mut slot = Some(e);
        let any = &mut slot as &mut dyn std::any::Any;
        if let Some(spec) = any.downcast_mut::<Option<SpecError>>() {
            return CaseError::Spec(spec.take().expect("the slot was just filled"));
        }
        if let Some(case) = any.downcast_mut::<Option<CaseError>>() {
            return case.take().expect("the slot was just filled");
        }
        let e = slot.expect("the slot was just filled");
        CaseError::Internal {
            error_type: std::any::type_name::<E>(),
            message: with_sources(&e),
        }
    }

    /// A spec error from a library that spells its codes as the spec does:
    /// the spec's answer for a code of the spec, the implementation's
    /// failure (`internal`, with the name kept in the message) for any other
    /// name, rather than a code the driver would take at its word.
    pub fn from_name(name: &str, message: impl Into<String>) -> CaseError {
        match name.parse() {
            Ok(code) => CaseError::Spec(SpecError::new(code, message)),
            Err(_) => CaseError::Internal {
                error_type: std::any::type_name::<ErrorCode>(),
                message: format!("unknown error code {name:?}: {}", message.into()),
            },
        }
    }

    /// A boxed error: the [`SpecError`] or `CaseError` in the box if that is
    /// what it holds; else the implementation's failure, whose type the box
    /// has erased: `error_type` is the type's name when it is one of the
    /// standard library's errors (`std::io::Error`, `ParseIntError`, ...) or
    /// `serde_json::Error` (feature `serde_json`), and `Box<dyn Error>`
    /// otherwise. To keep another type's name, box the error as
    /// `CaseError::from_error(e)`.
    fn from_box(e: Box<dyn Error>) -> CaseError {
        let e = match e.downcast::<SpecError>() {
            Ok(spec) => return CaseError::Spec(*spec),
            Err(e) => e,
        };
        let e = match e.downcast::<CaseError>() {
            Ok(case) => return *case,
            Err(e) => e,
        };
        CaseError::Internal {
            error_type: boxed_type_name(e.as_ref()),
            message: e.to_string(),
        }
    }
}

/// The name of a boxed error's type, for the types the kit can test a box
/// for; `Box<dyn Error>` for any other.
fn boxed_type_name(e: &(dyn Error + 'static)) -> &'static str {
    macro_rules! known {
        ($($t:ty),* $(,)?) => {
            $(if e.is::<$t>() {
                return std::any::type_name::<$t>();
            })*
        };
    }
    known!(
        std::io::Error,
        std::fmt::Error,
        std::num::ParseIntError,
        std::num::ParseFloatError,
        std::num::TryFromIntError,
        std::str::ParseBoolError,
        std::str::Utf8Error,
        std::string::FromUtf8Error,
        std::string::FromUtf16Error,
        std::char::CharTryFromError,
        std::array::TryFromSliceError,
    );
    #[cfg(feature = "serde_json")]
    known!(serde_json::Error);
    "Box<dyn Error>"
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaseError::Spec(spec) => spec.fmt(f),
            CaseError::Internal {
                error_type,
                message,
            } => write!(f, "{error_type}: {message}"),
        }
    }
}

impl Error for CaseError {}

impl From<SpecError> for CaseError {
    fn from(spec: SpecError) -> CaseError {
        CaseError::Spec(spec)
    }
}

/// A boxed error: the [`SpecError`] or `CaseError` in the box if that is
/// what it holds; else the implementation's failure, whose type the box
/// has erased: `error_type` is the type's name when it is one of the
/// standard library's errors (`std::io::Error`, `ParseIntError`, ...) or
/// `serde_json::Error` (feature `serde_json`), and `Box<dyn Error>`
/// otherwise. To keep another type's name, box `CaseError::from_error(e)`.
impl From<Box<dyn Error>> for CaseError {
    fn from(e: Box<dyn Error>) -> CaseError {
        CaseError::from_box(e)
    }
}

/// As for `Box<dyn Error>`.
impl From<Box<dyn Error + Send + Sync>> for CaseError {
    fn from(e: Box<dyn Error + Send + Sync>) -> CaseError {
        CaseError::from_box(e)
    }
}

/// The most sources of an error [`with_sources`] reads: a chain that loops
/// (an SDK's bug) must not hang the worker.
const MAX_SOURCES: usize = 16;

/// An error's text followed by its `source()` chain's, "outer: inner:
/// innermost", each source's text once: left out where the text so far
/// holds it already, as many errors print their source in their own. An
/// SDK's error passed up by `?` may say little of its own ("invalid
/// JSON"), and one type holds many causes (`serde_json::Error`); the
/// source's words are what the driver reads the message's template from
/// (docs/triage.md). A `dyn Error` source's type cannot be named without
/// knowing it, so the chain goes as text.
fn with_sources(e: &dyn std::error::Error) -> String {
    let mut message = e.to_string();
    let mut source = e.source();
    for _ in 0..MAX_SOURCES {
        let Some(s) = source else { break };
        let text = s.to_string();
        if !text.is_empty() && !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = s.source();
    }
    message
}

/// What the kit hands the function, read off the wire: every [`Model`]
/// walks a case's msgpack value into its own type; [`Text`] takes
/// the JSON text the driver wrote (protocol 4). Implemented by the kit
/// alone (sealed): a worker implements [`Model`].
pub trait Input: sealed::Sealed {
    /// One case as the implementation takes it.
    type Value;
    /// Announced in the hello.
    const KIND: ModelKind;
    /// Announced in the hello (see [`Model::INEXPRESSIBLE`]).
    const INEXPRESSIBLE: &'static [Reason];

    /// Reads the case at the front of `rd`, opening at most `levels` nested
    /// containers, and leaves `rd` after it (on success).
    #[doc(hidden)]
    fn read_case(&mut self, rd: &mut &[u8], levels: usize) -> Result<Self::Value, decode::Fault>;

    /// Takes back a case once it is answered.
    #[doc(hidden)]
    fn recycle(&mut self, value: Self::Value);
}

impl<M: Model> Input for M {
    type Value = M::Value;
    const KIND: ModelKind = M::KIND;
    const INEXPRESSIBLE: &'static [Reason] = M::INEXPRESSIBLE;

    fn read_case(&mut self, rd: &mut &[u8], levels: usize) -> Result<M::Value, decode::Fault> {
        decode::read_value(self, rd, levels)
    }

    fn recycle(&mut self, value: M::Value) {
        Model::recycle(self, value);
    }
}

mod sealed {
    /// Keeps [`super::Input`] the kit's own: its two kinds are every model
    /// and the text model.
    pub trait Sealed {}
    impl<M: super::Model> Sealed for M {}
    impl Sealed for super::text::Text {}
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROTOCOL_DOC: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/adapter-protocol.md"
    );

    /// The spec's codes the page lists for a result's `error`, and the one
    /// it adds for an implementation that failed.
    fn documented_codes() -> (Vec<String>, String) {
        let page = std::fs::read_to_string(PROTOCOL_DOC).expect("read docs/adapter-protocol.md");
        let text = page.split_whitespace().collect::<Vec<_>>().join(" ");
        let lead = "`code` is one of the spec's codes (";
        let start = text
            .find(lead)
            .expect("the page no longer lists the error codes as this test reads them")
            + lead.len();
        let (list, rest) = text[start..]
            .split_once("), or `")
            .expect("no `internal` after the spec's codes");
        let codes = list
            .split('`')
            .skip(1)
            .step_by(2)
            .map(String::from)
            .collect();
        (codes, rest.split('`').next().unwrap_or_default().to_owned())
    }

    /// The kit's codes are the page's, and `internal`, which the page adds
    /// for a failure, is none of them.
    #[test]
    fn the_error_codes_are_the_protocol_pages() {
        let (codes, failure) = documented_codes();
        let spelled: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(spelled, codes);
        assert_eq!(failure, "internal");
        assert!(failure.parse::<ErrorCode>().is_err());
    }

    #[test]
    fn each_spelling_names_its_code() {
        for (code, name) in ErrorCode::TABLE {
            assert_eq!(name.parse::<ErrorCode>(), Ok(code));
            assert_eq!(code.to_string(), name);
        }
        assert_eq!(
            "TooDeep".parse::<ErrorCode>(),
            Err(CaseError::Internal {
                error_type: "difffuzz_kit::ErrorCode",
                message: "unknown error code \"TooDeep\"".to_owned()
            })
        );
        assert_eq!(
            SpecError::new(ErrorCode::TooDeep, "513 levels").to_string(),
            "too_deep: 513 levels"
        );
    }

    /// A library's code name is the spec's answer when the spec has it,
    /// else the implementation's failure, with the name in the message.
    #[test]
    fn a_code_by_name_is_a_spec_error_or_a_failure() {
        assert_eq!(
            CaseError::from_name("bad_envelope", "why"),
            CaseError::Spec(SpecError::new(ErrorCode::BadEnvelope, "why"))
        );
        let unknown = CaseError::from_name("internal", "why");
        assert_eq!(
            unknown,
            CaseError::Internal {
                error_type: "difffuzz_kit::ErrorCode",
                message: "unknown error code \"internal\": why".to_owned()
            }
        );
        assert_eq!(
            unknown.to_string(),
            "difffuzz_kit::ErrorCode: unknown error code \"internal\": why"
        );
    }

    /// Whatever error the function returns, in a box or not, the kit finds
    /// a spec error or a CaseError in it, else names the failure by its
    /// type as far as it can tell it.
    #[test]
    fn errors_boxed_or_not_are_answered_by_what_they_are() {
        let spec = SpecError::new(ErrorCode::LoneSurrogate, "\\ud800");
        let named = CaseError::from_error(std::io::Error::other("disk"));
        assert_eq!(
            named,
            CaseError::Internal {
                error_type: "std::io::error::Error",
                message: "disk".to_owned()
            }
        );
        assert_eq!(CaseError::from_error(named.clone()), named);
        let boxed: Box<dyn Error> = Box::new(spec.clone());
        assert_eq!(CaseError::from(boxed), CaseError::Spec(spec.clone()));
        let boxed: Box<dyn Error + Send + Sync> = Box::new(spec.clone());
        assert_eq!(CaseError::from(boxed), CaseError::Spec(spec));
        let boxed: Box<dyn Error> = Box::new(named.clone());
        assert_eq!(CaseError::from(boxed), named);
        let boxed: Box<dyn Error> = "0x".parse::<u8>().unwrap_err().into();
        assert!(matches!(
            CaseError::from(boxed),
            CaseError::Internal {
                error_type: "core::num::error::ParseIntError",
                ..
            }
        ));
        let boxed: Box<dyn Error + Send + Sync> = "a message".into();
        assert_eq!(
            CaseError::from(boxed),
            CaseError::Internal {
                error_type: "Box<dyn Error>",
                message: "a message".to_owned()
            }
        );
    }

    #[test]
    fn hello_reasons_and_kinds_are_spelled_as_the_protocol_does() {
        let hello = Hello::new("sdk", "1.2.3").language("c");
        assert_eq!(
            (
                hello.name.as_str(),
                hello.version.as_str(),
                hello.language.as_str()
            ),
            ("sdk", "1.2.3", "c")
        );
        assert_eq!(Hello::new("sdk", "1").language, "rust");
        let reasons: Vec<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "duplicate_key",
                "lone_surrogate",
                "big_int",
                "non_finite",
                "non_string_key",
                "unsupported_value"
            ]
        );
        let kinds = [ModelKind::Exact, ModelKind::Native, ModelKind::Text].map(ModelKind::as_str);
        assert_eq!(kinds, ["exact", "native", "text"]);
    }
}
