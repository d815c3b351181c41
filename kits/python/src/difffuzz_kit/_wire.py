"""Values on the wire (docs/adapter-protocol.md, "Values on the wire"): the
msgpack encoding of the lossless value model, with ext 1 = big integer in
ASCII decimal and ext 2 = string with lone surrogates as UTF-16LE code units,
and the reading of request frames.

msgpack itself is the ``msgpack`` package; this module only adds the
protocol's extension types, the keep-order-and-duplicates reading of maps
and the per-case reading of a batch. It knows no value model beyond the
exact one: :mod:`difffuzz_kit._models` builds the models on it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import msgpack

EXT_BIG_INT = 1
EXT_SURROGATE_STRING = 2

_INT_MIN = -(2**63)
_UINT_MAX = 2**64 - 1
#: Decimal texts this long or shorter are within int()'s default digit limit
#: (4300), which the protocol's integers, of any size, must not meet.
_DIGIT_CHUNK = 1000
_CHUNK_BASE = 10**_DIGIT_CHUNK
_SURROGATE = re.compile("[\ud800-\udfff]")


class ExactObject(list[tuple[object, object]]):
    """An object of the exact model as its members, ``(key, value)`` tuples
    in wire order with duplicates and keys of any type kept (a ``dict``
    would merge a repeated key and could not hold an array as a key).

    Equality requires both sides to be ExactObject, so that a test cannot
    mistake an array of pairs for an object."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is ExactObject and list.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"ExactObject({list.__repr__(self)})"


