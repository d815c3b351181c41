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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::{Built, Model, ModelKind, Reason};

    /// A model of the value model's shape as text, exact: what the function
    /// sees of each case.
    pub(crate) struct Shape;

    impl Model for Shape {
        type Value = String;
        type Key = String;
        type Array = Vec<String>;
        type Object = Vec<String>;
        const KIND: ModelKind = ModelKind::Exact;
        const INEXPRESSIBLE: &'static [Reason] = &[];

        fn null(&mut self) -> Built<String> {
            Ok("null".into())
        }
        fn bool(&mut self, b: bool) -> Built<String> {
            Ok(b.to_string())
        }
        fn int(&mut self, i: i128) -> Built<String> {
            Ok(format!("int {i}"))
        }
        fn big_int(&mut self, decimal: &str) -> Built<String> {
            Ok(format!("big {decimal}"))
        }
        fn float(&mut self, f: f64) -> Built<String> {
            Ok(format!("float {f}"))
        }
        fn str(&mut self, s: &str) -> Built<String> {
            Ok(format!("{s:?}"))
        }
        fn utf16(&mut self, units: Vec<u16>) -> Built<String> {
            Ok(format!("utf16 {units:?}"))
        }
        fn unsupported(&mut self, what: &str) -> Built<String> {
            Err(Inexpressible::new(
                Reason::UnsupportedValue,
                what.to_owned(),
            ))
        }
        fn array(&mut self, _: usize) -> Built<Vec<String>> {
            Ok(Vec::new())
        }
        fn push(&mut self, array: &mut Vec<String>, item: String) -> Built<()> {
            array.push(item);
            Ok(())
        }
        fn end_array(&mut self, array: Vec<String>) -> Built<String> {
            Ok(format!("[{}]", array.join(",")))
        }
        fn object(&mut self, _: usize) -> Built<Vec<String>> {
            Ok(Vec::new())
        }
        fn key_str(&mut self, s: &str) -> Built<String> {
            Ok(format!("{s:?}"))
        }
        fn key_utf16(&mut self, units: Vec<u16>) -> Built<String> {
            Ok(format!("utf16 {units:?}"))
        }
        fn key_value(&mut self, key: String) -> Built<String> {
            Ok(format!("({key})"))
        }
        fn insert(&mut self, object: &mut Vec<String>, key: String, value: String) -> Built<()> {
            object.push(format!("{key}:{value}"));
            Ok(())
        }
        fn end_object(&mut self, object: Vec<String>) -> Built<String> {
            Ok(format!("{{{}}}", object.join(",")))
        }
    }

    /// The shape of the value `bytes` hold, or why they cannot be read.
    fn shape(bytes: &[u8]) -> Result<String, Fault> {
        decode(&mut Shape, bytes)
    }

    fn refused(why: &str) -> Result<String, Fault> {
        Err(Fault::Inexpressible(Inexpressible::new(
            Reason::UnsupportedValue,
            why.to_owned(),
        )))
    }

    #[test]
    fn each_marker_family_reaches_its_method() {
        for (bytes, want) in [
            (&[0xc0][..], "null"),
            (&[0xc3], "true"),
            (&[0x7f], "int 127"),
            (&[0xe0], "int -32"),
            (
                &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
                "int 18446744073709551615",
            ),
            (
                &[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0],
                "int -9223372036854775808",
            ),
            (&[0xca, 0x3f, 0xc0, 0, 0], "float 1.5"),
            (&[0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0], "float 1.5"),
            (&[0xa1, b'a'], "\"a\""),
            (&[0xd4, 1, b'7'], "big 7"),
            (&[0xd6, 1, b'-', b'1', b'2', b'3'], "big -123"),
            (&[0xd5, 2, 0x00, 0xd8], "utf16 [55296]"),
            (&[0x92, 0x90, 0x80], "[[],{}]"),
            (
                &[0x82, 0xa1, b'a', 1, 0x01, 0xc0],
                "{\"a\":int 1,(int 1):null}",
            ),
        ] {
            assert_eq!(shape(bytes), Ok(want.to_owned()), "{bytes:x?}");
        }
    }

    /// What the value model has no place for goes to `unsupported`, which
    /// this model refuses.
    #[test]
    fn values_outside_the_model_are_unsupported() {
        for (bytes, why) in [
            (&[0xc4, 1, 0][..], "bin is not in the value model"),
            (&[0xd4, 9, 0], "unknown ext type 9"),
            (
                &[0xd5, 1, b'0', b'1'],
                "ext 1 payload is not a decimal integer",
            ),
            (&[0xd4, 1, b'-'], "ext 1 payload is not a decimal integer"),
            (&[0xc7, 3, 2, 0, 0, 0], "ext 2 payload has odd length"),
            (&[0xa1, 0xff], NOT_UTF8),
            // Keys that are not string keys are read as values.
            (&[0x81, 0xd4, 2, 0, 0xc0], "ext 2 payload has odd length"),
            (&[0x81, 0xa1, 0xff, 0xc0], NOT_UTF8),
        ] {
            assert_eq!(shape(bytes), refused(why), "{bytes:x?}");
        }
    }

    #[test]
    fn malformed_bytes_are_faults_of_the_whole() {
        for (bytes, want) in [
            (&[][..], DecodeError::Truncated),
            (&[0xc1], DecodeError::ReservedMarker),
            (&[0xa2, b'a'], DecodeError::Truncated),
            (&[0xcd, 1], DecodeError::Truncated),
            // A length that claims 4 billion items reserves nothing.
            (
                &[0xdd, 0xff, 0xff, 0xff, 0xff, 0xc0],
                DecodeError::Truncated,
            ),
            (&[0xc0, 0xc0], DecodeError::Trailing(1)),
        ] {
            assert_eq!(
                shape(bytes),
                Err(Fault::Malformed(want.clone())),
                "{bytes:x?}"
            );
            let mut rd = bytes;
            let skipped = skip_value(&mut rd, MAX_WIRE_NESTING).and_then(|()| expect_end(rd));
            assert_eq!(skipped, Err(want), "skip {bytes:x?}");
        }
    }

    /// Reading and skipping stop at the same place, and refuse the same
    /// depth.
    #[test]
    fn skipping_is_as_strict_as_reading() {
        let nested = |depth: usize| {
            let mut bytes = vec![0x91; depth];
            bytes.push(0xc0);
            bytes
        };
        for levels in [0, 1, 5] {
            for depth in [levels, levels + 1] {
                let bytes = nested(depth);
                let read = read_value(&mut Shape, &mut bytes.as_slice(), levels).is_ok();
                let skipped = skip_value(&mut bytes.as_slice(), levels).is_ok();
                assert_eq!(
                    (read, skipped),
                    (depth <= levels, depth <= levels),
                    "{depth} in {levels}"
                );
            }
        }
        let bytes = [0x93, 0xcc, 200, 0xd4, 1, b'5', 0x81, 0xa1, b'k', 0xc2, 0xc0];
        let (mut read, mut skipped) = (&bytes[..], &bytes[..]);
        read_value(&mut Shape, &mut read, 3).expect("a value");
        skip_value(&mut skipped, 3).expect("a value");
        assert_eq!((read, skipped), (&[0xc0][..], &[0xc0][..]));
    }
}
