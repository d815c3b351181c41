"""PyPI jcs (RFC 8785): canonicalize(value)."""

import sys
from importlib.metadata import version

import jcs

from difffuzz_kit import serve

if __name__ == "__main__":
    sys.exit(serve(jcs.canonicalize, name="jcs", version=version("jcs"), model="native"))
