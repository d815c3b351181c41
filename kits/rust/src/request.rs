//! Reading a request frame: its type, id and fields, with the cases left as
//! msgpack to be decoded one by one where they are answered.

use crate::decode;

/// A request the worker understood.
pub(crate) struct Request<'m> {
    pub id: u64,
    pub kind: Kind,
    pub cases: Cases<'m>,
}

pub(crate) enum Kind {
    Batch { digest_only: bool },
    Bench { rounds: u64 },
}

/// A request's cases, still as msgpack: each is decoded where it is used,
/// inside its own panic guard, with no intermediate tree.
pub(crate) struct Cases<'m> {
    pub count: u32,
    /// The cases and, in a well-formed frame, nothing after them. When
    /// `cases` is the frame's last member (as drivers write it), these bytes
    /// run to the end of the frame unchecked: reading the cases checks them,
    /// and whatever is left over is a fault of the frame. That saves a
    /// separate pass over the bulk of every request.
    pub bytes: &'m [u8],
}

impl<'m> Request<'m> {
    /// On failure returns the id to answer with (0 when unknown) and why.
    pub fn parse(body: &'m [u8]) -> Result<Request<'m>, (u64, String)> {
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
            decode::skip_value(&mut rd, decode::MAX_WIRE_NESTING + 1)
                .and_then(|()| decode::expect_end(rd))
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
            decode::skip_value(&mut rd, decode::MAX_WIRE_NESTING).map_err(|e| e.to_string())?;
            members.0.push((key, &start[..start.len() - rd.len()]));
        }
        decode::expect_end(rd).map_err(|e| e.to_string())?;
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
fn member_key<'m>(rd: &mut &'m [u8]) -> Result<Option<&'m [u8]>, decode::DecodeError> {
    let mut str_rd = *rd;
    match rmp::decode::read_str_len(&mut str_rd) {
        Ok(len) => {
            let key = str_rd
                .get(..len as usize)
                .ok_or(decode::DecodeError::Truncated)?;
            *rd = &str_rd[len as usize..];
            Ok(Some(key))
        }
        Err(_) => decode::skip_value(rd, decode::MAX_WIRE_NESTING).map(|()| None),
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

#[cfg(test)]
mod tests {
    use rmpv::Value as Mp;

    use super::*;

    fn bytes(value: &Mp) -> Vec<u8> {
        let mut out = Vec::new();
        rmpv::encode::write_value(&mut out, value).unwrap();
        out
    }

    fn request(members: Vec<(&str, Mp)>) -> Vec<u8> {
        bytes(&Mp::Map(
            members.into_iter().map(|(k, v)| (k.into(), v)).collect(),
        ))
    }

    /// What `parse` makes of a body: the kind and count, or the id and why.
    fn parsed(body: &[u8]) -> Result<String, (u64, String)> {
        Request::parse(body).map(|r| {
            let kind = match r.kind {
                Kind::Batch { digest_only } => format!("batch digest_only={digest_only}"),
                Kind::Bench { rounds } => format!("bench rounds={rounds}"),
            };
            format!("{} {kind} cases={}", r.id, r.cases.count)
        })
    }

    #[test]
    fn batches_and_benches_are_read() {
        let cases = Mp::Array(vec![Mp::Nil, Mp::from(1)]);
        let batch = request(vec![
            ("type", "batch".into()),
            ("id", 7.into()),
            ("cases", cases.clone()),
        ]);
        assert_eq!(
            parsed(&batch),
            Ok("7 batch digest_only=false cases=2".into())
        );
        let digest_only = request(vec![
            ("cases", cases.clone()),
            ("digest_only", true.into()),
            ("type", "batch".into()),
            ("id", 8.into()),
        ]);
        assert_eq!(
            parsed(&digest_only),
            Ok("8 batch digest_only=true cases=2".into())
        );
        let bench = request(vec![
            ("type", "bench".into()),
            ("id", 9.into()),
            ("rounds", 3.into()),
            ("cases", cases),
        ]);
        assert_eq!(parsed(&bench), Ok("9 bench rounds=3 cases=2".into()));
    }

    /// A request the worker cannot read is answered by its id (0 when it
    /// has none) and why.
    #[test]
    fn malformed_requests_say_why() {
        let no_cases = |kind: &str| request(vec![("type", kind.into()), ("id", 4.into())]);
        for (body, want) in [
            (vec![0xc1], (0, "not valid msgpack: reserved marker 0xc1")),
            (bytes(&Mp::from(1)), (0, "request is not a map")),
            (
                request(vec![("id", 3.into())]),
                (3, "request has no string type"),
            ),
            (
                request(vec![("type", "nope".into()), ("id", 4.into())]),
                (4, "nope: unknown request type"),
            ),
            (no_cases("batch"), (4, "batch: cases is not an array")),
            (
                request(vec![("type", "batch".into()), ("cases", Mp::Array(vec![]))]),
                (0, "batch: id is not an unsigned integer"),
            ),
            (
                request(vec![
                    ("type", "batch".into()),
                    ("id", 5.into()),
                    ("digest_only", 1.into()),
                    ("cases", Mp::Array(vec![])),
                ]),
                (5, "batch: digest_only is not a boolean"),
            ),
            (
                request(vec![
                    ("type", "bench".into()),
                    ("id", 6.into()),
                    ("cases", Mp::Array(vec![])),
                ]),
                (6, "bench: rounds is not an unsigned integer"),
            ),
        ] {
            let got = parsed(&body).expect_err("a malformed request");
            assert_eq!((got.0, got.1.as_str()), want);
        }
    }

    /// Of repeated members the first counts; the cases, when last, are
    /// left for whoever reads them, trailing bytes and all.
    #[test]
    fn the_first_of_repeated_members_counts_and_the_last_cases_are_read_later() {
        let twice = request(vec![
            ("type", "batch".into()),
            ("id", 1.into()),
            ("id", 2.into()),
            ("cases", Mp::Array(vec![])),
        ]);
        assert_eq!(
            parsed(&twice),
            Ok("1 batch digest_only=false cases=0".into())
        );
        let mut trailing = request(vec![
            ("type", "batch".into()),
            ("id", 1.into()),
            ("cases", Mp::Array(vec![Mp::Nil])),
        ]);
        trailing.push(0xc0);
        let request = Request::parse(&trailing).expect("parsed");
        assert_eq!(request.cases.bytes, [0xc0, 0xc0]);
    }
}
