"""What a team's function answers for one case: its canonical bytes, or
:class:`Signed` (the bytes and the SDK's own digest of them), or a raised
:class:`SpecError` carrying one of the spec's :data:`ErrorCode` s. Anything
else it raises is the case's ``internal`` result: a failure of the
implementation, never a spec code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple, get_args

#: The spec's error codes, which a function's exception may carry as its
#: ``code``, in the order of docs/adapter-protocol.md (results).
ErrorCode = Literal["too_deep", "non_string_key", "lone_surrogate", "duplicate_key", "unsupported_value", "bad_envelope"]

#: :data:`ErrorCode`'s values, in order: the kit's one table of them.
ERROR_CODES: tuple[ErrorCode, ...] = get_args(ErrorCode)

#: The code of a case the implementation itself failed on (it raised
#: anything else): a finding against it, not a spec answer.
INTERNAL = "internal"

SPEC_CODES: frozenset[str] = frozenset(ERROR_CODES)

#: Bytes as a function may return them.
Bytes = bytes | bytearray | memoryview


class Signed(NamedTuple):
    """A case's canonical text with the SDK's own signature of it
    (BLAKE3-256, 32 bytes): the kit sends that digest instead of hashing the
    text itself, so that the driver checks the SDK's hashing too. A plain
    ``(canonical, digest)`` tuple is taken alike."""

    canonical: Bytes
    digest: Bytes


#: What a function returns for one case: its canonical bytes, or them and
#: the SDK's own digest (:class:`Signed`, or a plain pair).
Answer = Bytes | Signed | tuple[Bytes, Bytes]

#: A function from a case's value (of the exact or the native model) to its
#: :data:`Answer`.
Canonicalize = Callable[[Any], Answer]

#: A function from a case's JSON text (the text model) to its :data:`Answer`.
CanonicalizeText = Callable[[str], Answer]


class SpecError(Exception):
    """Raise it from the function to answer the spec's error ``code`` (one
    of :data:`ErrorCode`) for the case. Any exception with such a ``code``
    attribute (and, optionally, a ``message``) does the same, so that an
    implementation's own error type needs no dependency on the kit.
    ``internal`` is not a code: it is what any other exception becomes."""

    code: ErrorCode
    message: str

    def __init__(self, code: ErrorCode, message: str = "") -> None:
        if code not in SPEC_CODES:
            raise ValueError(f"not a spec error code: {code!r}")
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code
