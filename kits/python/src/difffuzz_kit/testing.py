"""Helpers for a team's own tests of its worker (``difffuzz_kit.testing``),
as ``@difffuzz/kit/testing`` is the TypeScript kit's. A worker never
imports it.

In process, through the kit's own loop (the same decoding, results and
error responses a driver gets):

- :func:`run_cases`: the worker function on given cases, each case's
  :class:`CaseResult` (its text and digest, the spec code it raised, or the
  ``internal`` failure's type and place);
- :func:`session`: the whole loop over frames given as bytes, with the exit
  status and every message written, hello first.

As a real process, as the driver starts a worker:

- :class:`WorkerProcess`: started on descriptors of its own (the driver's
  offer, protocol 4) or on stdin and stdout (protocol 2), and driven frame by
  frame over real pipes.

And the bytes to feed them: :func:`pack` (an exact-model value as the wire
encodes it), :func:`request`, :func:`batch`, :func:`texts`, :func:`frame`
and :func:`messages`.
"""

from __future__ import annotations

import gc
import io
import os
import select
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

import msgpack

from difffuzz_kit._answers import INTERNAL, SPEC_CODES, ErrorCode
from difffuzz_kit._failure import StackFrame
from difffuzz_kit._frames import MAX_FRAME
from difffuzz_kit._models import Exact, Model, ModelName, Native, Text
from difffuzz_kit._serve import FD_PROTOCOL, FDS_ENV, PROTOCOL, Worker, hello, model_for, run
from difffuzz_kit._wire import pack

__all__ = [
    "CaseResult",
    "WorkerProcess",
    "batch",
    "frame",
    "messages",
    "pack",
    "request",
    "run_cases",
    "session",
    "texts",
]

_LENGTH = struct.Struct(">I")

# --- bytes --------------------------------------------------------------------------


def frame(body: bytes) -> bytes:
    """One frame: the body's big-endian uint32 length, then the body."""
    return _LENGTH.pack(len(body)) + body


def request(head: Mapping[str, object], cases: Sequence[object]) -> bytes:
    """A request frame's body: ``head``'s members, then ``cases`` last, as
    the driver writes them. Each case is an exact-model value, encoded by
    :func:`pack`, or ``bytes``, sent as they are (msgpack of your own
    making: a case no encoder writes; to send bin data, ``pack(b"...")``)."""
    packer = msgpack.Packer(use_bin_type=True)
    out: bytes = packer.pack_map_header(len(head) + 1)
    for key, value in head.items():
        out += packer.pack(key) + packer.pack(value)
    out += packer.pack("cases") + packer.pack_array_header(len(cases))
    return out + b"".join(case if isinstance(case, bytes) else pack(case) for case in cases)


def batch(request_id: int, cases: Sequence[object], **members: object) -> bytes:
    """A batch request's body (``digest_only=True``, say, as ``members``);
    cases as for :func:`request`."""
    return request({"type": "batch", "id": request_id, **members}, cases)


def texts(*cases: str | bytes) -> list[bytes]:
    """Text-model cases as the driver of protocol 4 sends them: msgpack bin
    of each JSON text's UTF-8 (a ``str`` is encoded first; ``bytes`` are
    the text's bytes, UTF-8 or not)."""
    return [bytes(msgpack.packb(c.encode() if isinstance(c, str) else c, use_bin_type=True)) for c in cases]


def messages(data: bytes) -> list[dict[str, Any]]:
    """Every frame's message in a stream's bytes."""
    out: list[dict[str, Any]] = []
    at = 0
    while at < len(data):
        (length,) = _LENGTH.unpack_from(data, at)
        out.append(msgpack.unpackb(data[at + 4 : at + 4 + length], raw=False))
        at += 4 + length
    return out


