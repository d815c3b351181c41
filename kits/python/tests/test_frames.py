"""Frames of docs/adapter-protocol.md."""

from __future__ import annotations

import io
import struct

import pytest

from difffuzz_kit import _frames as frames
from difffuzz_kit._frames import MAX_FRAME, FrameError, FrameReader, FrameWriter, read_frame, write_frame

# --- frames --------------------------------------------------------------------------


def test_frame_round_trip() -> None:
    out = io.BytesIO()
    write_frame(out, b"abc")
    write_frame(out, b"\x00" * 300)
    assert out.getvalue()[:7] == b"\x00\x00\x00\x03abc"
    stream = io.BytesIO(out.getvalue())
    assert read_frame(stream) == b"abc"
    assert read_frame(stream) == b"\x00" * 300
    assert read_frame(stream) is None


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\x00\x00\x00\x00", "bad frame length 0"),
        (struct.pack(">I", MAX_FRAME + 1), "bad frame length 67108865"),
        (b"\xff\xff\xff\xff", "bad frame length 4294967295"),
        (b"\x00\x00", "inside a frame header"),
        (b"\x00\x00\x00\x05ab", "inside a frame body (2 of 5 bytes)"),
    ],
)
def test_bad_frames(data: bytes, message: str) -> None:
    with pytest.raises(FrameError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_frame(io.BytesIO(data))


def test_frame_of_exactly_the_cap_is_accepted() -> None:
    body = b"\xc0" * MAX_FRAME
    assert read_frame(io.BytesIO(struct.pack(">I", MAX_FRAME) + body)) == body


@pytest.mark.parametrize("size", [0, MAX_FRAME + 1])
def test_write_frame_refuses_out_of_range_bodies(size: int) -> None:
    with pytest.raises(FrameError):
        write_frame(io.BytesIO(), b"\x00" * size)


# --- frames through kept buffers ---------------------------------------------------------


class Trickle:
    """A stream whose readinto hands out at most ``step`` bytes a call, as a
    raw pipe may (read, like a buffered stream's, returns all it is asked)."""

    def __init__(self, data: bytes, step: int) -> None:
        self._data, self._at, self._step = data, 0, step

    def read(self, n: int) -> bytes:
        chunk = self._data[self._at : self._at + n]
        self._at += len(chunk)
        return chunk

    def readinto(self, buffer: memoryview) -> int:
        n = min(self._step, len(buffer), len(self._data) - self._at)
        buffer[:n] = self._data[self._at : self._at + n]
        self._at += n
        return n


FRAME_BODIES = [b"abc", b"\x00" * 300, b"x", bytes(range(256)) * 40, b"yz"]


@pytest.mark.parametrize("step", [1, 7, 1 << 20])
def test_frame_reader_reads_what_read_frame_reads(step: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frames, "KEEP_BUFFER", 5000)  # the 10 KB body is a giant here
    out = io.BytesIO()
    for body in FRAME_BODIES:
        write_frame(out, body)
    reader = FrameReader(Trickle(out.getvalue(), step))  # type: ignore[arg-type]
    for body in FRAME_BODIES:
        assert bytes(reader.read()) == body  # type: ignore[arg-type]
    assert reader.read() is None
    assert reader.read() is None


def test_frame_reader_views_stay_valid_until_the_next_read() -> None:
    out = io.BytesIO()
    for body in (b"a" * 10, b"b" * 100, b"c" * 5):
        write_frame(out, body)
    reader = FrameReader(io.BytesIO(out.getvalue()))
    first = reader.read()
    assert bytes(first) == b"a" * 10  # type: ignore[arg-type]
    second = reader.read()  # larger: a new buffer while the first view is held
    assert bytes(second) == b"b" * 100  # type: ignore[arg-type]
    assert bytes(reader.read()) == b"c" * 5  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\x00\x00\x00\x00", "bad frame length 0"),
        (b"\xff\xff\xff\xff", "bad frame length 4294967295"),
        (b"\x00\x00", "inside a frame header"),
        (b"\x00\x00\x00\x05ab", "inside a frame body (2 of 5 bytes)"),
    ],
)
def test_frame_reader_bad_frames(data: bytes, message: str) -> None:
    with pytest.raises(FrameError, match=message.replace("(", r"\(").replace(")", r"\)")):
        FrameReader(io.BytesIO(data)).read()


def test_frame_writer_writes_what_write_frame_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frames, "KEEP_BUFFER", 5000)
    expected, got = io.BytesIO(), io.BytesIO()
    writer = FrameWriter(got)
    for body in [*FRAME_BODIES, b"\x01" * 4996, b"\x02" * 4997, b"q"]:
        write_frame(expected, body)
        writer.write(memoryview(body))
    assert got.getvalue() == expected.getvalue()


@pytest.mark.parametrize("size", [0, MAX_FRAME + 1])
def test_frame_writer_refuses_out_of_range_bodies(size: int) -> None:
    with pytest.raises(FrameError):
        FrameWriter(io.BytesIO()).write(b"\x00" * size)
