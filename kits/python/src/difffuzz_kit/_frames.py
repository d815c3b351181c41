"""Length-prefixed frames (docs/adapter-protocol.md, "Frames"): a uint32
big-endian length N, then N bytes, 1 <= N <= 64 MiB."""

from __future__ import annotations

import struct
from typing import BinaryIO

#: Largest frame body either side may send (64 MiB).
MAX_FRAME = 64 * 1024 * 1024

#: Largest frame buffer a FrameReader or FrameWriter keeps for the next
#: frame; a rarer giant frame gets a buffer of its own, so that memory stays
#: flat after it. A fuzzing run's batch of 2,048 cases is about 1.5 MB.
KEEP_BUFFER = 4 * 1024 * 1024

_LENGTH = struct.Struct(">I")


class FrameError(Exception):
    """The byte stream cannot be read as frames any more (bad length or a
    truncated frame): the worker must stop, since it cannot resynchronise."""


def read_frame(stream: BinaryIO) -> bytes | None:
    """The next frame's body, or None at a clean end of stream."""
    length = _read_header(stream)
    if length is None:
        return None
    body = stream.read(length)
    if len(body) < length:
        raise FrameError(f"stream ended inside a frame body ({len(body)} of {length} bytes)")
    return body


def _read_header(stream: BinaryIO) -> int | None:
    """The next frame's checked body length, or None at a clean end."""
    header = stream.read(4)
    if not header:
        return None
    if len(header) < 4:
        raise FrameError("stream ended inside a frame header")
    length: int = _LENGTH.unpack(header)[0]
    if length == 0 or length > MAX_FRAME:
        raise FrameError(f"bad frame length {length} (must be 1..{MAX_FRAME})")
    return length


def write_frame(stream: BinaryIO, body: bytes) -> None:
    """Write one frame (header and body in one write, so a reader never sees
    half a frame from a writer that dies between the two)."""
    if not 1 <= len(body) <= MAX_FRAME:
        raise FrameError(f"frame body of {len(body)} bytes is out of range")
    stream.write(_LENGTH.pack(len(body)) + body)


def _grown(size: int, needed: int) -> int:
    """A kept buffer's next size: at least doubled, so that it grows only a
    few times, but no larger than KEEP_BUFFER unless one frame needs it."""
    return max(needed, min(2 * size, KEEP_BUFFER))


class FrameReader:
    """:func:`read_frame` into a buffer kept from frame to frame: the kernel
    copies each body straight into memory that is already mapped, instead
    of into a new object per frame (a new allocation of a few hundred KB is
    fresh pages, whose first touch costs a page fault each)."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._buffer = bytearray()

    def read(self) -> memoryview | None:
        """The next frame's body, valid until the next call, or None at a
        clean end of stream; raises FrameError as read_frame does."""
        length = _read_header(self._stream)
        if length is None:
            return None
        buffer = self._buffer
        if len(buffer) < length:
            # A new buffer, not a resize: a view of the old one may still be
            # held (a resize of an exported bytearray raises BufferError).
            buffer = bytearray(_grown(len(buffer), length))
            if length <= KEEP_BUFFER:
                self._buffer = buffer
        body = memoryview(buffer)[:length]
        got = 0
        while got < length:
            # typing's BinaryIO has no readinto; every binary stream a
            # worker reads (BufferedReader, FileIO, BytesIO) has it
            n = self._stream.readinto(body[got:])  # type: ignore[attr-defined]
            if not n:
                raise FrameError(f"stream ended inside a frame body ({got} of {length} bytes)")
            got += n
        return body


class FrameWriter:
    """:func:`write_frame` through a buffer kept from frame to frame (one
    copy of the body, into memory that is already mapped), still as one
    write of header and body."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._buffer = bytearray()

    def write(self, body: bytes | memoryview) -> None:
        length = len(body)
        if not 1 <= length <= MAX_FRAME:
            raise FrameError(f"frame body of {length} bytes is out of range")
        size = 4 + length
        if size > KEEP_BUFFER:
            self._stream.write(b"".join((_LENGTH.pack(length), body)))
            return
        if len(self._buffer) < size:
            self._buffer = bytearray(_grown(len(self._buffer), size))
        with memoryview(self._buffer) as frame:
            _LENGTH.pack_into(frame, 0, length)
            frame[4:size] = body
            self._stream.write(frame[:size])
