//! The difffuzz worker for the Rust implementation: a thin loop around
//! `canonjson` speaking `docs/adapter-protocol.md` on stdin/stdout.

use std::any::Any;
use std::hint::black_box;
use std::io::{self, BufReader, BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

use canonjson::wire::{self, FrameError};
use canonjson::Value;

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

/// Nesting a case may reach: a request's members may nest
/// [`wire::MAX_WIRE_NESTING`] levels, and a case sits one level down, in
/// `cases`.
const CASE_LEVELS: usize = wire::MAX_WIRE_NESTING - 1;

/// Buffers reused across requests, so the hot path allocates little.
#[derive(Default)]
struct Worker {
    response: Vec<u8>,
    work: Work,
}

/// What answering cases needs, kept from case to case.
#[derive(Default)]
struct Work {
    /// The last case's canonical text.
    canonical: Vec<u8>,
    /// Gets each case's allocations back once it is answered.
    decoder: wire::Decoder,
}

impl Worker {
    /// Decodes one request and writes its response (an `error` response when
    /// the request cannot be read as one).
    fn answer<W: Write>(&mut self, body: &[u8], output: &mut W) -> io::Result<()> {
        let request = match Request::parse(body) {
            Ok(r) => r,
            Err((id, why)) => return self.send(output, id, |out| write_error(out, id, &why)),
        };
        let id = request.id;
        let work = &mut self.work;
        send(&mut self.response, output, id, |out| {
            let written = match request.kind {
                Kind::Batch { digest_only } => {
                    write_results(out, id, digest_only, &request.cases, work)
                }
                Kind::Bench { rounds } => bench(&request.cases, rounds, work)
                    .map(|(elapsed_ns, count)| write_bench(out, id, elapsed_ns, count)),
            };
            // The cases are read as they are answered, so a fault found
            // among them discards what was written so far.
            if let Err(e) = written {
                out.clear();
                write_error(out, 0, &e.to_string());
            }
        })
    }

    fn send<W: Write>(
        &mut self,
        output: &mut W,
        id: u64,
        fill: impl FnOnce(&mut Vec<u8>),
    ) -> io::Result<()> {
        send(&mut self.response, output, id, fill)
    }
}

/// Frames what `fill` writes into `response` and flushes it, falling back to
/// an `error` response for request `id` when the body would exceed the frame
/// cap.
fn send<W: Write>(
    response: &mut Vec<u8>,
    output: &mut W,
    id: u64,
    fill: impl FnOnce(&mut Vec<u8>),
) -> io::Result<()> {
    response.clear();
    fill(response);
    if response.len() > wire::MAX_FRAME_LEN {
        let why = format!("response of {} bytes exceeds the frame cap", response.len());
        response.clear();
        write_error(response, id, &why);
    }
    wire::write_frame(output, response)?;
    output.flush()
}

/// A request the worker understood.
struct Request<'m> {
    id: u64,
    kind: Kind,
    cases: Cases<'m>,
}

enum Kind {
    Batch { digest_only: bool },
    Bench { rounds: u64 },
}

/// A request's cases, still as msgpack: each is decoded where it is used,
/// inside its own panic guard, with no intermediate tree.
struct Cases<'m> {
    count: u32,
    /// The cases and, in a well-formed frame, nothing after them. When
    /// `cases` is the frame's last member (as drivers write it), these bytes
    /// run to the end of the frame unchecked: reading the cases checks them,
    /// and whatever is left over is a fault of the frame. That saves a
    /// separate pass over the bulk of every request.
    bytes: &'m [u8],
}

