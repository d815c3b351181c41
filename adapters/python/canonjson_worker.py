"""The canonjson worker for difffuzz (docs/adapter-protocol.md): the
project's library served by the worker kit in the exact model, its objects
decoded straight into canonjson's Object and bad values into its
Unsupported, so that no case is copied on its way to canonical()."""

import sys

from difffuzz_kit import serve

from canonjson import Object, Unsupported, __version__, canonical

if __name__ == "__main__":
    sys.exit(serve(canonical, name="canonjson-python", version=__version__, members=Object, unsupported=Unsupported))
