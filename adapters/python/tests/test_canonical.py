"""Every rule of docs/canonical-json.md and the shared test vectors."""

from __future__ import annotations

import collections
import enum
import inspect
import sys

import pytest
from blake3 import blake3

from _support import envelope, envelope_of_depth, envelope_of_depth_text, nested_arrays
from canonjson import (
    ERROR_CODES,
    MAX_DEPTH,
    CanonicalError,
    Object,
    Unsupported,
    canonical,
    canonical_value,
    format_float,
    format_int,
    loads,
    parse_int,
    signature,
)


def canon_args(value: object) -> str:
    """Canonical text of ``value`` as it appears inside a signed value (as
    the member "v" of args), so every test also passes the envelope check."""
    text = canonical(envelope(Object([("v", value)]))).decode("ascii")
    prefix, suffix = '{"args":{"v":', '},"tool_name":"t"}'
    assert text.startswith(prefix) and text.endswith(suffix)
    return text[len(prefix) : -len(suffix)]


def error_code(value: object) -> str:
    with pytest.raises(CanonicalError) as caught:
        canonical(value)
    assert caught.value.code in ERROR_CODES
    return caught.value.code


# --- §5 worked examples --------------------------------------------------

WORKED_EXAMPLES = [
    ('{"tool_name": "ping", "args": {}}', '{"args":{},"tool_name":"ping"}'),
    ('{"tool_name":"t","args":{"b":1,"a":[true,null,1.0]}}', '{"args":{"a":[true,null,1],"b":1},"tool_name":"t"}'),
    ('{"tool_name":"t","args":{"x":NaN,"y":-Infinity,"z":-0.0}}', '{"args":{"x":NaN,"y":-Infinity,"z":0},"tool_name":"t"}'),
    (
        '{"tool_name":"t","args":{"f":1e21,"i":1000000000000000000000}}',
        '{"args":{"f":1e+21,"i":1000000000000000000000},"tool_name":"t"}',
    ),
    (
        '{"tool_name":"t","args":{"a":1e-7,"b":0.000001,"c":5e-324}}',
        '{"args":{"a":1e-7,"b":0.000001,"c":5e-324},"tool_name":"t"}',
    ),
    (
        '{"tool_name":"\u00e9","args":{"s":"\\u2028\\u007f\\ud83d\\ude00"}}',
        '{"args":{"s":"\\u2028\\u007f\\ud83d\\ude00"},"tool_name":"\\u00e9"}',
    ),
    (
        '{"tool_name":"t","args":{"\\uff61":1,"\\ud83d\\ude00":2}}',
        '{"args":{"\\uff61":1,"\\ud83d\\ude00":2},"tool_name":"t"}',
    ),
    (
        '{"tool_name":"t","args":{"__proto__":1,"1":2,"01":3,"":4}}',
        '{"args":{"":4,"01":3,"1":2,"__proto__":1},"tool_name":"t"}',
    ),
]


@pytest.mark.parametrize("text, expected", WORKED_EXAMPLES)
def test_worked_examples(text: str, expected: str) -> None:
    assert canonical(loads(text)) == expected.encode("ascii")


def test_signature_is_blake3_of_canonical_bytes() -> None:
    value = loads('{"tool_name": "ping", "args": {}}')
    expected = blake3(b'{"args":{},"tool_name":"ping"}').hexdigest()
    assert signature(value) == expected
    assert expected == "9ffdd239950db62c7d96c3a26bb9f52073e3faf8dbe79afc0f4ad454da632f6f"


def test_dict_and_object_give_the_same_text() -> None:
    as_dict = {"tool_name": "t", "args": {"b": [1, 2.5], "a": {"z": None, "y": True}}}
    as_object = envelope(Object([("a", Object([("y", True), ("z", None)])), ("b", [1, 2.5])]))
    assert canonical(as_dict) == canonical(as_object) == b'{"args":{"a":{"y":true,"z":null},"b":[1,2.5]},"tool_name":"t"}'


