//! The worker protocol's framing and its msgpack mapping of the value model
//! (`docs/adapter-protocol.md`, "Frames" and "Values on the wire").
//!
//! Kept apart from the canonical-JSON core so that an SDK using [`crate::canonical`]
//! never sees msgpack, while the worker, the fixture test and any Rust driver
//! share one decoder.

use std::io::{self, Read, Write};

use rmpv::ValueRef;

use crate::{BigInt, Key, Value};

/// Largest frame body either side may send (64 MiB).
pub const MAX_FRAME_LEN: usize = 64 << 20;

/// Container nesting a decoded message may reach: a case may nest 1000 levels
/// and sits 2 levels down in its request (map, `cases` array); the rest is
/// margin. Deeper messages are refused as undecodable, never recursed into.
pub const MAX_WIRE_NESTING: usize = 1024;

/// rmpv charges two units of its depth budget per container level (value,
/// then container body) and two more for a string or ext payload.
const RMPV_DEPTH_BUDGET: usize = 2 * MAX_WIRE_NESTING + 3;

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
    body.resize(len as usize, 0);
    match read_full(reader, body) {
        Ok(n) if n == body.len() => Ok(()),
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

/// Decodes a frame body that must hold exactly one msgpack value. The result
/// borrows strings and payloads from `body`, which saves a copy per string.
pub fn decode_message(body: &[u8]) -> Result<ValueRef<'_>, String> {
    refuse_reserved_markers(body)?;
    let mut rest = body;
    let value = rmpv::decode::read_value_ref_with_max_depth(&mut rest, RMPV_DEPTH_BUDGET)
        .map_err(|e| format!("not valid msgpack: {e}"))?;
    if !rest.is_empty() {
        return Err(format!(
            "{} trailing bytes after the msgpack value",
            rest.len()
        ));
    }
    Ok(value)
}

/// rmpv 1.3.1 reads the reserved marker 0xc1 as nil, a silent repair of
/// invalid msgpack; this pass finds it first. rmp decodes every marker and
/// length, this only counts items (iteratively, so any nesting is safe) and
/// skips payloads.
fn refuse_reserved_markers(body: &[u8]) -> Result<(), String> {
    use rmp::decode::{read_array_len, read_bin_len, read_ext_meta, read_map_len, read_str_len};
    use rmp::Marker;
    let short = || "not valid msgpack: ends inside a value".to_owned();
    let mut rd = body;
    let mut pending: u64 = 1;
    while pending > 0 {
        pending -= 1;
        let first = *rd.first().ok_or_else(short)?;
        let payload = match Marker::from_u8(first) {
            Marker::Reserved => return Err("not valid msgpack: reserved marker 0xc1".to_owned()),
            Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => {
                pending += u64::from(read_array_len(&mut rd).map_err(|_| short())?);
                0
            }
            Marker::FixMap(_) | Marker::Map16 | Marker::Map32 => {
                pending += 2 * u64::from(read_map_len(&mut rd).map_err(|_| short())?);
                0
            }
            Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32 => {
                read_str_len(&mut rd).map_err(|_| short())? as usize
            }
            Marker::Bin8 | Marker::Bin16 | Marker::Bin32 => {
                read_bin_len(&mut rd).map_err(|_| short())? as usize
            }
            Marker::FixExt1
            | Marker::FixExt2
            | Marker::FixExt4
            | Marker::FixExt8
            | Marker::FixExt16
            | Marker::Ext8
            | Marker::Ext16
            | Marker::Ext32 => read_ext_meta(&mut rd).map_err(|_| short())?.size as usize,
            scalar => {
                rd = &rd[1..];
                scalar_payload_len(scalar)
            }
        };
        rd = rd.get(payload..).ok_or_else(short)?;
    }
    Ok(())
}

/// Bytes after the marker of a fixed-size scalar.
fn scalar_payload_len(marker: rmp::Marker) -> usize {
    use rmp::Marker;
    match marker {
        Marker::U8 | Marker::I8 => 1,
        Marker::U16 | Marker::I16 => 2,
        Marker::U32 | Marker::I32 | Marker::F32 => 4,
        Marker::U64 | Marker::I64 | Marker::F64 => 8,
        _ => 0,
    }
}

/// Decodes one case written as a single msgpack value (the fixtures'
/// `msgpack` field).
pub fn decode_value(bytes: &[u8]) -> Result<Value, String> {
    decode_message(bytes).map(|v| value_from_wire(&v))
}

/// Maps a decoded msgpack value onto the model. Never fails: whatever the
/// model cannot hold becomes [`Value::Unsupported`] or a refused key, so that
/// validation reports it in walk order, as a result of this case alone.
pub fn value_from_wire(v: &ValueRef<'_>) -> Value {
    match v {
        ValueRef::Nil => Value::Null,
        ValueRef::Boolean(b) => Value::Bool(*b),
        ValueRef::Integer(i) => match (i.as_i64(), i.as_u64()) {
            (Some(n), _) => Value::Int(n.into()),
            (None, Some(n)) => Value::Int(n.into()),
            (None, None) => unreachable!("msgpack ints are i64 or u64"),
        },
        ValueRef::F32(f) => Value::Float(f64::from(*f)),
        ValueRef::F64(f) => Value::Float(*f),
        ValueRef::String(s) => match s.as_str() {
            Some(s) => Value::Str(s.to_owned()),
            None => Value::Unsupported("str is not valid UTF-8".to_owned()),
        },
        ValueRef::Binary(_) => Value::Unsupported("bin is not in the value model".to_owned()),
        ValueRef::Array(items) => Value::Array(items.iter().map(value_from_wire).collect()),
        ValueRef::Map(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (key_from_wire(k), value_from_wire(v)))
                .collect(),
        ),
        ValueRef::Ext(1, payload) => big_int_from_wire(payload),
        ValueRef::Ext(2, payload) => match utf16_units(payload) {
            Some(units) => Value::from_utf16(units),
            None => Value::Unsupported("ext 2 payload has odd length".to_owned()),
        },
        ValueRef::Ext(ty, _) => Value::Unsupported(format!("unknown ext type {ty}")),
    }
}

/// A str or a well-formed ext 2 is a string key; anything else, including a
/// str that is not UTF-8 or an ext 2 of odd length, is a non-string key, as
/// the reference implementation (Python) reads it.
fn key_from_wire(k: &ValueRef<'_>) -> Key {
    match k {
        ValueRef::String(s) => match s.as_str() {
            Some(s) => Key::Str(s.to_owned()),
            None => Key::NonString(Box::new(value_from_wire(k))),
        },
        ValueRef::Ext(2, payload) => match utf16_units(payload) {
            Some(units) => Key::from_utf16(units),
            None => Key::NonString(Box::new(value_from_wire(k))),
        },
        other => Key::NonString(Box::new(value_from_wire(other))),
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
