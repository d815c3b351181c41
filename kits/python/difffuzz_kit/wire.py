"""The adapter protocol's transport (docs/adapter-protocol.md): length-prefixed
frames, and the msgpack encoding of the value model (ext 1 = big integer in
ASCII decimal, ext 2 = string with lone surrogates as UTF-16LE code units).

msgpack itself is the ``msgpack`` package; this module only adds the
protocol's extension types and the keep-order-and-duplicates reading."""

from __future__ import annotations

import re
import struct
from collections.abc import Iterator
from typing import BinaryIO

import msgpack

from canonjson._canonical import Object, Unsupported, format_int, parse_int

#: Largest frame body either side may send (64 MiB).
MAX_FRAME = 64 * 1024 * 1024

EXT_BIG_INT = 1
EXT_SURROGATE_STRING = 2

_INT_MIN = -(2**63)
_UINT_MAX = 2**64 - 1
_LENGTH = struct.Struct(">I")
#: Decimal texts this long or shorter are within int()'s default digit limit.
_SHORT_DECIMAL = 1000
_SURROGATE = re.compile("[\ud800-\udfff]")


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
    (length,) = _LENGTH.unpack(header)
    if length == 0 or length > MAX_FRAME:
        raise FrameError(f"bad frame length {length} (must be 1..{MAX_FRAME})")
    return length


def write_frame(stream: BinaryIO, body: bytes) -> None:
    """Write one frame (header and body in one write, so a reader never sees
    half a frame from a writer that dies between the two)."""
    if not 1 <= len(body) <= MAX_FRAME:
        raise FrameError(f"frame body of {len(body)} bytes is out of range")
    stream.write(_LENGTH.pack(len(body)) + body)


#: Largest frame buffer a FrameReader or FrameWriter keeps for the next
#: frame; a rarer giant frame gets a buffer of its own, so that memory stays
#: flat after it. Batches of a few hundred cases are well below.
KEEP_BUFFER = 4 * 1024 * 1024


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
            n = self._stream.readinto(body[got:])
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


def _ext_hook(code: int, data: bytes) -> object:
    """Never raises: a bad extension becomes an in-place Unsupported marker,
    an error result for its case only."""
    if code == EXT_BIG_INT:
        # -?(0|[1-9][0-9]*), checked with bytes methods (ASCII digits only)
        # rather than a regular expression: the driver sends about one big
        # integer per case, and int() itself would also accept "+1", "0_1"
        # or " 1".
        digits = data[1:] if data[:1] == b"-" else data
        if digits.isdigit() and (digits[0] != 0x30 or len(digits) == 1):
            return int(data) if len(data) <= _SHORT_DECIMAL else parse_int(data.decode("ascii"))
        return Unsupported("ext 1 payload is not a decimal integer")
    if code == EXT_SURROGATE_STRING:
        if len(data) % 2:
            return Unsupported("ext 2 payload has an odd length")
        return data.decode("utf-16-le", "surrogatepass")
    return Unsupported(f"msgpack ext type {code}")


_UNPACK_OPTIONS = dict(
    raw=False,
    strict_map_key=False,
    object_pairs_hook=Object,
    ext_hook=_ext_hook,
    use_list=True,
)


def unpack(data: bytes) -> object:
    """One msgpack value in the canonjson model; raises on bytes msgpack
    cannot decode (see :func:`unpack_case` for the per-case reading)."""
    return msgpack.unpackb(data, **_UNPACK_OPTIONS)


def unpack_case(data: bytes) -> object:
    """One case's value. A case msgpack-python refuses to build (invalid
    UTF-8 in a str, a malformed timestamp ext -1, nesting past its 1024
    levels) is rebuilt piece by piece, so that only the bad scalar becomes
    an Unsupported marker and the walk still reports problems in order."""
    try:
        return unpack(data)
    except Exception:  # msgpack raises several unrelated types
        pass
    try:
        return _unpack_piecewise(data)
    except Exception as error:
        return Unsupported(f"undecodable msgpack case: {error or type(error).__name__}")


_MAP_TAGS = frozenset([*range(0x80, 0x90), 0xDE, 0xDF])
_ARRAY_TAGS = frozenset([*range(0x90, 0xA0), 0xDC, 0xDD])


def _unpack_piecewise(data: bytes) -> object:
    """Containers through the Unpacker's header readers (the first byte of
    an item tells a container from a scalar), scalars one by one through
    msgpack itself; iterative, so any depth."""
    unpacker = msgpack.Unpacker(max_buffer_size=len(data) + 1, **_UNPACK_OPTIONS)
    unpacker.feed(data)
    root: list = []
    stack: list[tuple[list, list, bool]] = [(root, [1], False)]  # items, [remaining], is_map
    while stack:
        items, remaining, is_map = stack[-1]
        if remaining[0] == 0:
            stack.pop()
            done = Object(zip(items[0::2], items[1::2])) if is_map else items
            if stack:
                stack[-1][0].append(done)
            continue
        remaining[0] -= 1
        start = unpacker.tell()
        tag = data[start]
        if tag in _MAP_TAGS:
            stack.append(([], [2 * unpacker.read_map_header()], True))
        elif tag in _ARRAY_TAGS:
            stack.append(([], [unpacker.read_array_header()], False))
        else:
            unpacker.skip()
            items.append(_unpack_scalar(data[start : unpacker.tell()]))
    if unpacker.tell() != len(data):
        raise ValueError("bytes after the case's value")
    return root[0]


