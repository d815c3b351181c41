"""Each choice of a contract (docs/canonical-json.md §7) under the two
built-ins and a team's contract (this project's, DEL written raw), from the
table the Go implementation is held to as well (tests/fixtures/contracts.jsonl),
and contract files."""

from __future__ import annotations

import collections
import dataclasses
import enum
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from blake3 import blake3

from _support import envelope, nested_arrays
from canonjson import DEFAULT, CanonicalError, Encoding, Object, canonical, loads
from canonjson import contract as contracts

REPO = Path(__file__).resolve().parents[3]
#: The table both implementations are held to (the Go one in
#: adapters/go/contract_test.go): one line a value, its input in extended
#: JSON, and its text or error code under each contract.
TABLE = REPO / "tests" / "fixtures" / "contracts.jsonl"
#: A team's contract, this project's with DEL raw; named "our-sdk".
TEAM = contracts.load(REPO / "contract" / "testdata" / "del-raw.toml")
ENCODINGS = {"difffuzz": DEFAULT, "rfc8785": Encoding(contracts.RFC8785), "our-sdk": Encoding(TEAM)}


def outcome(call: Callable[[], bytes]) -> object:
    """A call's text, or {"error": code}, as the table writes them."""
    try:
        return call().decode("utf-8")
    except CanonicalError as e:
        return {"error": e.code}


def table() -> list[dict[str, Any]]:
    return [json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("row", table(), ids=lambda row: row["name"])
def test_table(row: dict[str, Any]) -> None:
    """Each choice of a contract, through canonical_value ("value") or
    canonical ("signed", where top_level decides)."""
    value = loads(row["input"])
    for name, enc in ENCODINGS.items():
        call = enc.canonical_value if row["call"] == "value" else enc.canonical
        got = outcome(lambda: call(value))  # noqa: B023 - called at once
        assert got == row[name], name
        if row["call"] == "signed" and isinstance(got, str):
            assert enc.signature(value) == blake3(got.encode("utf-8")).hexdigest(), name


def test_table_covers_every_choice() -> None:
    """Every row names all three contracts, and the table has rows where
    they differ: one per choice at least."""
    rows = table()
    assert all(set(ENCODINGS) <= row.keys() for row in rows)
    differ = {row["name"] for row in rows if len({json.dumps(row[c]) for c in ENCODINGS}) > 1}
    for name in ("non-ASCII", "DEL", "C1", "line separators", "keys by order", "2^53+1", "2^60", "NaN", "array"):
        assert name in differ


class _Big(enum.IntEnum):
    """An int subclass whose value is past 2^53, as an enum member is."""

    BIG = 2**53 + 1


@pytest.mark.parametrize(
    ("value", "difffuzz", "rfc8785"),
    [
        ({"\uffff": True, "\U00010000": False}, r'{"\uffff":true,"\ud800\udc00":false}', '{"\U00010000":false,"\uffff":true}'),
        (collections.OrderedDict([("b", math.inf)]), r'{"b":Infinity}', {"error": "unsupported_value"}),
        (_Big.BIG, "9007199254740993", {"error": "unsupported_value"}),
    ],
    ids=["dict keys by order", "OrderedDict", "IntEnum"],
)
def test_python_types(value: object, difffuzz: object, rfc8785: object) -> None:
    """The Python types beyond the table's model: dict, subclasses."""
    assert outcome(lambda: DEFAULT.canonical_value(value)) == difffuzz
    assert outcome(lambda: ENCODINGS["rfc8785"].canonical_value(value)) == rfc8785


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
def test_class_wins_over_non_ascii(strings: dict[str, Any], want: str) -> None:
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
    team = contracts.parse('name = "our-sdk"\n\n[strings]\ndel = "raw"\n', "team")
    assert team == TEAM == dataclasses.replace(contracts.DIFFFUZZ, name="our-sdk", base="difffuzz", del_="raw")
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


def test_resolve(tmp_path: Path) -> None:
    path = tmp_path / "del-raw.toml"
    path.write_text('[strings]\ndel = "raw"\n', encoding="utf-8")
    assert contracts.resolve("") == contracts.DIFFFUZZ
    assert contracts.resolve("rfc8785") == contracts.RFC8785
    assert contracts.resolve(str(path)).name == "del-raw"
    with pytest.raises(ValueError, match=r"nope\.toml"):
        contracts.resolve(str(tmp_path / "nope.toml"))


def test_big_ints_double() -> None:
    """numbers.big_ints = double: an integer past 2^53 is the nearest
    double, as JSON.parse reads its text (RFC 8785 §3.2.2); one past the
    largest double is refused."""
    enc = Encoding(contracts.parse('base = "rfc8785"\n\n[numbers]\nbig_ints = "double"\n', "doubles"))
    assert enc.canonical(2**53 + 1) == b"9007199254740992"
    assert enc.canonical(-(2**53 + 3)) == b"-9007199254740996"
    assert enc.canonical(10**30 + 1) == b"1e+30"
    with pytest.raises(CanonicalError, match="past the largest double"):
        enc.canonical(10**400)


def test_parse_allows() -> None:
    """A file's [allows] table is the judge's: it reads, and an unknown key
    in it is refused."""
    jcs = contracts.parse('base = "rfc8785"\n\n[allows]\nerror_codes = "exact"\ndepth_floor = 0\n', "strict")
    assert jcs == dataclasses.replace(contracts.RFC8785, name="strict", base="rfc8785")
    with pytest.raises(ValueError, match=r"unknown key allows\.colour"):
        contracts.parse('[allows]\ncolour = "red"\n', "file")
