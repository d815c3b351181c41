//! The README's example worker (example/), built and started as a real
//! process: its hello, one case and one inexpressible case over real pipes.

use std::path::Path;
use std::process::{Command, Stdio};

use rmpv::Value as Mp;

mod common;
use common::{batch, field, read_frame, write_frame};

/// Builds the example with the cargo running this test, as `make examples`
/// does: released, into the example's own target folder (this one is locked
/// while tests run), so that after make it is already there.
fn example_binary() -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = root.join("example").join("target");
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "--release",
            "--quiet",
            "--locked",
            "--manifest-path",
        ])
        .arg(root.join("example/Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .expect("run cargo");
    assert!(status.success(), "building the example failed");
    target.join("release/example-worker")
}

/// The example's text-model worker (example/src/bin/text_worker.rs), built
/// by [`example_binary`].
fn text_binary() -> std::path::PathBuf {
    example_binary().with_file_name("text_worker")
}

/// Starts the worker at `path`, sends it one batch of `cases` and closes
/// its input; returns its hello and the batch's results, once it has exited
/// with status 0, as the end of its input asks.
fn one_batch(path: &Path, cases: Vec<Mp>) -> (Mp, Vec<Mp>) {
    let mut child = Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the worker");
    let mut stdout = child.stdout.take().unwrap();
    let hello = read_frame(&mut stdout);
    let mut stdin = child.stdin.take().unwrap();
    write_frame(&mut stdin, &batch(1, cases));
    let response = read_frame(&mut stdout);
    let results = field(&response, "results").as_array().unwrap().clone();
    drop(stdin);
    assert_eq!(
        child.wait().unwrap().code(),
        Some(0),
        "end of input exits 0"
    );
    (hello, results)
}

#[test]
fn the_example_worker_speaks_the_protocol() {
    let call = |v: Mp| {
        Mp::Map(vec![
            ("tool_name".into(), "t".into()),
            (
                "args".into(),
                Mp::Map(vec![("b".into(), v), ("a".into(), 1.into())]),
            ),
        ])
    };
    let cases = vec![call(true.into()), call(Mp::F64(f64::INFINITY))];
    let (hello, results) = one_batch(&example_binary(), cases);
    assert_eq!(field(&hello, "model"), &Mp::from("native"));
    assert_eq!(field(&hello, "name"), &Mp::from("serde_json"));
    let text = br#"{"args":{"a":1,"b":true},"tool_name":"t"}"#;
    assert_eq!(field(&results[0], "canonical"), &Mp::Binary(text.to_vec()));
    assert_eq!(field(&results[1], "inexpressible"), &Mp::from("non_finite"));
}

/// Started by hand, on stdin and stdout, the text worker gets values, not
/// text: each case says that the text model needs a driver of protocol 4.
/// (Its text is tested in tests/text.rs, and by `make conform`.)
#[test]
fn the_text_worker_on_stdin_needs_protocol_4() {
    let repeated = Mp::Map(vec![("a".into(), 1.into()), ("a".into(), 2.into())]);
    let (hello, results) = one_batch(&text_binary(), vec![repeated]);
    assert_eq!(field(&hello, "model"), &Mp::from("text"));
    assert_eq!(field(&hello, "protocol"), &Mp::from(2));
    assert_eq!(field(&results[0], "error"), &Mp::from("internal"));
    let message = field(&results[0], "message").as_str().unwrap();
    assert!(
        message.contains("needs a driver of protocol 4"),
        "{message}"
    );
}
