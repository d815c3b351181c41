"""Wire cases as canonjson_worker.py reads them (the kit's exact model with
canonjson's Object and Unsupported) give the spec's answer: the decoder
keeps every problem in place, for canonical() to report in walk order."""

from __future__ import annotations

import struct

import pytest

from canonjson import CanonicalError, Object, Unsupported, canonical
from difffuzz_kit import Exact

WIRE = Exact(members=Object, unsupported=Unsupported)


def test_float32_case_canonicalizes_as_its_double() -> None:
    case = b"\x82\xa9tool_name\xa1t\xa4args\x81\xa1f\xca\x3d\xcc\xcc\xcd"
    assert canonical(WIRE.case(case)) == b'{"args":{"f":0.10000000149011612},"tool_name":"t"}'


def map_of(key_wire: bytes) -> bytes:
    """A case {"tool_name":"t","args":{<key>: 1}} with a raw key."""
    return b"\x82\xa9tool_name\xa1t\xa4args\x81" + key_wire + b"\x01"


def args_with(value_wire: bytes) -> bytes:
    """A case {"tool_name":"t","args":{"a": <value>}} with a raw value."""
    return b"\x82\xa9tool_name\xa1t\xa4args\x81\xa1a" + value_wire


CASE_ERRORS = [
    (map_of(b"\x01"), "non_string_key"),  # int key
    (map_of(b"\xc0"), "non_string_key"),  # nil key
    (map_of(b"\xc3"), "non_string_key"),  # bool key
    (map_of(b"\xcb" + struct.pack(">d", 1.5)), "non_string_key"),
    (map_of(b"\xc4\x01k"), "non_string_key"),  # bin key
    (map_of(b"\x91\x01"), "non_string_key"),  # array key (unhashable)
    (map_of(b"\x81\x01\x02"), "non_string_key"),  # map key
    (map_of(b"\xd4\x01" + b"7"), "non_string_key"),  # ext 1 key is an integer
    (map_of(b"\xd4\x05" + b"7"), "non_string_key"),  # unknown ext as a key
    (map_of(b"\xd5\x02\x00\xd8"), "lone_surrogate"),  # ext 2 key
    (args_with(b"\xc4\x00"), "unsupported_value"),  # bin value
    (args_with(b"\xd4\x03\x00"), "unsupported_value"),  # unknown ext type
    (args_with(b"\xd4\x7f\x00"), "unsupported_value"),
    (args_with(b"\xd5\x01" + b"01"), "unsupported_value"),  # malformed ext 1 payloads
    (args_with(b"\xd5\x01" + b"+1"), "unsupported_value"),
    (args_with(b"\xc7\x00\x01"), "unsupported_value"),
    (args_with(b"\xc7\x03\x01" + b"1.0"), "unsupported_value"),
    (args_with(b"\xd5\x01" + b" 1"), "unsupported_value"),
    (args_with(b"\xd5\x01" + b"1\n"), "unsupported_value"),
    (args_with(b"\xd4\x01" + b"-"), "unsupported_value"),
    (args_with(b"\xd6\x01" + b"-001"), "unsupported_value"),
    (args_with(b"\xd5\x01" + b"00"), "unsupported_value"),
    (args_with(b"\xd5\x01" + b"--"), "unsupported_value"),
    (args_with(b"\xc7\x03\x01" + b"1_0"), "unsupported_value"),  # int() takes it
    (args_with(b"\xc7\x02\x01" + "\u0663".encode()), "unsupported_value"),  # a non-ASCII digit
    (args_with(b"\xc7\x03\x02" + b"abc"), "unsupported_value"),  # odd ext 2 payload
    (args_with(b"\xd6\xff\x00\x00\x00\x01"), "unsupported_value"),  # a valid timestamp
    (args_with(b"\xd4\xff\x01"), "unsupported_value"),  # a malformed timestamp
    (args_with(b"\xa2\xff\xfe"), "unsupported_value"),  # invalid UTF-8 in a str
    (args_with(b"\xd5\x02\x00\xdc"), "lone_surrogate"),
    (b"\x82\xa9tool_name\xa1t\xa4args\x82\xa1a\x01\xa1a\x02", "duplicate_key"),
    (b"\x91" * 513 + b"\x90", "too_deep"),
    (b"\x91" * 999 + b"\x90", "too_deep"),
    (b"\x93\x01\x02\x03", "bad_envelope"),
    # cases msgpack-python refuses whole are rebuilt piecewise: order still counts
    (b"\x82\xa9tool_name\xa1t\xa4args\x82\xa1a\x01\xa1a\xd4\xff\x01", "duplicate_key"),
    (args_with(b"\x92" + b"\x91" * 599 + b"\x90" + b"\xd4\xff\x01"), "too_deep"),
    (args_with(b"\x92\xd4\xff\x01" + b"\x91" * 599 + b"\x90"), "unsupported_value"),
    (map_of(b"\xa1\xff"), "non_string_key"),  # an undecodable key is not a string
    (b"\x91" * 2000 + b"\x90", "too_deep"),  # past msgpack-python's 1024 levels
    (b"\x92\x01", "unsupported_value"),  # truncated
]


@pytest.mark.parametrize("wire, code", CASE_ERRORS, ids=[w.hex()[-24:] for w, _ in CASE_ERRORS])
def test_case_errors(wire: bytes, code: str) -> None:
    value = WIRE.case(wire)
    with pytest.raises(CanonicalError) as caught:
        canonical(value)
    assert caught.value.code == code
