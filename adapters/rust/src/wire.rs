//! The worker protocol's framing and its msgpack mapping of the value model
//! (`docs/adapter-protocol.md`, "Frames" and "Values on the wire").
//!
//! Kept apart from the canonical-JSON core so that an SDK using [`crate::canonical`]
//! never sees msgpack, while the worker, the fixture test and any Rust driver
//! share one decoder.

use std::io::{self, Read, Write};

use rmp::Marker;

use crate::{BigInt, Key, Value};

/// Largest frame body either side may send (64 MiB).
pub const MAX_FRAME_LEN: usize = 64 << 20;

/// Container nesting a decoded value may reach: a case may nest 1000 levels,
/// and a request's members may nest this far below its top-level map, so a
/// case (one level down, in `cases`) may nest one level less; the rest is
/// margin. Deeper input is refused as undecodable, never recursed into.
pub const MAX_WIRE_NESTING: usize = 1024;

/// Why no frame body could be read.
#[derive(Debug)]
pub enum FrameError {
    /// Clean end of input at a frame boundary: the peer asked us to stop.
    Eof,
    /// A length of 0 or over [`MAX_FRAME_LEN`]: the stream cannot be
    /// resynchronised.
    BadLength(u32),
    /// Input ended inside a frame.
    Truncated,
    /// Any other read failure.
    Io(io::Error),
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameError::Eof => write!(f, "end of input"),
            FrameError::BadLength(n) => {
                write!(f, "bad frame length {n} (must be 1..={MAX_FRAME_LEN})")
            }
            FrameError::Truncated => write!(f, "input ended inside a frame"),
            FrameError::Io(e) => write!(f, "read error: {e}"),
        }
    }
}

/// Reads one frame's body into `body` (reused across calls, so a long-lived
/// worker does not allocate per request).
pub fn read_frame<R: Read>(reader: &mut R, body: &mut Vec<u8>) -> Result<(), FrameError> {
    let mut header = [0u8; 4];
    let got = read_full(reader, &mut header).map_err(FrameError::Io)?;
    if got == 0 {
        return Err(FrameError::Eof);
    }
    if got < header.len() {
        return Err(FrameError::Truncated);
    }
    let len = u32::from_be_bytes(header);
    if len == 0 || len as usize > MAX_FRAME_LEN {
        return Err(FrameError::BadLength(len));
    }
    body.clear();
    body.reserve(len as usize);
    // read_to_end fills the reserved capacity without zeroing it first.
    match reader.take(u64::from(len)).read_to_end(body) {
        Ok(n) if n == len as usize => Ok(()),
        Ok(_) => Err(FrameError::Truncated),
        Err(e) => Err(FrameError::Io(e)),
    }
}

/// Like `read_exact`, but says how much arrived before end of input, so a
/// clean EOF can be told from a truncated frame.
fn read_full<R: Read>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Writes one frame. The caller flushes, once per response.
pub fn write_frame<W: Write>(writer: &mut W, body: &[u8]) -> io::Result<()> {
    let len = u32::try_from(body.len())
        .ok()
        .filter(|&n| n >= 1 && n as usize <= MAX_FRAME_LEN)
        .ok_or_else(|| io::Error::other(format!("frame body of {} bytes", body.len())))?;
    writer.write_all(&len.to_be_bytes())?;
    writer.write_all(body)
}

// ---------------------------------------------------------------------------
// Decoding: msgpack bytes straight into the model, through rmp's readers.
//
// Each reader below looks at the marker first, then hands the bytes to the rmp
// function for that marker family, so an rmp error can only mean that the
// input ended too soon.

