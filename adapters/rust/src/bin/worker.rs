//! The difffuzz worker for the Rust implementation: a thin loop around
//! `canonjson` speaking `docs/adapter-protocol.md` on stdin/stdout.

use std::any::Any;
use std::hint::black_box;
use std::io::{self, BufReader, BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

use canonjson::wire::{self, FrameError};
use canonjson::Value;
use rmpv::ValueRef;

/// The loop runs on a thread with a stack this large, so that decoding and
/// dropping the deepest case the protocol allows (1000 levels, plus margin)
/// never depends on the platform's main-thread stack size.
const STACK_SIZE: usize = 64 << 20;

fn main() {
    let code = std::thread::Builder::new()
        .name("worker".to_owned())
        .stack_size(STACK_SIZE)
        .spawn(run)
        .expect("spawn the worker thread")
        .join()
        .unwrap_or(1);
    std::process::exit(code);
}

/// Returns the process exit status: 0 on end of input, 2 when the stream
/// cannot be resynchronised, 1 when stdout or stdin fail.
fn run() -> i32 {
    let mut input = BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut output = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut worker = Worker::default();
    if let Err(e) = worker.send(&mut output, 0, write_hello) {
        eprintln!("canonjson worker: cannot write hello: {e}");
        return 1;
    }
    let mut request = Vec::new();
    loop {
        match wire::read_frame(&mut input, &mut request) {
            Ok(()) => {}
            Err(FrameError::Eof) => return 0,
            Err(e @ FrameError::BadLength(_)) => {
                eprintln!("canonjson worker: {e}");
                let message = e.to_string();
                let _ = worker.send(&mut output, 0, |out| write_error(out, 0, &message));
                return 2;
            }
            Err(e @ (FrameError::Truncated | FrameError::Io(_))) => {
                eprintln!("canonjson worker: {e}");
                let message = e.to_string();
                let _ = worker.send(&mut output, 0, |out| write_error(out, 0, &message));
                return 2;
            }
        }
        // Every case already has its own guard; this one keeps a bug in
        // request handling from ending the worker.
        let answered =
            panic::catch_unwind(AssertUnwindSafe(|| worker.answer(&request, &mut output)))
                .unwrap_or_else(|payload| {
                    let why = panic_text(payload.as_ref());
                    worker.send(&mut output, 0, |out| write_error(out, 0, &why))
                });
        if let Err(e) = answered {
            eprintln!("canonjson worker: cannot write response: {e}");
            return 1;
        }
    }
}

/// Buffers reused across requests, so the hot path allocates little.
#[derive(Default)]
struct Worker {
    response: Vec<u8>,
    canonical: Vec<u8>,
}

impl Worker {
    /// Decodes one request and writes its response (an `error` response when
    /// the request cannot be read as one).
    fn answer<W: Write>(&mut self, request: &[u8], output: &mut W) -> io::Result<()> {
        let message = match wire::decode_message(request) {
            Ok(m) => m,
            Err(why) => return self.send(output, 0, |out| write_error(out, 0, &why)),
        };
        let request = match Request::parse(&message) {
            Ok(r) => r,
            Err((id, why)) => return self.send(output, id, |out| write_error(out, id, &why)),
        };
        match request {
            Request::Batch { id, cases } => {
                let mut canonical = std::mem::take(&mut self.canonical);
                let sent = self.send(output, id, |out| {
                    write_results(out, id, cases, &mut canonical)
                });
                self.canonical = canonical;
                sent
            }
            Request::Bench { id, cases, rounds } => {
                let (elapsed_ns, count) = bench(cases, rounds, &mut self.canonical);
                self.send(output, id, |out| write_bench(out, id, elapsed_ns, count))
            }
        }
    }

    /// Frames what `fill` writes and flushes it, falling back to an `error`
    /// response for request `id` when the body would exceed the frame cap.
    fn send<W: Write>(
        &mut self,
        output: &mut W,
        id: u64,
        fill: impl FnOnce(&mut Vec<u8>),
    ) -> io::Result<()> {
        self.response.clear();
        fill(&mut self.response);
        if self.response.len() > wire::MAX_FRAME_LEN {
            let why = format!(
                "response of {} bytes exceeds the frame cap",
                self.response.len()
            );
            self.response.clear();
            write_error(&mut self.response, id, &why);
        }
        wire::write_frame(output, &self.response)?;
        output.flush()
    }
}

/// A request the worker understood; cases stay as decoded msgpack until each
/// is converted inside its own panic guard.
enum Request<'m> {
    Batch {
        id: u64,
        cases: &'m [ValueRef<'m>],
    },
    Bench {
        id: u64,
        cases: &'m [ValueRef<'m>],
        rounds: u64,
    },
}

