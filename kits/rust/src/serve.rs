//! The protocol loop: hello, then request after request until end of input.
//! Answering the cases is cases.rs's job; writing the responses,
//! response.rs's.

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;

use crate::__private::IntoCaseError;
use crate::cases::{Canonicalize, Func, Work};
use crate::channel::{self, FD_PROTOCOL, PROTOCOL};
use crate::cpu::thread_cpu_ns;
use crate::frame::{self, FrameError};
use crate::panics::panic_text;
use crate::request::{Kind, Request};
use crate::response::{write_bench, write_error, write_hello, write_results, write_uint_field};
use crate::{Hello, Input, Output};

/// The loop runs on a thread with a stack this large, so that decoding and
/// dropping the deepest case the protocol allows (1000 levels, plus margin)
/// never depends on the platform's main-thread stack size.
const STACK_SIZE: usize = 64 << 20;

/// Serves the protocol until the driver closes its input, and returns the
/// process's exit status, for `main` to return (`fn main() -> ExitCode {
/// serve(..) }`): success at end of input, 2 when the stream cannot be
/// resynchronised (a bad frame length, input ending inside a frame), 1 when
/// the output fails or the driver's offer is malformed. The loop runs on a
/// thread of its own, with a stack deep enough for the deepest case; `serve`
/// joins it and returns on the caller's thread, never exiting the process
/// itself.
///
/// The protocol runs on the descriptors the driver offers (`DIFFFUZZ_FDS`),
/// in protocol 4, so that `f` may print anywhere; else on stdin and stdout,
/// in protocol 2.
///
/// `f` takes one case, as `input` reads it (a [`crate::Model`]'s value or
/// the text model's [`crate::JsonText`]), and returns:
/// - its canonical text ([`Output`]: a `Vec<u8>` or a `String`, which the
///   kit hashes with BLAKE3), or the text with the SDK's own digest of it
///   ([`crate::Signed`]), which the kit sends instead;
/// - or a [`crate::SpecError`] for a value the spec rejects;
/// - or any other error, which is the case's `internal` result: at protocol
///   4 its `error_type` is the error type's name (`std::any::type_name`,
///   e.g. `serde_json::error::Error`), so the driver buckets failures by
///   type rather than by a message that quotes the input. `f` returns its
///   own error type, [`crate::CaseError`], or a `Box<dyn Error>` or
///   `Box<dyn Error + Send + Sync>` (into which `?` converts any error): a
///   box holding a `SpecError` is the spec's answer, and a box's
///   `error_type` is as [`crate::CaseError`] says for `From<Box<dyn
///   Error>>` (the type's name for the standard library's errors and
///   serde_json's, else `Box<dyn Error>`).
///
/// It is never called for a case the model cannot hold. A panic in it, or in
/// the model, is that case's `internal` result, with `error_type` `panic`
/// and, at protocol 4, the place it was raised: the `panic!` or the caller
/// of `unwrap`, `expect` or an index, as a frame with that file and line
/// (the function is not known). The kit installs a panic hook for that,
/// once, over the one in place: the first few caught panics are still
/// printed on stderr, the rest are not, and a panic outside a case goes to
/// the previous hook unchanged.
#[must_use = "return it from main: `fn main() -> ExitCode { serve(..) }`"]
pub fn serve<I, F, O, E, M>(hello: Hello, input: I, f: F) -> ExitCode
where
    I: Input + Send + 'static,
    F: FnMut(&I::Value) -> Result<O, E> + Send + 'static,
    O: Output,
    E: IntoCaseError<M>,
{
    let code = std::thread::Builder::new()
        .name("worker".to_owned())
        .stack_size(STACK_SIZE)
        .spawn(move || {
            let f = Func::new(f);
            match channel::offered() {
                Ok(Some((requests, responses))) => {
                    let requests = BufReader::with_capacity(1 << 16, requests);
                    let responses = BufWriter::with_capacity(1 << 16, responses);
                    run_on(&hello, FD_PROTOCOL, input, f, requests, responses)
                }
                Ok(None) => {
                    let requests = BufReader::with_capacity(1 << 16, io::stdin().lock());
                    let responses = BufWriter::with_capacity(1 << 16, io::stdout().lock());
                    run_on(&hello, PROTOCOL, input, f, requests, responses)
                }
                Err(e) => {
                    eprintln!("{}: {e}", hello.name);
                    1
                }
            }
        })
        .map(|worker| worker.join().unwrap_or(1))
        .unwrap_or_else(|e| {
            eprintln!("difffuzz-kit: cannot start the worker thread: {e}");
            1
        });
    ExitCode::from(code)
}

