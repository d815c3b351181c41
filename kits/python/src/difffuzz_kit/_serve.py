"""The worker loop of docs/adapter-protocol.md around a user's function.

It sits in the fuzzer's hot path, so the per-case work is only what the
protocol asks for: decode, call the function, hash, build the result map. A
batch is decoded one case at a time, each just before it is answered;
frames are read into, and responses packed and written from, buffers kept
from one request to the next; the cyclic garbage collector stays off (see
GC_BACKLOG)."""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, BinaryIO, Literal, get_args, overload

import msgpack
from blake3 import blake3

from difffuzz_kit._answers import INTERNAL, SPEC_CODES, Bytes, Canonicalize, CanonicalizeText
from difffuzz_kit._failure import error_frames, error_type
from difffuzz_kit._frames import KEEP_BUFFER, MAX_FRAME, FrameError, FrameReader, FrameWriter
from difffuzz_kit._messages import (
    BatchRequest,
    BenchRequest,
    BenchResults,
    Failed,
    Hello,
    Message,
    Request,
    Response,
    Result,
    Results,
    Timings,
    error_response,
)
from difffuzz_kit._models import Exact, Inexpressible, Model, ModelName, Native, Text, TextOnStdio, Unanswerable
from difffuzz_kit._wire import CaseStreamError, ExactObject, RawCases, Unsupported, read_request, unpack_batch

#: The hello's protocol version on stdin and stdout.
PROTOCOL = 2

#: The hello's protocol version on the descriptors the driver offers in
#: :data:`FDS_ENV`: version 2's messages on a channel of their own, so that
#: the function may print to stdout (version 3), with an ``internal``
#: result's ``error_type`` and ``frames``, and the text model's cases as the
#: JSON text the driver wrote (version 4).
FD_PROTOCOL = 4

#: The first protocol whose driver sends the text model's cases as JSON
#: text (docs/adapter-protocol.md, "The text model's bytes").
TEXT_PROTOCOL = 4

#: The environment variable in which the driver offers the protocol two
#: descriptors of its own, as ``"3,4"``: requests are read from the first,
#: responses written to the second.
FDS_ENV = "DIFFFUZZ_FDS"

#: The length of a digest: BLAKE3-256.
DIGEST_SIZE = 32


def _signed(answer: tuple[Bytes, Bytes]) -> tuple[Bytes, bytes]:
    """The text and the SDK's own digest that ``fn`` returned as a pair
    (:class:`~difffuzz_kit.Signed` or a plain tuple), the digest as bytes; a
    ValueError when it is not 32 bytes long."""
    text, digest = answer
    digest = bytes(digest)
    if len(digest) != DIGEST_SIZE:
        raise ValueError(f"the SDK's digest is {len(digest)} bytes long, want {DIGEST_SIZE} (BLAKE3-256)")
    return text, digest


class RequestError(Exception):
    """A frame that decodes but is not a request the worker can answer."""

    def __init__(self, request_id: int, message: str) -> None:
        super().__init__(message)
        self.request_id = request_id
        self.message = message


def _failure(error: Exception) -> Failed:
    """The result of a case whose function raised: the spec error it names,
    else ``internal`` (a finding against the implementation), with what
    failed and where (:mod:`difffuzz_kit._failure`; no ``frames`` when it
    was raised in the kit itself)."""
    code = getattr(error, "code", None)
    if type(code) is str and code in SPEC_CODES:
        message = getattr(error, "message", None)
        return {"error": code, "message": message if type(message) is str and message else str(error) or code}
    result: Failed = {
        "error": INTERNAL,
        "message": f"{type(error).__name__}: {error}",
        "error_type": error_type(error),
    }
    where = error_frames(error)
    if where:
        result["frames"] = where
    return result


