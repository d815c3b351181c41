//! Framing: a uint32 big-endian length, then that many bytes of msgpack
//! (`docs/adapter-protocol.md`, "Frames"), with the 64 MiB cap checked on
//! arrival.

use std::io::{self, Read, Write};

/// Largest frame body either side may send (64 MiB).
pub const MAX_FRAME_LEN: usize = 64 << 20;

/// Why no frame body could be read.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// Clean end of input at a frame boundary: the peer asked us to stop.
    #[error("end of input")]
    Eof,
    /// A length of 0 or over [`MAX_FRAME_LEN`]: the stream cannot be
    /// resynchronised.
    #[error("bad frame length {0} (must be 1..={MAX_FRAME_LEN})")]
    BadLength(u32),
    /// Input ended inside a frame.
    #[error("input ended inside a frame")]
    Truncated,
    /// Any other read failure.
    #[error("read error: {0}")]
    Io(#[source] io::Error),
}

/// Reads one frame's body into `body` (reused across calls, so a long-lived
/// worker does not allocate per request).
pub fn read_frame<R: Read>(reader: &mut R, body: &mut Vec<u8>) -> Result<(), FrameError> {
    let mut header = [0u8; 4];
    let got = read_full(reader, &mut header).map_err(FrameError::Io)?;
    if got == 0 {
        return Err(FrameError::Eof);
    }
    if got < header.len() {
        return Err(FrameError::Truncated);
    }
    let len = u32::from_be_bytes(header);
    if len == 0 || len as usize > MAX_FRAME_LEN {
        return Err(FrameError::BadLength(len));
    }
    body.clear();
    body.reserve(len as usize);
    // read_to_end fills the reserved capacity without zeroing it first.
    match reader.take(u64::from(len)).read_to_end(body) {
        Ok(n) if n == len as usize => Ok(()),
        Ok(_) => Err(FrameError::Truncated),
        Err(e) => Err(FrameError::Io(e)),
    }
}

/// Like `read_exact`, but says how much arrived before end of input, so a
/// clean EOF can be told from a truncated frame.
fn read_full<R: Read>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Writes one frame. The caller flushes, once per response.
pub fn write_frame<W: Write>(writer: &mut W, body: &[u8]) -> io::Result<()> {
    let len = u32::try_from(body.len())
        .ok()
        .filter(|&n| n >= 1 && n as usize <= MAX_FRAME_LEN)
        .ok_or_else(|| io::Error::other(format!("frame body of {} bytes", body.len())))?;
    writer.write_all(&len.to_be_bytes())?;
    writer.write_all(body)
}
