//! The msgpack mapping of the value model (`docs/adapter-protocol.md`,
//! "Values on the wire"): bytes straight into a [`Model`], through rmp's
//! readers, with no tree in between.
//!
//! Each reader looks at the marker first, then hands the bytes to the rmp
//! function for that marker family, so an rmp error can only mean that the
//! input ended too soon.

use rmp::Marker;

use crate::{Inexpressible, Model};

/// Container nesting a decoded value may reach: a case may nest 1000 levels,
/// and a request's members may nest this far below its top-level map, so a
/// case (one level down, in `cases`) may nest one level less; the rest is
/// margin. Deeper input is refused as undecodable, never recursed into.
pub const MAX_WIRE_NESTING: usize = 1024;

/// Why bytes could not be read as msgpack. Whatever holds the fault (a frame,
/// a request) is refused as a whole: past it, nothing can be located.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Input ended inside a value, or a length claims more than there is.
    #[error("not valid msgpack: ends inside a value")]
    Truncated,
    /// The reserved marker 0xc1, which no msgpack value starts with.
    #[error("not valid msgpack: reserved marker 0xc1")]
    ReservedMarker,
    /// Containers nested past the reader's limit.
    #[error("msgpack nested too deep to decode")]
    TooDeep,
    /// Bytes left over after the value that should fill the input.
    #[error("{0} trailing bytes after the msgpack value")]
    Trailing(usize),
    /// A text model's case that is not a bin of UTF-8 JSON text (protocol
    /// 4 sends nothing else).
    #[error("a text model's case is not a bin of UTF-8 JSON text")]
    NotText,
}

/// Why a case was not built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The bytes are not msgpack: the request holding them is refused.
    Malformed(DecodeError),
    /// The model cannot hold the case: its result says so. Where decoding
    /// stopped is not the case's end; [`skip_value`] finds that.
    Inexpressible(Inexpressible),
}

impl From<DecodeError> for Fault {
    fn from(e: DecodeError) -> Fault {
        Fault::Malformed(e)
    }
}

impl From<Inexpressible> for Fault {
    fn from(e: Inexpressible) -> Fault {
        Fault::Inexpressible(e)
    }
}

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

/// Decodes one case written as a single msgpack value (a fixture's `msgpack`
/// field, say), nested at most [`MAX_WIRE_NESTING`] levels.
pub fn decode<M: Model>(model: &mut M, bytes: &[u8]) -> Result<M::Value, Fault> {
    let mut rd = bytes;
    let value = read_value(model, &mut rd, MAX_WIRE_NESTING)?;
    expect_end(rd)?;
    Ok(value)
}

/// Reads the value at the front of `rd` into `model`, opening at most
/// `levels` nested containers, and leaves `rd` after it (on success).
///
/// Malformed msgpack fails with [`Fault::Malformed`]; what the protocol's
/// model itself cannot hold (bin, unknown ext, non-string keys) goes to the
/// model, which keeps it for the implementation to refuse in walk order or
/// answers [`Fault::Inexpressible`]. Recursion is bounded by `levels`,
/// whatever the input.
pub fn read_value<M: Model>(
    model: &mut M,
    rd: &mut &[u8],
    levels: usize,
) -> Result<M::Value, Fault> {
    use rmp::decode as d;
    let value = match peek(rd)? {
        Marker::Null => skip_marker(rd, model.null())?,
        Marker::True => skip_marker(rd, model.bool(true))?,
        Marker::False => skip_marker(rd, model.bool(false))?,
        Marker::FixPos(n) => skip_marker(rd, model.int(n.into()))?,
        Marker::FixNeg(n) => skip_marker(rd, model.int(n.into()))?,
        Marker::U8
        | Marker::U16
        | Marker::U32
        | Marker::U64
        | Marker::I8
        | Marker::I16
        | Marker::I32
        | Marker::I64 => model.int(d::read_int::<i128, _>(rd).map_err(ended)?)?,
        Marker::F32 => model.float(f64::from(d::read_f32(rd).map_err(ended)?))?,
        Marker::F64 => model.float(d::read_f64(rd).map_err(ended)?)?,
        Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32 => {
            match std::str::from_utf8(read_str_bytes(rd)?) {
                Ok(s) => model.str(s)?,
                Err(_) => model.unsupported(NOT_UTF8)?,
            }
        }
        Marker::Bin8 | Marker::Bin16 | Marker::Bin32 => {
            let len = d::read_bin_len(rd).map_err(ended)?;
            take(rd, len)?;
            model.unsupported("bin is not in the value model")?
        }
        Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => {
            let len = d::read_array_len(rd).map_err(ended)?;
            read_items(model, rd, len, enter(levels)?)?
        }
        Marker::FixMap(_) | Marker::Map16 | Marker::Map32 => {
            let len = d::read_map_len(rd).map_err(ended)?;
            read_members(model, rd, len, enter(levels)?)?
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
            ext_value(model, ty, payload)?
        }
        Marker::Reserved => return Err(DecodeError::ReservedMarker.into()),
    };
    Ok(value)
}

