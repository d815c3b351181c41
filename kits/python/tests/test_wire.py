"""The msgpack value codec and the request reading of docs/adapter-protocol.md,
in the exact model."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from _support import args_with, batch_stream, envelope, map_of, nested_arrays, raw_cases, same
from difffuzz_kit import Exact, ExactObject
from difffuzz_kit._wire import (
    CaseStreamError,
    RawCases,
    Unsupported,
    pack,
    read_request,
    unpack,
    unpack_batch,
    unpack_case,
)

EXACT = Exact()

# --- values -------------------------------------------------------------------

ROUND_TRIPS = [
    None,
    True,
    False,
    0,
    -1,
    127,
    -32,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64 - 1,
    -(2**63),
    2**64,
    -(2**63) - 1,
    10**30,
    -(10**30),
    7 * 10**5000,
    0.0,
    -0.0,
    1.5,
    5e-324,
    1.7976931348623157e308,
    float("inf"),
    float("-inf"),
    float("nan"),
    "",
    "plain",
    "\u00e9\u2028\U0001f600\U0010ffff",
    "\ud800",
    "a\udfffb",
    "\udc00\ud800",
    [],
    ExactObject(),
    [1, [2, [3, ExactObject([("k", "v")])]]],
    ExactObject([("b", 1), ("a", 2), ("b", 3)]),
    ExactObject([("__proto__", 1), ("constructor", 2), ("1", 3), ("", 4)]),
    ExactObject([("\ud800", "\udbff"), ("x", 1.0), ("x", 1)]),
    ExactObject([("n", 2**70), ("f", 2.0**70)]),
]


@pytest.mark.parametrize("value", ROUND_TRIPS, ids=[f"{i}-{type(v).__name__}" for i, v in enumerate(ROUND_TRIPS)])
def test_round_trip(value: object) -> None:
    assert same(unpack(pack(value)), value)


def test_dict_packs_as_a_map() -> None:
    assert same(unpack(pack({"b": 1, "a": [2]})), ExactObject([("b", 1), ("a", [2])]))


WIRE_FORMS = [
    (2**64 - 1, b"\xcf" + b"\xff" * 8),
    (-(2**63), b"\xd3\x80" + b"\x00" * 7),
    (2**64, b"\xc7\x14\x01" + b"18446744073709551616"),
    (-(2**63) - 1, b"\xc7\x14\x01" + b"-9223372036854775809"),
    (1.0, b"\xcb\x3f\xf0" + b"\x00" * 6),
    (1.5, b"\xcb\x3f\xf8" + b"\x00" * 6),
    ("\ud800", b"\xd5\x02\x00\xd8"),
    ("a\udc00", b"\xd6\x02a\x00\x00\xdc"),
    ("\u00e9", b"\xa2\xc3\xa9"),
    (ExactObject([("a", 1), ("a", 2)]), b"\x82\xa1a\x01\xa1a\x02"),
    (b"\x01", b"\xc4\x01\x01"),
]


@pytest.mark.parametrize("value, wire", WIRE_FORMS, ids=[repr(v)[:30] for v, _ in WIRE_FORMS])
def test_wire_form(value: object, wire: bytes) -> None:
    assert pack(value) == wire


DECODED = [
    (b"\xca\x3f\xc0\x00\x00", 1.5),  # float 32 accepted
    (b"\xca\x3d\xcc\xcc\xcd", 0.10000000149011612),
    (b"\xd4\x01" + b"5", 5),  # ext 1 inside the int64 range is still an integer
    (b"\xd5\x01" + b"-0", 0),
    (b"\xc7\x03\x01" + b"-42", -42),
    (b"\xd6\x02" + "\U0001f600".encode("utf-16-le"), "\U0001f600"),  # a real pair joins
    (b"\xc7\x00\x02", ""),
    (b"\xd4\x01" + b"0", 0),
    (b"\xc7\x14\x01" + b"-9223372036854775809", -(2**63) - 1),
    (b"\xc7\x04\x01" + b"9" * 4, 9999),
    (b"\xc8\x05\xdd\x01" + b"7" * 1501, int("7" * 1501)),  # past int()'s 1000-digit fast path
    (b"\xc8\x05\xde\x01-" + b"7" * 1501, -int("7" * 1501)),
]


@pytest.mark.parametrize("wire, expected", DECODED, ids=[w.hex() for w, _ in DECODED])
def test_decoded(wire: bytes, expected: object) -> None:
    assert same(unpack(wire), expected)


def test_undecodable_case_becomes_unsupported() -> None:
    value = unpack_case(b"\xa2\xff\xfe")
    assert isinstance(value, Unsupported)
    assert "undecodable" in value.reason
    assert isinstance(unpack_case(b"\x01\x02"), Unsupported)  # trailing bytes


def test_decodes_1000_levels() -> None:
    value = unpack(b"\x91" * 999 + b"\x90")
    depth = 0
    while isinstance(value, list):
        depth += 1
        value = value[0] if value else None
    assert depth == 1000


def test_packs_deep_values_without_recursion() -> None:
    assert pack(nested_arrays(5000)) == b"\x91" * 4999 + b"\x90"


def test_pack_refuses_values_outside_the_model() -> None:
    with pytest.raises(TypeError):
        pack([object()])


# --- requests -----------------------------------------------------------------------


def request(*cases_wire: bytes, kind: bytes = b"\xa5batch") -> bytes:
    body = b"\x83\xa4type" + kind + b"\xa2id\x07\xa5cases"
    return body + bytes([0x90 + len(cases_wire)]) + b"".join(cases_wire)


def test_request_careful_reading() -> None:
    got = read_request(request(b"\x01", pack(envelope(ExactObject()))))
    assert got["type"] == "batch" and got["id"] == 7
    assert type(got["cases"]) is RawCases
    assert got["cases"] == [b"\x01", pack(envelope(ExactObject()))]
    assert same([unpack_case(c) for c in raw_cases(got)], [1, envelope(ExactObject())])


def test_one_undecodable_case_does_not_fail_its_batch() -> None:
    got = read_request(request(b"\x01", args_with(b"\xd4\xff\x01"), b"\xa2\xff\xfe", b"\xc0"))
    cases: list[Any] = [unpack_case(c) for c in raw_cases(got)]
    assert got["id"] == 7 and len(cases) == 4
    assert cases[0] == 1 and cases[3] is None
    assert isinstance(cases[1], ExactObject)
    args: Any = cases[1][1][1]
    assert isinstance(args[0][1], Unsupported)  # only the bad value, not the whole case
    assert isinstance(cases[2], Unsupported)


def test_cases_that_are_not_an_array_are_a_value() -> None:
    assert read_request(b"\x82\xa5cases\x05\xa2id\x01") == {"cases": 5, "id": 1}


@pytest.mark.parametrize(
    "body",
    [b"\x01", b"\x93\x01\x02\x03", b"\xc1", b"\x81", b"\x81\xa4type", request(b"\x01") + b"\x00", b"\x81\xa4type\xc1"],
    ids=["int", "array", "reserved byte", "truncated map", "missing value", "trailing byte", "bad value"],
)
def test_not_a_request(body: bytes) -> None:
    with pytest.raises(ValueError):
        read_request(body)


def test_request_keys_that_are_not_strings_are_ignored() -> None:
    got = read_request(b"\x83\xa4type\xa5batch\x91\x01\x02\x01\x03")
    assert got == {"type": "batch"}


def test_request_from_a_memoryview_reads_as_from_bytes() -> None:
    body = request(b"\x01", args_with(b"\xd4\xff\x01"), b"\xa2\xff\xfe", pack(envelope(ExactObject([("a", 2**70)]))))
    assert read_request(body) == read_request(memoryview(bytearray(body)))


# --- batches read case by case -------------------------------------------------------

STREAMED = [
    b"\x01",
    pack(envelope(ExactObject([("b", 1), ("a", [1.0, 2**64, "\u00e9", "\ud800"])]))),
    map_of(b"\x91\x01"),  # an unhashable key
    args_with(b"\xd5\x01" + b"01"),  # a malformed ext 1: an in-place marker, not a failure
    b"\x91" * 600 + b"\x90",
    b"\xc0",
]


def test_batch_cases_come_out_as_the_careful_reading_reads_them() -> None:
    body = request(*STREAMED)
    members, cases = batch_stream(memoryview(body), EXACT)
    assert members == {"type": "batch", "id": 7}
    streamed: list[Any] = list(cases)
    expected: list[Any] = [unpack_case(c) for c in raw_cases(read_request(body))]
    assert len(streamed) == len(expected) == len(STREAMED)
    for index, (got, want) in enumerate(zip(streamed, expected, strict=True)):
        if index == 3:  # markers have no equality: compare their reasons
            got, want = got[1][1][0][1], want[1][1][0][1]
            assert isinstance(got, Unsupported) and got.reason == want.reason
        elif index == 4:  # too deep for same()'s recursion; only lists in it
            assert got == want
        else:
            assert same(got, want), index


def test_batch_members_keep_their_values() -> None:
    body = b"\x85\xa4type\xa5batch\xa2id\xcf" + b"\xff" * 8 + b"\xabdigest_only\xc3\x01\x02\xa5cases\x90"
    members, cases = batch_stream(body, EXACT)
    assert members == {"type": "batch", "id": 2**64 - 1, "digest_only": True}  # the int key is dropped
    assert list(cases) == []


@pytest.mark.parametrize(
    "body",
    [
        b"\x83\xa5cases\x91\x01\xa4type\xa5batch\xa2id\x07",  # cases not last
        b"\x83\xa4type\xa5batch\xa2id\x07\xa5cases\x05",  # cases not an array
        b"\x82\xa4type\xa5batch\xa2id\x07",  # no cases
        b"\x83\xa4type\xa5batch\xa2id\xc1\xa5cases\x90",  # a member that does not decode
        b"\x83\xa4type\xa5batch\xa2id\x07\xa5cases",  # ends before the array
        b"\x93\x01\x02\x03",
        b"\xc1",
    ],
    ids=["cases first", "cases not array", "no cases", "bad member", "no array", "array", "reserved byte"],
)
def test_other_shapes_are_left_to_the_careful_reading(body: bytes) -> None:
    assert unpack_batch(body, EXACT.options, EXACT.stream) is None


@pytest.mark.parametrize(
    "body",
    [
        request(b"\x01", b"\xa2\xff\xfe", b"\x02"),  # invalid UTF-8: msgpack refuses the case
        request(b"\x01", args_with(b"\xd4\xff\x01")),  # a malformed timestamp
        request(b"\x91" * 2000 + b"\x90"),  # past msgpack-python's nesting limit
        request(b"\x01", b"\x02") + b"\x00",  # a byte after the cases
        request(b"\x01", b"\x92\x01"),  # truncated inside a case
        request(b"\x01", b"\x02")[:-1],  # fewer cases than the array holds
    ],
    ids=["invalid utf-8", "timestamp", "too deep for msgpack", "trailing byte", "truncated case", "missing case"],
)
def test_cases_that_need_the_careful_reading_stop_the_iterator(body: bytes) -> None:
    _, cases = batch_stream(body, EXACT)
    with pytest.raises(CaseStreamError):
        list(cases)


def test_msgpack_is_the_library_not_a_rewrite() -> None:
    assert msgpack.packb(1.5, use_single_float=False) == pack(1.5)