# --- §4.5 floats -----------------------------------------------------------

FLOATS = [
    (float("nan"), "NaN"),
    (float("inf"), "Infinity"),
    (float("-inf"), "-Infinity"),
    (-0.0, "0"),
    (0.0, "0"),
    (5e-324, "5e-324"),
    (-5e-324, "-5e-324"),
    (1e21, "1e+21"),
    (-1e21, "-1e+21"),
    (1e-7, "1e-7"),
    (1e-6, "0.000001"),
    (9.99e-7, "9.99e-7"),
    (9007199254740993.0, "9007199254740992"),
    (9007199254740991.0, "9007199254740991"),
    (-9007199254740991.0, "-9007199254740991"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (-1.7976931348623157e308, "-1.7976931348623157e+308"),
    (0.1, "0.1"),
    (1.5, "1.5"),
    (123.456, "123.456"),
    (1e20, "100000000000000000000"),
    (1.0, "1"),
    (123.0, "123"),
    (1.5e300, "1.5e+300"),
    (1e16, "10000000000000000"),
    (1e-5, "0.00001"),
    (1.234e-5, "0.00001234"),
    (123e-20, "1.23e-18"),
    (2.5e-7, "2.5e-7"),
    (999999999999999900000.0, "999999999999999900000"),
    (1.2345678901234568e21, "1.2345678901234568e+21"),
    (0.000001234, "0.000001234"),
    (2.2250738585072014e-308, "2.2250738585072014e-308"),
    (100.5, "100.5"),
]


@pytest.mark.parametrize("x, expected", FLOATS, ids=[t for _, t in FLOATS])
def test_float_layout(x: float, expected: str) -> None:
    assert format_float(x) == expected
    assert canon_args([x]) == f"[{expected}]"


def test_float_is_not_integer_but_prints_alike() -> None:
    assert canon_args([1, 1.0]) == "[1,1]"
    assert canon_args([10**21, 1e21]) == "[1000000000000000000000,1e+21]"


# --- §4.4 integers -----------------------------------------------------------

INTEGERS = [
    (0, "0"),
    (2**53 - 1, "9007199254740991"),
    (2**53, "9007199254740992"),
    (2**53 + 1, "9007199254740993"),
    (2**63, "9223372036854775808"),
    (2**64, "18446744073709551616"),
    (10**30, "1000000000000000000000000000000"),
    (-(2**53 - 1), "-9007199254740991"),
    (-(2**53), "-9007199254740992"),
    (-(2**53 + 1), "-9007199254740993"),
    (-(2**63), "-9223372036854775808"),
    (-(2**64), "-18446744073709551616"),
    (-(10**30), "-1000000000000000000000000000000"),
]


@pytest.mark.parametrize("n, expected", INTEGERS, ids=[t for _, t in INTEGERS])
def test_integers(n: int, expected: str) -> None:
    assert canon_args([n]) == f"[{expected}]"


def test_bool_is_not_an_integer() -> None:
    assert canon_args([True, False, 1, 0]) == "[true,false,1,0]"


@pytest.mark.parametrize("digits", [4300, 4301, 5000, 12345])
def test_integers_past_pythons_digit_limit(digits: int) -> None:
    n = 7 * 10 ** (digits - 1) + 3
    text = "7" + "0" * (digits - 2) + "3"
    assert format_int(n) == text
    assert format_int(-n) == "-" + text
    assert parse_int(text) == n and parse_int("-" + text) == -n
    assert canon_args([n]) == f"[{text}]"
    assert loads(f"[{text}]") == [n]


def test_int_and_float_subclasses_read_as_their_base() -> None:
    class Color(enum.IntEnum):
        RED = 7

    class Money(float):
        pass

    class Name(str):
        def __str__(self) -> str:
            return "changed"

    assert canon_args([Color.RED, Money(2.5), Name("x")]) == '[7,2.5,"x"]'
    assert canon_args(collections.OrderedDict([("b", 1), ("a", 2)])) == '{"a":2,"b":1}'


# --- §4.3 strings ------------------------------------------------------------

STRINGS = [
    ("", '""'),
    ('"', '"\\""'),
    ("\\", '"\\\\"'),
    ("\b\f\n\r\t", '"\\b\\f\\n\\r\\t"'),
    ("\x00\x01\x1f", '"\\u0000\\u0001\\u001f"'),
    ("\x0b", '"\\u000b"'),
    ("\x7f", '"\\u007f"'),
    ("\x80", '"\\u0080"'),
    ("\u00e9", '"\\u00e9"'),
    ("\u2028", '"\\u2028"'),
    ("\u2029", '"\\u2029"'),
    ("\ufeff", '"\\ufeff"'),
    ("\uffff", '"\\uffff"'),
    ("\ue000", '"\\ue000"'),
    ("\U0001f600", '"\\ud83d\\ude00"'),
    ("\U00010000", '"\\ud800\\udc00"'),
    ("\U0010ffff", '"\\udbff\\udfff"'),
    ("a/b", '"a/b"'),
    ("<>&'", '"<>&\'"'),
    (" ~", '" ~"'),
    ("\u00e9\U0001f600x", '"\\u00e9\\ud83d\\ude00x"'),
]


@pytest.mark.parametrize("s, expected", STRINGS, ids=[e for _, e in STRINGS])
def test_string_escaping(s: str, expected: str) -> None:
    assert canon_args([s]) == f"[{expected}]"
    assert canon_args(Object([(s, 0)])) == f"{{{expected}:0}}"


def test_every_control_character_is_escaped_lowercase_four_digits() -> None:
    short = {8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r"}
    for code in range(0x20):
        expected = short.get(code, f"\\u{code:04x}")
        assert canon_args([chr(code)]) == f'["{expected}"]'


def test_long_string() -> None:
    s = "ab\u00e9" * 33_333 + "z"
    assert len(s) == 100_000
    assert canon_args([s]) == '["' + "ab\\u00e9" * 33_333 + 'z"]'
    assert canon_args(["x" * 100_000]) == '["' + "x" * 100_000 + '"]'


# --- §4.2 key order ------------------------------------------------------------

KEY_ORDERS = [
    (["\uff61", "\U0001f600"], '{"\\uff61":0,"\\ud83d\\ude00":1}'),
    (["\U0001f600", "\uff61"], '{"\\uff61":1,"\\ud83d\\ude00":0}'),
    (["b", "ab", "a", ""], '{"":3,"a":2,"ab":1,"b":0}'),
    (["2", "10", "1"], '{"1":2,"10":1,"2":0}'),
    (["constructor", "__proto__", "1", "01", ""], '{"":4,"01":3,"1":2,"__proto__":1,"constructor":0}'),
    (["\ue000", "\U00010000", "\uffff"], '{"\\ue000":0,"\\uffff":2,"\\ud800\\udc00":1}'),
    (["B", "a", "_"], '{"B":0,"_":2,"a":1}'),
]


@pytest.mark.parametrize("keys, expected", KEY_ORDERS)
def test_keys_sort_by_code_point(keys: list[str], expected: str) -> None:
    assert canon_args(Object([(k, i) for i, k in enumerate(keys)])) == expected


def test_sorting_is_recursive() -> None:
    args = Object([("b", [Object([("y", 1), ("x", Object([("d", 1), ("c", 2)]))])]), ("a", 0)])
    assert canon_args(args) == '{"a":0,"b":[{"x":{"c":2,"d":1},"y":1}]}'


# --- §4.1 structure ------------------------------------------------------------

STRUCTURES = [
    (Object(), "{}"),
    ([], "[]"),
    (Object([("a", [])]), '{"a":[]}'),
    (Object([("a", Object())]), '{"a":{}}'),
    ([[], Object(), [[]]], "[[],{},[[]]]"),
    ([None, True, False], "[null,true,false]"),
]


@pytest.mark.parametrize("args, expected", STRUCTURES, ids=[e for _, e in STRUCTURES])
def test_structure(args: object, expected: str) -> None:
    assert canon_args(args) == expected


def test_empty_args() -> None:
    assert canonical({"tool_name": "", "args": {}}) == b'{"args":{},"tool_name":""}'


# --- §3 depth --------------------------------------------------------------------


@pytest.mark.parametrize("depth", [3, 50, 100, 511, MAX_DEPTH])
def test_depth_up_to_512_is_accepted(depth: int) -> None:
    assert canonical(envelope_of_depth(depth)) == envelope_of_depth_text(depth).encode()


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 600, 1000, 100_000])
def test_depth_past_512_is_too_deep(depth: int) -> None:
    assert error_code(envelope_of_depth(depth)) == "too_deep"
    assert error_code(nested_arrays(depth)) == "too_deep"


