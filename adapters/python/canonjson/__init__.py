"""canonjson: the reference implementation of difffuzz's canonical JSON
(docs/canonical-json.md). It knows nothing of the adapter protocol: its
worker, ../canonjson_worker.py, is the worker kit (kits/python) serving
:func:`canonical`.

See :mod:`canonjson._canonical` for the Python value model; objects are
``dict`` or :class:`Object` (ordered ``(key, value)`` pairs, duplicates kept).
:class:`Encoding` follows another contract (:mod:`canonjson.contract`, such
as RFC 8785); the module's functions follow this project's, :data:`DEFAULT`.
"""

from canonjson._canonical import (
    DEFAULT,
    ERROR_CODES,
    MAX_DEPTH,
    CanonicalError,
    Encoding,
    Object,
    Unsupported,
    canonical,
    canonical_value,
    format_float,
    format_int,
    parse_int,
    signature,
)
from canonjson.contract import Contract
from canonjson.extjson import loads

#: Single source of the package version (pyproject reads it; the worker's
#: hello reports it so findings name the implementation that disagreed).
__version__ = "0.1.0"

__all__ = [
    "DEFAULT",
    "ERROR_CODES",
    "MAX_DEPTH",
    "CanonicalError",
    "Contract",
    "Encoding",
    "Object",
    "Unsupported",
    "__version__",
    "canonical",
    "canonical_value",
    "format_float",
    "format_int",
    "loads",
    "parse_int",
    "signature",
]
