"""The canonjson worker (``python -m canonjson.worker``): the thin loop of
docs/adapter-protocol.md around :func:`canonjson.canonical` and BLAKE3.

It sits in the fuzzer's hot path, so the per-case work is only what the
protocol asks for: canonicalize, hash, build the result map."""

from __future__ import annotations

import gc
import os
import sys
import time
from typing import BinaryIO

import msgpack
from blake3 import blake3

from canonjson import __version__
from canonjson._canonical import CanonicalError, canonical
from canonjson.wire import MAX_FRAME, FrameError, read_frame, unpack_request, write_frame

PROTOCOL = 1

HELLO = {
    "type": "hello",
    "protocol": PROTOCOL,
    "language": "python",
    "name": "canonjson-python",
    "version": __version__,
}

_pack = msgpack.Packer(use_bin_type=True, use_single_float=False, autoreset=True).pack


class RequestError(Exception):
    """A frame that decodes but is not a request the worker can answer."""

    def __init__(self, request_id: int, message: str) -> None:
        super().__init__(message)
        self.request_id = request_id
        self.message = message


def results(cases: list) -> list:
    """One result map per case; no exception escapes, since one case must
    never stop the worker (an unexpected one is an ``internal`` finding)."""
    out = []
    append = out.append
    for case in cases:
        try:
            text = canonical(case)
            append({"canonical": text, "digest": blake3(text).digest()})
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


def handle(body: bytes) -> tuple[dict | None, dict]:
    """The decoded request (None when the frame is not one) and the response
    to it; never raises. The request is handed back so that the caller can
    drop it, and with it the cases, only once the response is written."""
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


def _respond(request: dict, request_id: int) -> dict:
    kind = request.get("type")
    if kind == "batch":
        cases = _cases(request, request_id)
        return {"type": "results", "id": request_id, "results": results(cases)}
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


def _error(request_id: int, message: str) -> dict:
    return {"type": "error", "id": request_id, "message": message}


def serve(inp: BinaryIO, out: BinaryIO) -> int:
    """Run the protocol until end of input; the process exit status."""
    write_frame(out, _pack(HELLO))
    out.flush()
    # A request decodes into trees (no reference cycles) that reference
    # counting frees. The automatic cyclic collector would only re-scan them
    # while they are alive, during decoding and canonicalization (about a
    # tenth of the worker's time per case); so it is off, and one collection
    # after each request finds almost nothing left to scan (what is alive
    # before the first request lives as long as the process, so it is frozen
    # out of the collections).
    gc.freeze()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        while True:
            try:
                body = read_frame(inp)
            except FrameError as error:
                print(f"canonjson worker: {error}", file=sys.stderr)
                write_frame(out, _pack(_error(0, str(error))))
                out.flush()
                return 2
            if body is None:
                return 0
            request, response = handle(body)
            write_frame(out, _response_frame(response))
            out.flush()
            # Freeing the cases and collecting happen while the driver
            # already has the response, instead of before it.
            del request, response
            gc.collect()
    finally:
        if was_enabled:
            gc.enable()


def _response_frame(response: dict) -> bytes:
    """The encoded response, or an error response when it cannot be sent
    (larger than a frame may be)."""
    frame = _pack(response)
    if len(frame) > MAX_FRAME:
        frame = _pack(_error(response["id"], f"response of {len(frame)} bytes exceeds the frame cap"))
    return frame


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
