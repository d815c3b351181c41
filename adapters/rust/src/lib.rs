//! Canonical JSON for tool-call signatures, as specified in
//! `docs/canonical-json.md`.
//!
//! A tool call is signed by hashing one byte string that every implementation
//! (Python, Go, TypeScript, Rust) must produce identically, so this crate
//! follows the spec to the byte: validation in input order with the spec's
//! error precedence, code-point key order, Python `ensure_ascii` escaping and
//! ECMAScript float text. The library knows nothing of the worker protocol:
//! the difffuzz worker (`worker/`) builds [`Value`]s with the worker kit.

use std::fmt;

/// This crate's version, for a worker's hello.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[cfg(test)]
mod tests;

/// Deepest container nesting the spec accepts: deeper input is refused with
/// `too_deep` so that no implementation can be driven into a stack overflow.
pub const MAX_DEPTH: usize = 512;

/// A value as the spec's model sees it, plus the out-of-domain shapes that
/// input can carry, so that they are reported where the walk meets them.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// JSON `null`.
    Null,
    /// JSON `true` / `false`.
    Bool(bool),
    /// An integer small enough for a machine word: one variant holds every
    /// msgpack int (-2^63 ..= 2^64-1) without a separate unsigned case.
    Int(i128),
    /// An integer of any size, kept as text because the spec puts no bound on
    /// integers and canonical text is decimal anyway.
    BigInt(BigInt),
    /// A binary64; NaN, the infinities and -0.0 included. Distinct from `Int`
    /// because the spec keeps `1` and `1.0` apart.
    Float(f64),
    /// A string of Unicode scalar values.
    Str(String),
    /// A string holding a lone surrogate: out of domain, kept only so it can
    /// be refused with `lone_surrogate` at the right point of the walk.
    LoneSurrogates(LoneSurrogateStr),
    /// An ordered sequence of values.
    Array(Vec<Value>),
    /// Members in input order with duplicates kept: "last key wins" would be
    /// a silent repair, which the spec forbids.
    Object(Vec<(Key, Value)>),
    /// Something outside the model (binary data, an unknown extension, a
    /// malformed payload); the text says what, for people.
    Unsupported(String),
}

/// An object key. Input formats such as msgpack allow any value as a key, so
/// the model keeps what came in and lets validation refuse it in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// A string key: the only kind the spec accepts.
    Str(String),
    /// A key holding a lone surrogate (`lone_surrogate`).
    LoneSurrogates(LoneSurrogateStr),
    /// A key that is not a string of the model (`non_string_key`): another
    /// type, or a string encoding that could not be read as one.
    NonString(Box<Value>),
}

/// UTF-16 code units known to hold at least one lone surrogate: the field is
/// private so that a valid string can never hide here and dodge sorting or
/// duplicate checks; build one with [`Value::from_utf16`] or [`Key::from_utf16`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoneSurrogateStr(Vec<u16>);

impl LoneSurrogateStr {
    /// The code units, for encoders that must carry them losslessly.
    pub fn units(&self) -> &[u16] {
        &self.0
    }
}

/// Either a proper string or the lone-surrogate form: decides once, at
/// construction, which of the two a sequence of code units is.
fn classify_utf16(units: Vec<u16>) -> Result<String, LoneSurrogateStr> {
    String::from_utf16(&units).map_err(|_| LoneSurrogateStr(units))
}

impl Value {
    /// Builds a string from UTF-16 code units, the only way input formats
    /// (JSON escapes, msgpack ext 2) can express a lone surrogate.
    pub fn from_utf16(units: Vec<u16>) -> Value {
        match classify_utf16(units) {
            Ok(s) => Value::Str(s),
            Err(lone) => Value::LoneSurrogates(lone),
        }
    }
}

impl Key {
    /// Builds a key from UTF-16 code units; see [`Value::from_utf16`].
    pub fn from_utf16(units: Vec<u16>) -> Key {
        match classify_utf16(units) {
            Ok(s) => Key::Str(s),
            Err(lone) => Key::LoneSurrogates(lone),
        }
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Key {
        Key::Str(s.to_owned())
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(s.to_owned())
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i.into())
    }
}

impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value::Float(f)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

/// An integer of any size as its canonical decimal text; construction
/// validates, so writing it out needs no further checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BigInt(String);

impl BigInt {
    /// Accepts exactly `-?(0|[1-9][0-9]*)`, the integer syntax of the wire's
    /// ext 1; `-0` is the integer 0 and becomes `0`, since integers have no
    /// negative zero.
    pub fn parse(text: &str) -> Option<BigInt> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let well_formed = match digits.as_bytes() {
            [b'0'] => true,
            [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
            _ => false,
        };
        match (well_formed, digits) {
            (false, _) => None,
            (true, "0") => Some(BigInt("0".to_owned())),
            (true, _) => Some(BigInt(text.to_owned())),
        }
    }

    /// The canonical decimal text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The spec's error codes; the set is closed so that every implementation
/// reports the same word for the same input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// Nesting deeper than [`MAX_DEPTH`].
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
    /// Every code, for tests and tools that enumerate them.
    pub const ALL: [ErrorCode; 6] = [
        ErrorCode::TooDeep,
        ErrorCode::NonStringKey,
        ErrorCode::LoneSurrogate,
        ErrorCode::DuplicateKey,
        ErrorCode::UnsupportedValue,
        ErrorCode::BadEnvelope,
    ];

    /// The spec's spelling, which is what crosses process boundaries.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::TooDeep => "too_deep",
            ErrorCode::NonStringKey => "non_string_key",
            ErrorCode::LoneSurrogate => "lone_surrogate",
            ErrorCode::DuplicateKey => "duplicate_key",
            ErrorCode::UnsupportedValue => "unsupported_value",
            ErrorCode::BadEnvelope => "bad_envelope",
        }
    }
}

/// Why a value has no canonical text: a spec code that machines compare, and
/// a message for people that nobody should parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorCode,
    message: String,
}

impl Error {
    fn new(kind: ErrorCode, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// The spec's code, e.g. `"duplicate_key"`.
    pub fn code(&self) -> &'static str {
        self.kind.as_str()
    }

    /// The code as an enum, for exhaustive matching.
    pub fn kind(&self) -> ErrorCode {
        self.kind
    }

    /// A description for people.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message)
    }
}

impl std::error::Error for Error {}

/// The canonical text of a signed value (ASCII, so a `String`).
pub fn canonical(value: &Value) -> Result<String, Error> {
    let mut out = Vec::new();
    canonical_into(value, &mut out)?;
    // The writer emits ASCII only, so this cannot fail; a failure would be a
    // bug worth a loud error rather than a silent repair.
    Ok(String::from_utf8(out).expect("canonical text is ASCII"))
}

/// Appends the canonical text to `out`, so a caller on a hot path can reuse
/// one buffer; on error `out` is left as it was.
pub fn canonical_into(value: &Value, out: &mut Vec<u8>) -> Result<(), Error> {
    validate(value, 1)?;
    check_envelope(value)?;
    let mut scratch = Vec::new();
    write_value(value, out, &mut scratch);
    Ok(())
}

/// The BLAKE3-256 digest of the canonical text.
pub fn digest(value: &Value) -> Result<[u8; 32], Error> {
    let mut out = Vec::new();
    canonical_into(value, &mut out)?;
    Ok(*blake3::hash(&out).as_bytes())
}

/// The signature: the digest as 64 lowercase hex digits.
pub fn signature(value: &Value) -> Result<String, Error> {
    let mut out = Vec::new();
    canonical_into(value, &mut out)?;
    Ok(blake3::hash(&out).to_hex().to_string())
}

// ---------------------------------------------------------------------------
// Validation: spec section 3, step 1 (the pre-order walk).

