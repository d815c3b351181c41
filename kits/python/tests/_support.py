"""Shared helpers of the kit's tests."""

from __future__ import annotations

import inspect
import io
import math
import os
import struct
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import msgpack

from difffuzz_kit import FDS_ENV, PROTOCOL, Canonicalize, Members, Model, Worker, hello, pack, run
from difffuzz_kit.wire import RawCases, unpack_batch


def envelope(args: object, tool_name: object = "t") -> Members:
    """The signed value around ``args``."""
    return Members([("tool_name", tool_name), ("args", args)])


def nested_arrays(depth: int, leaf: object = None) -> object:
    """``depth`` arrays one inside the other (built without recursion)."""
    value: object = [] if leaf is None else [leaf]
    for _ in range(depth - 1):
        value = [value]
    return value


def map_of(key_wire: bytes) -> bytes:
    """A case {"tool_name":"t","args":{<key>: 1}} with a raw key."""
    return b"\x82\xa9tool_name\xa1t\xa4args\x81" + key_wire + b"\x01"


def args_with(value_wire: bytes) -> bytes:
    """A case {"tool_name":"t","args":{"a": <value>}} with a raw value."""
    return b"\x82\xa9tool_name\xa1t\xa4args\x81\xa1a" + value_wire


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def same(a: object, b: object) -> bool:
    """Structural identity: int vs float vs bool kept apart, NaN equal to
    NaN, -0.0 different from 0.0, dict and Members both compared as ordered
    member lists, but a dict never the same as Members."""
    if isinstance(a, (dict, Members)) or isinstance(b, (dict, Members)):
        if type(a) is not type(b):
            return False
        ma, mb = _members(a), _members(b)
        return len(ma) == len(mb) and all(same(ka, kb) and same(va, vb) for (ka, va), (kb, vb) in zip(ma, mb, strict=True))
    if type(a) is not type(b):
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return a == b


def _members(value: object) -> list[tuple[object, object]]:
    """A dict's or a Members' members, in order."""
    if isinstance(value, dict):
        return list(value.items())
    assert isinstance(value, Members)
    return list(value)


def batch_stream(body: bytes | memoryview, model: Model) -> tuple[dict[str, object], Iterator[object]]:
    """:func:`unpack_batch` of a frame it must read."""
    got = unpack_batch(body, model.options, model.stream)
    assert got is not None
    return got


def raw_cases(request: dict[str, object]) -> RawCases:
    """A request's cases as :func:`read_request` reads them."""
    cases = request["cases"]
    assert isinstance(cases, RawCases)
    return cases


def request(head: dict[str, object], cases: Sequence[object]) -> bytes:
    """A request frame body: ``head``'s members, then ``cases`` (each an
    exact-model value, packed, or raw bytes, as they are)."""
    packer = msgpack.Packer()
    out: bytes = packer.pack_map_header(len(head) + 1)
    for key, value in head.items():
        out += packer.pack(key) + packer.pack(value)
    out += packer.pack("cases") + packer.pack_array_header(len(cases))
    return out + b"".join(c if isinstance(c, bytes) else pack(c) for c in cases)


def batch(request_id: int, cases: Sequence[object], **members: object) -> bytes:
    """A batch frame body with ``cases`` last (each a value or raw bytes)."""
    return request({"type": "batch", "id": request_id, **members}, cases)


def texts(*cases: str | bytes) -> list[bytes]:
    """Text-model cases as the driver of protocol 4 sends them: msgpack bin
    of each JSON text's UTF-8 (a str is encoded first)."""
    return [bytes(msgpack.packb(c.encode() if isinstance(c, str) else c, use_bin_type=True)) for c in cases]


def messages(data: bytes) -> list[dict[str, Any]]:
    """Every frame's message in a stream's bytes."""
    out, at = [], 0
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        out.append(msgpack.unpackb(data[at + 4 : at + 4 + length], raw=False))
        at += 4 + length
    return out


def session(
    fn: Canonicalize, model: Model, *bodies: bytes, raw: bytes = b"", protocol: int = PROTOCOL
) -> tuple[int, list[dict[str, Any]]]:
    """Run the loop over these frames (then ``raw`` bytes, then end of
    input); the exit status and every message written, hello first."""
    out = io.BytesIO()
    inp = io.BytesIO(b"".join(frame(b) for b in bodies) + raw)
    status = run(Worker(fn, model, hello("toy", "1.0", model.name, protocol=protocol)), inp, out)
    return status, messages(out.getvalue())


def read_message(fd: int) -> dict[str, Any]:
    """One frame's message from a descriptor (blocking)."""
    with os.fdopen(os.dup(fd), "rb", buffering=0) as stream:
        header = stream.read(4)
        assert len(header) == 4, "worker closed its response descriptor"
        (n,) = struct.unpack(">I", header)
        body = b""
        while len(body) < n:
            body += stream.read(n - len(body))
    message: dict[str, Any] = msgpack.unpackb(body, raw=False)
    return message


@dataclass
class Offered:
    """A worker process started as the driver starts one: its requests and
    responses on pipes of their own, offered in DIFFFUZZ_FDS."""

    proc: subprocess.Popen[bytes]
    requests: int
    responses: int

    def send(self, body: bytes) -> None:
        os.write(self.requests, frame(body))

    def receive(self) -> dict[str, Any]:
        return read_message(self.responses)

    def close(self, timeout: float = 10) -> tuple[bytes, bytes]:
        """End the requests and wait; the worker's stdout and stderr."""
        os.close(self.requests)
        self.requests = -1
        return self.proc.communicate(timeout=timeout)


@contextmanager
def offered(argv: list[str]) -> Iterator[Offered]:
    """Start ``argv`` on offered descriptors; killed if still running at
    the end, its pipes closed."""
    req_r, req_w = os.pipe()
    resp_r, resp_w = os.pipe()
    proc = subprocess.Popen(
        argv,
        env={**os.environ, FDS_ENV: f"{req_r},{resp_w}"},
        pass_fds=(req_r, resp_w),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(req_r)
    os.close(resp_w)
    worker = Offered(proc, req_w, resp_r)
    try:
        yield worker
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        if worker.requests >= 0:
            os.close(worker.requests)
        os.close(resp_r)


def line_of(fn: Callable[..., object], text: str) -> int:
    """The line number of the one line of ``fn``'s source that holds
    ``text``, so that a test names a line without counting."""
    lines, start = inspect.getsourcelines(fn)
    (index,) = [i for i, line in enumerate(lines) if text in line]
    return start + index