# --- results ------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseResult:
    """One case's result as the driver reads it. Exactly one of these holds:
    ``canonical`` and ``digest`` (a success; ``canonical`` is None in a
    ``digest_only`` batch), ``error`` (a spec code, or ``"internal"`` with
    ``error_type`` and ``frames``), or ``inexpressible`` (a reason of the
    model's). ``message`` goes with an error or an inexpressible case."""

    canonical: bytes | None = None
    digest: bytes | None = None
    error: str | None = None
    message: str | None = None
    error_type: str | None = None
    frames: tuple[StackFrame, ...] = field(default=())
    inexpressible: str | None = None

    @property
    def code(self) -> ErrorCode | None:
        """The spec error the function raised, else None (``internal`` is
        not a spec code)."""
        error = self.error
        return error if error in SPEC_CODES else None  # type: ignore[return-value]

    @property
    def internal(self) -> bool:
        """Whether the implementation failed (anything but a spec error)."""
        return self.error == INTERNAL

    @property
    def text(self) -> str | None:
        """The canonical text decoded as UTF-8 (None without one)."""
        return None if self.canonical is None else self.canonical.decode("utf-8", "surrogateescape")

    @classmethod
    def from_wire(cls, result: Mapping[str, Any]) -> CaseResult:
        """A result map of a ``results`` response."""
        return cls(
            canonical=result.get("canonical"),
            digest=result.get("digest"),
            error=result.get("error"),
            message=result.get("message"),
            error_type=result.get("error_type"),
            frames=tuple(result.get("frames", ())),
            inexpressible=result.get("inexpressible"),
        )


def _results(response: Mapping[str, Any]) -> list[CaseResult]:
    if response.get("type") != "results":
        raise AssertionError(f"not a results response: {response!r}")
    return [CaseResult.from_wire(result) for result in response["results"]]


# --- in process ---------------------------------------------------------------------

ModelChoice = ModelName | Exact | Native | Text


def run_cases(
    fn: Callable[[Any], Any],
    cases: Iterable[object],
    *,
    model: ModelChoice = "exact",
    members: Callable[[list[Any]], object] | None = None,
    unsupported: Callable[[str], object] | None = None,
    digest_only: bool = False,
) -> list[CaseResult]:
    """``fn`` served as :func:`difffuzz_kit.serve` serves it, on one batch
    of ``cases``, in process: each case's result, in order, as the driver
    reads it. ``model`` and its options are serve's. A case is an
    exact-model value or raw msgpack ``bytes`` (see :func:`request`); in the
    text model, a ``str`` is the JSON text the driver would send (as
    protocol 4 sends it, so the function gets it unchanged)."""
    chosen = model_for(model, members, unsupported, FD_PROTOCOL)
    listed = list(cases)
    if chosen.name == "text":
        listed = [texts(case)[0] if isinstance(case, str) else case for case in listed]
    worker = Worker(fn, chosen, hello("test", "0", chosen.name, protocol=FD_PROTOCOL))
    _, response = worker.handle(batch(1, listed, digest_only=digest_only))
    # the driver's view: what msgpack writes and reads back
    wire = msgpack.packb(response, use_bin_type=True, use_single_float=False)
    return _results(msgpack.unpackb(wire, raw=False))


def session(
    fn: Callable[[Any], Any],
    *bodies: bytes,
    model: ModelChoice | Model = "exact",
    raw: bytes = b"",
    protocol: int = PROTOCOL,
) -> tuple[int, list[dict[str, Any]]]:
    """The worker loop over these frame bodies, then ``raw`` bytes (a broken
    frame, say), then end of input: the exit status and every message
    written, hello first. ``protocol`` is the driver's: 4 as on the
    descriptors it offers, 2 as on stdin and stdout (where the text model
    has no text to hand over)."""
    chosen = model_for(model, None, None, protocol) if isinstance(model, str | Exact | Native | Text) else model
    out = io.BytesIO()
    inp = io.BytesIO(b"".join(frame(body) for body in bodies) + raw)
    try:
        status = run(Worker(fn, chosen, hello("test", "0", chosen.name, protocol=protocol)), inp, out)
    finally:
        gc.unfreeze()  # run freezes what lives before its first request, as a worker may
    return status, messages(out.getvalue())


# --- as a process -------------------------------------------------------------------