def _unpack_scalar(data: bytes) -> object:
    try:
        return unpack(data)
    except Exception as error:
        return Unsupported(f"undecodable msgpack value: {error}")


def unpack_request(body: bytes) -> dict:
    """A request frame as a dict of its members. The fast path decodes the
    frame in one call; if that fails, the members are read one by one and
    each case separately, so that one undecodable case does not fail its
    whole batch. Raises ValueError when the frame is not a request at all."""
    try:
        request = unpack(body)
    except Exception:
        return _unpack_request_per_case(body)
    if type(request) is not Object:
        raise ValueError("request is not a msgpack map")
    return _members(request)


def _members(pairs: Object) -> dict:
    return {key: value for key, value in pairs if type(key) is str}


class CaseStreamError(Exception):
    """Raised by the cases iterator of :func:`unpack_batch` when the frame
    turns out to need the careful reading of :func:`unpack_request` (a case
    msgpack-python refuses, a truncated frame, bytes after the cases). The
    caller discards what it did with the cases so far and starts over."""


def unpack_batch(body: bytes | memoryview) -> tuple[dict, Iterator[object]] | None:
    """The fast reading of a request whose last member is ``cases``, an
    array (the driver writes every request so): the other members (string
    keys only, as in :func:`unpack_request`) and an iterator that decodes
    the cases one at a time, so that each case is canonicalized while its
    bytes and objects are fresh in the cache and freed before the next one
    is built. None for a frame of any other shape, or whose members before
    ``cases`` do not decode: :func:`unpack_request` then reads it.

    A case comes out exactly as from :func:`unpack_request` (the same
    options; the same per-container limits, which a case within a
    well-formed frame never reaches), or the iterator raises
    :class:`CaseStreamError` for :func:`unpack_request` to do it."""
    size = len(body)
    try:
        unpacker = msgpack.Unpacker(max_buffer_size=size, read_size=size, **_UNPACK_OPTIONS)
        unpacker.feed(body)
        count = unpacker.read_map_header()
        members = {}
        for index in range(count):
            key = unpacker.unpack()
            if index == count - 1 and type(key) is str and key == "cases" and body[unpacker.tell()] in _ARRAY_TAGS:
                return members, _each_case(unpacker, unpacker.read_array_header(), size)
            value = unpacker.unpack()
            if type(key) is str:
                members[key] = value
    except Exception:  # msgpack raises several unrelated types
        return None
    return None


def _each_case(unpacker: msgpack.Unpacker, count: int, size: int) -> Iterator[object]:
    unpack = unpacker.unpack
    try:
        for _ in range(count):
            yield unpack()
        complete = unpacker.tell() == size
    except Exception as error:
        raise CaseStreamError(f"{type(error).__name__}: {error}") from None
    if not complete:
        raise CaseStreamError("bytes after the cases")


def _unpack_request_per_case(body: bytes) -> dict:
    unpacker = msgpack.Unpacker(max_buffer_size=len(body) + 1, **_UNPACK_OPTIONS)
    unpacker.feed(body)
    request = {}
    try:
        for _ in range(unpacker.read_map_header()):
            key = unpacker.unpack()
            value = _read_cases(unpacker, body) if key == "cases" else unpacker.unpack()
            if type(key) is str:
                request[key] = value
    except Exception as error:
        raise ValueError(f"frame is not a msgpack map: {error or type(error).__name__}") from None
    if unpacker.tell() != len(body):
        raise ValueError("frame holds bytes after its msgpack map")
    return request


def _read_cases(unpacker: msgpack.Unpacker, body: bytes) -> list:
    cases = []
    for _ in range(unpacker.read_array_header()):
        start = unpacker.tell()
        unpacker.skip()
        cases.append(unpack_case(body[start : unpacker.tell()]))
    return cases


def pack(value: object) -> bytes:
    """The protocol's wire encoding of a canonjson value: ints beyond
    int64/uint64 as ext 1, strings with lone surrogates as ext 2, floats
    always float64, objects as maps in member order with duplicates kept.
    ``bytes`` go as bin and ``msgpack.ExtType``/``msgpack.Timestamp`` as they
    are, so that tests can build out-of-domain cases. Iterative, so any depth
    encodes."""
    packer = msgpack.Packer(use_single_float=False, use_bin_type=True, autoreset=True)
    out: list[bytes] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (Object, dict)):
            members = list(v.items() if isinstance(v, dict) else v)
            out.append(packer.pack_map_header(len(members)))
            for key, item in reversed(members):
                stack.append(item)
                stack.append(key)
        elif isinstance(v, list):
            out.append(packer.pack_array_header(len(v)))
            stack.extend(reversed(v))
        else:
            out.append(packer.pack(_scalar(v)))
    return b"".join(out)


def _scalar(v: object) -> object:
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        if _INT_MIN <= v <= _UINT_MAX:
            return int(v)
        return msgpack.ExtType(EXT_BIG_INT, format_int(int(v)).encode("ascii"))
    if isinstance(v, float):
        return float(v)
    if isinstance(v, str):
        if _SURROGATE.search(v):
            return msgpack.ExtType(EXT_SURROGATE_STRING, v.encode("utf-16-le", "surrogatepass"))
        return str.__str__(v)
    if isinstance(v, (bytes, msgpack.ExtType, msgpack.Timestamp)):
        return v
    raise TypeError(f"cannot encode {type(v).__name__} on the wire")
