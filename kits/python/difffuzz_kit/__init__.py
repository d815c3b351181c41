"""difffuzz-kit: the worker side of difffuzz's adapter protocol
(docs/adapter-protocol.md), so that a worker for any Python implementation
of canonical JSON is a few lines::

    from difffuzz_kit import serve
    sys.exit(serve(my_canonical, name="my-sdk", version="1.4.0", model="native"))

The kit owns the whole loop: hello, frames and their caps, decoding cases
into the chosen value model (:class:`Exact`, :class:`Native` or :class:`Text`), BLAKE3,
``digest_only``, bench, error responses and exit statuses, and what an
implementation's exception was and where it was raised
(:mod:`difffuzz_kit.failure`).
"""

from difffuzz_kit._serve import (
    ERROR_CODES,
    FD_PROTOCOL,
    FDS_ENV,
    INTERNAL,
    MODELS,
    PROTOCOL,
    TEXT_PROTOCOL,
    Canonicalize,
    CanonicalizeText,
    SpecError,
    Worker,
    channel,
    hello,
    run,
    serve,
)
from difffuzz_kit.failure import StackFrame, error_frames, error_type
from difffuzz_kit.models import Exact, Inexpressible, Model, ModelName, Native, Text, to_native
from difffuzz_kit.wire import Members, Unsupported, pack

__version__ = "0.1.0"

__all__ = [
    "ERROR_CODES",
    "FDS_ENV",
    "FD_PROTOCOL",
    "INTERNAL",
    "MODELS",
    "PROTOCOL",
    "TEXT_PROTOCOL",
    "Canonicalize",
    "CanonicalizeText",
    "Exact",
    "Inexpressible",
    "Members",
    "Model",
    "ModelName",
    "Native",
    "SpecError",
    "StackFrame",
    "Text",
    "Unsupported",
    "Worker",
    "__version__",
    "channel",
    "error_frames",
    "error_type",
    "hello",
    "pack",
    "run",
    "serve",
    "to_native",
]
