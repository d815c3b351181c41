"""A difffuzz worker for Python's naive baseline, json.dumps with sorted keys,
in the native model: each case arrives as the dict/list/... an SDK gets."""

import json
import sys

from difffuzz_kit import SpecError, serve


def canonical(value: object) -> bytes:
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    except TypeError as error:  # bytes, or keys of mixed types
        raise SpecError("unsupported_value", str(error)) from None
    return text.encode("ascii")


if __name__ == "__main__":
    sys.exit(serve(canonical, name="json-dumps-sorted", version=sys.version.split()[0], model="native"))
