"""Properties of canonical text over generated values (hypothesis)."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from _support import envelope, same
from canonjson import CanonicalError, Object, Unsupported, canonical, canonical_value, format_float, loads
from difffuzz_kit import Exact
from difffuzz_kit.testing import pack as kit_pack

settings.register_profile("canonjson", max_examples=100, deadline=None)
settings.load_profile("canonjson")

keys = st.text(max_size=6)  # hypothesis text() never yields surrogates
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**200), max_value=2**200),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)


def objects(children: st.SearchStrategy) -> st.SearchStrategy:
    return st.dictionaries(keys, children, max_size=5).map(lambda d: Object(d.items()))


values = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=5), objects(children), st.dictionaries(keys, children, max_size=4)),
    max_leaves=20,
)
signed = st.builds(envelope, objects(values), st.text(max_size=8))


def equal_modulo_numbers(original: object, parsed: object) -> bool:
    """Reading canonical text back gives the value again, except that floats
    may come back as integers ("1.0" prints 1) and objects come back sorted."""
    if isinstance(original, (dict, Object)):
        members = sorted(original.items() if isinstance(original, dict) else original)
        return (
            isinstance(parsed, Object)
            and len(members) == len(parsed)
            and all(k == pk and equal_modulo_numbers(v, pv) for (k, v), (pk, pv) in zip(members, parsed, strict=True))
        )
    if isinstance(original, list):
        return (
            isinstance(parsed, list)
            and len(original) == len(parsed)
            and all(equal_modulo_numbers(a, b) for a, b in zip(original, parsed, strict=True))
        )
    if isinstance(original, bool) or original is None or isinstance(original, str):
        return type(parsed) is type(original) and parsed == original
    if isinstance(original, int):
        return type(parsed) is int and parsed == original
    assert isinstance(original, float)
    if math.isnan(original):
        return isinstance(parsed, float) and math.isnan(parsed)
    return isinstance(parsed, (int, float)) and not isinstance(parsed, bool) and float(parsed) == original


def object_key_lists(value: object) -> Iterator[list[Any]]:
    if isinstance(value, Object):
        yield [k for k, _ in value]
        for _, v in value:
            yield from object_key_lists(v)
    elif isinstance(value, list):
        for v in value:
            yield from object_key_lists(v)


STRING_LITERAL = re.compile(rb'"(?:[^"\\]|\\.)*"')


@given(signed)
def test_output_is_printable_ascii_without_whitespace_outside_strings(value: Object) -> None:
    text = canonical(value)
    assert all(0x20 <= b <= 0x7E for b in text)
    assert b" " not in STRING_LITERAL.sub(b"", text)


@given(signed)
def test_parse_back_gives_the_value(value: Object) -> None:
    parsed = loads(canonical(value))
    assert equal_modulo_numbers(value, parsed)


@given(signed)
def test_keys_are_sorted_by_code_point_at_every_level(value: Object) -> None:
    for keys_in_order in object_key_lists(loads(canonical(value))):
        assert keys_in_order == sorted(keys_in_order)
        assert keys_in_order == sorted(keys_in_order, key=lambda k: k.encode("utf-8"))


@given(signed)
def test_idempotent(value: Object) -> None:
    text = canonical(value)
    assert canonical(loads(text)) == text


@given(signed, st.randoms(use_true_random=False))
def test_member_order_does_not_matter(value: Object, rnd: random.Random) -> None:
    def shuffled(v: object) -> object:
        if isinstance(v, (dict, Object)):
            members = [(k, shuffled(x)) for k, x in (v.items() if isinstance(v, dict) else v)]
            rnd.shuffle(members)
            return Object(members)
        if isinstance(v, list):
            return [shuffled(x) for x in v]
        return v

    assert canonical(shuffled(value)) == canonical(value)


@given(signed)
def test_wire_round_trip_keeps_the_value_and_the_text(value: Object) -> None:
    decoded = Exact(members=Object, unsupported=Unsupported).case(kit_pack(value, members=Object))
    assert same(decoded, value)
    assert canonical(decoded) == canonical(value)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_text_reads_back_as_the_same_double(x: float) -> None:
    text = format_float(x)
    assert float(text) == x
    assert canonical_value([x]) == f"[{text}]".encode()


@given(st.integers(min_value=-(10**40), max_value=10**40))
def test_integer_text_is_plain_decimal(n: int) -> None:
    assert canonical_value([n]) == f"[{n}]".encode()


DEFECTS = {
    "duplicate_key": lambda args: Object([*args, ("dup", 1), ("dup", 2)]),
    "lone_surrogate": lambda args: Object([*args, ("s", ["\udbff"])]),
    "non_string_key": lambda args: Object([*args, (7, 1)]),
    "unsupported_value": lambda args: Object([*args, ("b", [b"bin"])]),
}


@given(objects(values), st.sampled_from(sorted(DEFECTS)))
def test_a_single_defect_is_reported_by_its_code(args: Object, code: str) -> None:
    args = Object([(k, v) for k, v in args if k not in ("dup", "s", "b")])
    try:
        canonical(envelope(DEFECTS[code](args)))
    except CanonicalError as error:
        assert error.code == code
    else:
        raise AssertionError(f"{code} not reported")
