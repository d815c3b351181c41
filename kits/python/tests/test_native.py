"""The native model: what it hands the function, the cases it refuses with
the first problem's reason, and its fast reading agreeing with the careful
one."""

from __future__ import annotations

import struct

import msgpack
import pytest

from _support import args_with, batch_stream, map_of, nested_arrays, same
from difffuzz_kit import Exact, Inexpressible, Native
from difffuzz_kit._models import to_native
from difffuzz_kit.testing import pack

NATIVE = Native()

HELD = [
    (b"\x83\xa1b\x01\xa1a\x92\xc3\xc0\xa1c\xcb" + struct.pack(">d", 1.5), {"b": 1, "a": [True, None], "c": 1.5}),
    (pack(2**64), 2**64),
    (pack(-(10**5000)), -(10**5000)),
    (pack(5), 5),
    (pack(5.0), 5.0),
    (b"\xca\x3f\xc0\x00\x00", 1.5),  # float 32
    (pack("\ud800x"), "\ud800x"),  # a Python str holds a lone surrogate
    (b"\xc4\x02\x00\xff", b"\x00\xff"),  # bin is bytes
    (map_of(b"\x01"), {"tool_name": "t", "args": {1: 1}}),  # an int key: the SDK's to reject
    (map_of(b"\xc4\x01k"), {"tool_name": "t", "args": {b"k": 1}}),
    (map_of(b"\xc0"), {"tool_name": "t", "args": {None: 1}}),
    (map_of(b"\xd4\x01" + b"7"), {"tool_name": "t", "args": {7: 1}}),  # an ext 1 key is an int
    (map_of(b"\xd5\x02\x00\xd8"), {"tool_name": "t", "args": {"\ud800": 1}}),
    (b"\x82\xa1a\x01\xa1A\x02", {"a": 1, "A": 2}),
    (b"\x91" * 999 + b"\x90", nested_arrays(1000)),
    (b"\x91" * 1999 + b"\x90", nested_arrays(2000)),  # past msgpack-python's limit: the careful way
    (
        args_with(b"\xcb" + struct.pack(">d", struct.unpack(">d", b"\x40\xd6\xff\x00\x00\x00\x00\x00")[0])),
        {"tool_name": "t", "args": {"a": struct.unpack(">d", b"\x40\xd6\xff\x00\x00\x00\x00\x00")[0]}},
    ),  # timestamp-like bytes
]


@pytest.mark.parametrize("wire, expected", HELD, ids=[w.hex()[:24] for w, _ in HELD])
def test_held_values(wire: bytes, expected: object) -> None:
    value = NATIVE.case(wire)
    careful = to_native(Exact().case(wire))
    if isinstance(expected, list):  # deep: beyond the recursion of == and same()
        assert _depth(value) == _depth(careful) == _depth(expected)
    else:
        assert same(value, expected)
        assert same(_dicts_as_lists(careful), _dicts_as_lists(value))


def _depth(value: object) -> int:
    depth = 0
    while isinstance(value, list):
        depth += 1
        value = value[0] if value else None
    return depth


def _dicts_as_lists(value: object) -> object:
    return value if not isinstance(value, dict) else [(k, _dicts_as_lists(v)) for k, v in value.items()]


REFUSED = [
    (b"\x82\xa1a\x01\xa1a\x02", "duplicate_key"),
    (b"\x81\xa1o\x83\xa1x\x01\xa1y\x02\xa1x\x03", "duplicate_key"),
    (map_of(b"\x91\x01"), "non_string_key"),  # an array key: a dict cannot hold it
    (map_of(b"\x81\x01\x02"), "non_string_key"),
    (map_of(b"\xd4\x05" + b"7"), "non_string_key"),  # an unknown ext as a key
    (map_of(b"\xc7\x03\x02abc"), "non_string_key"),  # an odd ext 2 key
    (map_of(b"\xa1\xff"), "non_string_key"),  # a key that is not UTF-8
    (map_of(b"\xd6\xff\x00\x00\x00\x01"), "non_string_key"),  # a timestamp key
    (b"\x82\x01\x01\xc3\x02", "non_string_key"),  # 1 and True: one dict key
    (b"\x82\xcb" + struct.pack(">d", 0.0) + b"\x01\xcb" + struct.pack(">d", -0.0) + b"\x02", "non_string_key"),
    (args_with(b"\xd4\x03\x00"), "unsupported_value"),  # unknown ext type
    (args_with(b"\xd5\x01" + b"01"), "unsupported_value"),  # malformed ext 1
    (args_with(b"\xc7\x03\x02abc"), "unsupported_value"),  # odd ext 2 payload
    (args_with(b"\xd6\xff\x00\x00\x00\x01"), "unsupported_value"),  # a valid timestamp
    (args_with(b"\xd4\xff\x01"), "unsupported_value"),  # a malformed timestamp
    (args_with(b"\xa2\xff\xfe"), "unsupported_value"),  # invalid UTF-8 in a str
    (b"\x92\x01", "unsupported_value"),  # truncated
    # the first problem in walk order: a key before its value, members in order
    (b"\x82\xa1a\x01\xa1a\xd4\x05\x00", "duplicate_key"),
    (b"\x83\xa1a\xd4\x05\x00\xa1b\x01\xa1b\x02", "unsupported_value"),
    (b"\x82\xa1a\x81\xa1x\xd4\x05\x00\xa1a\x01", "unsupported_value"),
    (b"\x82\xa1a\x01\x91\x01\x02", "non_string_key"),
    (b"\x92" + b"\x91" * 1100 + b"\x90" + b"\x82\xa1a\x01\xa1a\x02", "duplicate_key"),  # deep, then a duplicate
]


@pytest.mark.parametrize("wire, reason", REFUSED, ids=[w.hex()[-24:] for w, _ in REFUSED])
def test_refused_cases_name_their_first_problem(wire: bytes, reason: str) -> None:
    value = NATIVE.case(wire)
    assert type(value) is Inexpressible, value
    assert value.reason == reason
    assert value.reason in Native.inexpressible
    assert value.message


def _msgpack_builds(wire: bytes) -> bool:
    """Whether msgpack-python builds the case at all (else a batch holding it
    is read the careful way, case by case)."""
    try:
        msgpack.unpackb(wire, **NATIVE.options)
    except Exception:
        return False
    return True


def test_a_batch_streams_as_each_case_reads_alone() -> None:
    """Every case of both tables that msgpack builds, in one batch: the fast per-case stream gives
    what case() gives, and a refused case does not taint the next one."""
    wires = [w for w, _ in HELD + REFUSED if len(w) < 1500 and _msgpack_builds(w)]
    interleaved = [w for pair in zip(wires, [pack(1)] * len(wires), strict=True) for w in pair]
    packer = msgpack.Packer()
    body = packer.pack_map_header(3) + packer.pack("type") + packer.pack("batch") + packer.pack("id") + packer.pack(1)
    body += packer.pack("cases") + packer.pack_array_header(len(interleaved)) + b"".join(interleaved)
    members, cases = batch_stream(memoryview(body), NATIVE)
    assert members == {"type": "batch", "id": 1}
    streamed = list(cases)
    for wire, got in zip(interleaved, streamed, strict=True):
        alone = NATIVE.case(wire)
        if type(alone) is Inexpressible:
            assert type(got) is Inexpressible and got.reason == alone.reason, wire.hex()
        elif isinstance(alone, list):
            assert _depth(got) == _depth(alone)
        else:
            assert same(_dicts_as_lists(got), _dicts_as_lists(alone)), wire.hex()
