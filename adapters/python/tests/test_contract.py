"""Each choice of a contract (docs/canonical-json.md §7) under the two
built-ins and a team's contract (this project's, DEL written raw): the same
table as the Go implementation's adapters/go/contract_test.go."""

from __future__ import annotations

import dataclasses
import math

import pytest
from blake3 import blake3

from _support import envelope, nested_arrays
from canonjson import DEFAULT, CanonicalError, Encoding, Object, canonical
from canonjson import contract as contracts

TEAM = contracts.parse('name = "our-sdk"\n\n[strings]\ndel = "raw"\n', "team")
ENCODINGS = {"difffuzz": DEFAULT, "rfc8785": Encoding(contracts.RFC8785), "team": Encoding(TEAM)}


def err(code: str) -> tuple[str, str]:
    return ("error", code)


def outcome(call) -> object:  # noqa: ANN001 - a callable
    try:
        return call().decode("utf-8")
    except CanonicalError as e:
        return err(e.code)


BIG_2_70 = 2**70
TEN_400 = 10**400

# (name, value, difffuzz, rfc8785, team)
VALUES = [
    # strings.non_ascii, .del, .c1, .line_separators
    ("non-ASCII", "é€", r'"\u00e9\u20ac"', '"é€"', r'"\u00e9\u20ac"'),
    ("astral", "😂", r'"\ud83d\ude02"', '"😂"', r'"\ud83d\ude02"'),
    ("DEL", "a\x7fb", r'"a\u007fb"', '"a\x7fb"', '"a\x7fb"'),
    ("C1", "\x80\x85\x9f", r'"\u0080\u0085\u009f"', '"\x80\x85\x9f"', r'"\u0080\u0085\u009f"'),
    ("U+00A0 after C1", "\xa0", r'"\u00a0"', '"\xa0"', r'"\u00a0"'),
    ("line separators", "\u2028\u2029", r'"\u2028\u2029"', '"\u2028\u2029"', r'"\u2028\u2029"'),
    ("shared escapes", '"\\\b\f\n\r\t\x00\x0f\x1f/', *[r'"\"\\\b\f\n\r\t\u0000\u000f\u001f/"'] * 3),
    ("lone surrogate", "a\ud800", *[err("lone_surrogate")] * 3),
    # key_order: U+FB33 (one UTF-16 unit) against U+1F602 (D83D first)
    (
        "keys by order",
        Object([("😂", 1), ("\ufb33", 2), ("a", 3)]),
        r'{"a":3,"\ufb33":2,"\ud83d\ude02":1}',
        '{"a":3,"😂":1,"\ufb33":2}',
        r'{"a":3,"\ufb33":2,"\ud83d\ude02":1}',
    ),
    (
        "dict keys by order",
        {"\uffff": True, "\U00010000": False},
        r'{"\uffff":true,"\ud800\udc00":false}',
        '{"\U00010000":false,"\uffff":true}',
        r'{"\uffff":true,"\ud800\udc00":false}',
    ),
    (
        "keys around the surrogates",
        Object([("\ue000", None), ("\U0010ffff", None), ("\ud7ff", None)]),
        r'{"\ud7ff":null,"\ue000":null,"\udbff\udfff":null}',
        '{"\ud7ff":null,"\U0010ffff":null,"\ue000":null}',
        r'{"\ud7ff":null,"\ue000":null,"\udbff\udfff":null}',
    ),
    ("duplicate key", Object([("a", 1), ("a", math.nan)]), *[err("duplicate_key")] * 3),
    # numbers.big_ints: past +-2**53 rfc8785 writes the double that holds
    # the integer (RFC 8785 §3.2.2.3) and rejects one that no double holds
    ("2^53", 2**53, *["9007199254740992"] * 3),
    ("-2^53", -(2**53), *["-9007199254740992"] * 3),
    ("2^53+1", 2**53 + 1, "9007199254740993", err("unsupported_value"), "9007199254740993"),
    ("-(2^53+1)", -(2**53 + 1), "-9007199254740993", err("unsupported_value"), "-9007199254740993"),
    ("2^53+2", 2**53 + 2, *["9007199254740994"] * 3),
    ("2^60", 2**60, "1152921504606846976", "1152921504606847000", "1152921504606846976"),
    ("int64 min", -(2**63), "-9223372036854775808", "-9223372036854776000", "-9223372036854775808"),
    ("int64 max", 2**63 - 1, "9223372036854775807", err("unsupported_value"), "9223372036854775807"),
    ("uint64 max", 2**64 - 1, "18446744073709551615", err("unsupported_value"), "18446744073709551615"),
    ("2^64-2^11", 2**64 - 2**11, "18446744073709549568", "18446744073709550000", "18446744073709549568"),
    ("2^70", BIG_2_70, str(BIG_2_70), "1.1805916207174113e+21", str(BIG_2_70)),
    ("2^70+1", BIG_2_70 + 1, str(BIG_2_70 + 1), err("unsupported_value"), str(BIG_2_70 + 1)),
    ("10^400", TEN_400, str(TEN_400), err("unsupported_value"), str(TEN_400)),
    ("2^1023", 2**1023, str(2**1023), "8.98846567431158e+307", str(2**1023)),
    ("2^1024", 2**1024, str(2**1024), err("unsupported_value"), str(2**1024)),
    ("big int after lone surrogate", ["\ud800", 2**53 + 1], *[err("lone_surrogate")] * 3),
    ("big int before lone surrogate", [2**53 + 1, "\ud800"], err("lone_surrogate"), err("unsupported_value"), err("lone_surrogate")),
    # numbers.non_finite
    ("NaN", math.nan, "NaN", err("unsupported_value"), "NaN"),
    ("+Infinity", math.inf, "Infinity", err("unsupported_value"), "Infinity"),
    ("-Infinity", [-math.inf], "[-Infinity]", err("unsupported_value"), "[-Infinity]"),
    ("finite floats", [-0.0, 1e21, 5e-324, 1.5], *["[0,1e+21,5e-324,1.5]"] * 3),
]


