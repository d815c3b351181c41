"""The text model's writer: every spelling reads back, under the spec's
reader (json.loads with object_pairs_hook, docs/canonical-json.md §6), as the
case it spells; the same value is spelled in many ways across cases; only
what JSON text cannot spell is inexpressible."""

from __future__ import annotations

import json
import math
import random
import sys

import pytest

from _support import map_of, nested_arrays
from difffuzz_kit import Inexpressible, Members, Text, Unsupported, json_text
from difffuzz_kit.json_text import to_text


def same(a: object, b: object) -> bool:
    """Equality of the spec's value model: int apart from float, -0.0 apart
    from 0.0, NaN equal to NaN, objects as member lists."""
    if type(a) is not type(b):
        return False
    if type(a) is float:
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))  # type: ignore[arg-type]
    if type(a) is list:
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))  # type: ignore[arg-type]
    if type(a) is Members:
        return len(a) == len(b) and all(same(k, l) and same(x, y) for (k, x), (l, y) in zip(a, b))  # type: ignore[arg-type]
    return a == b


def read(text: str) -> object:
    """The spec's reader; past 4,300 digits it needs the digit limit off."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.loads(text, object_pairs_hook=Members)
    finally:
        sys.set_int_max_str_digits(limit)


EDGES = [
    None, True, False, 0, -1, -(2**63), 2**64 - 1, 2**64, 10**40, 10**5000,
    0.0, -0.0, 1.0, 100.0, 1e21, 1e-7, 1.5e-8, 123456.789, 5e-324, 1.7976931348623157e308, -2.5,
    math.nan, math.inf, -math.inf,
    "", 'A/"\\\b\f\n\r\t\x00\x1f\x7f', "é€😀", "\ud800", "a\udc00\ud800😀",
    [], Members(), Members([("a", 1), ("a", 2.0)]), nested_arrays(200, 1),
]


def random_string(r: random.Random) -> str:
    return "".join(r.choice('"\\/\x00\n\x1fa\x7f\xe9\ufeff\U0001f600\ud800') for _ in range(r.randrange(8)))


def random_value(r: random.Random, depth: int) -> object:
    n = r.randrange(10 if depth else 6)
    if n == 0:
        return r.choice([None, True, False])
    if n == 1:
        return r.getrandbits(r.randrange(1, 90)) * r.choice([1, -1])
    if n == 2:
        return r.choice([0.0, 1.0, 0.1, 1e22, 1e-300, 123.456, 2.0**60, math.nan]) * r.choice([1, -1])
    if n == 3:
        return r.uniform(-1e6, 1e6) * 10.0 ** r.randrange(-300, 300)
    if n <= 5:
        return random_string(r)
    if n <= 7:
        return [random_value(r, depth - 1) for _ in range(r.randrange(4))]
    return Members((random_string(r), random_value(r, depth - 1)) for _ in range(r.randrange(4)))


def test_round_trip() -> None:
    r = random.Random(1)
    for value in EDGES + [random_value(r, 4) for _ in range(2000)]:
        text = json_text(value)
        assert same(read(text), value), (value, text)


def test_any_depth() -> None:
    """The writer keeps no Python frame per level."""
    text = json_text(nested_arrays(5000))
    assert text.count("[") == text.count("]") == 5000


def test_variety_and_determinism() -> None:
    for leaf in ['A/"é😀\n', 100.0, -0.00015, Members([("k", None)])]:
        seen = set()
        for i in range(200):
            text = json_text([i, leaf])
            assert json_text([i, leaf]) == text
            seen.add(text[text.index(",") + 1 :])
        assert len(seen) >= 20, (leaf, len(seen))


def test_golden() -> None:
    """The text of a fixed value, the same line in every kit's tests."""
    value = Members(
        [
            ("tool_name", 'a/"é😀\n'),
            ("args", Members([("n", [-12, 1.5, 100.0, 0.0, 1e-9, 2**64]), ("n", [None, True, False, "\ud800"])])),
        ]
    )
    want = "\n{\"tool_\\u006Eame\"\n  :\"a\\/\\u0022é😀\\n\",  \"args\":\t{\n\"n\"\n  :[  -12,1.5\r\n, 0.1e+3,\t0.0E0,0.1e-8,\r\n18446744073709551616],\"n\":\n  [null\n,\ntrue,\tfalse, \"\\uD800\"]}}\n  "
    assert json_text(value) == want


@pytest.mark.parametrize(
    "value, reason",
    [
        ([b"\x01"], "unsupported_value"),
        (Unsupported("msgpack ext type 9"), "unsupported_value"),
        (Members([(1, None)]), "non_string_key"),
        (Members([("a", Members([("b", None), ((), None)]))]), "non_string_key"),
    ],
)
def test_inexpressible(value: object, reason: str) -> None:
    got = to_text(value)
    assert type(got) is Inexpressible and got.reason == reason


def test_model_reads_the_wire() -> None:
    """The model's case() reads a case's bytes exactly, then spells it."""
    model = Text()
    assert type(model.case(map_of(b"\x01"))) is Inexpressible
    assert same(read(model.case(map_of(b"\xa1k"))), Members([("tool_name", "t"), ("args", Members([("k", 1)]))]))  # type: ignore[arg-type]