class Unsupported:
    """A wire value outside the model (unknown extension type, malformed
    extension payload, undecodable msgpack), kept in place of the value so
    that an implementation's walk reports it at its position."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"Unsupported({self.reason!r})"


# --- scalars ---------------------------------------------------------------------


def parse_decimal(data: bytes) -> int | None:
    """An ext 1 payload's integer, ``-?(0|[1-9][0-9]*)`` of any length
    (``-0`` is 0), or None for any other payload. Checked with bytes methods
    (ASCII digits only): ``int()`` alone would also take ``+1``, ``0_1`` or
    `` 1``."""
    digits = data[1:] if data[:1] == b"-" else data
    if not (digits.isdigit() and (digits[0] != 0x30 or len(digits) == 1)):
        return None
    if len(data) <= _DIGIT_CHUNK:
        return int(data)
    value = 0
    for start in range(0, len(digits), _DIGIT_CHUNK):
        piece = digits[start : start + _DIGIT_CHUNK]
        value = value * 10 ** len(piece) + int(piece)
    return -value if data[:1] == b"-" else value


def format_decimal(n: int) -> str:
    """Decimal digits of any integer, also past Python's default int-to-str
    digit limit (which would raise ValueError)."""
    try:
        return int.__repr__(n)
    except ValueError:
        pass
    if n < 0:
        return "-" + format_decimal(-n)
    pieces = []
    while n:
        n, rest = divmod(n, _CHUNK_BASE)
        pieces.append(rest)
    head = int.__repr__(pieces.pop())
    return head + "".join(int.__repr__(p).zfill(_DIGIT_CHUNK) for p in reversed(pieces))


def ext_hook(unsupported: Callable[[str], object]) -> Callable[[int, bytes], object]:
    """msgpack's ``ext_hook`` for the protocol's extension types. It never
    raises: a bad extension becomes ``unsupported(reason)``, in place."""

    def hook(code: int, data: bytes) -> object:
        if code == EXT_BIG_INT:
            value = parse_decimal(data)
            return unsupported("ext 1 payload is not a decimal integer") if value is None else value
        if code == EXT_SURROGATE_STRING:
            if len(data) % 2:
                return unsupported("ext 2 payload has an odd length")
            return data.decode("utf-16-le", "surrogatepass")
        return unsupported(f"msgpack ext type {code}")

    return hook


def exact_options(
    members: Callable[[list[Any]], object] = ExactObject, unsupported: Callable[[str], object] = Unsupported
) -> dict[str, Any]:
    """msgpack Unpacker options that read a value into the exact model:
    ``members`` builds an object from its list of ``(key, value)`` tuples
    (msgpack's ``object_pairs_hook``), ``unsupported(reason)`` stands for a
    value outside the model."""
    return dict(
        raw=False,
        strict_map_key=False,
        object_pairs_hook=members,
        ext_hook=ext_hook(unsupported),
        use_list=True,
    )


_EXACT = exact_options()


def unpack(data: bytes, options: dict[str, Any] = _EXACT) -> object:
    """One msgpack value with ``options`` (default: the exact model with
    :class:`ExactObject` and :class:`Unsupported`); raises on bytes msgpack
    cannot decode (see :func:`unpack_case` for the per-case reading)."""
    return msgpack.unpackb(data, **options)


def unpack_case(data: bytes, options: dict[str, Any] = _EXACT, unsupported: Callable[[str], object] = Unsupported) -> object:
    """One case's value; never raises. A case msgpack-python refuses to
    build (invalid UTF-8 in a str, a malformed timestamp ext -1, nesting
    past its 1024 levels) is rebuilt piece by piece, so that only the bad
    scalar becomes an unsupported marker and a walk still reports problems
    in order. ``options`` come from :func:`exact_options` with the same
    ``unsupported``."""
    try:
        return msgpack.unpackb(data, **options)
    except Exception:  # msgpack raises several unrelated types
        pass
    try:
        return _unpack_piecewise(data, options, unsupported)
    except Exception as error:
        return unsupported(f"undecodable msgpack case: {error or type(error).__name__}")


MAP_TAGS = frozenset([*range(0x80, 0x90), 0xDE, 0xDF])
ARRAY_TAGS = frozenset([*range(0x90, 0xA0), 0xDC, 0xDD])


def _unpack_piecewise(data: bytes, options: dict[str, Any], marker: Callable[[str], object]) -> object:
    """Containers through the Unpacker's header readers (the first byte of
    an item tells a container from a scalar), scalars one by one through
    msgpack itself; iterative, so any depth."""
    unpacker = msgpack.Unpacker(max_buffer_size=len(data) + 1, **options)
    unpacker.feed(data)
    members = options["object_pairs_hook"]
    root: list[object] = []
    stack: list[tuple[list[object], list[int], bool]] = [(root, [1], False)]  # items, [remaining], is_map
    while stack:
        items, remaining, is_map = stack[-1]
        if remaining[0] == 0:
            stack.pop()
            done = members(list(zip(items[0::2], items[1::2], strict=True))) if is_map else items
            if stack:
                stack[-1][0].append(done)
            continue
        remaining[0] -= 1
        start = unpacker.tell()
        tag = data[start]
        if tag in MAP_TAGS:
            stack.append(([], [2 * unpacker.read_map_header()], True))
        elif tag in ARRAY_TAGS:
            stack.append(([], [unpacker.read_array_header()], False))
        else:
            unpacker.skip()
            items.append(_unpack_scalar(data[start : unpacker.tell()], options, marker))
    if unpacker.tell() != len(data):
        raise ValueError("bytes after the case's value")
    return root[0]


def _unpack_scalar(data: bytes, options: dict[str, Any], marker: Callable[[str], object]) -> object:
    try:
        return msgpack.unpackb(data, **options)
    except Exception as error:
        return marker(f"undecodable msgpack value: {error}")


# --- requests ---------------------------------------------------------------------


class CaseStreamError(Exception):
    """Raised by the cases iterator of :func:`unpack_batch` when the frame
    turns out to need the careful reading of :func:`read_request` (a case
    msgpack-python refuses, a truncated frame, bytes after the cases). The
    caller discards what it did with the cases so far and starts over."""


#: A model's reading of a batch's cases from an Unpacker positioned at the
#: first of ``count`` cases in ``body``: an iterator of case values that
#: raises CaseStreamError (see :func:`exact_stream`).
Stream = Callable[[msgpack.Unpacker, int, "bytes | memoryview"], Iterator[object]]


def unpack_batch(
    body: bytes | memoryview, options: dict[str, Any], stream: Stream
) -> tuple[dict[str, object], Iterator[object]] | None:
    """The fast reading of a request whose last member is ``cases``, an
    array (the driver writes every request so): the other members (string
    keys only, as in :func:`read_request`) and ``stream``'s iterator over
    the cases, which decodes them one at a time so that each case is
    answered while its bytes and objects are fresh in the cache and freed
    before the next one is built. None for a frame of any other shape, or
    whose members before ``cases`` do not decode: :func:`read_request` then
    reads it."""
    size = len(body)
    try:
        unpacker = msgpack.Unpacker(max_buffer_size=size, read_size=size, **options)
        unpacker.feed(body)
        count = unpacker.read_map_header()
        members: dict[str, object] = {}
        for index in range(count):
            key = unpacker.unpack()
            if index == count - 1 and type(key) is str and key == "cases" and body[unpacker.tell()] in ARRAY_TAGS:
                return members, stream(unpacker, unpacker.read_array_header(), body)
            value = unpacker.unpack()
            if type(key) is str:
                members[key] = value
    except Exception:  # msgpack raises several unrelated types
        return None
    return None


def exact_stream(unpacker: msgpack.Unpacker, count: int, body: bytes | memoryview) -> Iterator[object]:
    """The exact model's :data:`Stream`: each case as the Unpacker's options
    build it; any failure (which a case of a well-formed frame never meets
    within msgpack's per-container limits) is a CaseStreamError."""
    unpack = unpacker.unpack
    try:
        for _ in range(count):
            yield unpack()
        complete = unpacker.tell() == len(body)
    except Exception as error:
        raise CaseStreamError(f"{type(error).__name__}: {error}") from None
    if not complete:
        raise CaseStreamError("bytes after the cases")


class RawCases(list[bytes]):
    """A request's ``cases`` array as each case's undecoded bytes, for the
    model to decode (:func:`read_request`)."""

    __slots__ = ()


def read_request(body: bytes | memoryview) -> dict[str, object]:
    """A request frame as a dict of its string-keyed members, read the
    careful way: member by member, and a ``cases`` array as
    :class:`RawCases` (each case's bytes, for the model to decode alone),
    so that one undecodable case does not fail its whole batch. Raises
    ValueError when the frame is not a msgpack map."""
    data = bytes(body)
    unpacker = msgpack.Unpacker(max_buffer_size=len(data) + 1, **_EXACT)
    unpacker.feed(data)
    request: dict[str, object] = {}
    try:
        for _ in range(unpacker.read_map_header()):
            key = unpacker.unpack()
            if key == "cases" and data[unpacker.tell()] in ARRAY_TAGS:
                value: object = _raw_cases(unpacker, data)
            else:
                value = unpacker.unpack()
            if type(key) is str:
                request[key] = value
    except Exception as error:
        raise ValueError(f"frame is not a msgpack map: {error or type(error).__name__}") from None
    if unpacker.tell() != len(data):
        raise ValueError("frame holds bytes after its msgpack map")
    return request


def _raw_cases(unpacker: msgpack.Unpacker, data: bytes) -> RawCases:
    cases = RawCases()
    for _ in range(unpacker.read_array_header()):
        start = unpacker.tell()
        unpacker.skip()
        cases.append(data[start : unpacker.tell()])
    return cases


# --- encoding -----------------------------------------------------------------------


def pack(value: object, members: type[list[Any]] = ExactObject) -> bytes:
    """The protocol's wire encoding of an exact-model value: ints beyond
    int64/uint64 as ext 1, strings with lone surrogates as ext 2, floats
    always float64, ``dict`` and ``members`` objects (lists of ``(key,
    value)`` pairs) as maps in member order with duplicates kept.
    ``bytes`` go as bin and ``msgpack.ExtType``/``msgpack.Timestamp`` as
    they are, so that tests can build out-of-domain cases. Iterative, so any
    depth encodes."""
    packer = msgpack.Packer(use_single_float=False, use_bin_type=True, autoreset=True)
    out: list[bytes] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (members, dict)):
            pairs = list(v.items()) if isinstance(v, dict) else list(v)
            out.append(packer.pack_map_header(len(pairs)))
            for key, item in reversed(pairs):
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
        return msgpack.ExtType(EXT_BIG_INT, format_decimal(int(v)).encode("ascii"))
    if isinstance(v, float):
        return float(v)
    if isinstance(v, str):
        if _SURROGATE.search(v):
            return msgpack.ExtType(EXT_SURROGATE_STRING, v.encode("utf-16-le", "surrogatepass"))
        return str.__str__(v)
    if isinstance(v, (bytes, msgpack.ExtType, msgpack.Timestamp)):
        return v
    raise TypeError(f"cannot encode {type(v).__name__} on the wire")
