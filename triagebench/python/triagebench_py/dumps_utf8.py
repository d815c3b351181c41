"""The SDK that wanted "UTF-8 output": json.dumps with sorted keys and
compact separators, ``ensure_ascii`` turned off, and the text encoded to
UTF-8 for hashing. Its text model parses with json.loads."""

import json
import sys

from triagebench_py._worker import main


def canonical(value: object) -> bytes:
    """The canonical bytes of ``value``; raises whatever json.dumps and
    str.encode raise."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def canonical_text(text: str) -> bytes:
    """The canonical bytes of a tool call's arguments as they arrive, JSON
    text."""
    return canonical(json.loads(text))


if __name__ == "__main__":
    sys.exit(main("py-dumps-utf8", canonical, canonical_text))