class Worker:
    """One worker's answers: ``fn`` served in ``model`` (:class:`Exact`,
    :class:`Native`, :class:`Text` or :class:`TextOnStdio`). :meth:`handle`
    maps a request frame to its response and never raises; :func:`run`
    runs it over two streams."""

    def __init__(self, fn: Canonicalize, model: Model, hello: Hello) -> None:
        self.fn = fn
        self.model = model
        self.hello = hello

    def results(self, cases: Iterable[object], digest_only: bool = False) -> list[Result]:
        """One result map per case (with ``digest_only``, a success carries
        no ``canonical``); no exception of a case escapes, since one case
        must never stop the worker. Only the iterator itself can raise
        (CaseStreamError, see :func:`unpack_batch`; a model's ValueError)."""
        fn = self.fn
        out: list[Result] = []
        append = out.append
        for case in cases:
            if type(case) is Inexpressible:
                append({"inexpressible": case.reason, "message": case.message})
                continue
            if type(case) is Unanswerable:
                append({"error": INTERNAL, "message": case.message})
                continue
            try:
                answer = fn(case)
                if isinstance(answer, tuple):
                    text, digest = _signed(answer)
                else:
                    text, digest = answer, blake3(answer).digest()
                append({"digest": digest} if digest_only else {"canonical": text, "digest": digest})
            except Exception as error:  # includes RecursionError, MemoryError
                append(_failure(error))
        return out

    def handle(self, body: bytes | memoryview) -> tuple[dict[str, object] | None, Response]:
        """The decoded request (None when the frame is not one, or was a
        batch answered case by case) and the response to it; never raises.
        A request decoded whole is handed back so that the caller can drop
        it, and with it the cases, only once the response is written."""
        response = self._fast_batch(body)
        if response is not None:
            return None, response
        request_id = 0
        members = None
        try:
            members = read_request(body)
            request_id = _request_id(members)
            return members, self.respond(_checked(members, request_id))
        except RequestError as error:
            return members, error_response(error.request_id, error.message)
        except Exception as error:
            return members, error_response(request_id, f"{type(error).__name__}: {error}")

    def _fast_batch(self, body: bytes | memoryview) -> Results | None:
        """The response to a well-formed batch, each case decoded just
        before it is answered; None for any other frame, or when the cases
        need the careful reading, so that :meth:`handle` answers it as it
        answers every request: the same results, the same error responses,
        decoded the same way."""
        batch = unpack_batch(body, self.model.options, self.model.stream)
        if batch is None:
            return None
        members, cases = batch
        request_id = members.get("id")
        digest_only = members.get("digest_only", False)
        if members.get("type") != "batch" or type(digest_only) is not bool:
            return None
        if type(request_id) is not int or request_id < 0:
            return None
        try:
            return {"type": "results", "id": request_id, "results": self.results(cases, digest_only)}
        except CaseStreamError:
            return None

    def respond(self, request: Request) -> Results | BenchResults:
        """The response to a checked request, its cases decoded one by one
        by the model."""
        if isinstance(request, BatchRequest):
            results = self.results(map(self.model.case, request.cases), request.digest_only)
            return {"type": "results", "id": request.id, "results": results}
        return {"type": "bench", "id": request.id, **self.bench(request.cases, request.rounds)}

    def bench(self, raw: list[bytes], rounds: int) -> Timings:
        """The bench response's timings: ``rounds`` passes of function and
        hash over the cases decoded once (``elapsed_ns``, ``cpu_ns``), then
        ``rounds`` passes that decode each case again from its bytes first
        (``decode_elapsed_ns``, ``decode_cpu_ns``). An inexpressible case
        costs only its decoding: the function is never called on it, nor on
        an unanswerable one."""
        fn, decode = self.fn, self.model.case
        values = [decode(data) for data in raw]
        wall, cpu = time.perf_counter_ns(), time.process_time_ns()
        for _ in range(rounds):
            for value in values:
                _compute(fn, value)
        wall, cpu = time.perf_counter_ns() - wall, time.process_time_ns() - cpu
        decode_wall, decode_cpu = time.perf_counter_ns(), time.process_time_ns()
        for _ in range(rounds):
            for data in raw:
                _compute(fn, decode(data))
        decode_wall, decode_cpu = time.perf_counter_ns() - decode_wall, time.process_time_ns() - decode_cpu
        return {
            "elapsed_ns": wall,
            "count": rounds * len(raw),
            "cpu_ns": cpu,
            "decode_elapsed_ns": decode_wall,
            "decode_cpu_ns": decode_cpu,
        }


def _compute(fn: Canonicalize, value: object) -> None:
    if type(value) is Inexpressible or type(value) is Unanswerable:
        return
    try:
        answer = fn(value)
        if isinstance(answer, tuple):
            _signed(answer)
        else:
            blake3(answer).digest()
    except Exception:
        pass


def _request_id(request: dict[str, object]) -> int:
    request_id = request.get("id")
    if type(request_id) is not int or request_id < 0:
        raise RequestError(0, "request id is not an unsigned integer")
    return request_id


def _checked(request: dict[str, object], request_id: int) -> Request:
    """A request read the careful way (:func:`read_request`), checked
    field by field: a malformed field is an error response with the
    request's id (RequestError), not a guess at what was meant."""
    kind = request.get("type")
    if kind == "batch":
        cases = _cases(request, request_id)
        return BatchRequest(request_id, cases, _digest_only(request, request_id))
    if kind == "bench":
        cases = _cases(request, request_id)
        rounds = request.get("rounds")
        if type(rounds) is not int or rounds < 0:
            raise RequestError(request_id, "bench: rounds is not a non-negative integer")
        return BenchRequest(request_id, cases, rounds)
    raise RequestError(request_id, f"unknown request type {kind!r}")


