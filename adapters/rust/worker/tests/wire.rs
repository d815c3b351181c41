//! The msgpack mapping of `docs/adapter-protocol.md` as this worker sees it:
//! the kit's decoder building `canonjson` values through the exact model,
//! then the library's answer. Inputs are built with rmpv's own encoder or
//! written byte by byte, so the decoder is not checked against itself.

use canonjson::{BigInt, Key, Value};
use canonjson_worker::Exact;
use rmpv::Value as Mp;

/// The kit's decoding entry points, with the exact model filled in.
mod wire {
    use difffuzz_kit::__private::decode::{self, Fault};
    pub use difffuzz_kit::__private::decode::{
        expect_end, skip_value, DecodeError, MAX_WIRE_NESTING,
    };

    /// An exact model never answers inexpressible, so only malformed
    /// msgpack fails.
    fn malformed(fault: Fault) -> DecodeError {
        match fault {
            Fault::Malformed(e) => e,
            Fault::Inexpressible(why) => panic!("the exact model refused a case: {why:?}"),
        }
    }

    pub fn decode_value(bytes: &[u8]) -> Result<canonjson::Value, DecodeError> {
        decode::decode(&mut super::Exact::default(), bytes).map_err(malformed)
    }

    pub fn read_value(
        model: &mut super::Exact,
        rd: &mut &[u8],
        levels: usize,
    ) -> Result<canonjson::Value, DecodeError> {
        decode::read_value(model, rd, levels).map_err(malformed)
    }
}

fn mp_bytes(v: &Mp) -> Vec<u8> {
    let mut out = Vec::new();
    rmpv::encode::write_value(&mut out, v).unwrap();
    out
}

fn mp_str(s: &str) -> Mp {
    Mp::from(s)
}

fn ext2(units: &[u16]) -> Mp {
    Mp::Ext(2, units.iter().flat_map(|u| u.to_le_bytes()).collect())
}

/// `{"tool_name":"t","args":{"v": v}}` on the wire.
fn call_with(v: Mp) -> Mp {
    call_with_args(Mp::Map(vec![(mp_str("v"), v)]))
}

fn call_with_args(args: Mp) -> Mp {
    Mp::Map(vec![
        (mp_str("tool_name"), mp_str("t")),
        (mp_str("args"), args),
    ])
}

/// Decodes the bytes and returns the canonical text, or the error code.
fn outcome(bytes: &[u8]) -> String {
    let value = wire::decode_value(bytes).expect("decodable msgpack");
    match canonjson::canonical(&value) {
        Ok(text) => text,
        Err(e) => e.code().to_owned(),
    }
}

