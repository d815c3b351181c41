"""Shared helpers of the kit's tests."""

from __future__ import annotations

import math
import struct

from difffuzz_kit import Members


def envelope(args: object, tool_name: object = "t") -> Members:
    """The signed value around ``args``."""
    return Members([("tool_name", tool_name), ("args", args)])


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


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def same(a: object, b: object) -> bool:
    """Structural identity: int vs float vs bool kept apart, NaN equal to
    NaN, -0.0 different from 0.0, dict and Members both compared as ordered
    member lists, but a dict never the same as Members."""
    if isinstance(a, (dict, Members)) or isinstance(b, (dict, Members)):
        if type(a) is not type(b):
            return False
        ma = list(a.items()) if isinstance(a, dict) else list(a)  # type: ignore[union-attr]
        mb = list(b.items()) if isinstance(b, dict) else list(b)  # type: ignore[union-attr]
        return len(ma) == len(mb) and all(same(ka, kb) and same(va, vb) for (ka, va), (kb, vb) in zip(ma, mb))
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))  # type: ignore[arg-type]
    if isinstance(a, float):
        if math.isnan(a):
            return math.isnan(b)  # type: ignore[arg-type]
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)  # type: ignore[arg-type]
    return a == b
