"""The naive Python baseline: json.dumps with sorted keys and no spaces, as a
team writes it instead of taking a library. A bytes value (TypeError) is the
spec's unsupported_value; any other exception is an internal result."""

import json
import sys

from difffuzz_kit import SpecError, serve


def canonical(value: object) -> bytes:
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    except TypeError as error:
        raise SpecError("unsupported_value", str(error)) from None
    return text.encode("utf-8", "surrogatepass")


if __name__ == "__main__":
    sys.exit(serve(canonical, name="json.dumps (sort_keys)", version=sys.version.split()[0], model="native"))