/// The loop of [`serve`] over any reader and writer, on the calling thread,
/// in `protocol` (2 as on stdin and stdout, 4 as on the offered
/// descriptors); returns the exit status `serve` would return. For the
/// kit's own tests (through `__private`): decoding the deepest cases needs
/// a few MiB of stack.
pub fn run<I, F, O, E, M, R, W>(
    hello: &Hello,
    protocol: u64,
    input: I,
    f: F,
    requests: R,
    responses: W,
) -> u8
where
    I: Input,
    F: FnMut(&I::Value) -> Result<O, E>,
    O: Output,
    E: IntoCaseError<M>,
    R: Read,
    W: Write,
{
    run_on(hello, protocol, input, Func::new(f), requests, responses)
}

/// [`run`] with the hello's protocol version.
fn run_on<I, F, R, W>(
    hello: &Hello,
    protocol: u64,
    model: I,
    f: F,
    mut input: R,
    mut output: W,
) -> u8
where
    I: Input,
    F: Canonicalize<I::Value>,
    R: Read,
    W: Write,
{
    let mut worker = Worker {
        response: Vec::new(),
        work: Work::new(model, f, protocol),
    };
    if let Err(e) = worker.send(&mut output, 0, |out| write_hello::<I>(out, hello, protocol)) {
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
struct Worker<I, F> {
    response: Vec<u8>,
    work: Work<I, F>,
}

impl<I, F> Worker<I, F>
where
    I: Input,
    F: Canonicalize<I::Value>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::tests::Shape;
    use crate::SpecError;

    fn echo(v: &String) -> Result<Vec<u8>, SpecError> {
        Ok(v.as_bytes().to_vec())
    }

    /// The frames written, each a body.
    fn bodies(mut out: &[u8]) -> Vec<Vec<u8>> {
        let mut bodies = Vec::new();
        let mut body = Vec::new();
        while frame::read_frame(&mut out, &mut body).is_ok() {
            bodies.push(body.clone());
        }
        bodies
    }

    /// The exit statuses: 0 at end of input, after the hello and a
    /// response to each request; 2 for a frame that cannot be skipped,
    /// after an error response.
    #[test]
    fn the_loop_ends_with_its_inputs_end_or_a_broken_stream() {
        let hello = Hello::new("t", "1");
        let mut output = Vec::new();
        let code = run(&hello, PROTOCOL, Shape, echo, &[][..], &mut output);
        assert_eq!((code, bodies(&output).len()), (0, 1));

        // {"type": "batch", "id": 1, "cases": [nil]}, then a zero length.
        let mut input = Vec::new();
        let batch = b"\x83\xa4type\xa5batch\xa2id\x01\xa5cases\x91\xc0";
        frame::write_frame(&mut input, batch).unwrap();
        input.extend([0, 0, 0, 0]);
        let mut output = Vec::new();
        let code = run(&hello, PROTOCOL, Shape, echo, input.as_slice(), &mut output);
        let written = bodies(&output);
        assert_eq!((code, written.len()), (2, 3));
        assert!(
            written[1].windows(4).any(|w| w == b"null"),
            "the case's text"
        );
        assert!(
            written[2].windows(5).any(|w| w == b"error"),
            "an error response"
        );
    }

    /// An output that fails ends the loop with 1.
    #[test]
    fn a_failing_output_ends_the_loop_with_1() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("closed"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let code = run(
            &Hello::new("t", "1"),
            PROTOCOL,
            Shape,
            echo,
            &[][..],
            Broken,
        );
        assert_eq!(code, 1);
    }
}
