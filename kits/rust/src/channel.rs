//! Where the protocol runs (`docs/adapter-protocol.md`, "Process"): on the
//! two descriptors the driver offers in `DIFFFUZZ_FDS`, so that whatever the
//! implementation prints (`println!` included) is only the worker's log, or
//! on stdin and stdout when it offers none (a driver of protocol 2, a test).

use std::fs::File;
use std::io;
use std::os::fd::{FromRawFd, RawFd};

/// The environment variable of the offer: `"3,4"`, the request and
/// response descriptors.
pub const FDS_ENV: &str = "DIFFFUZZ_FDS";

/// The hello's protocol version on stdin and stdout.
pub const PROTOCOL: u64 = 2;

/// The hello's protocol version on the offered descriptors: version 2's
/// messages on a channel of their own (3), with a failure's type and place
/// and the text model's bytes (4).
pub const FD_PROTOCOL: u64 = 4;

/// The version from which an `internal` result says its failure's type and
/// place, and the text model's cases are the driver's JSON text
/// (docs/adapter-protocol.md, "Version 4").
pub(crate) const VERSION_4: u64 = 4;

/// The descriptors the driver offers, opened: requests and responses; `None`
/// when it offers none. A malformed offer, or a descriptor that is not open,
/// is an error rather than a fall back to stdout, where the
/// implementation's prints would break the frames.
pub fn offered() -> io::Result<Option<(File, File)>> {
    let offer = match std::env::var(FDS_ENV) {
        Ok(s) if !s.is_empty() => s,
        _ => return Ok(None),
    };
    let (req, resp) = parse(&offer).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{FDS_ENV}={offer:?}: want two descriptors, as \"3,4\""),
        )
    })?;
    for fd in [req, resp] {
        // SAFETY: F_GETFD only reads the descriptor's flags.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
            let e = io::Error::last_os_error();
            return Err(io::Error::new(
                e.kind(),
                format!("{FDS_ENV}: descriptor {fd}: {e}"),
            ));
        }
    }
    // SAFETY: the driver opened these descriptors for this process's
    // protocol alone, and they are open (checked above); the kit takes
    // them once, from here on the only owner.
    Ok(Some(unsafe {
        (File::from_raw_fd(req), File::from_raw_fd(resp))
    }))
}

/// Reads an offer: two distinct descriptors.
fn parse(offer: &str) -> Option<(RawFd, RawFd)> {
    let (a, b) = offer.split_once(',')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if !digits(a) || !digits(b) {
        return None;
    }
    let (req, resp) = (a.parse().ok()?, b.parse().ok()?);
    (req != resp).then_some((req, resp))
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn offers() {
        for (offer, want) in [
            ("3,4", Some((3, 4))),
            ("10,11", Some((10, 11))),
            ("3", None),
            ("3,x", None),
            ("3,4,5", None),
            ("-1,4", None),
            ("3,3", None),
            (",4", None),
        ] {
            assert_eq!(parse(offer), want, "{offer}");
        }
    }
}
