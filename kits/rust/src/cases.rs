//! Answering cases: each decoded, handed to the function and hashed, with a
//! panic anywhere in that the case's `internal` result; and the bench's
//! timed passes over them.

use std::hint::black_box;
use std::marker::PhantomData;
use std::time::Instant;

use crate::__private::IntoCaseError;
use crate::channel::VERSION_4;
use crate::cpu::thread_cpu_ns;
use crate::decode::{self, DecodeError, Fault};
use crate::panics::{self, Place};
use crate::request::Cases;
use crate::{text, CaseError, Inexpressible, Input, ModelKind, Output, SpecError};

/// Nesting a case may reach: a request's members may nest
/// [`decode::MAX_WIRE_NESTING`] levels, and a case sits one level down, in
/// `cases`.
const CASE_LEVELS: usize = decode::MAX_WIRE_NESTING - 1;

/// What answering cases needs, kept from case to case.
pub(crate) struct Work<I, F> {
    /// The last case's canonical text.
    pub(crate) canonical: Vec<u8>,
    /// The hello's protocol version: whether a result may say a failure's
    /// type and place, and whether the text model gets text.
    pub(crate) protocol: u64,
    input: I,
    f: F,
}

/// The length of a digest: BLAKE3-256.
pub(crate) const DIGEST_LEN: usize = 32;

/// An implementation as the kit calls it: one value to its outcome, the
/// text left in `canonical`.
pub(crate) trait Canonicalize<V> {
    fn compute(&mut self, value: &V, canonical: &mut Vec<u8>) -> Outcome;
}

/// The function `serve` is given, with the output and error types it
/// returns and the error's conversion (which the impl below needs as
/// parameters of the type).
pub(crate) struct Func<F, O, E, M>(F, PhantomData<Returns<O, E, M>>);

/// What a [`Func`] returns, as a type that is `Send` and `Sync` whatever
/// `O`, `E` and `M` are.
type Returns<O, E, M> = fn() -> (O, E, M);

impl<F, O, E, M> Func<F, O, E, M> {
    pub(crate) fn new(f: F) -> Func<F, O, E, M> {
        Func(f, PhantomData)
    }
}

impl<V, F, O, E, M> Canonicalize<V> for Func<F, O, E, M>
where
    F: FnMut(&V) -> Result<O, E>,
    O: Output,
    E: IntoCaseError<M>,
{
    fn compute(&mut self, value: &V, canonical: &mut Vec<u8>) -> Outcome {
        match (self.0)(value) {
            Ok(output) => {
                let (text, digest) = output.into_parts();
                *canonical = text;
                match digest {
                    None => Outcome::Canonical(*blake3::hash(canonical).as_bytes()),
                    Some(digest) => sdk_digest(digest.as_ref()),
                }
            }
            Err(e) => match e.into_case_error() {
                CaseError::Spec(spec) => Outcome::Refused(spec),
                CaseError::Internal {
                    error_type,
                    message,
                } => Outcome::Failed(Failure {
                    message,
                    error_type,
                    place: None,
                }),
            },
        }
    }
}

/// The SDK's own digest, if it is as long as a BLAKE3-256 one.
fn sdk_digest(digest: &[u8]) -> Outcome {
    match <[u8; DIGEST_LEN]>::try_from(digest) {
        Ok(digest) => Outcome::Canonical(digest),
        Err(_) => Outcome::Failed(Failure {
            message: format!(
                "the SDK's digest is {} bytes long, want {DIGEST_LEN} (BLAKE3-256)",
                digest.len()
            ),
            error_type: "difffuzz_kit::Signed",
            place: None,
        }),
    }
}

/// One case's outcome, as the results message carries it.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The digest; the text is in `Work::canonical`.
    Canonical([u8; 32]),
    /// A spec error.
    Refused(SpecError),
    /// The implementation failed: an `internal` result with its type.
    Failed(Failure),
    Inexpressible(Inexpressible),
}

/// What an `internal` result says at protocol 4 beside its message.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) message: String,
    /// The error's type, or `panic`.
    pub(crate) error_type: &'static str,
    /// Where a panic was raised; an error has no place.
    pub(crate) place: Option<Place>,
}

