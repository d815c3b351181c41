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

#[cfg(test)]
mod tests {
    use rmpv::Value as Mp;

    use super::*;
    use crate::panics::Place;
    use crate::{Reason, Text};

    fn read(out: &[u8]) -> Mp {
        let mut rd = out;
        let value = rmpv::decode::read_value(&mut rd).expect("msgpack");
        assert!(rd.is_empty(), "one value");
        value
    }

    fn map(members: Vec<(&str, Mp)>) -> Mp {
        Mp::Map(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// An exact model declares no reasons; the others declare theirs.
    #[test]
    fn the_hello_says_the_model_and_its_reasons() {
        struct Exact;
        impl crate::Model for Exact {
            type Value = ();
            type Key = ();
            type Array = ();
            type Object = ();
            const KIND: ModelKind = ModelKind::Exact;
            const INEXPRESSIBLE: &'static [Reason] = &[];
            fn null(&mut self) -> crate::Built<()> {
                Ok(())
            }
            fn bool(&mut self, _: bool) -> crate::Built<()> {
                Ok(())
            }
            fn int(&mut self, _: i128) -> crate::Built<()> {
                Ok(())
            }
            fn big_int(&mut self, _: &str) -> crate::Built<()> {
                Ok(())
            }
            fn float(&mut self, _: f64) -> crate::Built<()> {
                Ok(())
            }
            fn str(&mut self, _: &str) -> crate::Built<()> {
                Ok(())
            }
            fn utf16(&mut self, _: Vec<u16>) -> crate::Built<()> {
                Ok(())
            }
            fn unsupported(&mut self, _: &str) -> crate::Built<()> {
                Ok(())
            }
            fn array(&mut self, _: usize) -> crate::Built<()> {
                Ok(())
            }
            fn push(&mut self, _: &mut (), _: ()) -> crate::Built<()> {
                Ok(())
            }
            fn end_array(&mut self, _: ()) -> crate::Built<()> {
                Ok(())
            }
            fn object(&mut self, _: usize) -> crate::Built<()> {
                Ok(())
            }
            fn key_str(&mut self, _: &str) -> crate::Built<()> {
                Ok(())
            }
            fn key_utf16(&mut self, _: Vec<u16>) -> crate::Built<()> {
                Ok(())
            }
            fn key_value(&mut self, _: ()) -> crate::Built<()> {
                Ok(())
            }
            fn insert(&mut self, _: &mut (), _: (), _: ()) -> crate::Built<()> {
                Ok(())
            }
            fn end_object(&mut self, _: ()) -> crate::Built<()> {
                Ok(())
            }
        }
        let hello = Hello::new("sdk", "1").language("c");
        let mut out = Vec::new();
        write_hello::<Exact>(&mut out, &hello, 2);
        let fields = |model: &str| {
            vec![
                ("type", "hello".into()),
                ("protocol", 2.into()),
                ("language", "c".into()),
                ("name", "sdk".into()),
                ("version", "1".into()),
                ("model", model.into()),
            ]
        };
        assert_eq!(read(&out), map(fields("exact")));
        out.clear();
        write_hello::<Text>(&mut out, &hello, 2);
        let mut text = fields("text");
        let reasons = vec!["non_string_key".into(), "unsupported_value".into()];
        text.push(("inexpressible", Mp::Array(reasons)));
        assert_eq!(read(&out), map(text));
    }

    /// A failure's type and place are said from protocol 4 on.
    #[test]
    fn a_failure_says_its_type_and_place_from_protocol_4() {
        let failure = Failure {
            message: "panic: boom".into(),
            error_type: "panic",
            place: Some(Place {
                file: "src/lib.rs".into(),
                line: 7,
                function: "sdk::f".into(),
            }),
        };
        let mut out = Vec::new();
        write_failure(&mut out, &failure, 2);
        let internal = vec![
            ("error", "internal".into()),
            ("message", "panic: boom".into()),
        ];
        assert_eq!(read(&out), map(internal.clone()));
        out.clear();
        write_failure(&mut out, &failure, 4);
        let frame = map(vec![
            ("file", "src/lib.rs".into()),
            ("function", "sdk::f".into()),
            ("line", 7.into()),
        ]);
        let mut typed = internal;
        typed.push(("error_type", "panic".into()));
        typed.push(("frames", Mp::Array(vec![frame])));
        assert_eq!(read(&out), map(typed));
    }

    #[test]
    fn errors_and_benches_are_maps_of_their_fields() {
        let mut out = Vec::new();
        write_error(&mut out, 3, "why");
        let error = map(vec![
            ("type", "error".into()),
            ("id", 3.into()),
            ("message", "why".into()),
        ]);
        assert_eq!(read(&out), error);
        out.clear();
        let figures = Figures {
            elapsed: 1,
            cpu: 2,
            count: 3,
            decode_elapsed: 4,
            decode_cpu: 5,
        };
        write_bench(&mut out, 9, &figures);
        let bench = map(vec![
            ("type", "bench".into()),
            ("id", 9.into()),
            ("elapsed_ns", 1.into()),
            ("count", 3.into()),
            ("cpu_ns", 2.into()),
            ("decode_elapsed_ns", 4.into()),
            ("decode_cpu_ns", 5.into()),
        ]);
        assert_eq!(read(&out), bench);
    }
}
