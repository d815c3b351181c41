//! The protocol's own channel: offered descriptors in `DIFFFUZZ_FDS`, the
//! worker serves there in protocol 4, and what its function prints, on
//! stdout or stderr, is only its log, as are the first few of its panics. The worker is this test binary run
//! again (its `chatty_worker` test, which serves when told to), offered two
//! pipes of its parent's.
#![cfg(feature = "serde_json")]

use std::fs::File;
use std::os::fd::{FromRawFd, RawFd};
use std::process::{Command, Stdio};

use std::process::ExitCode;

use difffuzz_kit::__private::{FDS_ENV, FD_PROTOCOL};
use difffuzz_kit::{serve, Hello, Native, SpecError};
use rmpv::Value as Mp;

mod common;
use common::{batch, field, read_frame, write_frame};

/// Set in the environment of the re-run test binary that is the worker.
const CHILD: &str = "DIFFFUZZ_KIT_TEST_CHATTY";

/// The worker: it prints, as an SDK's debug logging would, a line to stdout
/// at start and a line to stdout and one to stderr on every case, and
/// panics on the string "panic". Run without CHILD, it passes at once.
#[test]
fn chatty_worker() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    println!("debug: starting");
    let code = serve(Hello::new("chatty", "0"), Native, |value| {
        println!("debug: canonicalizing {value}");
        eprintln!("debug: canonicalized");
        assert_ne!(value, "panic", "chatty panic"); // the panic's place
        Ok::<_, SpecError>(b"1".to_vec())
    });
    // serve returns on this thread (a test's, not main) rather than exiting.
    assert_eq!(code, ExitCode::SUCCESS);
}

/// A pipe whose end `theirs` (0 the read end, 1 the write end) a child
/// inherits; the other one is close-on-exec, so that the child's input ends
/// when ours closes. Returns the read end, the write end.
fn pipe(theirs: usize) -> (RawFd, RawFd) {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into fds; fcntl changes one's flags.
    unsafe {
        assert_eq!(libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC), 0);
        assert_eq!(libc::fcntl(fds[theirs], libc::F_SETFD, 0), 0);
    }
    (fds[0], fds[1])
}

#[test]
fn a_printing_worker_leaves_the_channel_alone() {
    let (req_r, req_w) = pipe(0);
    let (resp_r, resp_w) = pipe(1);
    let child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "chatty_worker",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .env(FDS_ENV, format!("{req_r},{resp_w}"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the worker");
    // SAFETY: the child has its copies; these are ours alone.
    let (mut requests, mut responses) = unsafe {
        libc::close(req_r);
        libc::close(resp_w);
        (File::from_raw_fd(req_w), File::from_raw_fd(resp_r))
    };
    let hello = read_frame(&mut responses);
    assert_eq!(field(&hello, "protocol"), &Mp::from(FD_PROTOCOL));
    for id in [1u64, 2] {
        write_frame(&mut requests, &batch(id, vec![1.into(), "x".into()]));
        let results = read_frame(&mut responses);
        assert_eq!(field(&results, "id"), &Mp::from(id));
        let first = &field(&results, "results").as_array().unwrap()[0];
        assert_eq!(field(first, "canonical"), &Mp::Binary(b"1".to_vec()));
    }
    // A flood of panics: each its case's result, a few printed.
    write_frame(&mut requests, &batch(3, vec!["panic".into(); 10]));
    let results = read_frame(&mut responses);
    let panicked = field(&results, "results").as_array().unwrap();
    assert_eq!(panicked.len(), 10);
    let line = include_str!("channel.rs")
        .lines()
        .position(|l| l.ends_with("// the panic's place"))
        .unwrap()
        + 1;
    for result in panicked {
        assert_eq!(field(result, "error_type"), &Mp::from("panic"));
        let frame = &field(result, "frames").as_array().unwrap()[0];
        assert_eq!(field(frame, "file"), &Mp::from("tests/channel.rs"));
        assert_eq!(field(frame, "line"), &Mp::from(line));
    }
    drop(requests);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "worker: {:?}", out.status);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("debug: starting\n"), "stdout: {stdout}");
    assert_eq!(
        stdout.matches("debug: canonicalizing").count(),
        14,
        "stdout: {stdout}"
    );
    assert_eq!(
        stderr.matches("debug: canonicalized").count(),
        14,
        "stderr: {stderr}"
    );
    assert_eq!(
        stderr.matches("chatty panic").count(),
        3,
        "stderr: {stderr}"
    );
    assert_eq!(
        stderr.matches("panics caught in cases printed").count(),
        1,
        "stderr: {stderr}"
    );
}
