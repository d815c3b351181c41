"""PyPI canonicaljson (Matrix's canonical JSON): encode_canonical_json(value)."""

import sys
from importlib.metadata import version

import canonicaljson

from difffuzz_kit import serve

if __name__ == "__main__":
    sys.exit(serve(canonicaljson.encode_canonical_json, name="canonicaljson", version=version("canonicaljson"), model="native"))
