"""Shared helpers of the canonjson tests."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from canonjson import Object
from canonjson.contract import DIFFFUZZ

# The contract the fixtures must be written for: canonjson's default
# encoding (canonical()) follows it.
FIXTURE_CONTRACT = DIFFFUZZ.name


class FixtureContractError(Exception):
    """A fixture file without its contract header, or of another contract."""


def fixture_entries(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """The cases of a fixture file as (line number, entry), after checking
    its header line {"contract": NAME} names FIXTURE_CONTRACT: fixtures of
    another contract would hold canonjson to the wrong answers."""
    lines = path.read_text("ascii").splitlines()
    numbered = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    if not numbered:
        return []
    (n, head), cases = numbered[0], numbered[1:]
    try:
        contract = json.loads(head).get("contract")
    except (ValueError, AttributeError):
        contract = None
    if contract is None:
        raise FixtureContractError(
            f'{path.name}:{n}: want the header line {{"contract": "{FIXTURE_CONTRACT}"}} first '
            "(fixtures written before contracts? make fixtures regenerates them)"
        )
    if contract != FIXTURE_CONTRACT:
        raise FixtureContractError(
            f"{path.name}:{n}: fixtures of contract {contract!r}, "
            f"but these tests hold canonjson's default to {FIXTURE_CONTRACT!r}"
        )
    return [(number, json.loads(line)) for number, line in cases]


def envelope(args: object, tool_name: object = "t") -> Object:
    """The signed value around ``args``."""
    return Object([("tool_name", tool_name), ("args", args)])


def nested_arrays(depth: int, leaf: object = None) -> object:
    """``depth`` arrays one inside the other (built without recursion)."""
    value: object = [] if leaf is None else [leaf]
    for _ in range(depth - 1):
        value = [value]
    return value


def envelope_of_depth(depth: int) -> Object:
    """A signed value whose depth (spec §3) is exactly ``depth`` >= 3: the
    envelope (1), args (2), then ``depth - 2`` nested arrays."""
    return envelope(Object([("a", nested_arrays(depth - 2))]))


def envelope_of_depth_text(depth: int) -> str:
    """The canonical text of :func:`envelope_of_depth`."""
    return '{"args":{"a":' + "[" * (depth - 2) + "]" * (depth - 2) + '},"tool_name":"t"}'


def same(a: object, b: object) -> bool:
    """Structural identity in the value model: int vs float vs bool kept
    apart, NaN equal to NaN, -0.0 different from 0.0, dict and Object both
    compared as ordered member lists."""
    if isinstance(a, (dict, Object)) and isinstance(b, (dict, Object)):
        ma = list(a.items()) if isinstance(a, dict) else list(a)
        mb = list(b.items()) if isinstance(b, dict) else list(b)
        return len(ma) == len(mb) and all(same(ka, kb) and same(va, vb) for (ka, va), (kb, vb) in zip(ma, mb, strict=True))
    if type(a) is not type(b):
        return False
    if isinstance(a, list) and isinstance(b, list):  # one type, as checked above
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return a == b


def first_difference(expected: bytes, actual: bytes) -> str:
    """Where two byte strings first differ, with a little context, for
    failure messages that point at the byte to look at."""
    limit = min(len(expected), len(actual))
    offset = next((i for i in range(limit) if expected[i] != actual[i]), limit)
    lo = max(0, offset - 20)
    return (
        f"first differing byte at offset {offset}: "
        f"expected ...{expected[lo : offset + 20]!r}... got ...{actual[lo : offset + 20]!r}..."
    )