/// Why bytes could not be read as msgpack. Whatever holds the fault (a frame,
/// a request) is refused as a whole: past it, nothing can be located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Input ended inside a value, or a length claims more than there is.
    Truncated,
    /// The reserved marker 0xc1, which no msgpack value starts with.
    ReservedMarker,
    /// Containers nested past the reader's limit.
    TooDeep,
    /// Bytes left over after the value that should fill the input.
    Trailing(usize),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Truncated => write!(f, "not valid msgpack: ends inside a value"),
            DecodeError::ReservedMarker => write!(f, "not valid msgpack: reserved marker 0xc1"),
            DecodeError::TooDeep => write!(f, "msgpack nested too deep to decode"),
            DecodeError::Trailing(n) => write!(f, "{n} trailing bytes after the msgpack value"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// rmp's errors, once the marker is known to be of the family asked for.
fn ended<E>(_: E) -> DecodeError {
    DecodeError::Truncated
}

fn peek(rd: &[u8]) -> Result<Marker, DecodeError> {
    rd.first()
        .map(|&b| Marker::from_u8(b))
        .ok_or(DecodeError::Truncated)
}

/// Splits `len` bytes off the front of `rd`.
fn take<'a>(rd: &mut &'a [u8], len: u32) -> Result<&'a [u8], DecodeError> {
    let (head, tail) = rd
        .split_at_checked(len as usize)
        .ok_or(DecodeError::Truncated)?;
    *rd = tail;
    Ok(head)
}

/// One more container level, if `levels` allows it.
fn enter(levels: usize) -> Result<usize, DecodeError> {
    levels.checked_sub(1).ok_or(DecodeError::TooDeep)
}

/// Capacity for `count` items of at least `min_size` bytes each: never more
/// than the input can hold, so a lying length cannot reserve gigabytes.
fn capacity(count: u32, rd: &[u8], min_size: usize) -> usize {
    (count as usize).min(rd.len() / min_size)
}

/// Checks that nothing follows the value just read.
pub fn expect_end(rd: &[u8]) -> Result<(), DecodeError> {
    match rd.len() {
        0 => Ok(()),
        n => Err(DecodeError::Trailing(n)),
    }
}

/// Decodes one case written as a single msgpack value (the fixtures'
/// `msgpack` field), nested at most [`MAX_WIRE_NESTING`] levels.
pub fn decode_value(bytes: &[u8]) -> Result<Value, DecodeError> {
    let mut rd = bytes;
    let value = read_value(&mut rd, MAX_WIRE_NESTING)?;
    expect_end(rd)?;
    Ok(value)
}

/// Reads the value at the front of `rd` onto the model, opening at most
/// `levels` nested containers; see [`Decoder::read_value`].
pub fn read_value(rd: &mut &[u8], levels: usize) -> Result<Value, DecodeError> {
    Decoder::default().read_value(rd, levels)
}

/// Most buffers of each kind a [`Decoder`] keeps for reuse, and the largest
/// it keeps (in bytes of capacity): together they bound what it holds on to
/// (3 kinds × 1024 × 4 KiB at most) whatever the cases were.
const POOL_LEN: usize = 1024;
const POOL_BUF_BYTES: usize = 4096;

/// Reads values onto the model, reusing the strings and vectors of the values
/// handed back to [`Decoder::recycle`]. One case is tens of small
/// allocations; a worker that decodes case after case and recycles each one
/// when done with it gets them from here rather than from the allocator,
/// which was as costly as the decoding itself.
#[derive(Debug, Default)]
pub struct Decoder {
    /// Empty, with capacity.
    strings: Vec<String>,
    arrays: Vec<Vec<Value>>,
    objects: Vec<Vec<(Key, Value)>>,
}

