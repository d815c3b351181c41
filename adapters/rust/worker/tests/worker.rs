//! Drives the built worker binary over real pipes, as the difffuzz driver
//! does, through every message of docs/adapter-protocol.md.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use rmpv::Value as Mp;

struct Worker {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
}

impl Worker {
    fn start() -> Worker {
        let mut child = Command::new(env!("CARGO_BIN_EXE_worker"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the worker");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        Worker {
            child,
            stdin,
            stdout,
        }
    }

    /// Starts a worker and checks its hello.
    fn started() -> Worker {
        let mut w = Worker::start();
        let hello = w.recv();
        assert_eq!(field(&hello, "type"), &Mp::from("hello"));
        w
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send_body(&mut self, body: &[u8]) {
        let mut frame = (body.len() as u32).to_be_bytes().to_vec();
        frame.extend_from_slice(body);
        self.send_raw(&frame);
    }

    fn send(&mut self, message: &Mp) {
        let mut body = Vec::new();
        rmpv::encode::write_value(&mut body, message).unwrap();
        self.send_body(&body);
    }

    fn recv(&mut self) -> Mp {
        let mut header = [0u8; 4];
        self.stdout.read_exact(&mut header).expect("a frame header");
        let len = u32::from_be_bytes(header) as usize;
        assert!((1..=64 << 20).contains(&len), "frame length {len}");
        let mut body = vec![0u8; len];
        self.stdout.read_exact(&mut body).expect("a frame body");
        let mut rest = body.as_slice();
        let value = rmpv::decode::read_value(&mut rest).expect("msgpack response");
        assert!(rest.is_empty(), "one value per frame");
        value
    }

    fn request(&mut self, message: &Mp) -> Mp {
        self.send(message);
        self.recv()
    }

    /// Closes stdin and returns the exit status.
    fn finish(mut self) -> i32 {
        drop(self.stdin.take());
        let mut rest = Vec::new();
        self.stdout.read_to_end(&mut rest).unwrap();
        assert!(rest.is_empty(), "no output after the last response");
        self.child.wait().unwrap().code().expect("exit status")
    }
}

fn field<'a>(map: &'a Mp, name: &str) -> &'a Mp {
    map.as_map()
        .unwrap_or_else(|| panic!("not a map: {map}"))
        .iter()
        .find(|(k, _)| k.as_str() == Some(name))
        .map(|(_, v)| v)
        .unwrap_or_else(|| panic!("no {name} in {map}"))
}

fn map(members: Vec<(&str, Mp)>) -> Mp {
    Mp::Map(members.into_iter().map(|(k, v)| (Mp::from(k), v)).collect())
}

fn call(args: Mp) -> Mp {
    map(vec![("tool_name", Mp::from("t")), ("args", args)])
}

fn batch(id: u64, cases: Vec<Mp>) -> Mp {
    map(vec![
        ("type", Mp::from("batch")),
        ("id", Mp::from(id)),
        ("cases", Mp::Array(cases)),
    ])
}

fn nest(levels: usize) -> Mp {
    (1..levels).fold(Mp::Array(vec![]), |inner, _| Mp::Array(vec![inner]))
}

#[test]
fn hello_comes_first_unasked() {
    let mut w = Worker::start();
    let hello = w.recv();
    let want = [
        ("type", Mp::from("hello")),
        ("protocol", Mp::from(2)),
        ("language", Mp::from("rust")),
        ("name", Mp::from("canonjson-rust")),
        ("version", Mp::from(canonjson::VERSION)),
        ("model", Mp::from("exact")),
    ];
    for (name, value) in want {
        assert_eq!(field(&hello, name), &value, "hello {name}");
    }
    // An exact worker never answers inexpressible, so it declares nothing.
    let declared = hello.as_map().unwrap().iter();
    assert!(!declared
        .into_iter()
        .any(|(k, _)| k == &Mp::from("inexpressible")));
    assert_eq!(w.finish(), 0);
}

