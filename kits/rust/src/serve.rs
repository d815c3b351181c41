//! The protocol loop: hello, then request after request until end of input.
//! Answering the cases is cases.rs's job; writing the responses,
//! response.rs's.

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::panic::{self, AssertUnwindSafe};

use crate::cases::{panic_text, Canonicalize, Plain, Signed, Work};
use crate::channel::{self, FD_PROTOCOL, PROTOCOL};
use crate::cpu::thread_cpu_ns;
use crate::frame::{self, FrameError};
use crate::request::{Kind, Request};
use crate::response::{write_bench, write_error, write_hello, write_results, write_uint_field};
use crate::{Hello, Model, Refusal};

/// The loop runs on a thread with a stack this large, so that decoding and
/// dropping the deepest case the protocol allows (1000 levels, plus margin)
/// never depends on the platform's main-thread stack size.
const STACK_SIZE: usize = 64 << 20;

/// Serves the protocol and exits the process: 0 at end of input, 2 when the
/// stream cannot be resynchronised (a bad frame length, input ending inside
/// a frame), 1 when the output fails or the driver's offer is malformed.
///
/// The protocol runs on the descriptors the driver offers
/// ([`channel::offered`]), in protocol 3, so that `f` may print anywhere;
/// else on stdin and stdout, in protocol 2.
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
    serve_with(hello, model, Plain(f))
}

/// [`serve`] for an SDK that signs: `f` appends the canonical text and
/// returns the SDK's own digest of it (BLAKE3-256, 32 bytes), which the kit
/// sends instead of hashing the text itself, so that the driver checks the
/// SDK's hashing too: a digest that is not BLAKE3 of the text is a `digest`
/// finding, one that is not 32 bytes long the case's `internal` result.
pub fn serve_signed<M, F, D>(hello: Hello, model: M, f: F) -> !
where
    M: Model + Send + 'static,
    F: FnMut(&M::Value, &mut Vec<u8>) -> Result<D, Refusal> + Send + 'static,
    D: AsRef<[u8]>,
{
    serve_with(hello, model, Signed(f))
}

/// [`serve`] for either kind of function.
fn serve_with<M, F>(hello: Hello, model: M, f: F) -> !
where
    M: Model + Send + 'static,
    F: Canonicalize<M::Value> + Send + 'static,
{
    let code = std::thread::Builder::new()
        .name("worker".to_owned())
        .stack_size(STACK_SIZE)
        .spawn(move || match channel::offered() {
            Ok(Some((requests, responses))) => {
                let input = BufReader::with_capacity(1 << 16, requests);
                let output = BufWriter::with_capacity(1 << 16, responses);
                run_on(&hello, FD_PROTOCOL, model, f, input, output)
            }
            Ok(None) => {
                let input = BufReader::with_capacity(1 << 16, io::stdin().lock());
                let output = BufWriter::with_capacity(1 << 16, io::stdout().lock());
                run_on(&hello, PROTOCOL, model, f, input, output)
            }
            Err(e) => {
                eprintln!("{}: {e}", hello.name);
                1
            }
        })
        .expect("spawn the worker thread")
        .join()
        .unwrap_or(1);
    std::process::exit(code);
}

/// The loop of [`serve`] over any reader and writer, on the calling thread;
/// returns the exit status `serve` would exit with. For tests, and for a
/// worker that owns its process's exit. Decoding the deepest cases needs a
/// few MiB of stack. Its hello says protocol 2, the version of the
/// standard streams.
pub fn run<M, F, R, W>(hello: &Hello, model: M, f: F, input: R, output: W) -> i32
where
    M: Model,
    F: FnMut(&M::Value, &mut Vec<u8>) -> Result<(), Refusal>,
    R: Read,
    W: Write,
{
    run_on(hello, PROTOCOL, model, Plain(f), input, output)
}

/// [`run`] for an SDK that signs, as [`serve_signed`] serves it.
pub fn run_signed<M, F, D, R, W>(hello: &Hello, model: M, f: F, input: R, output: W) -> i32
where
    M: Model,
    F: FnMut(&M::Value, &mut Vec<u8>) -> Result<D, Refusal>,
    D: AsRef<[u8]>,
    R: Read,
    W: Write,
{
    run_on(hello, PROTOCOL, model, Signed(f), input, output)
}

/// [`run`] with the hello's protocol version.
fn run_on<M, F, R, W>(
    hello: &Hello,
    protocol: u64,
    model: M,
    f: F,
    mut input: R,
    mut output: W,
) -> i32
where
    M: Model,
    F: Canonicalize<M::Value>,
    R: Read,
    W: Write,
{
    let mut worker = Worker {
        response: Vec::new(),
        work: Work::new(model, f),
    };
    if let Err(e) = worker.send(&mut output, 0, |out| write_hello::<M>(out, hello, protocol)) {
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

impl<M, F> Worker<M, F>
where
    M: Model,
    F: Canonicalize<M::Value>,
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