impl Decoder {
    /// Reads the value at the front of `rd` onto the model, opening at most
    /// `levels` nested containers, and leaves `rd` after it.
    ///
    /// Only malformed msgpack fails. Whatever the model cannot hold becomes
    /// [`Value::Unsupported`] or a refused key, so that validation reports
    /// it in walk order, as a result of this case alone. Recursion is bounded
    /// by `levels`, whatever the input.
    pub fn read_value(&mut self, rd: &mut &[u8], levels: usize) -> Result<Value, DecodeError> {
        use rmp::decode as d;
        let value = match peek(rd)? {
            Marker::Null => skip_marker(rd, Value::Null),
            Marker::True => skip_marker(rd, Value::Bool(true)),
            Marker::False => skip_marker(rd, Value::Bool(false)),
            Marker::FixPos(n) => skip_marker(rd, Value::Int(n.into())),
            Marker::FixNeg(n) => skip_marker(rd, Value::Int(n.into())),
            Marker::U8
            | Marker::U16
            | Marker::U32
            | Marker::U64
            | Marker::I8
            | Marker::I16
            | Marker::I32
            | Marker::I64 => Value::Int(d::read_int::<i128, _>(rd).map_err(ended)?),
            Marker::F32 => Value::Float(f64::from(d::read_f32(rd).map_err(ended)?)),
            Marker::F64 => Value::Float(d::read_f64(rd).map_err(ended)?),
            Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32 => {
                match std::str::from_utf8(read_str_bytes(rd)?) {
                    Ok(s) => Value::Str(self.string(s)),
                    Err(_) => not_utf8(),
                }
            }
            Marker::Bin8 | Marker::Bin16 | Marker::Bin32 => {
                let len = d::read_bin_len(rd).map_err(ended)?;
                take(rd, len)?;
                Value::Unsupported("bin is not in the value model".to_owned())
            }
            Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => {
                let len = d::read_array_len(rd).map_err(ended)?;
                Value::Array(self.read_items(rd, len, enter(levels)?)?)
            }
            Marker::FixMap(_) | Marker::Map16 | Marker::Map32 => {
                let len = d::read_map_len(rd).map_err(ended)?;
                Value::Object(self.read_members(rd, len, enter(levels)?)?)
            }
            Marker::FixExt1
            | Marker::FixExt2
            | Marker::FixExt4
            | Marker::FixExt8
            | Marker::FixExt16
            | Marker::Ext8
            | Marker::Ext16
            | Marker::Ext32 => {
                let (ty, payload) = read_ext(rd)?;
                ext_value(ty, payload)
            }
            Marker::Reserved => return Err(DecodeError::ReservedMarker),
        };
        Ok(value)
    }

    /// An array's items, each opening at most `levels` containers.
    fn read_items(
        &mut self,
        rd: &mut &[u8],
        len: u32,
        levels: usize,
    ) -> Result<Vec<Value>, DecodeError> {
        let mut items = self.arrays.pop().unwrap_or_default();
        items.reserve(capacity(len, rd, 1));
        for _ in 0..len {
            items.push(self.read_value(rd, levels)?);
        }
        Ok(items)
    }

    /// A map's members, keys and values each opening at most `levels`
    /// containers.
    fn read_members(
        &mut self,
        rd: &mut &[u8],
        len: u32,
        levels: usize,
    ) -> Result<Vec<(Key, Value)>, DecodeError> {
        let mut members = self.objects.pop().unwrap_or_default();
        members.reserve(capacity(len, rd, 2));
        for _ in 0..len {
            let key = self.read_key(rd, levels)?;
            members.push((key, self.read_value(rd, levels)?));
        }
        Ok(members)
    }

    /// A str or a well-formed ext 2 is a string key; anything else, including
    /// a str that is not UTF-8 or an ext 2 of odd length, is a non-string key
    /// holding what it would be as a value, as the reference implementation
    /// (Python) reads it.
    fn read_key(&mut self, rd: &mut &[u8], levels: usize) -> Result<Key, DecodeError> {
        let key = match peek(rd)? {
            Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32 => {
                match std::str::from_utf8(read_str_bytes(rd)?) {
                    Ok(s) => Key::Str(self.string(s)),
                    Err(_) => Key::NonString(Box::new(not_utf8())),
                }
            }
            Marker::FixExt1
            | Marker::FixExt2
            | Marker::FixExt4
            | Marker::FixExt8
            | Marker::FixExt16
            | Marker::Ext8
            | Marker::Ext16
            | Marker::Ext32 => match read_ext(rd)? {
                (2, payload) => match utf16_units(payload) {
                    Some(units) => Key::from_utf16(units),
                    None => Key::NonString(Box::new(ext_value(2, payload))),
                },
                (ty, payload) => Key::NonString(Box::new(ext_value(ty, payload))),
            },
            _ => Key::NonString(Box::new(self.read_value(rd, levels)?)),
        };
        Ok(key)
    }