impl From<panics::Panic> for Failure {
    fn from(panic: panics::Panic) -> Failure {
        Failure {
            message: panic.message,
            error_type: "panic",
            place: panic.place,
        }
    }
}

/// The bench response's figures, in nanoseconds.
pub(crate) struct Figures {
    pub(crate) elapsed: u64,
    pub(crate) cpu: u64,
    pub(crate) count: u64,
    pub(crate) decode_elapsed: u64,
    pub(crate) decode_cpu: u64,
}

impl<I, F> Work<I, F>
where
    I: Input,
    F: Canonicalize<I::Value>,
{
    /// Work for the function `f` on cases read by `input`, answered in
    /// `protocol`.
    pub(crate) fn new(input: I, f: F, protocol: u64) -> Work<I, F> {
        Work {
            canonical: Vec::new(),
            protocol,
            input,
            f,
        }
    }

    /// Whether cases are values that the text model cannot take: its text
    /// comes from a driver of protocol 4.
    fn text_without_text(&self) -> bool {
        I::KIND == ModelKind::Text && self.protocol < VERSION_4
    }

    /// Decodes, canonicalizes and hashes the case at the front of `rd` and
    /// leaves `rd` after it. A panic anywhere in that is a finding against
    /// the implementation, not a reason to stop the worker. Fails only when
    /// the msgpack is malformed.
    pub(crate) fn run_case(&mut self, rd: &mut &[u8]) -> Result<Outcome, DecodeError> {
        if self.text_without_text() {
            decode::skip_value(rd, CASE_LEVELS)?;
            return Ok(Outcome::Failed(Failure {
                message: text::NEEDS_PROTOCOL.to_owned(),
                error_type: "difffuzz_kit::Text",
                place: None,
            }));
        }
        let start = *rd;
        let attempt = panics::catch(|| {
            let value = self.input.read_case(rd, CASE_LEVELS)?;
            let result = self.f.compute(&value, &mut self.canonical);
            self.input.recycle(value);
            Ok::<_, Fault>(result)
        });
        let outcome = match attempt {
            Ok(Ok(result)) => return Ok(result),
            Err(panic) => Outcome::Failed(panic.into()),
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
    pub(crate) fn bench(&mut self, cases: &Cases<'_>, rounds: u64) -> Result<Figures, DecodeError> {
        let mut rd = cases.bytes;
        let mut values: Vec<Option<I::Value>> = Vec::new();
        for _ in 0..cases.count {
            values.push(self.decode_guarded(&mut rd)?);
        }
        decode::expect_end(rd)?;
        let (elapsed, cpu) = timed(|| {
            for _ in 0..rounds {
                for value in values.iter().flatten() {
                    let attempt = panics::catch(|| self.f.compute(value, &mut self.canonical));
                    let _ = black_box(attempt);
                }
            }
        });
        values
            .into_iter()
            .flatten()
            .for_each(|value| self.input.recycle(value));
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
    fn decode_guarded(&mut self, rd: &mut &[u8]) -> Result<Option<I::Value>, DecodeError> {
        let start = *rd;
        if self.text_without_text() {
            return decode::skip_value(rd, CASE_LEVELS).map(|()| None);
        }
        let attempt = panics::catch(|| self.input.read_case(rd, CASE_LEVELS));
        match attempt {
            Ok(Ok(value)) => return Ok(Some(value)),
            Ok(Err(Fault::Malformed(e))) => return Err(e),
            Ok(Err(Fault::Inexpressible(_))) | Err(_) => {}
        }
        *rd = start;
        decode::skip_value(rd, CASE_LEVELS).map(|()| None)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::tests::Shape;
    use crate::{ErrorCode, Signed, Text};

    /// The outcome of `f` on the case in `bytes`, read by `Shape`.
    fn outcome<O: Output, E: IntoCaseError<M>, M>(
        f: impl FnMut(&String) -> Result<O, E>,
        bytes: &[u8],
    ) -> Outcome {
        let mut work = Work::new(Shape, Func::new(f), VERSION_4);
        let mut rd = bytes;
        let outcome = work.run_case(&mut rd).expect("well-formed");
        assert!(rd.is_empty(), "the reader is after the case");
        outcome
    }

    #[test]
    fn text_is_hashed_and_a_signature_sent_as_it_is() {
        let got = outcome(|v: &String| Ok::<_, SpecError>(v.clone()), &[0xc0]);
        assert!(
            matches!(got, Outcome::Canonical(d) if d == *blake3::hash(b"null").as_bytes()),
            "{got:?}"
        );
        let signed = |_: &String| {
            Ok::<_, SpecError>(Signed {
                canonical: vec![],
                digest: [1; 32],
            })
        };
        assert!(matches!(
            outcome(signed, &[0xc0]),
            Outcome::Canonical([1, ..])
        ));
    }

    /// A digest of another length is the SDK's failure.
    #[test]
    fn a_signature_of_the_wrong_length_is_internal() {
        let short = |_: &String| {
            Ok::<_, SpecError>(Signed {
                canonical: vec![],
                digest: vec![1; 31],
            })
        };
        match outcome(short, &[0xc0]) {
            Outcome::Failed(failure) => {
                assert_eq!(failure.error_type, "difffuzz_kit::Signed");
                assert_eq!(
                    failure.message,
                    "the SDK's digest is 31 bytes long, want 32 (BLAKE3-256)"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    /// Errors, panics and refusals are each their outcome; a case the model
    /// refuses, or that panics, is stepped over to its end.
    #[test]
    fn each_failure_is_its_outcome() {
        let refuse = |_: &String| Err::<Vec<u8>, _>(SpecError::new(ErrorCode::TooDeep, "d"));
        assert!(matches!(
            outcome(refuse, &[0xc0]),
            Outcome::Refused(SpecError {
                code: ErrorCode::TooDeep,
                ..
            })
        ));
        let fail = |_: &String| Err::<Vec<u8>, _>(std::fmt::Error);
        assert!(matches!(
            outcome(fail, &[0xc0]),
            Outcome::Failed(Failure {
                error_type: "core::fmt::Error",
                place: None,
                ..
            })
        ));
        let panics = |_: &String| -> Result<Vec<u8>, SpecError> { panic!("boom") };
        assert!(matches!(
            outcome(panics, &[0x92, 0xc0, 0xc0]),
            Outcome::Failed(Failure {
                error_type: "panic",
                ..
            })
        ));
        let never = |_: &String| -> Result<Vec<u8>, SpecError> { unreachable!() };
        assert!(matches!(
            outcome(never, &[0x92, 0xc4, 0, 0xc0]),
            Outcome::Inexpressible(_)
        ));
    }

    /// Before protocol 4 the text model has no text: each case says so.
    #[test]
    fn the_text_model_needs_protocol_4() {
        let echo = |t: &crate::JsonText| Ok::<_, SpecError>(t.as_bytes().to_vec());
        let mut work = Work::new(Text, Func::new(echo), 2);
        let mut rd: &[u8] = &[0x81, 0xa1, b'a', 0xc0];
        match work.run_case(&mut rd) {
            Ok(Outcome::Failed(failure)) => assert_eq!(failure.message, text::NEEDS_PROTOCOL),
            other => panic!("{other:?}"),
        }
        assert!(rd.is_empty());
    }

    /// The bench counts every case of every round, the ones it cannot time
    /// too.
    #[test]
    fn the_bench_counts_rounds_of_cases() {
        let f = |v: &String| Ok::<_, SpecError>(v.clone());
        let mut work = Work::new(Shape, Func::new(f), VERSION_4);
        let bytes = [0xc0, 0xc4, 0];
        let cases = Cases {
            count: 2,
            bytes: &bytes,
        };
        let figures = work.bench(&cases, 3).expect("well-formed");
        assert_eq!(figures.count, 6);
        let malformed = Cases {
            count: 2,
            bytes: &[0xc0],
        };
        assert_eq!(
            work.bench(&malformed, 1).err(),
            Some(DecodeError::Truncated)
        );
    }
}