def _cases(request: dict[str, object], request_id: int) -> RawCases:
    cases = request.get("cases")
    if type(cases) is not RawCases:
        raise RequestError(request_id, f"{request.get('type')}: cases is not an array")
    return cases


def _digest_only(request: dict[str, object], request_id: int) -> bool:
    """The batch's optional ``digest_only`` flag. Anything but a bool is a
    malformed field, answered like a malformed ``cases`` or ``rounds``."""
    digest_only = request.get("digest_only", False)
    if type(digest_only) is not bool:
        raise RequestError(request_id, "batch: digest_only is not a boolean")
    return digest_only


#: Container objects allocated and not freed since the last collection
#: (``gc.get_count()[0]``, counted even with the collector off) past which the
#: worker collects, between two requests. Decoded cases are trees, freed by
#: reference counting as soon as their case is answered, so the count stays
#: near a few thousand (free lists make it drift) and no collection is
#: needed; the threshold only bounds what a reference cycle (the function's
#: own, say) could ever hold.
GC_BACKLOG = 50_000


def run(worker: Worker, inp: BinaryIO, out: BinaryIO) -> int:
    """Run the protocol over two binary streams until end of input; the
    process exit status (0 at end of input, 2 when the frames break)."""
    frames = FrameReader(inp)
    sender = _Sender(out)
    sender.send(worker.hello)
    # The automatic cyclic collector would only re-scan the decoded trees
    # (which have no reference cycles) while they are alive, during decoding
    # and the function (about a tenth of the worker's time per case): it is
    # off. What is alive before the first request lives as long as the
    # process, so it is frozen out of any collection; see GC_BACKLOG.
    gc.freeze()
    was_enabled = gc.isenabled()
    gc.disable()
    freeing = 0
    try:
        while True:
            try:
                body = frames.read()
            except FrameError as error:
                print(f"{worker.hello['name']} worker: {error}", file=sys.stderr)
                sender.send(error_response(0, str(error)))
                return 2
            if body is None:
                return 0
            start = time.process_time_ns()
            request, response = worker.handle(body)
            batch = False
            if response["type"] == "results":
                batch = True
                response["batch_cpu_ns"] = max(time.process_time_ns() - start + freeing, 1)
            sender.send(response)
            # A request decoded whole is freed while the driver already has
            # the response, instead of before it. Freeing a batch's cases
            # belongs to decoding them: its cost goes with the next batch's.
            start = time.process_time_ns()
            del request, response, body
            freeing = time.process_time_ns() - start if batch else 0
            if gc.get_count()[0] > GC_BACKLOG:
                gc.collect()
    finally:
        if was_enabled:
            gc.enable()


def _packer() -> msgpack.Packer:
    return msgpack.Packer(use_bin_type=True, use_single_float=False, autoreset=False)


