"""difffuzz-kit: the worker side of difffuzz's adapter protocol
(docs/adapter-protocol.md), so that a worker for any Python implementation
of canonical JSON is a few lines::

    from difffuzz_kit import serve
    sys.exit(serve(my_canonical, name="my-sdk", version="1.4.0", model="native"))

The kit owns the whole loop: hello, frames and their caps, decoding cases
into the chosen value model (:class:`Exact`, :class:`Native` or :class:`Text`), BLAKE3,
``digest_only``, bench, error responses and exit statuses, and what an
implementation's exception was and where it was raised.

What this module exports is what a team calls, the Python column of
docs/your-sdk.md's "The kits' vocabulary" (tests/test_vocabulary.py holds
it there); :mod:`difffuzz_kit.testing` helps a team's own tests. The
``_``-prefixed modules are the protocol's insides, which any release may
change.
"""

from difffuzz_kit._answers import ErrorCode, Signed, SpecError
from difffuzz_kit._models import Exact, Inexpressible, ModelName, Native, Text
from difffuzz_kit._serve import serve
from difffuzz_kit._wire import ExactObject

__version__ = "0.1.0"

__all__ = [
    "ErrorCode",
    "Exact",
    "ExactObject",
    "Inexpressible",
    "ModelName",
    "Native",
    "Signed",
    "SpecError",
    "Text",
    "__version__",
    "serve",
]
