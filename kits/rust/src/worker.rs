//! The protocol loop: hello, then request after request until end of input.

use std::any::Any;
use std::hint::black_box;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

use crate::cpu::thread_cpu_ns;
use crate::decode::{self, DecodeError, Fault};
use crate::frame::{self, FrameError};
use crate::request::{Cases, Kind, Request};
use crate::{Hello, Inexpressible, Model, ModelKind, Refusal};

/// The loop runs on a thread with a stack this large, so that decoding and
/// dropping the deepest case the protocol allows (1000 levels, plus margin)
/// never depends on the platform's main-thread stack size.
const STACK_SIZE: usize = 64 << 20;

/// Nesting a case may reach: a request's members may nest
/// [`decode::MAX_WIRE_NESTING`] levels, and a case sits one level down, in
/// `cases`.
const CASE_LEVELS: usize = decode::MAX_WIRE_NESTING - 1;

/// Serves the protocol on stdin/stdout and exits the process: 0 at end of
/// input, 2 when the stream cannot be resynchronised (a bad frame length,
/// input ending inside a frame), 1 when stdout fails.
///
/// `f` appends the canonical text of one case to the buffer it is given (an
/// empty, reused one), or refuses the case. It is never called for a case
/// the model cannot hold. A panic in it, or in the model, is that case's
/// `internal` result.
pub fn serve<M, F>(hello: Hello, model: M, f: F) -> !
where
    M: Model + Send + 'static,
    F: FnMut(&M::Value, &mut Vec<u8>) -> Result<(), Refusal> + Send + 'static,
{
    let code = std::thread::Builder::new()
        .name("worker".to_owned())
        .stack_size(STACK_SIZE)
        .spawn(move || {
            let input = BufReader::with_capacity(1 << 16, io::stdin().lock());
            let output = BufWriter::with_capacity(1 << 16, io::stdout().lock());
            run(&hello, model, f, input, output)
        })
        .expect("spawn the worker thread")
        .join()
        .unwrap_or(1);
    std::process::exit(code);
}

