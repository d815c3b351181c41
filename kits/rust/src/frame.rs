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

#[cfg(test)]
mod tests {
    //! Framing (`docs/adapter-protocol.md`, "Frames"): lengths, caps,
    //! truncation.
    use super::{read_frame, write_frame, FrameError, MAX_FRAME_LEN};

    fn read_all_frames(input: &[u8]) -> (Vec<Vec<u8>>, FrameError) {
        let mut reader = input;
        let mut frames = Vec::new();
        let mut body = Vec::new();
        loop {
            match read_frame(&mut reader, &mut body) {
                Ok(()) => frames.push(body.clone()),
                Err(e) => return (frames, e),
            }
        }
    }

    #[test]
    fn frame_reading() {
        let over = (MAX_FRAME_LEN as u32 + 1).to_be_bytes();
        let cases: Vec<(&str, Vec<u8>, usize, &str)> = vec![
            ("empty input", vec![], 0, "Eof"),
            ("one frame", vec![0, 0, 0, 1, 0xc0], 1, "Eof"),
            (
                "two frames",
                vec![0, 0, 0, 1, 0xc0, 0, 0, 0, 2, 0x91, 0x01],
                2,
                "Eof",
            ),
            ("partial header", vec![0, 0], 0, "Truncated"),
            ("partial body", vec![0, 0, 0, 5, 1, 2], 0, "Truncated"),
            ("zero length", vec![0, 0, 0, 0], 0, "BadLength(0)"),
            ("over the cap", over.to_vec(), 0, "BadLength(67108865)"),
            ("max u32", vec![0xff; 4], 0, "BadLength(4294967295)"),
            (
                "frame then bad length",
                vec![0, 0, 0, 1, 0xc0, 0, 0, 0, 0],
                1,
                "BadLength(0)",
            ),
        ];
        for (name, input, count, end) in cases {
            let (frames, err) = read_all_frames(&input);
            assert_eq!(frames.len(), count, "case {name}");
            assert_eq!(format!("{err:?}"), end, "case {name}");
        }
    }

    #[test]
    fn frame_writing() {
        let mut out = Vec::new();
        write_frame(&mut out, &[0x91, 0x01]).unwrap();
        assert_eq!(out, [0, 0, 0, 2, 0x91, 0x01]);
        assert!(write_frame(&mut Vec::new(), &[]).is_err());
        let (frames, end) = read_all_frames(&out);
        assert_eq!(frames, [vec![0x91, 0x01]]);
        assert!(matches!(end, FrameError::Eof));
    }

    #[test]
    fn frame_at_the_cap_is_accepted() {
        let mut input = (MAX_FRAME_LEN as u32).to_be_bytes().to_vec();
        input.resize(4 + MAX_FRAME_LEN, 0xc0);
        let (frames, end) = read_all_frames(&input);
        assert_eq!(frames.len(), 1);
        assert_eq!(frames[0].len(), MAX_FRAME_LEN);
        assert!(matches!(end, FrameError::Eof));
    }
}