impl<'m> Request<'m> {
    /// On failure returns the id to answer with (0 when unknown) and why.
    fn parse(message: &'m ValueRef<'m>) -> Result<Request<'m>, (u64, String)> {
        let ValueRef::Map(fields) = message else {
            return Err((0, "request is not a map".to_owned()));
        };
        let field = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| matches!(k, ValueRef::String(s) if s.as_str() == Some(name)))
                .map(|(_, v)| v)
        };
        let id = field("id").and_then(ValueRef::as_u64);
        let kind = match field("type") {
            Some(ValueRef::String(s)) => s.as_str().unwrap_or("").to_owned(),
            _ => return Err((id.unwrap_or(0), "request has no string type".to_owned())),
        };
        let fail = |why: String| Err((id.unwrap_or(0), format!("{kind}: {why}")));
        if kind != "batch" && kind != "bench" {
            return fail("unknown request type".to_owned());
        }
        let Some(id) = id else {
            return fail("id is not an unsigned integer".to_owned());
        };
        let cases = match field("cases") {
            Some(ValueRef::Array(cases)) => cases.as_slice(),
            _ => return fail("cases is not an array".to_owned()),
        };
        if kind == "batch" {
            return Ok(Request::Batch { id, cases });
        }
        match field("rounds").and_then(ValueRef::as_u64) {
            Some(rounds) => Ok(Request::Bench { id, cases, rounds }),
            None => fail("rounds is not an unsigned integer".to_owned()),
        }
    }
}

/// One case's outcome, as the results message carries it.
enum Outcome {
    Canonical([u8; 32]),
    Refused(canonjson::Error),
    Internal(String),
}

/// Converts, canonicalizes and hashes one case; a panic anywhere in that is
/// a finding against this implementation, not a reason to stop the worker.
/// On success the canonical text is left in `canonical`.
fn run_case(case: &ValueRef<'_>, canonical: &mut Vec<u8>) -> Outcome {
    let attempt = panic::catch_unwind(AssertUnwindSafe(|| {
        let value = wire::value_from_wire(case);
        canonical.clear();
        canonjson::canonical_into(&value, canonical).map(|()| *blake3::hash(canonical).as_bytes())
    }));
    outcome(attempt)
}

fn outcome(attempt: std::thread::Result<Result<[u8; 32], canonjson::Error>>) -> Outcome {
    match attempt {
        Ok(Ok(digest)) => Outcome::Canonical(digest),
        Ok(Err(e)) => Outcome::Refused(e),
        Err(payload) => Outcome::Internal(panic_text(payload.as_ref())),
    }
}

fn panic_text(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("non-text panic payload");
    format!("panic: {text}")
}

