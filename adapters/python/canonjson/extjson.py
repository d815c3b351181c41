"""Reader of the spec's extended JSON text (§6): Python's own ``json.loads``
is that syntax by definition, read so that member order and duplicate keys
survive and integers of any size parse."""

from __future__ import annotations

import json

from canonjson._canonical import Object, parse_int

#: Readers' limit on text size (spec §6).
MAX_TEXT = 64 * 1024 * 1024


def loads(text: str | bytes) -> object:
    """Parse extended JSON into the canonjson value model; raises ValueError
    (json.JSONDecodeError carries line and column) on malformed or too
    large or too deeply nested text."""
    if len(text) > MAX_TEXT:
        raise ValueError(f"extended JSON text larger than {MAX_TEXT} bytes")
    try:
        return json.loads(text, object_pairs_hook=Object, parse_int=parse_int)
    except RecursionError:
        raise ValueError("extended JSON text nested too deeply") from None
