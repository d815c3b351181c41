"""A difffuzz worker for Python's naive baseline in the text model: each case
arrives as JSON text, as a tool call's arguments do, is read by json.loads
(a dict: the last repeated key wins; integers stay exact) and written by
json.dumps with sorted keys."""

import json
import sys

from difffuzz_kit import SpecError, serve


def canonical(text: str) -> bytes:
    value = json.loads(text)
    try:
        out = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    except TypeError as error:  # keys of mixed types
        raise SpecError("unsupported_value", str(error)) from None
    return out.encode("ascii")


if __name__ == "__main__":
    sys.exit(serve(canonical, name="json-loads-dumps-sorted", version=sys.version.split()[0], model="text"))
