//! Response encoding, straight into the reused response buffer.

use crate::cases::{Canonicalize, Failure, Figures, Outcome, Work};
use crate::channel::VERSION_4;
use crate::decode::{self, DecodeError};
use crate::request::Cases;
use crate::{Hello, Input, ModelKind, SpecError};

pub(crate) fn write_hello<M: Input>(out: &mut Vec<u8>, hello: &Hello, protocol: u64) {
    let native = M::KIND != ModelKind::Exact;
    write_map_len(out, if native { 7 } else { 6 });
    write_str_field(out, "type", "hello");
    write_uint_field(out, "protocol", protocol);
    write_str_field(out, "language", &hello.language);
    write_str_field(out, "name", &hello.name);
    write_str_field(out, "version", &hello.version);
    write_str_field(out, "model", M::KIND.as_str());
    // Only a native or text model declares reasons: an exact one never gives any.
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

pub(crate) fn write_error(out: &mut Vec<u8>, id: u64, message: &str) {
    write_map_len(out, 3);
    write_str_field(out, "type", "error");
    write_uint_field(out, "id", id);
    write_str_field(out, "message", message);
}

/// Answers every case in order. Fails, leaving `out` half written, when the
/// cases turn out not to be well-formed msgpack.
pub(crate) fn write_results<I, F>(
    out: &mut Vec<u8>,
    id: u64,
    digest_only: bool,
    cases: &Cases<'_>,
    work: &mut Work<I, F>,
) -> Result<(), DecodeError>
where
    I: Input,
    F: Canonicalize<I::Value>,
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
            Outcome::Refused(SpecError { code, message }) => {
                write_map_len(out, 2);
                write_str_field(out, "error", code.as_str());
                write_str_field(out, "message", &message);
            }
            Outcome::Failed(failure) => write_failure(out, &failure, work.protocol),
            Outcome::Inexpressible(why) => {
                write_map_len(out, 2);
                write_str_field(out, "inexpressible", why.reason.as_str());
                write_str_field(out, "message", &why.message);
            }
        }
    }
    decode::expect_end(rd)
}

/// An `internal` result, with its type and place from protocol 4 on.
fn write_failure(out: &mut Vec<u8>, failure: &Failure, protocol: u64) {
    let typed = protocol >= VERSION_4;
    let frames = failure.place.as_ref().filter(|_| typed);
    write_map_len(out, 2 + u32::from(typed) + u32::from(frames.is_some()));
    write_str_field(out, "error", "internal");
    write_str_field(out, "message", &failure.message);
    if typed {
        write_str_field(out, "error_type", failure.error_type);
    }
    if let Some(place) = frames {
        write_str(out, "frames");
        must(rmp::encode::write_array_len(out, 1));
        write_map_len(out, 3);
        write_str_field(out, "file", &place.file);
        write_str_field(out, "function", &place.function);
        write_uint_field(out, "line", u64::from(place.line));
    }
}

pub(crate) fn write_bench(out: &mut Vec<u8>, id: u64, figures: &Figures) {
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

pub(crate) fn write_uint_field(out: &mut Vec<u8>, key: &str, value: u64) {
    write_str(out, key);
    must(rmp::encode::write_uint(out, value));
}

/// Writing msgpack into a `Vec` cannot fail (allocation failure aborts).
fn must<T, E: std::fmt::Debug>(result: Result<T, E>) {
    result.expect("writing to a Vec cannot fail");
}
