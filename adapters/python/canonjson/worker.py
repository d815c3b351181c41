"""The canonjson worker (``python -m canonjson.worker``): the thin loop of
docs/adapter-protocol.md around :func:`canonjson.canonical` and BLAKE3.

It sits in the fuzzer's hot path, so the per-case work is only what the
protocol asks for: decode, canonicalize, hash, build the result map. A batch
is decoded one case at a time, each just before it is answered; frames are
read into, and responses packed and written from, buffers kept from one
request to the next; the cyclic garbage collector stays off (see
GC_BACKLOG)."""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Iterable
from typing import BinaryIO

import msgpack
from blake3 import blake3

from canonjson import __version__
from canonjson._canonical import CanonicalError, canonical
from canonjson.wire import (
    KEEP_BUFFER,
    MAX_FRAME,
    CaseStreamError,
    FrameError,
    FrameReader,
    FrameWriter,
    unpack_batch,
    unpack_request,
)

PROTOCOL = 1

HELLO = {
    "type": "hello",
    "protocol": PROTOCOL,
    "language": "python",
    "name": "canonjson-python",
    "version": __version__,
}


class RequestError(Exception):
    """A frame that decodes but is not a request the worker can answer."""

    def __init__(self, request_id: int, message: str) -> None:
        super().__init__(message)
        self.request_id = request_id
        self.message = message


def results(cases: Iterable[object], digest_only: bool = False) -> list:
    """One result map per case (with ``digest_only``, a success carries no
    ``canonical``); no exception of a case escapes, since one case must
    never stop the worker (an unexpected one is an ``internal`` finding).
    Only the iterator itself can raise (see :func:`unpack_batch`)."""
    out = []
    append = out.append
    for case in cases:
        try:
            text = canonical(case)
            digest = blake3(text).digest()
            append({"digest": digest} if digest_only else {"canonical": text, "digest": digest})
        except CanonicalError as error:
            append({"error": error.code, "message": error.message})
        except Exception as error:  # includes RecursionError, MemoryError
            append({"error": "internal", "message": f"{type(error).__name__}: {error}"})
    return out


def bench(cases: list, rounds: int) -> int:
    """Nanoseconds for ``rounds`` passes of canonicalize+hash over ``cases``
    (already decoded: decoding is not what is measured)."""
    start = time.perf_counter_ns()
    for _ in range(rounds):
        for case in cases:
            try:
                blake3(canonical(case)).digest()
            except Exception:
                pass
    return time.perf_counter_ns() - start


def handle(body: bytes | memoryview) -> tuple[dict | None, dict]:
    """The decoded request (None when the frame is not one, or was a batch
    answered case by case) and the response to it; never raises. A request
    decoded whole is handed back so that the caller can drop it, and with
    it the cases, only once the response is written."""
    response = _fast_batch(body)
    if response is not None:
        return None, response
    request_id = 0
    request = None
    try:
        request = unpack_request(body)
        request_id = _request_id(request)
        return request, _respond(request, request_id)
    except RequestError as error:
        return request, _error(error.request_id, error.message)
    except Exception as error:
        return request, _error(request_id, f"{type(error).__name__}: {error}")


def _fast_batch(body: bytes | memoryview) -> dict | None:
    """The response to a well-formed batch, each case decoded just before it
    is canonicalized (see :func:`unpack_batch`); None for any other frame,
    or when the cases need the careful reading, so that :func:`handle`
    answers it as it answers every request: the same results, the same
    error responses, decoded the same way."""
    batch = unpack_batch(body)
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
        return {"type": "results", "id": request_id, "results": results(cases, digest_only)}
    except CaseStreamError:
        return None


def _respond(request: dict, request_id: int) -> dict:
    kind = request.get("type")
    if kind == "batch":
        cases = _cases(request, request_id)
        digest_only = _digest_only(request, request_id)
        return {"type": "results", "id": request_id, "results": results(cases, digest_only)}
    if kind == "bench":
        cases = _cases(request, request_id)
        rounds = request.get("rounds")
        if type(rounds) is not int or rounds < 0:
            raise RequestError(request_id, "bench: rounds is not a non-negative integer")
        elapsed = bench(cases, rounds)
        return {"type": "bench", "id": request_id, "elapsed_ns": elapsed, "count": rounds * len(cases)}
    raise RequestError(request_id, f"unknown request type {kind!r}")


def _request_id(request: dict) -> int:
    request_id = request.get("id")
    if type(request_id) is not int or request_id < 0:
        raise RequestError(0, "request id is not an unsigned integer")
    return request_id


def _cases(request: dict, request_id: int) -> list:
    cases = request.get("cases")
    if type(cases) is not list:
        raise RequestError(request_id, f"{request.get('type')}: cases is not an array")
    return cases


def _digest_only(request: dict, request_id: int) -> bool:
    """The batch's optional ``digest_only`` flag. Anything but a bool is a
    malformed field, answered like a malformed ``cases`` or ``rounds``: an
    error response with the request's id, not a guess at what was meant."""
    digest_only = request.get("digest_only", False)
    if type(digest_only) is not bool:
        raise RequestError(request_id, "batch: digest_only is not a boolean")
    return digest_only


def _error(request_id: int, message: str) -> dict:
    return {"type": "error", "id": request_id, "message": message}


#: Container objects allocated and not freed since the last collection
#: (``gc.get_count()[0]``, counted even with the collector off) past which the
#: worker collects, between two requests. Decoded cases are trees, freed by
#: reference counting as soon as their case is answered, so the count stays
#: near a few thousand (free lists make it drift) and no collection is
#: needed; the threshold only bounds what a reference cycle could ever hold.
GC_BACKLOG = 50_000


def serve(inp: BinaryIO, out: BinaryIO) -> int:
    """Run the protocol until end of input; the process exit status."""
    frames = FrameReader(inp)
    sender = _Sender(out)
    sender.send(HELLO)
    # The automatic cyclic collector would only re-scan the decoded trees
    # (which have no reference cycles) while they are alive, during decoding
    # and canonicalization (about a tenth of the worker's time per case): it
    # is off. What is alive before the first request lives as long as the
    # process, so it is frozen out of any collection; see GC_BACKLOG.
    gc.freeze()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        while True:
            try:
                body = frames.read()
            except FrameError as error:
                print(f"canonjson worker: {error}", file=sys.stderr)
                sender.send(_error(0, str(error)))
                return 2
            if body is None:
                return 0
            request, response = handle(body)
            sender.send(response)
            # A request decoded whole is freed while the driver already has
            # the response, instead of before it.
            del request, response, body
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

    def send(self, message: dict) -> None:
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
            self.send(_error(message["id"], f"response of {size} bytes exceeds the frame cap"))
            return
        self._out.flush()


def main() -> int:
    """Entry point: stdin/stdout binary streams, stderr for logs."""
    try:
        return serve(sys.stdin.buffer, sys.stdout.buffer)
    except BrokenPipeError:
        # The driver closed our stdout: nothing is left to answer. Point fd 1
        # at /dev/null so the interpreter's exit-time flush stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:  # the driver's SIGINT after its grace period
        return 130


if __name__ == "__main__":
    sys.exit(main())