/// Walks `value`, which sits at nesting `level` if it is a container, in
/// pre-order and input order; returns the first problem the spec's procedure
/// would find. Recursion stops at `MAX_DEPTH + 1`, whatever the input depth.
fn validate(value: &Value, level: usize) -> Result<(), Error> {
    match value {
        Value::Array(items) => {
            check_level(level)?;
            items.iter().try_for_each(|item| validate(item, level + 1))
        }
        Value::Object(members) => {
            check_level(level)?;
            validate_members(members, level)
        }
        Value::LoneSurrogates(_) => Err(Error::new(
            ErrorCode::LoneSurrogate,
            "string holds a lone surrogate",
        )),
        Value::Unsupported(what) => Err(Error::new(ErrorCode::UnsupportedValue, what.clone())),
        Value::Null
        | Value::Bool(_)
        | Value::Int(_)
        | Value::BigInt(_)
        | Value::Float(_)
        | Value::Str(_) => Ok(()),
    }
}

fn check_level(level: usize) -> Result<(), Error> {
    if level > MAX_DEPTH {
        return Err(Error::new(
            ErrorCode::TooDeep,
            format!("containers nested deeper than {MAX_DEPTH}"),
        ));
    }
    Ok(())
}

/// Member by member: key type, key surrogates, duplicate, then the value.
fn validate_members(members: &[(Key, Value)], level: usize) -> Result<(), Error> {
    let first_dup = first_duplicate(members);
    for (index, (key, value)) in members.iter().enumerate() {
        validate_key(key)?;
        if first_dup == Some(index) {
            return Err(Error::new(
                ErrorCode::DuplicateKey,
                format!("duplicate key {:?}", key_str(key).unwrap_or_default()),
            ));
        }
        validate(value, level + 1)?;
    }
    Ok(())
}

fn validate_key(key: &Key) -> Result<(), Error> {
    match key {
        Key::Str(_) => Ok(()),
        Key::NonString(_) => Err(Error::new(
            ErrorCode::NonStringKey,
            "object key is not a string",
        )),
        Key::LoneSurrogates(_) => Err(Error::new(
            ErrorCode::LoneSurrogate,
            "object key holds a lone surrogate",
        )),
    }
}

fn key_str(key: &Key) -> Option<&str> {
    match key {
        Key::Str(s) => Some(s),
        _ => None,
    }
}

/// Objects up to this size find duplicates by pairwise comparison, which
/// beats sorting for the small objects that dominate real input.
const PAIRWISE_LIMIT: usize = 16;

/// The index of the first member whose (string) key equals an earlier
/// member's key. Members with non-string keys are skipped: the walk reports
/// those itself, and before any later duplicate.
fn first_duplicate(members: &[(Key, Value)]) -> Option<usize> {
    if members.len() <= PAIRWISE_LIMIT {
        return (1..members.len()).find(|&i| {
            key_str(&members[i].0)
                .is_some_and(|k| members[..i].iter().any(|(e, _)| key_str(e) == Some(k)))
        });
    }
    let mut keyed: Vec<(&str, usize)> = members
        .iter()
        .enumerate()
        .filter_map(|(i, (k, _))| key_str(k).map(|s| (s, i)))
        .collect();
    // (key, index) order puts equal keys together, earliest first; the
    // second element of any equal run is a duplicate, and the smallest such
    // index is the one the walk meets first.
    keyed.sort_unstable();
    keyed
        .windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| w[1].1)
        .min()
}

// ---------------------------------------------------------------------------
// Envelope: spec section 3, step 2.

/// Runs after a clean walk, so keys are strings and unique here.
fn check_envelope(value: &Value) -> Result<(), Error> {
    let bad = |why: &str| Err(Error::new(ErrorCode::BadEnvelope, why));
    let Value::Object(members) = value else {
        return bad("top-level value is not an object");
    };
    if members.len() != 2 {
        return bad("top-level object must have exactly tool_name and args");
    }
    let mut tool_name_ok = false;
    let mut args_ok = false;
    for (key, value) in members {
        match (key_str(key), value) {
            (Some("tool_name"), Value::Str(_)) => tool_name_ok = true,
            (Some("args"), Value::Object(_)) => args_ok = true,
            (Some("tool_name"), _) => return bad("tool_name is not a string"),
            (Some("args"), _) => return bad("args is not an object"),
            _ => return bad("top-level object must have exactly tool_name and args"),
        }
    }
    if tool_name_ok && args_ok {
        Ok(())
    } else {
        bad("top-level object must have exactly tool_name and args")
    }
}

