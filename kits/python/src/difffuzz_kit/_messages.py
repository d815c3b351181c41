"""The protocol's messages (docs/adapter-protocol.md, "Messages"), typed.

What the worker writes (the hello, a result per case, the responses) is a
TypedDict: a plain ``dict`` at run time, which msgpack packs as the map the
driver reads, with no conversion in the hot path, and a checked shape for
mypy. What the worker reads (a request) is untrusted bytes until it is
checked: :mod:`difffuzz_kit._serve` reads the frame into a ``dict`` of its
string-keyed members, then checks it into a :class:`BatchRequest` or a
:class:`BenchRequest`, frozen dataclasses that hold only checked fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NotRequired, TypedDict

from difffuzz_kit._failure import StackFrame
from difffuzz_kit._models import ModelName

# --- written by the worker -------------------------------------------------------


class Hello(TypedDict):
    """The worker's first frame."""

    type: Literal["hello"]
    protocol: int
    language: str
    name: str
    version: str
    model: ModelName
    #: The reasons the worker may answer ``inexpressible`` with (the model's).
    inexpressible: list[str]


class Canonical(TypedDict):
    """A case's canonical text and its digest (BLAKE3-256: the kit's, or the
    SDK's own, see ``Signed``)."""

    canonical: bytes | bytearray | memoryview
    digest: bytes


class DigestOnly(TypedDict):
    """A case's result in a ``digest_only`` batch: the digest alone."""

    digest: bytes


class Failed(TypedDict):
    """A case the function failed: a spec code (the function raised one), or
    ``internal`` with what failed (``error_type``) and where (``frames``,
    absent when it was raised in the kit itself); a case the kit never hands
    the function (the text model on stdio) is ``internal`` with neither."""

    error: str
    message: str
    error_type: NotRequired[str]
    frames: NotRequired[list[StackFrame]]


class InexpressibleResult(TypedDict):
    """A case the model cannot hold (the native model's): the function is
    never called."""

    inexpressible: str
    message: str


#: One case's result, in a ``results`` response.
Result = Canonical | DigestOnly | Failed | InexpressibleResult


class Results(TypedDict):
    """The response to a batch: one result per case, in order, and the CPU
    the batch took in the worker (decoding included)."""

    type: Literal["results"]
    id: int
    results: list[Result]
    batch_cpu_ns: NotRequired[int]


class Timings(TypedDict):
    """The timings of a bench response (see ``Worker.bench``)."""

    elapsed_ns: int
    count: int
    cpu_ns: int
    decode_elapsed_ns: int
    decode_cpu_ns: int


class BenchResults(Timings):
    """The response to a bench request."""

    type: Literal["bench"]
    id: int


class ErrorResponse(TypedDict):
    """The response to a frame that is not a request the worker can answer
    (``id`` 0 when the frame has none), and the last frame before exit
    status 2 when the frames break."""

    type: Literal["error"]
    id: int
    message: str


#: A response frame.
Response = Results | BenchResults | ErrorResponse

#: Any frame the worker writes.
Message = Hello | Response


def error_response(request_id: int, message: str) -> ErrorResponse:
    return {"type": "error", "id": request_id, "message": message}


# --- read by the worker -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BatchRequest:
    """A checked batch: each case's undecoded bytes, for the model."""

    id: int
    cases: list[bytes]
    digest_only: bool = False


@dataclass(frozen=True, slots=True)
class BenchRequest:
    """A checked bench request: ``rounds`` passes over the cases."""

    id: int
    cases: list[bytes]
    rounds: int


#: A request the worker answers.
Request = BatchRequest | BenchRequest