#[test]
fn batch_answers_every_case_in_order() {
    let mut w = Worker::started();
    let cases = vec![
        map(vec![("tool_name", Mp::from("ping")), ("args", map(vec![]))]),
        call(map(vec![("a", Mp::from(1)), ("a", Mp::from(2))])),
        call(map(vec![("x", Mp::F64(f64::NAN)), ("f", Mp::F64(1e21))])),
        Mp::Array(vec![]),
        call(map(vec![("s", Mp::Ext(2, vec![0x00, 0xd8]))])),
        call(map(vec![("b", Mp::Binary(vec![1]))])),
        call(map(vec![("d", nest(1000))])),
        call(map(vec![(
            "i",
            Mp::Ext(1, b"18446744073709551616".to_vec()),
        )])),
        call(Mp::Map(vec![(Mp::from(1), Mp::Nil)])),
    ];
    let response = w.request(&batch(7, cases));
    assert_eq!(field(&response, "type"), &Mp::from("results"));
    assert_eq!(field(&response, "id"), &Mp::from(7));
    let results = field(&response, "results").as_array().unwrap();
    let want: [Result<&str, &str>; 9] = [
        Ok(r#"{"args":{},"tool_name":"ping"}"#),
        Err("duplicate_key"),
        Ok(r#"{"args":{"f":1e+21,"x":NaN},"tool_name":"t"}"#),
        Err("bad_envelope"),
        Err("lone_surrogate"),
        Err("unsupported_value"),
        Err("too_deep"),
        Ok(r#"{"args":{"i":18446744073709551616},"tool_name":"t"}"#),
        Err("non_string_key"),
    ];
    assert_eq!(results.len(), want.len());
    for (i, (result, want)) in results.iter().zip(want).enumerate() {
        match want {
            Ok(text) => {
                let Mp::Binary(canonical) = field(result, "canonical") else {
                    panic!("case {i}: canonical is not bin: {result}")
                };
                assert_eq!(canonical.as_slice(), text.as_bytes(), "case {i}");
                let digest = field(result, "digest");
                assert_eq!(
                    digest,
                    &Mp::Binary(blake3::hash(text.as_bytes()).as_bytes().to_vec()),
                    "case {i}"
                );
            }
            Err(code) => {
                assert_eq!(field(result, "error"), &Mp::from(code), "case {i}");
                assert!(field(result, "message").is_str(), "case {i}");
            }
        }
    }
    let empty = w.request(&batch(8, vec![]));
    assert_eq!(field(&empty, "results"), &Mp::Array(vec![]));
    assert_eq!(w.finish(), 0);
}

#[test]
fn bench_times_rounds_over_all_cases() {
    let mut w = Worker::started();
    let request = map(vec![
        ("type", Mp::from("bench")),
        ("id", Mp::from(9)),
        (
            "cases",
            Mp::Array(vec![
                call(map(vec![("a", Mp::from(1))])),
                Mp::Nil, // an error result counts too
                call(map(vec![("s", Mp::from("x".repeat(1000)))])),
            ]),
        ),
        ("rounds", Mp::from(4)),
    ]);
    let response = w.request(&request);
    assert_eq!(field(&response, "type"), &Mp::from("bench"));
    assert_eq!(field(&response, "id"), &Mp::from(9));
    assert_eq!(field(&response, "count"), &Mp::from(12));
    for name in ["elapsed_ns", "cpu_ns", "decode_elapsed_ns", "decode_cpu_ns"] {
        let ns = field(&response, name).as_u64().expect("unsigned");
        assert!(ns > 0 && ns < 10_000_000_000, "{name} {ns}");
    }
    assert_eq!(w.finish(), 0);
}

#[test]
fn undecodable_requests_get_error_responses_and_the_worker_goes_on() {
    let mut w = Worker::started();
    let cases: Vec<(&str, Vec<u8>, u64)> = vec![
        ("garbage", b"\xc1 this is not msgpack".to_vec(), 0),
        ("truncated msgpack", vec![0x92, 0x01], 0),
        ("trailing bytes", vec![0x80, 0x80], 0),
        ("not a map", vec![0x91, 0x01], 0),
        ("no type", encode(&map(vec![("id", Mp::from(3))])), 3),
        (
            "unknown type",
            encode(&map(vec![("type", Mp::from("nope")), ("id", Mp::from(4))])),
            4,
        ),
        (
            "cases not an array",
            encode(&map(vec![
                ("type", Mp::from("batch")),
                ("id", Mp::from(5)),
                ("cases", Mp::Nil),
            ])),
            5,
        ),
        (
            "no id",
            encode(&map(vec![
                ("type", Mp::from("batch")),
                ("cases", Mp::Array(vec![])),
            ])),
            0,
        ),
        (
            "negative id",
            encode(&map(vec![
                ("type", Mp::from("batch")),
                ("id", Mp::from(-1)),
                ("cases", Mp::Array(vec![])),
            ])),
            0,
        ),
        (
            "bench without rounds",
            encode(&map(vec![
                ("type", Mp::from("bench")),
                ("id", Mp::from(6)),
                ("cases", Mp::Array(vec![])),
            ])),
            6,
        ),
        ("nesting past the wire limit", deep_request(2000), 0),
        (
            "nesting past the wire limit by one",
            deep_request(wire_case_limit() + 1),
            0,
        ),
        (
            "digest_only not a bool",
            encode(&map(vec![
                ("type", Mp::from("batch")),
                ("id", Mp::from(12)),
                ("digest_only", Mp::from(1)),
                ("cases", Mp::Array(vec![])),
            ])),
            12,
        ),
        (
            "reserved marker inside the second case",
            patched(
                &batch(13, vec![call(map(vec![])), call(map(vec![("v", Mp::Nil)]))]),
                0xc0,
                0xc1,
            ),
            0,
        ),
        (
            "fewer cases than the array says",
            {
                let mut body = encode(&batch(14, vec![call(map(vec![]))]));
                let at = body.iter().rposition(|&b| b == 0x91).unwrap();
                body[at] = 0x92;
                body
            },
            0,
        ),
        (
            "trailing bytes after the cases",
            [encode(&batch(15, vec![call(map(vec![]))])), vec![0xc0]].concat(),
            0,
        ),
        (
            "malformed member after the cases",
            {
                let mut body = encode(&map(vec![
                    ("cases", Mp::Array(vec![call(map(vec![]))])),
                    ("type", Mp::from("batch")),
                    ("id", Mp::from(16)),
                    ("extra", Mp::Nil),
                ]));
                *body.last_mut().unwrap() = 0xc1;
                body
            },
            0,
        ),
    ];
    for (name, body, id) in cases {
        w.send_body(&body);
        let response = w.recv();
        assert_eq!(field(&response, "type"), &Mp::from("error"), "{name}");
        assert_eq!(field(&response, "id"), &Mp::from(id), "{name}");
        assert!(field(&response, "message").is_str(), "{name}");
        // Still serving.
        let ok = w.request(&batch(100, vec![]));
        assert_eq!(field(&ok, "type"), &Mp::from("results"), "after {name}");
    }
    assert_eq!(w.finish(), 0);
}

fn encode(message: &Mp) -> Vec<u8> {
    let mut body = Vec::new();
    rmpv::encode::write_value(&mut body, message).unwrap();
    body
}

/// The request's bytes with the last `from` byte replaced by `to`.
fn patched(message: &Mp, from: u8, to: u8) -> Vec<u8> {
    let mut body = encode(message);
    let at = body.iter().rposition(|&b| b == from).unwrap();
    body[at] = to;
    body
}

/// Deepest case a batch may carry: a request's members may nest
/// `MAX_WIRE_NESTING` levels, and a case sits one level down.
fn wire_case_limit() -> usize {
    difffuzz_kit::__private::decode::MAX_WIRE_NESTING - 1
}

fn deep_request(levels: usize) -> Vec<u8> {
    let mut body = encode(&batch(1, vec![]));
    body.pop(); // the empty cases array
    body.push(0x91);
    body.extend(std::iter::repeat_n(0x91, levels - 1));
    body.push(0x90);
    body
}

#[test]
fn unknown_request_fields_are_ignored() {
    let mut w = Worker::started();
    let mut request = batch(11, vec![call(map(vec![]))]);
    if let Mp::Map(members) = &mut request {
        members.push((Mp::from("extra"), Mp::from("ignored")));
        members.push((Mp::from(5), Mp::Nil));
    }
    let response = w.request(&request);
    assert_eq!(field(&response, "id"), &Mp::from(11));
    assert_eq!(field(&response, "results").as_array().unwrap().len(), 1);
    assert_eq!(w.finish(), 0);
}

#[test]
fn bad_frame_lengths_get_an_error_then_exit_2() {
    for header in [[0u8, 0, 0, 0], [0x04, 0, 0, 1], [0xff; 4]] {
        let mut w = Worker::started();
        w.send_raw(&header);
        let response = w.recv();
        assert_eq!(field(&response, "type"), &Mp::from("error"), "{header:?}");
        assert_eq!(field(&response, "id"), &Mp::from(0));
        assert_eq!(w.finish(), 2, "{header:?}");
    }
}

#[test]
fn end_of_input_inside_a_frame_exits_2() {
    for partial in [&[0u8, 0][..], &[0, 0, 0, 9, 0x80]] {
        let mut w = Worker::started();
        w.send_raw(partial);
        drop(w.stdin.take());
        let response = w.recv();
        assert_eq!(field(&response, "type"), &Mp::from("error"));
        assert_eq!(w.finish(), 2, "{partial:?}");
    }
}

#[test]
fn end_of_input_exits_0_after_answering_everything() {
    let mut w = Worker::started();
    for id in 1..=3 {
        w.send(&batch(id, vec![call(map(vec![]))]));
    }
    for id in 1..=3 {
        assert_eq!(field(&w.recv(), "id"), &Mp::from(id));
    }
    assert_eq!(w.finish(), 0);
}

#[test]
fn the_deepest_case_on_the_wire_is_answered_too_deep() {
    let mut w = Worker::started();
    w.send_body(&deep_request(wire_case_limit()));
    let response = w.recv();
    assert_eq!(field(&response, "type"), &Mp::from("results"));
    let results = field(&response, "results").as_array().unwrap();
    assert_eq!(field(&results[0], "error"), &Mp::from("too_deep"));
    assert_eq!(w.finish(), 0);
}

/// Cases with every kind of result: successes, spec errors, wire errors.
fn mixed_cases() -> Vec<Mp> {
    vec![
        call(map(vec![("a", Mp::from(1)), ("s", Mp::from("é\u{1f600}"))])),
        call(map(vec![("a", Mp::from(1)), ("a", Mp::from(2))])),
        call(map(vec![("b", Mp::Binary(vec![1]))])),
        call(map(vec![("x", Mp::F64(1e21))])),
        call(map(vec![("s", Mp::Ext(2, vec![0x00, 0xd8]))])),
        call(map(vec![(
            "i",
            Mp::Ext(1, b"-18446744073709551617".to_vec()),
        )])),
        call(Mp::Map(vec![(Mp::from(1), Mp::Nil)])),
        Mp::Nil,
    ]
}

fn batch_with(id: u64, digest_only: Option<Mp>, cases: Vec<Mp>) -> Mp {
    let mut members = vec![("type", Mp::from("batch")), ("id", Mp::from(id))];
    members.extend(digest_only.map(|flag| ("digest_only", flag)));
    members.push(("cases", Mp::Array(cases)));
    map(members)
}

#[test]
fn digest_only_batches_leave_out_the_canonical_text_and_nothing_else() {
    let mut w = Worker::started();
    let full = w.request(&batch_with(1, None, mixed_cases()));
    let full = field(&full, "results").as_array().unwrap().clone();
    let has_canonical = |result: &Mp| {
        result
            .as_map()
            .unwrap()
            .iter()
            .any(|(k, _)| k.as_str() == Some("canonical"))
    };
    assert_eq!(full.iter().filter(|r| has_canonical(r)).count(), 3);
    let cases: Vec<(&str, Option<Mp>, bool)> = vec![
        ("absent", None, false),
        ("false", Some(Mp::Boolean(false)), false),
        ("true", Some(Mp::Boolean(true)), true),
    ];
    for (name, flag, digest_only) in cases {
        let response = w.request(&batch_with(2, flag, mixed_cases()));
        assert_eq!(field(&response, "type"), &Mp::from("results"), "{name}");
        let results = field(&response, "results").as_array().unwrap();
        assert_eq!(results.len(), full.len(), "{name}");
        for (i, (got, want)) in results.iter().zip(&full).enumerate() {
            let has_canonical = want
                .as_map()
                .unwrap()
                .iter()
                .any(|(k, _)| k.as_str() == Some("canonical"));
            if has_canonical && digest_only {
                let only_digest = map(vec![("digest", field(want, "digest").clone())]);
                assert_eq!(got, &only_digest, "{name}, case {i}");
            } else {
                assert_eq!(got, want, "{name}, case {i}");
            }
        }
    }
    assert_eq!(w.finish(), 0);
}

/// A results message without its `batch_cpu_ns`, which it must carry: what
/// the batch cost the worker, a positive count of nanoseconds.
fn untimed(response: Mp) -> Mp {
    let Mp::Map(members) = response else {
        panic!("response {response:?} is not a map")
    };
    let (cost, rest): (Vec<_>, Vec<_>) = members
        .into_iter()
        .partition(|(k, _)| k.as_str() == Some("batch_cpu_ns"));
    assert!(
        matches!(cost.as_slice(), [(_, v)] if v.as_u64().is_some_and(|ns| ns > 0)),
        "batch_cpu_ns {cost:?}"
    );
    Mp::Map(rest)
}

#[test]
fn request_members_may_come_in_any_order_and_the_first_of_a_name_counts() {
    let mut w = Worker::started();
    let want = untimed(w.request(&batch(1, mixed_cases())));
    let orders: Vec<(&str, Vec<(&str, Mp)>)> = vec![
        (
            "cases first",
            vec![
                ("cases", Mp::Array(mixed_cases())),
                ("id", Mp::from(1)),
                ("type", Mp::from("batch")),
            ],
        ),
        (
            "cases in the middle, unknown members around",
            vec![
                ("extra", Mp::Array(vec![Mp::Nil])),
                ("type", Mp::from("batch")),
                ("cases", Mp::Array(mixed_cases())),
                ("id", Mp::from(1)),
                ("digest_only", Mp::Boolean(false)),
            ],
        ),
        (
            "a second cases member is ignored",
            vec![
                ("type", Mp::from("batch")),
                ("id", Mp::from(1)),
                ("cases", Mp::Array(mixed_cases())),
                ("cases", Mp::Array(vec![Mp::Nil])),
            ],
        ),
        (
            "a second id member is ignored",
            vec![
                ("id", Mp::from(1)),
                ("type", Mp::from("batch")),
                ("id", Mp::from(2)),
                ("cases", Mp::Array(mixed_cases())),
            ],
        ),
    ];
    for (name, members) in orders {
        assert_eq!(untimed(w.request(&map(members))), want, "{name}");
    }
    assert_eq!(w.finish(), 0);
}