/// Times `rounds` passes of canonical+BLAKE3 over cases converted once
/// beforehand; nothing but that work sits inside the clock.
fn bench(cases: &[ValueRef<'_>], rounds: u64, canonical: &mut Vec<u8>) -> (u64, u64) {
    let values: Vec<Option<Value>> = cases
        .iter()
        .map(|case| panic::catch_unwind(AssertUnwindSafe(|| wire::value_from_wire(case))).ok())
        .collect();
    let start = Instant::now();
    for _ in 0..rounds {
        for value in &values {
            black_box(bench_one(value.as_ref(), canonical));
        }
    }
    let elapsed = start.elapsed().as_nanos();
    let count = rounds.saturating_mul(values.len() as u64);
    (u64::try_from(elapsed).unwrap_or(u64::MAX), count)
}

fn bench_one(value: Option<&Value>, canonical: &mut Vec<u8>) -> Option<[u8; 32]> {
    let value = value?;
    panic::catch_unwind(AssertUnwindSafe(|| {
        canonical.clear();
        canonjson::canonical_into(value, canonical).map(|()| *blake3::hash(canonical).as_bytes())
    }))
    .ok()?
    .ok()
}

// ---------------------------------------------------------------------------
// Response encoding, straight into the reused response buffer.

fn write_hello(out: &mut Vec<u8>) {
    write_map_len(out, 5);
    write_str_field(out, "type", "hello");
    write_uint_field(out, "protocol", 1);
    write_str_field(out, "language", "rust");
    write_str_field(out, "name", "canonjson-rust");
    write_str_field(out, "version", env!("CARGO_PKG_VERSION"));
}

fn write_error(out: &mut Vec<u8>, id: u64, message: &str) {
    write_map_len(out, 3);
    write_str_field(out, "type", "error");
    write_uint_field(out, "id", id);
    write_str_field(out, "message", message);
}

fn write_results(out: &mut Vec<u8>, id: u64, cases: &[ValueRef<'_>], canonical: &mut Vec<u8>) {
    write_map_len(out, 3);
    write_str_field(out, "type", "results");
    write_uint_field(out, "id", id);
    write_str(out, "results");
    must(rmp::encode::write_array_len(out, msgpack_len(cases.len())));
    for case in cases {
        match run_case(case, canonical) {
            Outcome::Canonical(digest) => {
                write_map_len(out, 2);
                write_str(out, "canonical");
                must(rmp::encode::write_bin(out, canonical));
                write_str(out, "digest");
                must(rmp::encode::write_bin(out, &digest));
            }
            Outcome::Refused(e) => write_error_result(out, e.code(), e.message()),
            Outcome::Internal(why) => write_error_result(out, "internal", &why),
        }
    }
}

fn write_error_result(out: &mut Vec<u8>, code: &str, message: &str) {
    write_map_len(out, 2);
    write_str_field(out, "error", code);
    write_str_field(out, "message", message);
}

fn write_bench(out: &mut Vec<u8>, id: u64, elapsed_ns: u64, count: u64) {
    write_map_len(out, 4);
    write_str_field(out, "type", "bench");
    write_uint_field(out, "id", id);
    write_uint_field(out, "elapsed_ns", elapsed_ns);
    write_uint_field(out, "count", count);
}

fn write_map_len(out: &mut Vec<u8>, len: u32) {
    must(rmp::encode::write_map_len(out, len));
}

fn write_str(out: &mut Vec<u8>, s: &str) {
    must(rmp::encode::write_str(out, s));
}

fn write_str_field(out: &mut Vec<u8>, key: &str, value: &str) {
    write_str(out, key);
    write_str(out, value);
}

fn write_uint_field(out: &mut Vec<u8>, key: &str, value: u64) {
    write_str(out, key);
    must(rmp::encode::write_uint(out, value));
}

fn msgpack_len(len: usize) -> u32 {
    u32::try_from(len).expect("a frame holds fewer than 2^32 items")
}

/// Writing msgpack into a `Vec` cannot fail (allocation failure aborts).
fn must<T, E: std::fmt::Debug>(result: Result<T, E>) {
    result.expect("writing to a Vec cannot fail");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The guard's path from a panic to an `internal` result, which no
    /// well-behaved case can reach from outside.
    #[test]
    fn a_panic_becomes_an_internal_result() {
        let quiet = panic::take_hook();
        panic::set_hook(Box::new(|_| {}));
        let attempts = [
            panic::catch_unwind(|| -> Result<[u8; 32], canonjson::Error> { panic!("boom") }),
            panic::catch_unwind(|| -> Result<[u8; 32], canonjson::Error> {
                panic!("{} {}", "formatted", 1)
            }),
            panic::catch_unwind(|| -> Result<[u8; 32], canonjson::Error> { panic::panic_any(7u8) }),
        ];
        panic::set_hook(quiet);
        let texts: Vec<String> = attempts
            .into_iter()
            .map(|attempt| match outcome(attempt) {
                Outcome::Internal(text) => text,
                _ => panic!("not internal"),
            })
            .collect();
        assert_eq!(
            texts,
            [
                "panic: boom",
                "panic: formatted 1",
                "panic: non-text panic payload"
            ]
        );
    }

    #[test]
    fn internal_results_carry_the_internal_code() {
        let mut out = Vec::new();
        write_error_result(&mut out, "internal", "panic: boom");
        let value = rmpv::decode::read_value(&mut out.as_slice()).unwrap();
        let want = rmpv::Value::Map(vec![
            ("error".into(), "internal".into()),
            ("message".into(), "panic: boom".into()),
        ]);
        assert_eq!(value, want);
    }
}
