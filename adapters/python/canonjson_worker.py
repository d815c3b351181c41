"""The canonjson worker for difffuzz (docs/adapter-protocol.md): the
project's library served by the worker kit in the exact model, its objects
decoded straight into canonjson's Object and bad values into its
Unsupported, so that no case is copied on its way to canonical().

    canonjson_worker.py [--contract NAME_OR_FILE]

--contract makes it follow another contract (docs/canonical-json.md §7): a
built-in (difffuzz, the default; rfc8785) or a contract file."""

import argparse
import sys

from canonjson import Encoding, Object, Unsupported, __version__
from canonjson.contract import resolve
from difffuzz_kit import serve


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--contract", default="", help="a built-in contract's name or a contract file (default difffuzz)")
    args = parser.parse_args(argv)
    try:
        encoding = Encoding(resolve(args.contract))
    except ValueError as e:
        print(f"canonjson-python: {e}", file=sys.stderr)
        return 2
    return serve(encoding.canonical, name="canonjson-python", version=__version__, members=Object, unsupported=Unsupported)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