class WorkerProcess:
    """A worker process (``argv``, ``[sys.executable, "worker.py"]`` say)
    started the way the driver starts one, driven frame by frame over real
    pipes. With ``offer`` (the default) the protocol runs on two pipes of
    its own, offered in ``DIFFFUZZ_FDS`` (protocol 4), and the process's
    stdout and stderr are only its log; without, on its stdin and stdout
    (protocol 2), with no offer in its environment. The log is read as it
    comes (a chatty worker never blocks on it) and :meth:`close` hands it
    over. Use it as a context manager: the process is killed if still
    running at the end."""

    def __init__(
        self, argv: Sequence[str], *, offer: bool = True, env: Mapping[str, str] | None = None, timeout: float = 10
    ) -> None:
        environment = dict(os.environ if env is None else env)
        environment.pop(FDS_ENV, None)
        self.timeout = timeout
        self.protocol = FD_PROTOCOL if offer else PROTOCOL
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe() if offer else (-1, -1)
        if offer:
            environment[FDS_ENV] = f"{req_r},{resp_w}"
        try:
            self.proc = subprocess.Popen(
                list(argv),
                env=environment,
                pass_fds=(req_r, resp_w) if offer else (),
                stdin=subprocess.DEVNULL if offer else req_r,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except BaseException:
            for fd in (req_w, resp_r):
                if fd != -1:
                    os.close(fd)
            raise
        finally:
            for fd in (req_r, resp_w):
                if fd != -1:
                    os.close(fd)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._requests = req_w
        self._responses = resp_r if offer else self.proc.stdout.fileno()
        self._out = bytearray()
        self._err = bytearray()
        logs = [(self.proc.stderr.fileno(), self._err)]
        if offer:
            logs.append((self.proc.stdout.fileno(), self._out))
        self._readers = [threading.Thread(target=_drain, args=log, daemon=True) for log in logs]
        for reader in self._readers:
            reader.start()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.kill()

    @property
    def returncode(self) -> int | None:
        """The exit status, once the worker has exited."""
        return self.proc.poll()

    def write(self, data: bytes) -> None:
        """Raw bytes on the request channel (a frame, part of one, garbage)."""
        view = memoryview(data)
        while view:
            view = view[os.write(self._requests, view) :]

    def send(self, body: bytes) -> None:
        """One frame holding ``body`` (a request: :func:`batch`, :func:`request`)."""
        self.write(frame(body))

    def receive(self) -> dict[str, Any]:
        """The next frame's message (an AssertionError if none comes within
        ``timeout`` seconds, or the worker closes its channel first)."""
        deadline = time.monotonic() + self.timeout
        header = self._read(4, deadline)
        (length,) = _LENGTH.unpack(header)
        if not 1 <= length <= MAX_FRAME:
            raise AssertionError(f"bad frame length {length} ({header!r}): does the worker print on its protocol channel?")
        message: dict[str, Any] = msgpack.unpackb(self._read(length, deadline), raw=False)
        return message

    def hello(self) -> dict[str, Any]:
        """The hello, checked to be one, of this channel's protocol."""
        message = self.receive()
        assert message.get("type") == "hello", message
        assert message.get("protocol") == self.protocol, message
        return message

    def results(self, request_id: int, cases: Sequence[object], **members: object) -> list[CaseResult]:
        """Send a batch (see :func:`batch`) and read its results."""
        self.send(batch(request_id, cases, **members))
        response = self.receive()
        assert response.get("id") == request_id, response
        return _results(response)

    def close(self) -> tuple[bytes, bytes]:
        """End the requests and wait for the worker to exit (its status in
        :attr:`returncode`); what it wrote on stdout (with an offer: its
        log; without, what of the responses was not received) and on
        stderr."""
        self._close(self._requests)
        self._requests = -1
        self.proc.wait(timeout=self.timeout)
        return self._finish()

    def kill(self) -> None:
        """Kill the worker if it still runs, and close the pipes."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._close(self._requests)
        self._requests = -1
        self._finish()

    def _finish(self) -> tuple[bytes, bytes]:
        for reader in self._readers:
            reader.join(self.timeout)
        if self.protocol == PROTOCOL and self._responses != -1:
            _drain(self._responses, self._out)  # the worker has exited: to its end
        if self.protocol == FD_PROTOCOL:
            self._close(self._responses)
        self._responses = -1
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        return bytes(self._out), bytes(self._err)

    @staticmethod
    def _close(fd: int) -> None:
        if fd != -1:
            os.close(fd)

    def _read(self, n: int, deadline: float) -> bytes:
        data = b""
        while len(data) < n:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._responses], [], [], max(left, 0))
            if not ready:
                raise AssertionError(f"no response from the worker within {self.timeout} s")
            chunk = os.read(self._responses, n - len(data))
            if not chunk:
                raise AssertionError("the worker closed its response channel")
            data += chunk
        return data


def _drain(fd: int, into: bytearray) -> None:
    """Everything a descriptor gives until its end, into ``into``."""
    try:
        while chunk := os.read(fd, 1 << 16):
            into += chunk
    except OSError:  # closed under the reader
        pass
