//! Framing (`docs/adapter-protocol.md`, "Frames"): lengths, caps, truncation.

use difffuzz_kit::frame::{self, FrameError, MAX_FRAME_LEN};

fn read_all_frames(input: &[u8]) -> (Vec<Vec<u8>>, FrameError) {
    let mut reader = input;
    let mut frames = Vec::new();
    let mut body = Vec::new();
    loop {
        match frame::read_frame(&mut reader, &mut body) {
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
    frame::write_frame(&mut out, &[0x91, 0x01]).unwrap();
    assert_eq!(out, [0, 0, 0, 2, 0x91, 0x01]);
    assert!(frame::write_frame(&mut Vec::new(), &[]).is_err());
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