def test_bare_arrays_depth_512_pass_the_walk() -> None:
    assert canonical_value(nested_arrays(512)) == b"[" * 512 + b"]" * 512
    assert error_code(nested_arrays(512)) == "bad_envelope"


def test_a_scalar_inside_512_arrays_is_still_depth_512() -> None:
    assert canonical_value(nested_arrays(512, leaf=1)) == b"[" * 512 + b"1" + b"]" * 512


def test_depth_check_needs_bounded_stack() -> None:
    """A caller with only ~530 frames of headroom still gets too_deep for a
    100,000-level value: the walk stops at level 513."""
    frames = len(inspect.stack(0))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(frames + 530)
    try:
        with pytest.raises(CanonicalError) as caught:
            canonical(nested_arrays(100_000))
        assert caught.value.code == "too_deep"
        assert canonical(envelope_of_depth(512))
    finally:
        sys.setrecursionlimit(old)


# --- §3 error codes and precedence --------------------------------------------------

DEEP_513 = "[" * 513 + "]" * 513

PRECEDENCE_EXAMPLES = [
    ('{"tool_name":"t","args":{"a":1,"a":2}}', "duplicate_key"),
    ('{"tool_name":"\\ud800","args":{}}', "lone_surrogate"),
    ('{"tool_name":"t","args":{"a":1,"a":"\\udc00"}}', "duplicate_key"),
    ('{"args":{"\\udc00":1,"\\udc00":2},"tool_name":"t"}', "lone_surrogate"),
    ('{"tool_name":"t","args":[]}', "bad_envelope"),
    ('{"tool_name":1,"args":{}}', "bad_envelope"),
    ('{"tool_name":"t","args":{},"x":null}', "bad_envelope"),
    (DEEP_513, "too_deep"),
    ('{"tool_name":"t","args":{"a":1,"a":1},"x":0}', "duplicate_key"),
]