/// The args text `{"v":<text>}` of a decoded call, or the error code.
fn member_outcome(v: Mp) -> String {
    let text = outcome(&mp_bytes(&call_with(v)));
    text.strip_prefix(r#"{"args":{"v":"#)
        .and_then(|t| t.strip_suffix(r#"},"tool_name":"t"}"#))
        .map(str::to_owned)
        .unwrap_or(text)
}

#[test]
fn scalar_mapping() {
    let cases: Vec<(&str, Mp, &str)> = vec![
        ("nil", Mp::Nil, "null"),
        ("true", Mp::Boolean(true), "true"),
        ("fixint", Mp::from(5), "5"),
        ("negative fixint", Mp::from(-3), "-3"),
        ("int64 min", Mp::from(i64::MIN), "-9223372036854775808"),
        ("uint64 2^63", Mp::from(1u64 << 63), "9223372036854775808"),
        ("uint64 max", Mp::from(u64::MAX), "18446744073709551615"),
        ("2^53+1 int", Mp::from((1u64 << 53) + 1), "9007199254740993"),
        ("float64 5.0 is a float", Mp::F64(5.0), "5"),
        ("float64 1e21", Mp::F64(1e21), "1e+21"),
        ("float64 -0.0", Mp::F64(-0.0), "0"),
        ("float64 NaN", Mp::F64(f64::NAN), "NaN"),
        ("float32 1.5", Mp::F32(1.5), "1.5"),
        (
            "float32 0.1 widens exactly",
            Mp::F32(0.1),
            "0.10000000149011612",
        ),
        ("float32 -Infinity", Mp::F32(f32::NEG_INFINITY), "-Infinity"),
        ("float32 NaN", Mp::F32(f32::NAN), "NaN"),
        ("str", mp_str("é\u{1f600}"), r#""\u00e9\ud83d\ude00""#),
        (
            "ext 1 2^63",
            Mp::Ext(1, b"9223372036854775808".to_vec()),
            "9223372036854775808",
        ),
        (
            "ext 1 2^64",
            Mp::Ext(1, b"18446744073709551616".to_vec()),
            "18446744073709551616",
        ),
        (
            "ext 1 -2^64",
            Mp::Ext(1, b"-18446744073709551616".to_vec()),
            "-18446744073709551616",
        ),
        (
            "ext 1 10^30",
            Mp::Ext(1, b"1000000000000000000000000000000".to_vec()),
            "1000000000000000000000000000000",
        ),
        (
            "ext 1 -10^30",
            Mp::Ext(1, b"-1000000000000000000000000000000".to_vec()),
            "-1000000000000000000000000000000",
        ),
        ("ext 1 small", Mp::Ext(1, b"42".to_vec()), "42"),
        ("ext 1 -0", Mp::Ext(1, b"-0".to_vec()), "0"),
        (
            "ext 1 leading zero",
            Mp::Ext(1, b"01".to_vec()),
            "unsupported_value",
        ),
        ("ext 1 empty", Mp::Ext(1, vec![]), "unsupported_value"),
        (
            "ext 1 fraction",
            Mp::Ext(1, b"1.5".to_vec()),
            "unsupported_value",
        ),
        (
            "ext 1 plus",
            Mp::Ext(1, b"+1".to_vec()),
            "unsupported_value",
        ),
        (
            "ext 1 not UTF-8",
            Mp::Ext(1, vec![0xff]),
            "unsupported_value",
        ),
        ("ext 2 pair", ext2(&[0xd83d, 0xde00]), r#""\ud83d\ude00""#),
        ("ext 2 BMP", ext2(&[0x61, 0xe9]), r#""a\u00e9""#),
        ("ext 2 empty", ext2(&[]), r#""""#),
        ("ext 2 lone high", ext2(&[0xd800]), "lone_surrogate"),
        ("ext 2 lone low", ext2(&[0x61, 0xdc00]), "lone_surrogate"),
        (
            "ext 2 reversed pair",
            ext2(&[0xde00, 0xd83d]),
            "lone_surrogate",
        ),
        (
            "ext 2 odd length",
            Mp::Ext(2, vec![0x61, 0x00, 0x62]),
            "unsupported_value",
        ),
        ("bin", Mp::Binary(vec![1, 2]), "unsupported_value"),
        ("empty bin", Mp::Binary(vec![]), "unsupported_value"),
        ("unknown ext", Mp::Ext(5, vec![0]), "unsupported_value"),
        (
            "timestamp ext -1",
            Mp::Ext(-1, vec![0, 0, 0, 0]),
            "unsupported_value",
        ),
    ];
    for (name, v, want) in cases {
        assert_eq!(member_outcome(v), want, "case {name}");
    }
}

#[test]
fn handwritten_bytes_decode_as_the_protocol_says() {
    let cases: Vec<(&str, Vec<u8>, Value)> = vec![
        (
            "uint64 2^63",
            vec![0xcf, 0x80, 0, 0, 0, 0, 0, 0, 0],
            Value::Int(1 << 63),
        ),
        ("int8 -1", vec![0xd0, 0xff], Value::Int(-1)),
        (
            "float64 1.0",
            vec![0xcb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0],
            Value::Float(1.0),
        ),
        (
            "float32 1.0",
            vec![0xca, 0x3f, 0x80, 0, 0],
            Value::Float(1.0),
        ),
        ("fixint 1", vec![0x01], Value::Int(1)),
        (
            "ext8 type 1",
            [&[0xc7, 20, 1][..], b"18446744073709551616"].concat(),
            Value::BigInt(BigInt::parse("18446744073709551616").unwrap()),
        ),
        (
            "fixext2 type 2",
            vec![0xd5, 2, 0x00, 0xd8],
            Value::from_utf16(vec![0xd800]),
        ),
        ("fixstr", vec![0xa2, b'h', b'i'], Value::from("hi")),
        (
            "bin8",
            vec![0xc4, 1, 0],
            Value::Unsupported("bin is not in the value model".into()),
        ),
    ];
    for (name, bytes, want) in cases {
        assert_eq!(wire::decode_value(&bytes).unwrap(), want, "case {name}");
    }
}

#[test]
fn invalid_utf8_str_is_unsupported_as_a_value() {
    let bytes = [&[0x81, 0xa1, b'v'][..], &[0xa2, 0xc3, 0x28]].concat();
    match wire::decode_value(&bytes).unwrap() {
        Value::Object(members) => assert!(matches!(members[0].1, Value::Unsupported(_))),
        other => panic!("{other:?}"),
    }
}

#[test]
fn key_mapping() {
    let cases: Vec<(&str, Mp, &str)> = vec![
        ("str", mp_str("k"), r#"{"k":1}"#),
        ("ext 2 valid", ext2(&[0x6b]), r#"{"k":1}"#),
        (
            "ext 2 astral",
            ext2(&[0xd83d, 0xde00]),
            r#"{"\ud83d\ude00":1}"#,
        ),
        ("ext 2 lone", ext2(&[0xdfff]), "lone_surrogate"),
        ("ext 2 odd length", Mp::Ext(2, vec![0x6b]), "non_string_key"),
        ("int", Mp::from(1), "non_string_key"),
        ("nil", Mp::Nil, "non_string_key"),
        ("bool", Mp::Boolean(false), "non_string_key"),
        ("float", Mp::F64(1.0), "non_string_key"),
        ("ext 1", Mp::Ext(1, b"1".to_vec()), "non_string_key"),
        ("bin", Mp::Binary(b"k".to_vec()), "non_string_key"),
        ("array", Mp::Array(vec![]), "non_string_key"),
        ("map", Mp::Map(vec![]), "non_string_key"),
        ("unknown ext", Mp::Ext(9, vec![]), "non_string_key"),
    ];
    for (name, key, want) in cases {
        let args = Mp::Map(vec![(key, Mp::from(1))]);
        let text = outcome(&mp_bytes(&call_with_args(args)));
        let got = text
            .strip_prefix(r#"{"args":"#)
            .and_then(|t| t.strip_suffix(r#","tool_name":"t"}"#))
            .unwrap_or(&text);
        assert_eq!(got, want, "key {name}");
    }
}

/// `{"tool_name":"t","args":{"v":<str 0xc3 0x28>}}`: rmpv cannot write a
/// str that is not UTF-8, so the bytes are patched in.
fn bad_utf8_call() -> Vec<u8> {
    let mut bytes = mp_bytes(&call_with(mp_str("@@")));
    let at = bytes.windows(2).position(|w| w == b"@@").unwrap();
    bytes[at..at + 2].copy_from_slice(&[0xc3, 0x28]);
    bytes
}

#[test]
fn invalid_utf8_str_key_is_a_non_string_key() {
    // {"tool_name":"t","args":{<str 0xc3 0x28>: 1}}
    let mut bytes = mp_bytes(&Mp::Map(vec![(mp_str("tool_name"), mp_str("t"))]));
    bytes[0] = 0x82;
    bytes.extend_from_slice(&[0xa4, b'a', b'r', b'g', b's', 0x81, 0xa2, 0xc3, 0x28, 0x01]);
    assert_eq!(outcome(&bytes), "non_string_key");
}

#[test]
fn order_and_duplicates_are_kept_and_special_keys_are_ordinary() {
    let keys = ["b", "__proto__", "constructor", "1", "a", "b", "1"];
    let map = Mp::Map(keys.iter().map(|k| (mp_str(k), Mp::from(0))).collect());
    let Value::Object(members) = wire::decode_value(&mp_bytes(&map)).unwrap() else {
        panic!("not an object");
    };
    let got: Vec<&Key> = members.iter().map(|(k, _)| k).collect();
    let want: Vec<Key> = keys.iter().map(|k| Key::from(*k)).collect();
    assert_eq!(got, want.iter().collect::<Vec<_>>());
    assert_eq!(outcome(&mp_bytes(&call_with_args(map))), "duplicate_key");
    let ok_map = Mp::Map(keys[..5].iter().map(|k| (mp_str(k), Mp::from(0))).collect());
    assert_eq!(
        outcome(&mp_bytes(&call_with_args(ok_map))),
        r#"{"args":{"1":0,"__proto__":0,"a":0,"b":0,"constructor":0},"tool_name":"t"}"#
    );
}

#[test]
fn ext2_key_and_equal_str_key_are_duplicates() {
    let args = Mp::Map(vec![
        (mp_str("\u{1f600}"), Mp::from(1)),
        (ext2(&[0xd83d, 0xde00]), Mp::from(2)),
    ]);
    assert_eq!(outcome(&mp_bytes(&call_with_args(args))), "duplicate_key");
}

#[test]
fn int_and_float_stay_distinct() {
    let int = wire::decode_value(&mp_bytes(&Mp::from(5))).unwrap();
    let float = wire::decode_value(&mp_bytes(&Mp::F64(5.0))).unwrap();
    assert_eq!(int, Value::Int(5));
    assert_eq!(float, Value::Float(5.0));
}

#[test]
fn malformed_msgpack_is_refused_by_decoding_and_skipping_alike() {
    use wire::DecodeError::{ReservedMarker, Trailing, Truncated};
    let cases: Vec<(&str, Vec<u8>, wire::DecodeError)> = vec![
        ("empty", vec![], Truncated),
        ("trailing byte", vec![0xc0, 0xc0], Trailing(1)),
        ("truncated str", vec![0xa5, b'a'], Truncated),
        ("truncated str8 length", vec![0xd9], Truncated),
        ("truncated uint64", vec![0xcf, 0, 0], Truncated),
        ("truncated float64", vec![0xcb, 0x3f], Truncated),
        ("truncated float32", vec![0xca], Truncated),
        ("truncated bin", vec![0xc4, 2, 0], Truncated),
        ("truncated ext payload", vec![0xc7, 3, 1, b'1'], Truncated),
        ("truncated fixext type", vec![0xd4], Truncated),
        ("truncated array", vec![0x92, 0x01], Truncated),
        ("truncated array16 length", vec![0xdc, 0x00], Truncated),
        ("reserved marker", vec![0xc1], ReservedMarker),
        (
            "reserved marker in a map",
            vec![0x81, 0xa1, b'a', 0xc1],
            ReservedMarker,
        ),
        (
            "reserved marker as a key",
            vec![0x81, 0xc1, 0x01],
            ReservedMarker,
        ),
        (
            "reserved marker after a bad key",
            vec![0x81, 0xa1, 0xff, 0xc1],
            ReservedMarker,
        ),
        (
            "array longer than its bytes",
            vec![0xdd, 0xff, 0xff, 0xff, 0xff, 0x01],
            Truncated,
        ),
        (
            "map longer than its bytes",
            vec![0xdf, 0xff, 0xff, 0xff, 0xff, 0x01, 0x01],
            Truncated,
        ),
        ("map missing a value", vec![0x81, 0x01], Truncated),
    ];
    for (name, bytes, want) in cases {
        assert_eq!(wire::decode_value(&bytes), Err(want.clone()), "case {name}");
        let mut rd = bytes.as_slice();
        let skipped =
            wire::skip_value(&mut rd, wire::MAX_WIRE_NESTING).and_then(|()| wire::expect_end(rd));
        assert_eq!(skipped, Err(want), "case {name} (skipped)");
    }
}

#[test]
fn skipping_steps_over_exactly_what_reading_reads() {
    let values = vec![
        Mp::Nil,
        Mp::from(-33),
        Mp::from(u64::MAX),
        Mp::F32(1.5),
        Mp::F64(-0.0),
        mp_str("é\u{1f600}"),
        mp_str(&"x".repeat(70_000)),
        Mp::Binary(vec![0xc1; 300]),
        Mp::Ext(1, b"18446744073709551616".to_vec()),
        ext2(&[0xd800]),
        Mp::Ext(-1, vec![0; 12]),
        Mp::Array(vec![Mp::Nil; 70_000]),
        call_with(Mp::Map(vec![
            (Mp::from(1), Mp::Array(vec![mp_str("x")])),
            (ext2(&[0x61]), Mp::Boolean(true)),
        ])),
    ];
    let mut inputs: Vec<Vec<u8>> = values.iter().map(mp_bytes).collect();
    inputs.push(bad_utf8_call());
    for input in inputs {
        let mut bytes = input.clone();
        bytes.extend_from_slice(&[0xc0, 0x07]);
        let mut read = bytes.as_slice();
        wire::read_value(&mut Exact::default(), &mut read, wire::MAX_WIRE_NESTING).unwrap();
        let mut skipped = bytes.as_slice();
        wire::skip_value(&mut skipped, wire::MAX_WIRE_NESTING).unwrap();
        assert_eq!(read, [0xc0, 0x07], "read {input:x?}");
        assert_eq!(skipped, [0xc0, 0x07], "skipped {input:x?}");
    }
}

#[test]
fn byte_0xc1_inside_payloads_is_data_not_a_marker() {
    let cases: Vec<(&str, Vec<u8>, Value)> = vec![
        ("int8 -63", vec![0xd0, 0xc1], Value::Int(-63)),
        ("uint8 193", vec![0xcc, 0xc1], Value::Int(193)),
        (
            "ext 2 unit 0x00c1",
            vec![0xd5, 2, 0xc1, 0x00],
            Value::from("\u{c1}"),
        ),
        ("str", vec![0xa2, 0xc3, 0x81], Value::from("\u{c1}")),
        (
            "float64",
            vec![0xcb, 0xc1, 0, 0, 0, 0, 0, 0, 0],
            Value::Float(f64::from_bits(0xc100_0000_0000_0000)),
        ),
    ];
    for (name, bytes, want) in cases {
        assert_eq!(wire::decode_value(&bytes).unwrap(), want, "case {name}");
    }
}

/// `levels` nested arrays, the innermost empty, on the wire.
fn nested_bytes(levels: usize) -> Vec<u8> {
    let mut bytes = vec![0x91; levels - 1];
    bytes.push(0x90);
    bytes
}

#[test]
fn a_1000_level_case_decodes_on_a_default_stack() {
    // Spawned test threads get Rust's default 2 MiB stack.
    std::thread::spawn(|| {
        let call = [
            &mp_bytes(&Mp::Map(vec![(mp_str("tool_name"), mp_str("t"))]))[..],
            &[0xa4, b'a', b'r', b'g', b's', 0x81, 0xa1, b'v'],
            &nested_bytes(998),
        ]
        .concat();
        let mut call = call;
        call[0] = 0x82;
        let case = wire::decode_value(&call).expect("1000 levels decode");
        assert_eq!(canonjson::canonical(&case).unwrap_err().code(), "too_deep");
        let mut rd = call.as_slice();
        wire::skip_value(&mut rd, wire::MAX_WIRE_NESTING).expect("1000 levels skip");
        let mut model = Exact::default();
        let mut rd = call.as_slice();
        let again = wire::read_value(&mut model, &mut rd, 1000).expect("exactly 1000 levels");
        difffuzz_kit::Model::recycle(&mut model, again);
    })
    .join()
    .expect("no stack overflow");
}

#[test]
fn nesting_past_the_limit_is_refused_not_recursed() {
    let limit = wire::MAX_WIRE_NESTING;
    for (levels, ok) in [(limit, true), (limit + 1, false), (1_000_000, false)] {
        let bytes = nested_bytes(levels);
        let decoded = wire::decode_value(&bytes);
        assert_eq!(decoded.is_ok(), ok, "{levels} levels");
        let mut rd = bytes.as_slice();
        let skipped = wire::skip_value(&mut rd, limit);
        assert_eq!(skipped.is_ok(), ok, "{levels} levels (skipped)");
        if !ok {
            assert_eq!(decoded.unwrap_err(), wire::DecodeError::TooDeep);
        }
    }
    // A map's keys count as one level down, like its values.
    let mut key_nested = vec![0x81];
    key_nested.extend(nested_bytes(limit));
    key_nested.push(0xc0);
    assert_eq!(
        wire::decode_value(&key_nested),
        Err(wire::DecodeError::TooDeep)
    );
}

#[test]
fn a_recycling_decoder_reads_every_value_as_a_fresh_one_does() {
    let values: Vec<Mp> = vec![
        call_with(Mp::Map(vec![
            (mp_str("a"), mp_str("x".repeat(5000).as_str())),
            (mp_str("b"), Mp::Array(vec![Mp::from(1), mp_str("y")])),
        ])),
        call_with(Mp::Binary(vec![1])),
        call_with(Mp::Map(vec![(Mp::from(1), mp_str("k"))])),
        call_with(Mp::Array(vec![mp_str(""); 3000])),
        call_with(Mp::Map(vec![
            (ext2(&[0xd800]), Mp::Nil),
            (mp_str("a"), Mp::Ext(1, b"-0".to_vec())),
        ])),
        call_with(mp_str("short")),
        Mp::Map(vec![]),
    ];
    let mut cases: Vec<Vec<u8>> = values.iter().map(mp_bytes).collect();
    cases.push(bad_utf8_call());
    let mut model = Exact::default();
    // Twice round, so that the second pass reads into recycled buffers of
    // every size the first pass left.
    for round in 0..2 {
        for (i, bytes) in cases.iter().enumerate() {
            let mut rd = bytes.as_slice();
            let got = wire::read_value(&mut model, &mut rd, wire::MAX_WIRE_NESTING).unwrap();
            let want = wire::decode_value(bytes).unwrap();
            assert_eq!(got, want, "round {round}, case {i}");
            assert_eq!(
                canonjson::canonical(&got),
                canonjson::canonical(&want),
                "round {round}, case {i}"
            );
            difffuzz_kit::Model::recycle(&mut model, got);
        }
    }
}
