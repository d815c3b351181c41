"""The worker process, driven as the fuzzer drives it (a subprocess speaking
frames on its stdin/stdout)."""

from __future__ import annotations

import base64
import json
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest
from blake3 import blake3

import canonjson
from _support import envelope, envelope_of_depth, nested_arrays
from canonjson import Object
from canonjson.wire import pack


class Worker:
    """A running ``python -m canonjson.worker`` with frame helpers."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "canonjson.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, body: bytes) -> None:
        self.send_raw(struct.pack(">I", len(body)) + body)

    def request(self, message: dict, cases: list | None = None) -> dict:
        """Send a request whose cases are encoded with the protocol's value
        codec (not plain msgpack), and read the response."""
        self.send(msgpack.packb(message) if cases is None else _with_cases(message, cases))
        return self.receive()

    def receive(self) -> dict:
        assert self.proc.stdout is not None
        header = self.proc.stdout.read(4)
        assert len(header) == 4, f"worker closed stdout; stderr: {self.stderr_tail()}"
        (length,) = struct.unpack(">I", header)
        body = self.proc.stdout.read(length)
        return msgpack.unpackb(body, raw=False)

    def close(self, timeout: float = 10) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout)

    def stderr_tail(self) -> bytes:
        if self.proc.poll() is None or self.proc.stderr is None:
            return b"(still running)"
        return self.proc.stderr.read()[-2000:]


def _with_cases(message: dict, cases: list) -> bytes:
    packer = msgpack.Packer()
    out = packer.pack_map_header(len(message) + 1)
    for key, value in message.items():
        out += packer.pack(key) + packer.pack(value)
    out += packer.pack("cases") + packer.pack_array_header(len(cases))
    return out + b"".join(c if isinstance(c, bytes) else pack(c) for c in cases)


@pytest.fixture
def worker() -> Iterator[Worker]:
    w = Worker()
    try:
        yield w
    finally:
        if w.proc.poll() is None:
            w.proc.kill()
            w.proc.wait()
        for stream in (w.proc.stdin, w.proc.stdout, w.proc.stderr):
            if stream and not stream.closed:
                stream.close()


def test_hello_then_eof_exits_zero(worker: Worker) -> None:
    assert worker.receive() == {
        "type": "hello",
        "protocol": 1,
        "language": "python",
        "name": "canonjson-python",
        "version": canonjson.__version__,
    }
    assert worker.close() == 0


def test_batch_results(worker: Worker) -> None:
    worker.receive()
    cases = [
        envelope(Object([("b", 1), ("a", [1.0, 2**64, "\u00e9"])])),
        envelope(Object([("a", 1), ("a", 2)])),
        envelope(Object([("\ud800", 1)])),
        b"\x82\xa9tool_name\xa1t\xa4args\x81\x01\x01",  # integer key
        b"\x82\xa9tool_name\xa1t\xa4args\x81\xa1a\xc4\x00",  # bin value
        b"\x82\xa9tool_name\xa1t\xa4args\x81\xa1a\xd4\xff\x01",  # malformed timestamp
        nested_arrays(1000),
        envelope_of_depth(512),
        [1, 2],
    ]
    response = worker.request({"type": "batch", "id": 7}, cases)
    assert response["type"] == "results" and response["id"] == 7
    results = response["results"]
    assert len(results) == len(cases)
    first = results[0]
    assert first["canonical"] == b'{"args":{"a":[1,18446744073709551616,"\\u00e9"],"b":1},"tool_name":"t"}'
    assert first["digest"] == blake3(first["canonical"]).digest() and len(first["digest"]) == 32
    codes = [r.get("error") for r in results[1:]]
    assert codes == [
        "duplicate_key",
        "lone_surrogate",
        "non_string_key",
        "unsupported_value",
        "unsupported_value",
        "too_deep",
        None,
        "bad_envelope",
    ]
    assert all(isinstance(r["message"], str) and r["message"] for r in results if "error" in r)
    assert results[7]["canonical"] == canonjson.canonical(envelope_of_depth(512))
    assert worker.close() == 0


def test_empty_batch_and_ids(worker: Worker) -> None:
    worker.receive()
    assert worker.request({"type": "batch", "id": 0, "cases": []}) == {"type": "results", "id": 0, "results": []}
    big_id = 2**64 - 1
    assert worker.request({"type": "batch", "id": big_id, "cases": []})["id"] == big_id


def test_bench(worker: Worker) -> None:
    worker.receive()
    cases = [envelope(Object([("a", i)])) for i in range(10)] + [envelope(Object([("a", 1), ("a", 1)]))]
    response = worker.request({"type": "bench", "id": 8, "rounds": 20}, cases)
    assert response["type"] == "bench" and response["id"] == 8
    assert response["count"] == 20 * 11
    assert isinstance(response["elapsed_ns"], int) and response["elapsed_ns"] > 0
    zero = worker.request({"type": "bench", "id": 9, "cases": [], "rounds": 0})
    assert zero["count"] == 0 and zero["elapsed_ns"] >= 0


ERROR_REQUESTS = [
    (b"\xc1", 0, "msgpack"),
    (msgpack.packb([1, 2]), 0, "not a msgpack map"),
    (msgpack.packb({"type": "nope", "id": 3}), 3, "unknown request type"),
    (msgpack.packb({"type": "batch", "id": 4, "cases": 5}), 4, "batch: cases is not an array"),
    (msgpack.packb({"type": "bench", "id": 5, "cases": []}), 5, "rounds"),
    (msgpack.packb({"type": "batch", "id": -1, "cases": []}), 0, "id"),
    (msgpack.packb({"type": "batch", "cases": []}), 0, "id"),
    (msgpack.packb({"type": "batch", "id": 6, "cases": []}) + b"\x00", 0, "after"),
]


def test_error_responses_and_the_worker_goes_on(worker: Worker) -> None:
    worker.receive()
    for body, request_id, message in ERROR_REQUESTS:
        worker.send(body)
        response = worker.receive()
        assert response["type"] == "error", body
        assert response["id"] == request_id, body
        assert message in response["message"], (body, response["message"])
    assert worker.request({"type": "batch", "id": 10, "cases": []})["type"] == "results"
    assert worker.close() == 0


@pytest.mark.parametrize("header", [b"\x00\x00\x00\x00", struct.pack(">I", 64 * 1024 * 1024 + 1)])
def test_bad_frame_length_exits_two(worker: Worker, header: bytes) -> None:
    worker.receive()
    worker.send_raw(header)
    response = worker.receive()
    assert response["type"] == "error" and response["id"] == 0
    assert "bad frame length" in response["message"]
    assert worker.proc.wait(10) == 2


def test_requests_are_answered_in_order(worker: Worker) -> None:
    worker.receive()
    for i in range(1, 6):
        worker.send(_with_cases({"type": "batch", "id": i}, [envelope(Object([("i", i)]))]))
    for i in range(1, 6):
        response = worker.receive()
        assert response["id"] == i
        assert response["results"][0]["canonical"] == b'{"args":{"i":%d},"tool_name":"t"}' % i
    assert worker.close() == 0


def test_worker_answers_the_edge_fixtures(worker: Worker) -> None:
    """The fixtures' wire cases through the real process, in one batch each
    file: the same answers as the library, so the loop adds nothing."""
    worker.receive()
    folder = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "canonical-json-fuzz"
    for name in ("edge.jsonl", "out-of-domain.jsonl", "random-01.jsonl"):
        entries = [json.loads(line) for line in (folder / name).read_text("ascii").splitlines()]
        cases = [base64.b64decode(e["msgpack"]) for e in entries]
        response = worker.request({"type": "batch", "id": 1}, cases)
        assert len(response["results"]) == len(entries)
        for number, (entry, result) in enumerate(zip(entries, response["results"]), 1):
            where = f"{name}:{number} [{entry['category']}]"
            if "error" in entry:
                assert result.get("error") == entry["error"], where
            else:
                assert result.get("canonical") == entry["canonical"].encode("ascii"), where
                assert result["digest"].hex() == entry["signature"], where
    assert worker.close() == 0
