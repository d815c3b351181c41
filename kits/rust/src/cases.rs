//! Answering cases: each decoded, handed to the function and hashed, with a
//! panic anywhere in that the case's `internal` result; and the bench's
//! timed passes over them.

use std::any::Any;
use std::hint::black_box;
use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

use crate::cpu::thread_cpu_ns;
use crate::decode::{self, DecodeError, Fault};
use crate::request::Cases;
use crate::{Inexpressible, Model, Refusal};

/// Nesting a case may reach: a request's members may nest
/// [`decode::MAX_WIRE_NESTING`] levels, and a case sits one level down, in
/// `cases`.
const CASE_LEVELS: usize = decode::MAX_WIRE_NESTING - 1;

/// What answering cases needs, kept from case to case.
pub(crate) struct Work<M, F> {
    /// The last case's canonical text.
    pub(crate) canonical: Vec<u8>,
    model: M,
    f: F,
}

/// The length of a digest: BLAKE3-256.
pub(crate) const DIGEST_LEN: usize = 32;

/// An implementation as the kit calls it: one value to its outcome, the
/// text appended to `canonical` (cleared first).
pub(crate) trait Canonicalize<V> {
    fn compute(&mut self, value: &V, canonical: &mut Vec<u8>) -> Outcome;
}

/// A function that appends the canonical text: the kit hashes it.
pub(crate) struct Plain<F>(pub(crate) F);

/// A function that appends the canonical text and returns the SDK's own
/// digest of it: the kit sends that digest (see `serve_signed`).
pub(crate) struct Signed<F>(pub(crate) F);

impl<V, F> Canonicalize<V> for Plain<F>
where
    F: FnMut(&V, &mut Vec<u8>) -> Result<(), Refusal>,
{
    fn compute(&mut self, value: &V, canonical: &mut Vec<u8>) -> Outcome {
        canonical.clear();
        match (self.0)(value, canonical) {
            Ok(()) => Outcome::Canonical(*blake3::hash(canonical).as_bytes()),
            Err(refusal) => Outcome::Refused(refusal),
        }
    }
}

impl<V, F, D> Canonicalize<V> for Signed<F>
where
    F: FnMut(&V, &mut Vec<u8>) -> Result<D, Refusal>,
    D: AsRef<[u8]>,
{
    fn compute(&mut self, value: &V, canonical: &mut Vec<u8>) -> Outcome {
        canonical.clear();
        match (self.0)(value, canonical) {
            Ok(digest) => match <[u8; DIGEST_LEN]>::try_from(digest.as_ref()) {
                Ok(digest) => Outcome::Canonical(digest),
                Err(_) => Outcome::Refused(Refusal::internal(format!(
                    "the SDK's digest is {} bytes long, want {DIGEST_LEN} (BLAKE3-256)",
                    digest.as_ref().len()
                ))),
            },
            Err(refusal) => Outcome::Refused(refusal),
        }
    }
}

/// One case's outcome, as the results message carries it.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The digest; the text is in `Work::canonical`.
    Canonical([u8; 32]),
    Refused(Refusal),
    Inexpressible(Inexpressible),
}

/// The bench response's figures, in nanoseconds.
pub(crate) struct Figures {
    pub(crate) elapsed: u64,
    pub(crate) cpu: u64,
    pub(crate) count: u64,
    pub(crate) decode_elapsed: u64,
    pub(crate) decode_cpu: u64,
}

impl<M, F> Work<M, F>
where
    M: Model,
    F: Canonicalize<M::Value>,
{
    /// Work for the function `f` on values of `model`.
    pub(crate) fn new(model: M, f: F) -> Work<M, F> {
        Work {
            canonical: Vec::new(),
            model,
            f,
        }
    }

    /// Decodes, canonicalizes and hashes the case at the front of `rd` and
    /// leaves `rd` after it. A panic anywhere in that is a finding against
    /// the implementation, not a reason to stop the worker. Fails only when
    /// the msgpack is malformed.
    pub(crate) fn run_case(&mut self, rd: &mut &[u8]) -> Result<Outcome, DecodeError> {
        let start = *rd;
        let attempt = panic::catch_unwind(AssertUnwindSafe(|| {
            let value = decode::read_value(&mut self.model, rd, CASE_LEVELS)?;
            let result = self.f.compute(&value, &mut self.canonical);
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
    pub(crate) fn bench(&mut self, cases: &Cases<'_>, rounds: u64) -> Result<Figures, DecodeError> {
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
                        self.f.compute(value, &mut self.canonical)
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

/// Wall and thread-CPU nanoseconds `work` takes.
fn timed(work: impl FnOnce()) -> (u64, u64) {
    let cpu = thread_cpu_ns();
    let start = Instant::now();
    work();
    let elapsed = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
    (elapsed, thread_cpu_ns().saturating_sub(cpu))
}

pub(crate) fn panic_text(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("non-text panic payload");
    format!("panic: {text}")
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