/// The loop of [`serve`] over any reader and writer, on the calling thread;
/// returns the exit status `serve` would exit with. For tests, and for a
/// worker that owns its process's exit. Decoding the deepest cases needs a
/// few MiB of stack.
pub fn run<M, F, R, W>(hello: &Hello, model: M, f: F, mut input: R, mut output: W) -> i32
where
    M: Model,
    F: FnMut(&M::Value, &mut Vec<u8>) -> Result<(), Refusal>,
    R: Read,
    W: Write,
{
    let mut worker = Worker {
        response: Vec::new(),
        work: Work {
            canonical: Vec::new(),
            model,
            f,
        },
    };
    if let Err(e) = worker.send(&mut output, 0, |out| write_hello::<M>(out, hello)) {
        eprintln!("{}: cannot write hello: {e}", hello.name);
        return 1;
    }
    let mut request = Vec::new();
    loop {
        match frame::read_frame(&mut input, &mut request) {
            Ok(()) => {}
            Err(FrameError::Eof) => return 0,
            Err(e) => {
                eprintln!("{}: {e}", hello.name);
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
            eprintln!("{}: cannot write response: {e}", hello.name);
            return 1;
        }
    }
}

/// Buffers reused across requests, so the hot path allocates little.
struct Worker<M, F> {
    response: Vec<u8>,
    work: Work<M, F>,
}

/// What answering cases needs, kept from case to case.
struct Work<M, F> {
    /// The last case's canonical text.
    canonical: Vec<u8>,
    model: M,
    f: F,
}

impl<M, F> Worker<M, F>
where
    M: Model,
    F: FnMut(&M::Value, &mut Vec<u8>) -> Result<(), Refusal>,
{
    /// Decodes one request and writes its response (an `error` response when
    /// the request cannot be read as one).
    fn answer<W: Write>(&mut self, body: &[u8], output: &mut W) -> io::Result<()> {
        let start = thread_cpu_ns();
        let request = match Request::parse(body) {
            Ok(r) => r,
            Err((id, why)) => return self.send(output, id, |out| write_error(out, id, &why)),
        };
        let id = request.id;
        let work = &mut self.work;
        send(&mut self.response, output, id, |out| {
            let written = match request.kind {
                Kind::Batch { digest_only } => {
                    write_results(out, id, digest_only, &request.cases, work).map(|()| {
                        // What the batch cost, decoding included (see
                        // docs/adapter-protocol.md); 0 would mean "not said".
                        let cpu = thread_cpu_ns().saturating_sub(start).max(1);
                        write_uint_field(out, "batch_cpu_ns", cpu);
                    })
                }
                Kind::Bench { rounds } => work
                    .bench(&request.cases, rounds)
                    .map(|figures| write_bench(out, id, &figures)),
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
    if response.len() > frame::MAX_FRAME_LEN {
        let why = format!("response of {} bytes exceeds the frame cap", response.len());
        response.clear();
        write_error(response, id, &why);
    }
    frame::write_frame(output, response)?;
    output.flush()
}

/// One case's outcome, as the results message carries it.
#[derive(Debug)]
enum Outcome {
    /// The digest; the text is in `Work::canonical`.
    Canonical([u8; 32]),
    Refused(Refusal),
    Inexpressible(Inexpressible),
}

/// The bench response's figures, in nanoseconds.
struct Figures {
    elapsed: u64,
    cpu: u64,
    count: u64,
    decode_elapsed: u64,
    decode_cpu: u64,
}

impl<M, F> Work<M, F>
where
    M: Model,
    F: FnMut(&M::Value, &mut Vec<u8>) -> Result<(), Refusal>,
{
    /// Decodes, canonicalizes and hashes the case at the front of `rd` and
    /// leaves `rd` after it. A panic anywhere in that is a finding against
    /// the implementation, not a reason to stop the worker. Fails only when
    /// the msgpack is malformed.
    fn run_case(&mut self, rd: &mut &[u8]) -> Result<Outcome, DecodeError> {
        let start = *rd;
        let attempt = panic::catch_unwind(AssertUnwindSafe(|| {
            let value = decode::read_value(&mut self.model, rd, CASE_LEVELS)?;
            let result = compute(&mut self.f, &mut self.canonical, &value);
            self.model.recycle(value);
            Ok::<_, Fault>(result)
        }));
        let outcome = match attempt {
            Ok(Ok(result)) => return Ok(result),
            Err(payload) => Outcome::Refused(Refusal::internal(panic_text(payload.as_ref()))),
            Ok(Err(Fault::Malformed(e))) => return Err(e),
            Ok(Err(Fault::Inexpressible(why))) => Outcome::Inexpressible(why),
        };
        // Decoding stopped somewhere inside the case: find its end anew.
        *rd = start;
        decode::skip_value(rd, CASE_LEVELS)?;
        Ok(outcome)
    }

    /// Times `rounds` passes of the function and BLAKE3 over cases decoded
    /// once beforehand (nothing but that work inside the clocks), then
    /// `rounds` passes that decode each case again, as a batch would.
    fn bench(&mut self, cases: &Cases<'_>, rounds: u64) -> Result<Figures, DecodeError> {
        let mut rd = cases.bytes;
        let mut values: Vec<Option<M::Value>> = Vec::new();
        for _ in 0..cases.count {
            values.push(self.decode_guarded(&mut rd)?);
        }
        decode::expect_end(rd)?;
        let (elapsed, cpu) = timed(|| {
            for _ in 0..rounds {
                for value in values.iter().flatten() {
                    let attempt = panic::catch_unwind(AssertUnwindSafe(|| {
                        compute(&mut self.f, &mut self.canonical, value)
                    }));
                    let _ = black_box(attempt);
                }
            }
        });
        values
            .into_iter()
            .flatten()
            .for_each(|value| self.model.recycle(value));
        let mut malformed = Ok(());
        let (decode_elapsed, decode_cpu) = timed(|| {
            for _ in 0..rounds {
                let mut rd = cases.bytes;
                for _ in 0..cases.count {
                    match self.run_case(&mut rd) {
                        Ok(outcome) => drop(black_box(outcome)),
                        Err(e) => malformed = Err(e),
                    }
                }
            }
        });
        malformed?;
        Ok(Figures {
            elapsed,
            cpu,
            count: rounds.saturating_mul(u64::from(cases.count)),
            decode_elapsed,
            decode_cpu,
        })
    }

    /// One case decoded for the bench, or None when the model cannot hold it
    /// or panicked on it (such cases cost nothing in the timed loop).
    fn decode_guarded(&mut self, rd: &mut &[u8]) -> Result<Option<M::Value>, DecodeError> {
        let start = *rd;
        let attempt = panic::catch_unwind(AssertUnwindSafe(|| {
            decode::read_value(&mut self.model, rd, CASE_LEVELS)
        }));
        match attempt {
            Ok(Ok(value)) => return Ok(Some(value)),
            Ok(Err(Fault::Malformed(e))) => return Err(e),
            Ok(Err(Fault::Inexpressible(_))) | Err(_) => {}
        }
        *rd = start;
        decode::skip_value(rd, CASE_LEVELS).map(|()| None)
    }
}

/// The function's answer for one value, hashed.
fn compute<V, F>(f: &mut F, canonical: &mut Vec<u8>, value: &V) -> Outcome
where
    F: FnMut(&V, &mut Vec<u8>) -> Result<(), Refusal>,
{
    canonical.clear();
    match f(value, canonical) {
        Ok(()) => Outcome::Canonical(*blake3::hash(canonical).as_bytes()),
        Err(refusal) => Outcome::Refused(refusal),
    }
}

/// Wall and thread-CPU nanoseconds `work` takes.
fn timed(work: impl FnOnce()) -> (u64, u64) {
    let cpu = thread_cpu_ns();
    let start = Instant::now();
    work();
    let elapsed = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
    (elapsed, thread_cpu_ns().saturating_sub(cpu))
}

fn panic_text(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("non-text panic payload");
    format!("panic: {text}")
}

// ---------------------------------------------------------------------------
// Response encoding, straight into the reused response buffer.

/// The protocol version the kit speaks.
const PROTOCOL: u64 = 2;

fn write_hello<M: Model>(out: &mut Vec<u8>, hello: &Hello) {
    let native = M::KIND == ModelKind::Native;
    write_map_len(out, if native { 7 } else { 6 });
    write_str_field(out, "type", "hello");
    write_uint_field(out, "protocol", PROTOCOL);
    write_str_field(out, "language", &hello.language);
    write_str_field(out, "name", &hello.name);
    write_str_field(out, "version", &hello.version);
    write_str_field(out, "model", M::KIND.as_str());
    // Only a native model declares reasons: an exact one never gives any.
    if native {
        write_str(out, "inexpressible");
        must(rmp::encode::write_array_len(
            out,
            M::INEXPRESSIBLE.len() as u32,
        ));
        for reason in M::INEXPRESSIBLE {
            write_str(out, reason.as_str());
        }
    }
}

fn write_error(out: &mut Vec<u8>, id: u64, message: &str) {
    write_map_len(out, 3);
    write_str_field(out, "type", "error");
    write_uint_field(out, "id", id);
    write_str_field(out, "message", message);
}

/// Answers every case in order. Fails, leaving `out` half written, when the
/// cases turn out not to be well-formed msgpack.
fn write_results<M, F>(
    out: &mut Vec<u8>,
    id: u64,
    digest_only: bool,
    cases: &Cases<'_>,
    work: &mut Work<M, F>,
) -> Result<(), DecodeError>
where
    M: Model,
    F: FnMut(&M::Value, &mut Vec<u8>) -> Result<(), Refusal>,
{
    write_map_len(out, 4); // batch_cpu_ns comes last, once the work is done
    write_str_field(out, "type", "results");
    write_uint_field(out, "id", id);
    write_str(out, "results");
    must(rmp::encode::write_array_len(out, cases.count));
    let mut rd = cases.bytes;
    for _ in 0..cases.count {
        match work.run_case(&mut rd)? {
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
            Outcome::Refused(refusal) => {
                write_map_len(out, 2);
                write_str_field(out, "error", refusal.code.as_str());
                write_str_field(out, "message", &refusal.message);
            }
            Outcome::Inexpressible(why) => {
                write_map_len(out, 2);
                write_str_field(out, "inexpressible", why.reason.as_str());
                write_str_field(out, "message", &why.message);
            }
        }
    }
    decode::expect_end(rd)
}

fn write_bench(out: &mut Vec<u8>, id: u64, figures: &Figures) {
    write_map_len(out, 7);
    write_str_field(out, "type", "bench");
    write_uint_field(out, "id", id);
    write_uint_field(out, "elapsed_ns", figures.elapsed);
    write_uint_field(out, "count", figures.count);
    write_uint_field(out, "cpu_ns", figures.cpu);
    write_uint_field(out, "decode_elapsed_ns", figures.decode_elapsed);
    write_uint_field(out, "decode_cpu_ns", figures.decode_cpu);
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

    /// The guard's path from a panic payload to an `internal` message.
    #[test]
    fn panic_payloads_become_text() {
        let texts: Vec<String> = [
            Box::new("boom") as Box<dyn Any + Send>,
            Box::new(format!("{} {}", "formatted", 1)),
            Box::new(7u8),
        ]
        .iter()
        .map(|payload| panic_text(payload.as_ref()))
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
}
