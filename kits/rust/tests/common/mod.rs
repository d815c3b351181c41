//! What the integration tests share: building, writing and reading the
//! protocol's messages with rmpv, never with the kit's own code.
#![allow(dead_code)] // each test crate uses a part

use std::io::{Read, Write};

use rmpv::Value as Mp;

/// The value of `name` in the map `map`; panics when there is none.
pub fn field<'a>(map: &'a Mp, name: &str) -> &'a Mp {
    map.as_map()
        .and_then(|m| m.iter().find(|(k, _)| k.as_str() == Some(name)))
        .map(|(_, v)| v)
        .unwrap_or_else(|| panic!("no {name} in {map}"))
}

/// `message` as one frame: its length, big-endian in 4 bytes, then it.
pub fn frame(message: &Mp) -> Vec<u8> {
    let mut body = Vec::new();
    rmpv::encode::write_value(&mut body, message).unwrap();
    let mut out = (body.len() as u32).to_be_bytes().to_vec();
    out.extend(body);
    out
}

/// Writes `message` to `w` as one frame, and flushes.
pub fn write_frame(w: &mut impl Write, message: &Mp) {
    w.write_all(&frame(message)).unwrap();
    w.flush().unwrap();
}

/// Reads one frame from `r`.
pub fn read_frame(r: &mut impl Read) -> Mp {
    let mut header = [0u8; 4];
    r.read_exact(&mut header).expect("a frame header");
    let mut body = vec![0; u32::from_be_bytes(header) as usize];
    r.read_exact(&mut body).unwrap();
    rmpv::decode::read_value(&mut body.as_slice()).unwrap()
}

/// A batch request: its id and its cases.
pub fn batch(id: u64, cases: Vec<Mp>) -> Mp {
    Mp::Map(vec![
        ("type".into(), "batch".into()),
        ("id".into(), id.into()),
        ("cases".into(), Mp::Array(cases)),
    ])
}