@pytest.mark.parametrize("text, code", PRECEDENCE_EXAMPLES, ids=[t[:40] for t, _ in PRECEDENCE_EXAMPLES])
def test_spec_precedence_examples(text: str, code: str) -> None:
    assert error_code(loads(text)) == code


MORE_ERRORS: list[tuple[object, str | None]] = [
    # bad_envelope shapes
    (None, "bad_envelope"),
    ("x", "bad_envelope"),
    ([], "bad_envelope"),
    (Object(), "bad_envelope"),
    (Object([("tool_name", "t")]), "bad_envelope"),
    (Object([("args", Object())]), "bad_envelope"),
    (Object([("tool_name", "t"), ("arg", Object())]), "bad_envelope"),
    (envelope(Object(), tool_name=None), "bad_envelope"),
    (envelope([]), "bad_envelope"),
    (envelope(None), "bad_envelope"),
    (envelope("{}"), "bad_envelope"),
    # the order of tool_name and args does not matter
    (Object([("args", Object()), ("tool_name", "t")]), None),
    # non-string keys, lone surrogates, duplicates, unsupported values
    (envelope(Object([(1, 2)])), "non_string_key"),
    (envelope(Object([(None, 2)])), "non_string_key"),
    (envelope(Object([(b"k", 2)])), "non_string_key"),
    (envelope(Object([((1, 2), 2)])), "non_string_key"),
    (envelope({1: 2}), "non_string_key"),
    (envelope(Object([(True, 2)])), "non_string_key"),
    (envelope(Object([("\ud800", 1)])), "lone_surrogate"),
    (envelope(Object([("a\udfff", 1)])), "lone_surrogate"),
    (envelope(["\udc00x"]), "lone_surrogate"),
    (envelope(["\ud83d\ude00"]), "lone_surrogate"),  # two code points, not a pair in Python's model
    (envelope(Object([("a", 1), ("b", 2), ("a", 3)])), "duplicate_key"),
    (envelope(Object([("", 1), ("", 1)])), "duplicate_key"),
    (envelope([b"bin"]), "unsupported_value"),
    (envelope([(1, 2)]), "unsupported_value"),
    (envelope([{1, 2}]), "unsupported_value"),
    (envelope([Unsupported("ext type 9")]), "unsupported_value"),
    (envelope(Object([("a", 1), ("b",)])), "unsupported_value"),  # type: ignore[list-item]  # malformed on purpose
    (envelope(Object([1])), "unsupported_value"),  # type: ignore[list-item]  # malformed on purpose
    # precedence: walk order
    (envelope(Object([("a", [b"x"]), ("a", 1)])), "unsupported_value"),
    (envelope(Object([("a", 1), ("a", b"x")])), "duplicate_key"),
    (envelope(Object([("a", "\ud800"), (1, 1)])), "lone_surrogate"),
    (envelope(Object([(1, "\ud800")])), "non_string_key"),
    (envelope(Object([("\ud800", 1), (1, 1)])), "lone_surrogate"),
    (envelope(Object([("a", nested_arrays(600)), ("a", 1)])), "too_deep"),
    (envelope(Object([("a", 1), ("a", nested_arrays(600))])), "duplicate_key"),
    (envelope(Object([("x", [b"x", nested_arrays(600)])])), "unsupported_value"),
    (envelope(Object([("x", [nested_arrays(600), b"x"])])), "too_deep"),
    (Object([("tool_name", "\ud800"), ("args", [])]), "lone_surrogate"),
    (Object([("tool_name", 1), ("tool_name", "t")]), "duplicate_key"),
    (Object([(1, "t"), ("args", Object())]), "non_string_key"),
    (Object([("args", Object([("b", 1), ("b", 2)])), ("args", Object())]), "duplicate_key"),
]


