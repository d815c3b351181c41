"""Serving an implementation's two functions on the worker kit: the only
part of this package that knows the protocol."""

import sys
from collections.abc import Callable

from difffuzz_kit import serve


def main(name: str, native: Callable[[object], bytes], text: Callable[[str], bytes]) -> int:
    """Serve ``native`` or ``text`` as the worker ``name``, the model named by
    the command line's one argument."""
    if len(sys.argv) != 2 or sys.argv[1] not in ("native", "text"):
        print(f"usage: python -m triagebench_py.MODULE native|text (got {sys.argv[1:]})", file=sys.stderr)
        return 2
    model = sys.argv[1]
    fn = native if model == "native" else text
    return serve(fn, name=name, version="0.1.0", model=model)
