"""Shared helpers of the kit's tests."""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from difffuzz_kit import ExactObject
from difffuzz_kit._answers import Canonicalize
from difffuzz_kit._models import Model
from difffuzz_kit._serve import PROTOCOL
from difffuzz_kit._wire import RawCases, unpack_batch
from difffuzz_kit.testing import batch, frame, messages, request, texts
from difffuzz_kit.testing import session as kit_session

__all__ = [
    "args_with",
    "batch",
    "batch_stream",
    "checkout_file",
    "envelope",
    "frame",
    "line_of",
    "map_of",
    "messages",
    "nested_arrays",
    "raw_cases",
    "request",
    "same",
    "session",
    "texts",
]


def envelope(args: object, tool_name: object = "t") -> ExactObject:
    """The signed value around ``args``."""
    return ExactObject([("tool_name", tool_name), ("args", args)])


def nested_arrays(depth: int, leaf: object = None) -> object:
    """``depth`` arrays one inside the other (built without recursion)."""
    value: object = [] if leaf is None else [leaf]
    for _ in range(depth - 1):
        value = [value]
    return value


def map_of(key_wire: bytes) -> bytes:
    """A case {"tool_name":"t","args":{<key>: 1}} with a raw key."""
    return b"\x82\xa9tool_name\xa1t\xa4args\x81" + key_wire + b"\x01"


def args_with(value_wire: bytes) -> bytes:
    """A case {"tool_name":"t","args":{"a": <value>}} with a raw value."""
    return b"\x82\xa9tool_name\xa1t\xa4args\x81\xa1a" + value_wire


def same(a: object, b: object) -> bool:
    """Structural identity: int vs float vs bool kept apart, NaN equal to
    NaN, -0.0 different from 0.0, dict and ExactObject both compared as ordered
    member lists, but a dict never the same as ExactObject."""
    if isinstance(a, (dict, ExactObject)) or isinstance(b, (dict, ExactObject)):
        if type(a) is not type(b):
            return False
        ma, mb = _members(a), _members(b)
        return len(ma) == len(mb) and all(same(ka, kb) and same(va, vb) for (ka, va), (kb, vb) in zip(ma, mb, strict=True))
    if type(a) is not type(b):
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return a == b


def _members(value: object) -> list[tuple[object, object]]:
    """A dict's or a ExactObject' members, in order."""
    if isinstance(value, dict):
        return list(value.items())
    assert isinstance(value, ExactObject)
    return list(value)


def batch_stream(body: bytes | memoryview, model: Model) -> tuple[dict[str, object], Iterator[object]]:
    """:func:`unpack_batch` of a frame it must read."""
    got = unpack_batch(body, model.options, model.stream)
    assert got is not None
    return got


def raw_cases(request: dict[str, object]) -> RawCases:
    """A request's cases as :func:`read_request` reads them."""
    cases = request["cases"]
    assert isinstance(cases, RawCases)
    return cases


def session(
    fn: Canonicalize, model: Model, *bodies: bytes, raw: bytes = b"", protocol: int = PROTOCOL
) -> tuple[int, list[dict[str, Any]]]:
    """:func:`difffuzz_kit.testing.session` with the model first."""
    return kit_session(fn, *bodies, model=model, raw=raw, protocol=protocol)


def checkout_file(relative: str) -> Path | None:
    """A file of the difffuzz repository these tests are in (as
    kits/python/tests/), such as ``docs/your-sdk.md``; None when there is
    none: run from a copy of tests/ (against an installed wheel, say), for a
    test to skip with its reason."""
    kit = Path(__file__).resolve().parent.parent
    path = kit.parent.parent / relative
    if kit.parent.name == "kits" and (kit / "pyproject.toml").is_file() and path.is_file():
        return path
    return None


def line_of(fn: Callable[..., object], text: str) -> int:
    """The line number of the one line of ``fn``'s source that holds
    ``text``, so that a test names a line without counting."""
    lines, start = inspect.getsourcelines(fn)
    (index,) = [i for i, line in enumerate(lines) if text in line]
    return start + index