    fn string(&mut self, s: &str) -> String {
        match self.strings.pop() {
            Some(mut owned) => {
                owned.push_str(s);
                owned
            }
            None => s.to_owned(),
        }
    }

    /// Takes back a value that is no longer needed and keeps its strings and
    /// vectors (within bounds) for the values read next; the rest is dropped.
    pub fn recycle(&mut self, value: Value) {
        match value {
            Value::Str(s) | Value::Unsupported(s) => self.keep_string(s),
            Value::Array(mut items) => {
                items.drain(..).for_each(|item| self.recycle(item));
                keep(&mut self.arrays, items);
            }
            Value::Object(mut members) => {
                for (key, value) in members.drain(..) {
                    if let Key::Str(s) = key {
                        self.keep_string(s);
                    }
                    self.recycle(value);
                }
                keep(&mut self.objects, members);
            }
            Value::Null
            | Value::Bool(_)
            | Value::Int(_)
            | Value::BigInt(_)
            | Value::Float(_)
            | Value::LoneSurrogates(_) => {}
        }
    }

    fn keep_string(&mut self, mut s: String) {
        if self.strings.len() < POOL_LEN && s.capacity() <= POOL_BUF_BYTES {
            s.clear();
            self.strings.push(s);
        }
    }
}

/// Keeps an emptied vector unless the pool is full or the vector is large.
fn keep<T>(pool: &mut Vec<Vec<T>>, buf: Vec<T>) {
    debug_assert!(buf.is_empty());
    if pool.len() < POOL_LEN && buf.capacity() * std::mem::size_of::<T>() <= POOL_BUF_BYTES {
        pool.push(buf);
    }
}

/// For the markers that are the whole value.
fn skip_marker(rd: &mut &[u8], value: Value) -> Value {
    *rd = &rd[1..];
    value
}

fn not_utf8() -> Value {
    Value::Unsupported("str is not valid UTF-8".to_owned())
}

fn read_str_bytes<'a>(rd: &mut &'a [u8]) -> Result<&'a [u8], DecodeError> {
    let len = rmp::decode::read_str_len(rd).map_err(ended)?;
    take(rd, len)
}

fn read_ext<'a>(rd: &mut &'a [u8]) -> Result<(i8, &'a [u8]), DecodeError> {
    let meta = rmp::decode::read_ext_meta(rd).map_err(ended)?;
    Ok((meta.typeid, take(rd, meta.size)?))
}

fn ext_value(ty: i8, payload: &[u8]) -> Value {
    match ty {
        1 => big_int_from_wire(payload),
        2 => match utf16_units(payload) {
            Some(units) => Value::from_utf16(units),
            None => Value::Unsupported("ext 2 payload has odd length".to_owned()),
        },
        _ => Value::Unsupported(format!("unknown ext type {ty}")),
    }
}

/// Steps over the value at the front of `rd` without building it, exactly as
/// strict as [`read_value`] with the same `levels`: what one refuses, so does
/// the other.
pub fn skip_value(rd: &mut &[u8], levels: usize) -> Result<(), DecodeError> {
    use rmp::decode as d;
    let payload = match peek(rd)? {
        Marker::Reserved => return Err(DecodeError::ReservedMarker),
        Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => {
            let inner = enter(levels)?;
            let len = d::read_array_len(rd).map_err(ended)?;
            for _ in 0..len {
                skip_value(rd, inner)?;
            }
            0
        }
        Marker::FixMap(_) | Marker::Map16 | Marker::Map32 => {
            let inner = enter(levels)?;
            let len = d::read_map_len(rd).map_err(ended)?;
            for _ in 0..len {
                skip_value(rd, inner)?;
                skip_value(rd, inner)?;
            }
            0
        }
        Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32 => {
            d::read_str_len(rd).map_err(ended)?
        }
        Marker::Bin8 | Marker::Bin16 | Marker::Bin32 => d::read_bin_len(rd).map_err(ended)?,
        Marker::FixExt1
        | Marker::FixExt2
        | Marker::FixExt4
        | Marker::FixExt8
        | Marker::FixExt16
        | Marker::Ext8
        | Marker::Ext16
        | Marker::Ext32 => d::read_ext_meta(rd).map_err(ended)?.size,
        scalar => {
            *rd = &rd[1..];
            scalar_payload_len(scalar)
        }
    };
    take(rd, payload).map(|_| ())
}

