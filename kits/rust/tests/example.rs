//! The README's example worker (example/), built and started as a real
//! process: its hello, one case and one inexpressible case over real pipes.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use rmpv::Value as Mp;

fn field<'a>(map: &'a Mp, name: &str) -> &'a Mp {
    map.as_map()
        .and_then(|m| m.iter().find(|(k, _)| k.as_str() == Some(name)))
        .map(|(_, v)| v)
        .unwrap_or_else(|| panic!("no {name} in {map}"))
}

fn read_frame(r: &mut impl Read) -> Mp {
    let mut header = [0u8; 4];
    r.read_exact(&mut header).expect("a frame header");
    let mut body = vec![0; u32::from_be_bytes(header) as usize];
    r.read_exact(&mut body).unwrap();
    rmpv::decode::read_value(&mut body.as_slice()).unwrap()
}

/// Builds the example with the cargo running this test, into a target folder
/// of its own (this one is locked while tests run).
fn example_binary() -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = root.join("target").join("example");
    let status = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--locked", "--manifest-path"])
        .arg(root.join("example/Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .expect("run cargo");
    assert!(status.success(), "building the example failed");
    target.join("debug/example-worker")
}

/// The example's text-model worker (example/src/bin/text_worker.rs), built
/// by [`example_binary`].
fn text_binary() -> std::path::PathBuf {
    example_binary().with_file_name("text_worker")
}

#[test]
fn the_example_worker_speaks_the_protocol() {
    let mut child = Command::new(example_binary())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the example");
    let mut stdout = child.stdout.take().unwrap();
    let hello = read_frame(&mut stdout);
    assert_eq!(field(&hello, "model"), &Mp::from("native"));
    assert_eq!(field(&hello, "name"), &Mp::from("serde_json"));

    let call = |v: Mp| {
        Mp::Map(vec![
            ("tool_name".into(), "t".into()),
            (
                "args".into(),
                Mp::Map(vec![("b".into(), v), ("a".into(), 1.into())]),
            ),
        ])
    };
    let request = Mp::Map(vec![
        ("type".into(), "batch".into()),
        ("id".into(), 1.into()),
        (
            "cases".into(),
            Mp::Array(vec![call(true.into()), call(Mp::F64(f64::INFINITY))]),
        ),
    ]);
    let mut body = Vec::new();
    rmpv::encode::write_value(&mut body, &request).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&(body.len() as u32).to_be_bytes()).unwrap();
    stdin.write_all(&body).unwrap();
    stdin.flush().unwrap();
    let response = read_frame(&mut stdout);
    let results = field(&response, "results").as_array().unwrap();
    let text = br#"{"args":{"a":1,"b":true},"tool_name":"t"}"#;
    assert_eq!(field(&results[0], "canonical"), &Mp::Binary(text.to_vec()));
    assert_eq!(field(&results[1], "inexpressible"), &Mp::from("non_finite"));
    drop(stdin);
    assert_eq!(
        child.wait().unwrap().code(),
        Some(0),
        "end of input exits 0"
    );
}

#[test]
fn the_text_worker_parses_what_it_is_sent() {
    let mut child = Command::new(text_binary())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the text worker");
    let mut stdout = child.stdout.take().unwrap();
    let hello = read_frame(&mut stdout);
    assert_eq!(field(&hello, "model"), &Mp::from("text"));
    let reasons = Mp::Array(vec!["non_string_key".into(), "unsupported_value".into()]);
    assert_eq!(field(&hello, "inexpressible"), &reasons);

    // serde_json keeps the last repeated key; JSON text cannot spell bin
    let repeated = Mp::Map(vec![("a".into(), 1.into()), ("a".into(), 2.into())]);
    let bin = Mp::Array(vec![Mp::Binary(vec![1])]);
    let request = Mp::Map(vec![
        ("type".into(), "batch".into()),
        ("id".into(), 1.into()),
        ("cases".into(), Mp::Array(vec![repeated, bin])),
    ]);
    let mut body = Vec::new();
    rmpv::encode::write_value(&mut body, &request).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&(body.len() as u32).to_be_bytes()).unwrap();
    stdin.write_all(&body).unwrap();
    stdin.flush().unwrap();
    let results = field(&read_frame(&mut stdout), "results")
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(
        field(&results[0], "canonical"),
        &Mp::Binary(br#"{"a":2}"#.to_vec())
    );
    assert_eq!(
        field(&results[1], "inexpressible"),
        &Mp::from("unsupported_value")
    );
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(0));
}