@pytest.mark.parametrize("value, code", MORE_ERRORS, ids=[repr(v)[:60] for v, _ in MORE_ERRORS])
def test_errors_and_precedence(value: object, code: str | None) -> None:
    if code is None:
        assert canonical(value).startswith(b'{"args":')
    else:
        assert error_code(value) == code


def test_every_error_code_is_exercised() -> None:
    seen = {code for _, code in PRECEDENCE_EXAMPLES + MORE_ERRORS}
    assert set(ERROR_CODES) <= seen


def test_error_carries_code_and_message() -> None:
    error = CanonicalError("too_deep", "nesting deeper than 512")
    assert (error.code, error.message) == ("too_deep", "nesting deeper than 512")
    assert "too_deep" in str(error)


def test_no_silent_repair_of_input() -> None:
    value = envelope(Object([("a", 1), ("a", 2)]))
    with pytest.raises(CanonicalError):
        canonical(value)
    assert value == envelope(Object([("a", 1), ("a", 2)]))


def test_object_equality_requires_object() -> None:
    assert Object([("a", 1)]) == Object([("a", 1)])
    assert Object([("a", 1)]) != [("a", 1)]
    assert Object([("a", 1)]) != [("a", 1)]
    assert repr(Object([("a", 1)])) == "Object([('a', 1)])"