/// Bytes after the marker of a fixed-size scalar.
fn scalar_payload_len(marker: Marker) -> u32 {
    match marker {
        Marker::U8 | Marker::I8 => 1,
        Marker::U16 | Marker::I16 => 2,
        Marker::U32 | Marker::I32 | Marker::F32 => 4,
        Marker::U64 | Marker::I64 | Marker::F64 => 8,
        _ => 0,
    }
}

fn big_int_from_wire(payload: &[u8]) -> Value {
    std::str::from_utf8(payload)
        .ok()
        .and_then(BigInt::parse)
        .map(Value::BigInt)
        .unwrap_or_else(|| Value::Unsupported("ext 1 payload is not a decimal integer".to_owned()))
}

fn utf16_units(payload: &[u8]) -> Option<Vec<u16>> {
    if !payload.len().is_multiple_of(2) {
        return None;
    }
    Some(
        payload
            .chunks_exact(2)
            .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
            .collect(),
    )
}

/// Appends the wire encoding of `value`: what a driver sends and what the
/// fixtures carry. An unsupported value is written as an empty bin, which
/// decodes back to one, so decode(encode(v)) reports the same error as v.
pub fn encode_value(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Null => must(rmp::encode::write_nil(out)),
        Value::Bool(b) => must(rmp::encode::write_bool(out, *b)),
        Value::Int(i) => encode_int(*i, out),
        Value::BigInt(b) => match b.as_str().parse::<i128>() {
            Ok(i) => encode_int(i, out),
            Err(_) => encode_ext(1, b.as_str().as_bytes(), out),
        },
        Value::Float(f) => must(rmp::encode::write_f64(out, *f)),
        Value::Str(s) => must(rmp::encode::write_str(out, s)),
        Value::LoneSurrogates(s) => encode_utf16(s.units(), out),
        Value::Array(items) => {
            must(rmp::encode::write_array_len(out, wire_len(items.len())));
            items.iter().for_each(|item| encode_value(item, out));
        }
        Value::Object(members) => {
            must(rmp::encode::write_map_len(out, wire_len(members.len())));
            for (key, value) in members {
                encode_key(key, out);
                encode_value(value, out);
            }
        }
        Value::Unsupported(_) => must(rmp::encode::write_bin(out, &[])),
    }
}

fn encode_key(key: &Key, out: &mut Vec<u8>) {
    match key {
        Key::Str(s) => must(rmp::encode::write_str(out, s)),
        Key::LoneSurrogates(s) => encode_utf16(s.units(), out),
        Key::NonString(v) => encode_value(v, out),
    }
}

/// The int family when the value fits it, else ext 1, as the protocol says.
fn encode_int(i: i128, out: &mut Vec<u8>) {
    if let Ok(n) = i64::try_from(i) {
        must(rmp::encode::write_sint(out, n));
    } else if let Ok(n) = u64::try_from(i) {
        must(rmp::encode::write_uint(out, n));
    } else {
        encode_ext(1, i.to_string().as_bytes(), out);
    }
}

fn encode_utf16(units: &[u16], out: &mut Vec<u8>) {
    let payload: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
    encode_ext(2, &payload, out);
}

fn encode_ext(ty: i8, payload: &[u8], out: &mut Vec<u8>) {
    must(rmp::encode::write_ext_meta(
        out,
        wire_len(payload.len()),
        ty,
    ));
    out.extend_from_slice(payload);
}

/// msgpack lengths are u32; nothing that large fits in a frame anyway.
fn wire_len(len: usize) -> u32 {
    u32::try_from(len).expect("length fits msgpack's u32")
}

/// Writing msgpack into a `Vec` cannot fail (allocation failure aborts).
fn must<T, E: std::fmt::Debug>(result: Result<T, E>) {
    result.expect("writing to a Vec cannot fail");
}
