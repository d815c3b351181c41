"""The SDK that wrote its own encoder: a recursive walk that quotes strings
with json.dumps but splices keys between quotes as they are, prints floats
with %.17g, and, so that "a signature never fails a tool call", turns any
exception into the text ``null``. Its text model parses with json.loads."""

import json
import sys

from triagebench_py._worker import main


def canonical(value: object) -> bytes:
    """The canonical bytes of ``value``; never raises."""
    try:
        return encode(value).encode("ascii")
    except Exception:  # a signature must never fail the call
        return b"null"


def canonical_text(text: str) -> bytes:
    """The canonical bytes of JSON text, parsed by json.loads."""
    return canonical(json.loads(text))


def encode(value: object) -> str:
    """The canonical text of ``value``, by recursion."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "%.17g" % value
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ",".join(encode(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join('"%s":%s' % (k, encode(value[k])) for k in sorted(value)) + "}"
    raise TypeError(f"cannot encode {type(value).__name__}")


if __name__ == "__main__":
    sys.exit(main("py-handrolled", canonical, canonical_text))