class _Sender:
    """Messages packed into the buffer that a Packer keeps, and written from
    there as frames (no copy of the packed bytes into a new object)."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out
        self._frames = FrameWriter(out)
        self._packer = _packer()

    def send(self, message: Message) -> None:
        """Write one message and flush it; a message larger than a frame
        may be is replaced by an error response with its id."""
        packer = self._packer
        try:
            packer.pack(message)
            with packer.getbuffer() as body:
                size = len(body)
                if size <= MAX_FRAME:
                    self._frames.write(body)
        finally:
            packer.reset()
        if size > KEEP_BUFFER:
            self._packer = _packer()  # a Packer never shrinks its buffer
        if size > MAX_FRAME:
            assert message["type"] != "hello"  # every response but the hello has an id
            self.send(error_response(message["id"], f"response of {size} bytes exceeds the frame cap"))
            return
        self._out.flush()


#: The value models' names, which :func:`serve` takes as ``model``.
MODELS: tuple[ModelName, ...] = get_args(ModelName)


@overload
def serve(
    fn: Canonicalize,
    *,
    name: str,
    version: str,
    model: Literal["exact", "native"] | Exact | Native = "exact",
    members: Callable[[list[Any]], object] | None = None,
    unsupported: Callable[[str], object] | None = None,
    language: str = "python",
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int: ...


@overload
def serve(
    fn: CanonicalizeText,
    *,
    name: str,
    version: str,
    model: Literal["text"] | Text,
    language: str = "python",
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int: ...


def serve(
    fn: Canonicalize | CanonicalizeText,
    *,
    name: str,
    version: str,
    model: ModelName | Exact | Native | Text = "exact",
    members: Callable[[list[Any]], object] | None = None,
    unsupported: Callable[[str], object] | None = None,
    language: str = "python",
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int:
    """Serve ``fn`` as a difffuzz worker until the driver closes its input,
    and return the process's exit status (``sys.exit(serve(...))``).

    ``fn`` takes one case's value and returns its canonical bytes; it
    raises an exception with a spec error ``code`` (:class:`SpecError`, or
    the implementation's own type with ``code`` and ``message``) for an
    error result. Any other exception is an ``internal`` result: no case
    stops the worker. The kit hashes the bytes with BLAKE3; or ``fn``
    returns the pair ``(text, digest)``, the SDK's own signature of its text
    (32 bytes) with it, and the kit sends that digest instead, so that the
    driver checks the SDK's hashing too (a digest that is not BLAKE3 of the
    text is a ``digest`` finding; one not 32 bytes long, ``internal``).

    ``name`` and ``version`` identify the implementation under test (its
    package name and version) in the hello. ``model`` is ``"exact"`` (the
    lossless model, see :class:`Exact`, whose ``members`` and
    ``unsupported`` build objects and out-of-model markers; default
    :class:`ExactObject` and :class:`Unsupported`) or ``"native"`` (plain
    ``dict``/``list``/... values, see :class:`Native`) or ``"text"`` (a
    ``str`` of JSON text for ``fn`` to parse, see :class:`Text`; the driver
    writes the text, so a text worker needs a driver of protocol 4: on
    stdin and stdout it answers every case with an ``internal`` error).
    Or the model itself: ``Exact()`` (``Exact(members=..., unsupported=...)``
    takes the exact model's options), ``Native()`` or ``Text()``.

    The protocol runs on the channel the driver offers (:func:`channel`):
    its own descriptors, so that whatever ``fn`` prints, on stdout or
    stderr, is only the worker's log; else on stdin and stdout. Given
    ``stdin`` or ``stdout``, it serves there instead (the other one
    defaulting to the process's binary stream), in protocol 2."""
    if stdin is None and stdout is None:
        inp, out, protocol = channel()
    else:
        inp = sys.stdin.buffer if stdin is None else stdin
        out = sys.stdout.buffer if stdout is None else stdout
        protocol = PROTOCOL
    chosen = model_for(model, members, unsupported, protocol)
    worker = Worker(fn, chosen, hello(name, version, chosen.name, language, protocol))
    try:
        return run(worker, inp, out)
    except BrokenPipeError:
        # The driver closed our output: nothing is left to answer. Point it
        # at /dev/null so the interpreter's exit-time flush stays quiet.
        if stdout is None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        return 0
    except KeyboardInterrupt:  # the driver's SIGINT after its grace period
        return 130


def model_for(
    model: ModelName | Exact | Native | Text,
    members: Callable[[list[Any]], object] | None,
    unsupported: Callable[[str], object] | None,
    protocol: int,
) -> Model:
    """The model ``model`` (a name, or the model itself), for a driver of
    ``protocol``."""
    if isinstance(model, Exact | Native | Text):
        if members is not None or unsupported is not None:
            raise TypeError("members and unsupported are options of the exact model: Exact(members=..., unsupported=...)")
        if isinstance(model, Text) and protocol < TEXT_PROTOCOL:
            return TextOnStdio()
        return model
    if model not in MODELS:
        raise ValueError(f"model must be one of {MODELS}, not {model!r}")
    if model == "exact":
        return Exact(members or ExactObject, unsupported or Unsupported)
    if members is not None or unsupported is not None:
        raise TypeError("members and unsupported are options of the exact model")
    if model == "native":
        return Native()
    return Text() if protocol >= TEXT_PROTOCOL else TextOnStdio()


def channel() -> tuple[BinaryIO, BinaryIO, int]:
    """The streams to serve on and the hello's protocol version there: the
    descriptors the driver offers in :data:`FDS_ENV`, or stdin and stdout
    when it offers none (a driver of protocol 2, a test). A malformed offer
    is an error rather than a fall back to stdout."""
    offer = os.environ.get(FDS_ENV, "")
    if not offer:
        return sys.stdin.buffer, sys.stdout.buffer, PROTOCOL
    try:
        requests, responses = (int(fd) for fd in offer.split(","))
    except ValueError:
        raise ValueError(f"{FDS_ENV}={offer!r}: want two descriptors, as '3,4'") from None
    return os.fdopen(requests, "rb", buffering=1 << 16), os.fdopen(responses, "wb", buffering=1 << 16), FD_PROTOCOL


def hello(name: str, version: str, model: ModelName = "exact", language: str = "python", protocol: int = PROTOCOL) -> Hello:
    """The hello frame's message for these options; ``protocol`` is
    :data:`FD_PROTOCOL` on the driver's descriptors."""
    reasons = {"native": Native.inexpressible, "text": Text.inexpressible}.get(model, Exact.inexpressible)
    return {
        "type": "hello",
        "protocol": protocol,
        "language": language,
        "name": name,
        "version": version,
        "model": model,
        "inexpressible": list(reasons),
    }