@pytest.mark.parametrize(("value", "want"), [(v, w) for _, v, *w in VALUES], ids=[row[0] for row in VALUES])
def test_values(value: object, want: list[object]) -> None:
    for (name, enc), expected in zip(ENCODINGS.items(), want):
        assert outcome(lambda: enc.canonical_value(value)) == expected, name


# (name, value, difffuzz, rfc8785, team): top_level, through canonical
TOP_LEVEL = [
    (
        "envelope",
        envelope(Object([("k", "\x7f")])),
        r'{"args":{"k":"\u007f"},"tool_name":"t"}',
        '{"args":{"k":"\x7f"},"tool_name":"t"}',
        '{"args":{"k":"\x7f"},"tool_name":"t"}',
    ),
    ("array", [1], err("bad_envelope"), "[1]", err("bad_envelope")),
    ("string", "x", err("bad_envelope"), '"x"', err("bad_envelope")),
    ("null", None, err("bad_envelope"), "null", err("bad_envelope")),
    (
        "three members",
        Object([("tool_name", "t"), ("args", Object()), ("x", None)]),
        err("bad_envelope"),
        '{"args":{},"tool_name":"t","x":null}',
        err("bad_envelope"),
    ),
    ("walk before envelope", [math.nan], err("bad_envelope"), err("unsupported_value"), err("bad_envelope")),
]


@pytest.mark.parametrize(("value", "want"), [(v, w) for _, v, *w in TOP_LEVEL], ids=[row[0] for row in TOP_LEVEL])
def test_top_level(value: object, want: list[object]) -> None:
    for (name, enc), expected in zip(ENCODINGS.items(), want):
        got = outcome(lambda: enc.canonical(value))
        assert got == expected, name
        if isinstance(got, str):
            assert enc.signature(value) == blake3(got.encode("utf-8")).hexdigest(), name