// ---------------------------------------------------------------------------
// Writing: spec section 4. Only ever called on a validated value.

/// `scratch` is a stack of sorted members shared by every object of one
/// value, so sorting allocates once per call rather than once per object.
fn write_value<'a>(value: &'a Value, out: &mut Vec<u8>, scratch: &mut Vec<(&'a str, &'a Value)>) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Int(i) => write_int(*i, out),
        Value::BigInt(b) => out.extend_from_slice(b.as_str().as_bytes()),
        Value::Float(f) => write_float(*f, out),
        Value::Str(s) => write_str(s, out),
        Value::Array(items) => write_array(items, out, scratch),
        Value::Object(members) => write_object(members, out, scratch),
        Value::LoneSurrogates(_) | Value::Unsupported(_) => {
            unreachable!("validate() refuses {value:?}")
        }
    }
}

fn write_array<'a>(items: &'a [Value], out: &mut Vec<u8>, scratch: &mut Vec<(&'a str, &'a Value)>) {
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_value(item, out, scratch);
    }
    out.push(b']');
}

fn write_object<'a>(
    members: &'a [(Key, Value)],
    out: &mut Vec<u8>,
    scratch: &mut Vec<(&'a str, &'a Value)>,
) {
    let start = scratch.len();
    scratch.extend(members.iter().map(|(k, v)| match k {
        Key::Str(s) => (s.as_str(), v),
        _ => unreachable!("validate() refuses non-string keys"),
    }));
    // Rust's str ordering is byte order of UTF-8, which is code-point order;
    // keys are unique after validation, so an unstable sort is exact.
    scratch[start..].sort_unstable_by(|a, b| a.0.cmp(b.0));
    out.push(b'{');
    for i in start..start + members.len() {
        if i > start {
            out.push(b',');
        }
        let (key, value) = scratch[i];
        write_str(key, out);
        out.push(b':');
        write_value(value, out, scratch);
    }
    out.push(b'}');
    scratch.truncate(start);
}

fn write_int(i: i128, out: &mut Vec<u8>) {
    use std::io::Write;
    // Writing to a Vec cannot fail.
    let _ = write!(out, "{i}");
}

/// ECMAScript `Number::toString`: ryu-js supplies shortest digits in that
/// layout; the special values are spelled out here so that they do not
/// depend on a library detail.
fn write_float(f: f64, out: &mut Vec<u8>) {
    if f.is_nan() {
        out.extend_from_slice(b"NaN");
    } else if f.is_infinite() {
        out.extend_from_slice(if f > 0.0 { b"Infinity" } else { b"-Infinity" });
    } else if f == 0.0 {
        out.push(b'0');
    } else {
        out.extend_from_slice(ryu_js::Buffer::new().format_finite(f).as_bytes());
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Python `json.dumps(s, ensure_ascii=True)`: printable ASCII is copied in
/// runs, everything else escaped per the spec's table. Scans bytes and
/// decodes a char only where a non-ASCII one starts, since most text is ASCII.
fn write_str(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut run_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let c = if b < 0x80 {
            if (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\' {
                i += 1;
                continue;
            }
            char::from(b)
        } else {
            // `i` is a char boundary: every step below moves by whole chars.
            s[i..].chars().next().expect("a char starts here")
        };
        out.extend_from_slice(&bytes[run_start..i]);
        write_escape(c, out);
        i += c.len_utf8();
        run_start = i;
    }
    out.extend_from_slice(&bytes[run_start..]);
    out.push(b'"');
}

fn write_escape(c: char, out: &mut Vec<u8>) {
    let short: &[u8] = match c {
        '"' => b"\\\"",
        '\\' => b"\\\\",
        '\u{8}' => b"\\b",
        '\u{c}' => b"\\f",
        '\n' => b"\\n",
        '\r' => b"\\r",
        '\t' => b"\\t",
        _ => {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write_u_escape(*unit, out);
            }
            return;
        }
    };
    out.extend_from_slice(short);
}

fn write_u_escape(unit: u16, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\\u");
    for shift in [12, 8, 4, 0] {
        out.push(HEX[usize::from((unit >> shift) & 0xf)]);
    }
}