impl<'m> Request<'m> {
    /// On failure returns the id to answer with (0 when unknown) and why.
    fn parse(body: &'m [u8]) -> Result<Request<'m>, (u64, String)> {
        let members = Members::read(body).map_err(|why| (0, why))?;
        let id = members.field("id").and_then(read_u64);
        let kind = match members.field("type").and_then(read_text) {
            Some(kind) => kind,
            None => return Err((id.unwrap_or(0), "request has no string type".to_owned())),
        };
        let fail = |why: &str| Err((id.unwrap_or(0), format!("{kind}: {why}")));
        if kind != "batch" && kind != "bench" {
            return fail("unknown request type");
        }
        let Some(id) = id else {
            return fail("id is not an unsigned integer");
        };
        let Some(cases) = members.field("cases").and_then(read_cases) else {
            return fail("cases is not an array");
        };
        let kind = if kind == "batch" {
            // Held to its type like the other fields, rather than ignored:
            // a driver that sends something else has a bug worth hearing of.
            match members.field("digest_only").map(read_bool) {
                None => Kind::Batch { digest_only: false },
                Some(Some(digest_only)) => Kind::Batch { digest_only },
                Some(None) => return fail("digest_only is not a boolean"),
            }
        } else {
            match members.field("rounds").and_then(read_u64) {
                Some(rounds) => Kind::Bench { rounds },
                None => return fail("rounds is not an unsigned integer"),
            }
        };
        Ok(Request { id, kind, cases })
    }
}

/// A request's top-level map: each member's key (when it is a str) and the
/// bytes of its value, undecoded.
struct Members<'m>(Vec<(Option<&'m [u8]>, &'m [u8])>);

impl<'m> Members<'m> {
    /// Checks the frame member by member, except a last member `cases`,
    /// which is left to whoever reads the cases (see [`Cases::bytes`]).
    fn read(body: &'m [u8]) -> Result<Members<'m>, String> {
        let mut rd = body;
        let Ok(len) = rmp::decode::read_map_len(&mut rd) else {
            // Invalid msgpack is reported as such, before "not a map".
            let mut rd = body;
            wire::skip_value(&mut rd, wire::MAX_WIRE_NESTING + 1)
                .and_then(|()| wire::expect_end(rd))
                .map_err(|e| e.to_string())?;
            return Err("request is not a map".to_owned());
        };
        let mut members = Members(Vec::new());
        for i in 0..len {
            let key = member_key(&mut rd).map_err(|e| e.to_string())?;
            let start = rd;
            if i + 1 == len && key == Some(b"cases") && members.field("cases").is_none() {
                members.0.push((key, rd));
                return Ok(members);
            }
            wire::skip_value(&mut rd, wire::MAX_WIRE_NESTING).map_err(|e| e.to_string())?;
            members.0.push((key, &start[..start.len() - rd.len()]));
        }
        wire::expect_end(rd).map_err(|e| e.to_string())?;
        Ok(members)
    }

    /// The first member of that name, as a reader of maps keeping the first
    /// of duplicate keys would see it.
    fn field(&self, name: &str) -> Option<&'m [u8]> {
        self.0
            .iter()
            .find(|(key, _)| *key == Some(name.as_bytes()))
            .map(|&(_, value)| value)
    }
}

/// A key's bytes if it is a str (compared as bytes: a str that is not UTF-8
/// equals no field name anyway); any other key is stepped over.
fn member_key<'m>(rd: &mut &'m [u8]) -> Result<Option<&'m [u8]>, wire::DecodeError> {
    let mut str_rd = *rd;
    match rmp::decode::read_str_len(&mut str_rd) {
        Ok(len) => {
            let key = str_rd
                .get(..len as usize)
                .ok_or(wire::DecodeError::Truncated)?;
            *rd = &str_rd[len as usize..];
            Ok(Some(key))
        }
        Err(_) => wire::skip_value(rd, wire::MAX_WIRE_NESTING).map(|()| None),
    }
}

fn read_u64(mut value: &[u8]) -> Option<u64> {
    rmp::decode::read_int(&mut value).ok()
}

fn read_bool(mut value: &[u8]) -> Option<bool> {
    rmp::decode::read_bool(&mut value).ok()
}

fn read_text(mut value: &[u8]) -> Option<String> {
    let len = rmp::decode::read_str_len(&mut value).ok()?;
    let bytes = value.get(..len as usize)?;
    Some(String::from_utf8_lossy(bytes).into_owned())
}

fn read_cases(mut value: &[u8]) -> Option<Cases<'_>> {
    let count = rmp::decode::read_array_len(&mut value).ok()?;
    Some(Cases {
        count,
        bytes: value,
    })
}

