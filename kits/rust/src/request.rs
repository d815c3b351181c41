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
