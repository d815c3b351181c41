"""The adapter protocol's transport (docs/adapter-protocol.md): length-prefixed
frames, and the msgpack encoding of the value model (ext 1 = big integer in
ASCII decimal, ext 2 = string with lone surrogates as UTF-16LE code units).

msgpack itself is the ``msgpack`` package; this module only adds the
protocol's extension types and the keep-order-and-duplicates reading."""

from __future__ import annotations

import re
import struct
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
_DECIMAL = re.compile(rb"-?(?:0|[1-9][0-9]*)")
_SURROGATE = re.compile("[\ud800-\udfff]")


class FrameError(Exception):
    """The byte stream cannot be read as frames any more (bad length or a
    truncated frame): the worker must stop, since it cannot resynchronise."""


def read_frame(stream: BinaryIO) -> bytes | None:
    """The next frame's body, or None at a clean end of stream."""
    header = stream.read(4)
    if not header:
        return None
    if len(header) < 4:
        raise FrameError("stream ended inside a frame header")
    (length,) = _LENGTH.unpack(header)
    if length == 0 or length > MAX_FRAME:
        raise FrameError(f"bad frame length {length} (must be 1..{MAX_FRAME})")
    body = stream.read(length)
    if len(body) < length:
        raise FrameError(f"stream ended inside a frame body ({len(body)} of {length} bytes)")
    return body


def write_frame(stream: BinaryIO, body: bytes) -> None:
    """Write one frame (header and body in one write, so a reader never sees
    half a frame from a writer that dies between the two)."""
    if not 1 <= len(body) <= MAX_FRAME:
        raise FrameError(f"frame body of {len(body)} bytes is out of range")
    stream.write(_LENGTH.pack(len(body)) + body)


def _ext_hook(code: int, data: bytes) -> object:
    """Never raises: a bad extension becomes an in-place Unsupported marker,
    an error result for its case only."""
    if code == EXT_BIG_INT:
        if _DECIMAL.fullmatch(data):
            return parse_int(data.decode("ascii"))
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