@pytest.mark.parametrize(
    ("strings", "want"),
    [
        ({"non_ascii": "raw", "line_separators": "raw"}, '"é\\u0085\u2028\\u007f"'),
        ({"non_ascii": "raw", "del_": "raw", "c1": "raw", "line_separators": "escape"}, '"é\x85\\u2028\x7f"'),
        ({"c1": "raw"}, '"\\u00e9\x85\\u2028\\u007f"'),
        ({"line_separators": "raw"}, '"\\u00e9\\u0085\u2028\\u007f"'),
    ],
    ids=["raw but C1 escaped", "raw but line separators escaped", "escaped but C1 raw", "escaped but line separators raw"],
)
def test_class_wins_over_non_ascii(strings: dict[str, str], want: str) -> None:
    enc = Encoding(dataclasses.replace(contracts.DIFFFUZZ, name="classes", **strings))
    assert enc.canonical_value("é\x85\u2028\x7f").decode("utf-8") == want


def test_max_depth() -> None:
    enc = Encoding(dataclasses.replace(contracts.RFC8785, name="shallow", max_depth=3))
    assert enc.canonical(nested_arrays(3)) == b"[[[]]]"
    with pytest.raises(CanonicalError, match="deeper than 3") as caught:
        enc.canonical(nested_arrays(4))
    assert caught.value.code == "too_deep"
    for enc in ENCODINGS.values():
        enc.canonical_value(nested_arrays(512))
        with pytest.raises(CanonicalError) as caught:
            enc.canonical_value(nested_arrays(513))
        assert caught.value.code == "too_deep"


def test_messages_name_the_choice() -> None:
    rfc = ENCODINGS["rfc8785"]
    with pytest.raises(CanonicalError, match=r"9007199254740993 .*contract rfc8785 \(numbers.big_ints = error\)"):
        rfc.canonical(envelope(Object([("n", 2**53 + 1)])))
    with pytest.raises(CanonicalError, match=r"-Infinity .*contract rfc8785 \(numbers.non_finite = error\)"):
        rfc.canonical([-math.inf])


def test_default_is_the_module() -> None:
    value = envelope(Object([("é", [2**70, math.nan, "\u2028"])]))
    assert DEFAULT.contract == contracts.DIFFFUZZ
    assert DEFAULT.canonical(value) == canonical(value)


# --- contract files ------------------------------------------------------


def test_parse_a_team_file() -> None:
    assert TEAM == dataclasses.replace(contracts.DIFFFUZZ, name="our-sdk", base="difffuzz", del_="raw")
    jcs = contracts.parse('base = "rfc8785"\ntop_level = "envelope"\n', "jcs-envelope")
    assert jcs == dataclasses.replace(contracts.RFC8785, name="jcs-envelope", base="rfc8785", top_level="envelope")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('base = "jcs"\n', "base = 'jcs'"),
        ('colour = "red"\n', "unknown key colour"),
        ('[strings]\ntabs = "raw"\n', "unknown key strings.tabs"),
        ('[strings]\ndel = "maybe"\n', "strings.del = 'maybe'"),
        ('key_order = "alphabetical"\n', "key_order"),
        ("max_depth = 0\n", "max_depth = 0"),
        ('name = "rfc8785"\n', "is a built-in's"),
    ],
)
def test_parse_refuses(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        contracts.parse(text, "file")


def test_resolve(tmp_path) -> None:  # noqa: ANN001 - pytest's fixture
    path = tmp_path / "del-raw.toml"
    path.write_text('[strings]\ndel = "raw"\n', encoding="utf-8")
    assert contracts.resolve("") == contracts.DIFFFUZZ
    assert contracts.resolve("rfc8785") == contracts.RFC8785
    assert contracts.resolve(str(path)).name == "del-raw"
    with pytest.raises(ValueError, match="nope.toml"):
        contracts.resolve(str(tmp_path / "nope.toml"))