const NOT_UTF8: &str = "str is not valid UTF-8";

/// An array's items, each opening at most `levels` containers.
fn read_items<M: Model>(
    model: &mut M,
    rd: &mut &[u8],
    len: u32,
    levels: usize,
) -> Result<M::Value, Fault> {
    let mut items = model.array(capacity(len, rd, 1))?;
    for _ in 0..len {
        let item = read_value(model, rd, levels)?;
        model.push(&mut items, item)?;
    }
    Ok(model.end_array(items)?)
}

/// A map's members, keys and values each opening at most `levels`
/// containers.
fn read_members<M: Model>(
    model: &mut M,
    rd: &mut &[u8],
    len: u32,
    levels: usize,
) -> Result<M::Value, Fault> {
    let mut members = model.object(capacity(len, rd, 2))?;
    for _ in 0..len {
        let key = read_key(model, rd, levels)?;
        model.check_key(&members, &key)?;
        let value = read_value(model, rd, levels)?;
        model.insert(&mut members, key, value)?;
    }
    Ok(model.end_object(members)?)
}

/// A str or a well-formed ext 2 is a string key; anything else, including a
/// str that is not UTF-8 or an ext 2 of odd length, is a non-string key
/// holding what it would be as a value, as the reference implementation
/// (Python) reads it.
fn read_key<M: Model>(model: &mut M, rd: &mut &[u8], levels: usize) -> Result<M::Key, Fault> {
    let key = match peek(rd)? {
        Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32 => {
            match std::str::from_utf8(read_str_bytes(rd)?) {
                Ok(s) => model.key_str(s)?,
                Err(_) => {
                    model.non_string_key()?;
                    let key = model.unsupported(NOT_UTF8)?;
                    model.key_value(key)?
                }
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
            (2, payload) if payload.len().is_multiple_of(2) => {
                model.key_utf16(utf16_units(payload).expect("even length"))?
            }
            (ty, payload) => {
                model.non_string_key()?;
                let key = ext_value(model, ty, payload)?;
                model.key_value(key)?
            }
        },
        _ => {
            model.non_string_key()?;
            let key = read_value(model, rd, levels)?;
            model.key_value(key)?
        }
    };
    Ok(key)
}

/// For the markers that are the whole value.
fn skip_marker<T>(rd: &mut &[u8], value: T) -> T {
    *rd = &rd[1..];
    value
}

fn read_str_bytes<'a>(rd: &mut &'a [u8]) -> Result<&'a [u8], DecodeError> {
    let len = rmp::decode::read_str_len(rd).map_err(ended)?;
    take(rd, len)
}

fn read_ext<'a>(rd: &mut &'a [u8]) -> Result<(i8, &'a [u8]), DecodeError> {
    let meta = rmp::decode::read_ext_meta(rd).map_err(ended)?;
    Ok((meta.typeid, take(rd, meta.size)?))
}

fn ext_value<M: Model>(model: &mut M, ty: i8, payload: &[u8]) -> Result<M::Value, Inexpressible> {
    match ty {
        1 => match std::str::from_utf8(payload).ok().filter(|t| is_decimal(t)) {
            Some(decimal) => model.big_int(decimal),
            None => model.unsupported("ext 1 payload is not a decimal integer"),
        },
        2 => match utf16_units(payload) {
            Some(units) => model.utf16(units),
            None => model.unsupported("ext 2 payload has odd length"),
        },
        _ => model.unsupported(&format!("unknown ext type {ty}")),
    }
}

/// `-?(0|[1-9][0-9]*)`, the integer syntax of ext 1.
fn is_decimal(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    match digits.as_bytes() {
        [b'0'] => true,
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    }
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

/// Steps over the value at the front of `rd` without building it, exactly as
/// strict as [`read_value`] with the same `levels`: what one refuses as
/// malformed, so does the other.
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
