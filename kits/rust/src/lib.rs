//! The difffuzz worker kit for Rust: it owns the whole adapter protocol
//! (`docs/adapter-protocol.md`, versions 2 to 4), so that a worker for any
//! implementation of canonical JSON is a value model and one function.
//!
//! ```no_run
//! use difffuzz_kit::{native::Native, serve, Hello};
//!
//! fn main() {
//!     let hello = Hello::new("serde_json", "1.0.154");
//!     serve(hello, Native, serde_json::to_vec)
//! }
//! ```
//!
//! The kit reads frames (and their caps), decodes each case straight into the
//! [`Model`]'s own value type (no intermediate tree), calls the function,
//! hashes its output with BLAKE3, and answers batches, `digest_only` batches
//! and benches. The function returns the canonical text ([`Output`]: a
//! `Vec<u8>`, a `String`, or [`Signed`] with the SDK's own digest), a
//! [`SpecError`] for a value the spec rejects, or any other error, which is
//! the case's `internal` result named by the error's type. A panic in the
//! function or the model is an `internal` result for that case alone, with
//! the place it was raised (see [`serve`]). A case the model cannot hold is
//! answered `inexpressible` without calling the function.
//!
//! Three models: an exact one is written by the worker over its library's own
//! value type (the [`Model`] trait is the hook: the kit knows no library, the
//! library knows no kit); [`native::Native`] (feature `serde_json`) is
//! `serde_json::Value`, what a Rust SDK receives in production;
//! [`text::Text`] hands the function the case as the JSON text the driver
//! wrote, for an SDK that parses its input with its own parser.

use std::borrow::Cow;
use std::fmt;

mod cases;
pub mod channel;
mod cpu;
pub mod decode;
pub mod frame;
#[cfg(feature = "serde_json")]
pub mod native;
mod output;
mod panics;
pub mod pool;
mod request;
mod response;
mod serve;
pub mod text;

pub use output::{Output, Signed};
pub use serve::{run, serve};

/// serde_json, the crate of the native model, at the version the kit is built
/// with (feature `serde_json`): a worker needs no serde_json dependency of its
/// own, and cannot end up with a second one.
#[cfg(feature = "serde_json")]
pub use serde_json;
/// The native model's value, `serde_json::Value` (feature `serde_json`).
#[cfg(feature = "serde_json")]
pub use serde_json::Value;

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
    /// The case as JSON text ([`text::Text`]), for an SDK that parses it
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
    /// the text model is [`text::Text`]).
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
    /// the next one (see [`pool`]); the default drops it.
    fn recycle(&mut self, value: Self::Value) {
        drop(value);
    }
}

/// The spec's error codes, plus `internal` for an implementation that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
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
    /// The implementation itself failed (a finding, not a spec answer).
    Internal,
}

impl Code {
    /// Every code with its protocol spelling, in the order of
    /// docs/adapter-protocol.md (results), `internal` last: the kit's one
    /// table of them, which tests/errors.rs holds to the page. A code's
    /// place in the table is its discriminant.
    pub const TABLE: [(Code, &'static str); 7] = [
        (Code::TooDeep, "too_deep"),
        (Code::NonStringKey, "non_string_key"),
        (Code::LoneSurrogate, "lone_surrogate"),
        (Code::DuplicateKey, "duplicate_key"),
        (Code::UnsupportedValue, "unsupported_value"),
        (Code::BadEnvelope, "bad_envelope"),
        (Code::Internal, "internal"),
    ];

    /// Every code, in the table's order.
    pub const ALL: [Code; 7] = {
        let mut all = [Code::Internal; 7];
        let mut i = 0;
        while i < all.len() {
            all[i] = Code::TABLE[i].0;
            i += 1;
        }
        all
    };

    /// The protocol's spelling.
    pub fn as_str(self) -> &'static str {
        Code::TABLE[self as usize].1
    }

    /// The code of that spelling, if any.
    pub fn from_name(name: &str) -> Option<Code> {
        Code::TABLE
            .iter()
            .find(|(_, spelling)| *spelling == name)
            .map(|&(code, _)| code)
    }
}

// Each code's place in Code::TABLE is its discriminant, as as_str counts on.
const _: () = {
    let mut i = 0;
    while i < Code::TABLE.len() {
        assert!(Code::TABLE[i].0 as usize == i);
        i += 1;
    }
};

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The function's answer for a value the spec rejects: the error result
/// `{"error": code, "message": message}`. Any other error the function
/// returns is the case's `internal` result, named by its type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct SpecError {
    /// Compared across implementations.
    pub code: Code,
    /// For people.
    pub message: String,
}

impl SpecError {
    /// A spec error with one of the spec's codes (or `internal`).
    pub fn new(code: Code, message: impl Into<String>) -> SpecError {
        SpecError {
            code,
            message: message.into(),
        }
    }

    /// The implementation failed on this case, for a failure that has no
    /// error type of its own to name it (returning that error itself names
    /// the failure by its type).
    pub fn internal(message: impl Into<String>) -> SpecError {
        SpecError::new(Code::Internal, message)
    }

    /// A spec error from a library that spells its codes as the spec does.
    /// A name outside the spec is the implementation's bug, so it becomes
    /// `internal` (with the name kept in the message) rather than a code the
    /// driver would take at its word.
    pub fn from_name(name: &str, message: impl Into<String>) -> SpecError {
        match Code::from_name(name) {
            Some(code) => SpecError::new(code, message),
            None => SpecError::internal(format!("unknown error code {name:?}: {}", message.into())),
        }
    }
}

/// Why a case has no canonical text, as the kit answers it: the spec's
/// error, or the implementation's failure named by its error type.
///
/// Every error converts into it (`?` works on any error in the function),
/// keeping the type's name (`std::any::type_name`) for the result's
/// `error_type`: a [`SpecError`] stays the spec's answer, anything else is
/// the case's `internal` result. The function may return its own error
/// type as well, which the kit converts the same way; `CaseError` is for a
/// function that fails in more than one way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseError {
    /// The spec rejects the value (or the function said `internal` with no
    /// error type to name it by).
    Spec(SpecError),
    /// The implementation failed.
    Internal {
        /// The error's type, e.g. `serde_json::error::Error`.
        error_type: &'static str,
        /// The error's text, for people.
        message: String,
    },
}

impl<E: std::error::Error + 'static> From<E> for CaseError {
    fn from(e: E) -> CaseError {
        let mut slot = Some(e);
        if let Some(spec) =
            (&mut slot as &mut dyn std::any::Any).downcast_mut::<Option<SpecError>>()
        {
            return CaseError::Spec(spec.take().expect("the slot was just filled"));
        }
        let e = slot.expect("the slot was just filled");
        CaseError::Internal {
            error_type: std::any::type_name::<E>(),
            message: with_sources(&e),
        }
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
/// walks a case's msgpack value into its own type; [`text::Text`] takes
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
    fn read_case(&mut self, rd: &mut &[u8], levels: usize) -> Result<Self::Value, decode::Fault>;

    /// Takes back a case once it is answered.
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
