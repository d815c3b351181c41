"""Frames and the msgpack value codec of docs/adapter-protocol.md."""

from __future__ import annotations

import io
import struct

import msgpack
import pytest

from _support import envelope, nested_arrays, same
from canonjson import CanonicalError, Object, Unsupported, canonical
from canonjson import wire
from canonjson.wire import (
    MAX_FRAME,
    CaseStreamError,
    FrameError,
    FrameReader,
    FrameWriter,
    pack,
    read_frame,
    unpack,
    unpack_batch,
    unpack_case,
    unpack_request,
    write_frame,
)

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
    Object(),
    [1, [2, [3, Object([("k", "v")])]]],
    Object([("b", 1), ("a", 2), ("b", 3)]),
    Object([("__proto__", 1), ("constructor", 2), ("1", 3), ("", 4)]),
    Object([("\ud800", "\udbff"), ("x", 1.0), ("x", 1)]),
    Object([("n", 2**70), ("f", 2.0**70)]),
]


@pytest.mark.parametrize("value", ROUND_TRIPS, ids=[f"{i}-{type(v).__name__}" for i, v in enumerate(ROUND_TRIPS)])
def test_round_trip(value: object) -> None:
    assert same(unpack(pack(value)), value)


def test_dict_packs_as_a_map() -> None:
    assert same(unpack(pack({"b": 1, "a": [2]})), Object([("b", 1), ("a", [2])]))


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
    (Object([("a", 1), ("a", 2)]), b"\x82\xa1a\x01\xa1a\x02"),
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


def test_float32_case_canonicalizes_as_its_double() -> None:
    case = b"\x82\xa9tool_name\xa1t\xa4args\x81\xa1f\xca\x3d\xcc\xcc\xcd"
    assert canonical(unpack(case)) == b'{"args":{"f":0.10000000149011612},"tool_name":"t"}'


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
    value = unpack_case(wire)
    with pytest.raises(CanonicalError) as caught:
        canonical(value)
    assert caught.value.code == code


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


def test_request_fast_path() -> None:
    got = unpack_request(request(b"\x01", pack(envelope(Object()))))
    assert got["type"] == "batch" and got["id"] == 7
    assert same(got["cases"], [1, envelope(Object())])


def test_one_undecodable_case_does_not_fail_its_batch() -> None:
    got = unpack_request(request(b"\x01", args_with(b"\xd4\xff\x01"), b"\xa2\xff\xfe", b"\xc0"))
    cases = got["cases"]
    assert got["id"] == 7 and len(cases) == 4
    assert cases[0] == 1 and cases[3] is None
    assert isinstance(cases[1], Object)
    assert isinstance(cases[1][1][1][0][1], Unsupported)  # only the bad value, not the whole case
    assert isinstance(cases[2], Unsupported)


@pytest.mark.parametrize(
    "body",
    [b"\x01", b"\x93\x01\x02\x03", b"\xc1", b"\x81", b"\x81\xa4type", request(b"\x01") + b"\x00", b"\x81\xa4type\xc1"],
    ids=["int", "array", "reserved byte", "truncated map", "missing value", "trailing byte", "bad value"],
)
def test_not_a_request(body: bytes) -> None:
    with pytest.raises(ValueError):
        unpack_request(body)


def test_request_keys_that_are_not_strings_are_ignored() -> None:
    got = unpack_request(b"\x83\xa4type\xa5batch\x91\x01\x02\x01\x03")
    assert got == {"type": "batch"}


def test_request_from_a_memoryview_reads_as_from_bytes() -> None:
    body = request(b"\x01", args_with(b"\xd4\xff\x01"), b"\xa2\xff\xfe", pack(envelope(Object([("a", 2**70)]))))
    from_bytes, from_view = unpack_request(body), unpack_request(memoryview(bytearray(body)))
    assert from_bytes.keys() == from_view.keys()
    assert [repr(c) for c in from_bytes["cases"]] == [repr(c) for c in from_view["cases"]]


# --- batches read case by case -------------------------------------------------------

STREAMED = [
    b"\x01",
    pack(envelope(Object([("b", 1), ("a", [1.0, 2**64, "\u00e9", "\ud800"])]))),
    map_of(b"\x91\x01"),  # an unhashable key
    args_with(b"\xd5\x01" + b"01"),  # a malformed ext 1: an in-place marker, not a failure
    b"\x91" * 600 + b"\x90",
    b"\xc0",
]


def test_batch_cases_come_out_as_unpack_request_reads_them() -> None:
    body = request(*STREAMED)
    members, cases = unpack_batch(memoryview(body))
    assert members == {"type": "batch", "id": 7}
    streamed = list(cases)
    expected = unpack_request(body)["cases"]
    assert len(streamed) == len(expected) == len(STREAMED)
    for index, (got, want) in enumerate(zip(streamed, expected)):
        if index == 3:  # markers have no equality: compare their reasons
            got, want = got[1][1][0][1], want[1][1][0][1]
            assert isinstance(got, Unsupported) and got.reason == want.reason
        elif index == 4:  # too deep for same()'s recursion; only lists in it
            assert got == want
        else:
            assert same(got, want), index


def test_batch_members_keep_their_values() -> None:
    body = b"\x85\xa4type\xa5batch\xa2id\xcf" + b"\xff" * 8 + b"\xabdigest_only\xc3\x01\x02\xa5cases\x90"
    members, cases = unpack_batch(body)
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
def test_other_shapes_are_left_to_unpack_request(body: bytes) -> None:
    assert unpack_batch(body) is None


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
    members, cases = unpack_batch(body)
    with pytest.raises(CaseStreamError):
        list(cases)


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


def test_msgpack_is_the_library_not_a_rewrite() -> None:
    assert msgpack.packb(1.5, use_single_float=False) == pack(1.5)


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
    monkeypatch.setattr(wire, "KEEP_BUFFER", 5000)  # the 10 KB body is a giant here
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
    monkeypatch.setattr(wire, "KEEP_BUFFER", 5000)
    expected, got = io.BytesIO(), io.BytesIO()
    writer = FrameWriter(got)
    for body in FRAME_BODIES + [b"\x01" * 4996, b"\x02" * 4997, b"q"]:
        write_frame(expected, body)
        writer.write(memoryview(body))
    assert got.getvalue() == expected.getvalue()


@pytest.mark.parametrize("size", [0, MAX_FRAME + 1])
def test_frame_writer_refuses_out_of_range_bodies(size: int) -> None:
    with pytest.raises(FrameError):
        FrameWriter(io.BytesIO()).write(b"\x00" * size)