/// One case's outcome, as the results message carries it.
enum Outcome {
    Canonical([u8; 32]),
    Refused(canonjson::Error),
    Internal(String),
}

/// Decodes, canonicalizes and hashes the case at the front of `rd` and
/// leaves `rd` after it. A panic anywhere in that is a finding against this
/// implementation, not a reason to stop the worker. On success the canonical
/// text is left in `work.canonical`. Fails only when the msgpack is malformed.
fn run_case(rd: &mut &[u8], work: &mut Work) -> Result<Outcome, wire::DecodeError> {
    let start = *rd;
    let attempt = panic::catch_unwind(AssertUnwindSafe(|| {
        let value = work.decoder.read_value(rd, CASE_LEVELS)?;
        let canonical = &mut work.canonical;
        canonical.clear();
        let result = canonjson::canonical_into(&value, canonical)
            .map(|()| *blake3::hash(canonical).as_bytes());
        work.decoder.recycle(value);
        Ok(result)
    }));
    match attempt {
        Ok(Err(malformed)) => Err(malformed),
        Ok(Ok(result)) => Ok(outcome(Ok(result))),
        Err(payload) => {
            // Where the panic left `rd` is unknown: find the case's end anew.
            *rd = start;
            wire::skip_value(rd, CASE_LEVELS)?;
            Ok(outcome(Err(payload)))
        }
    }
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

/// Times `rounds` passes of canonical+BLAKE3 over cases decoded once
/// beforehand; nothing but that work sits inside the clock.
fn bench(cases: &Cases<'_>, rounds: u64, work: &mut Work) -> Result<(u64, u64), wire::DecodeError> {
    let mut rd = cases.bytes;
    let mut values: Vec<Option<Value>> = Vec::new();
    for _ in 0..cases.count {
        values.push(decode_guarded(&mut rd, &mut work.decoder)?);
    }
    wire::expect_end(rd)?;
    let start = Instant::now();
    for _ in 0..rounds {
        for value in &values {
            black_box(bench_one(value.as_ref(), &mut work.canonical));
        }
    }
    let elapsed = start.elapsed().as_nanos();
    let count = rounds.saturating_mul(values.len() as u64);
    Ok((u64::try_from(elapsed).unwrap_or(u64::MAX), count))
}

/// One case decoded for the bench, or None when decoding it panicked.
fn decode_guarded(
    rd: &mut &[u8],
    decoder: &mut wire::Decoder,
) -> Result<Option<Value>, wire::DecodeError> {
    let start = *rd;
    match panic::catch_unwind(AssertUnwindSafe(|| decoder.read_value(rd, CASE_LEVELS))) {
        Ok(decoded) => decoded.map(Some),
        Err(_) => {
            *rd = start;
            wire::skip_value(rd, CASE_LEVELS).map(|()| None)
        }
    }
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

/// Answers every case in order. Fails, leaving `out` half written, when the
/// cases turn out not to be well-formed msgpack.
fn write_results(
    out: &mut Vec<u8>,
    id: u64,
    digest_only: bool,
    cases: &Cases<'_>,
    work: &mut Work,
) -> Result<(), wire::DecodeError> {
    write_map_len(out, 3);
    write_str_field(out, "type", "results");
    write_uint_field(out, "id", id);
    write_str(out, "results");
    must(rmp::encode::write_array_len(out, cases.count));
    let mut rd = cases.bytes;
    for _ in 0..cases.count {
        match run_case(&mut rd, work)? {
            Outcome::Canonical(digest) => {
                if digest_only {
                    write_map_len(out, 1);
                } else {
                    write_map_len(out, 2);
                    write_str(out, "canonical");
                    must(rmp::encode::write_bin(out, &work.canonical));
                }
                write_str(out, "digest");
                must(rmp::encode::write_bin(out, &digest));
            }
            Outcome::Refused(e) => write_error_result(out, e.code(), e.message()),
            Outcome::Internal(why) => write_error_result(out, "internal", &why),
        }
    }
    wire::expect_end(rd)
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
