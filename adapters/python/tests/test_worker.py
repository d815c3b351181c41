"""The project's worker (canonjson_worker.py: canonjson served by the worker
kit), driven as the fuzzer drives it, a subprocess speaking frames on its
stdin/stdout. The protocol itself (error responses, frame caps, bench, exit
statuses) is the kit's and tested in kits/python/tests."""

from __future__ import annotations

import base64
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from blake3 import blake3

import canonjson
from _support import envelope, envelope_of_depth, fixture_entries, nested_arrays
from canonjson import Object
from difffuzz_kit.testing import pack as kit_pack

WORKER = Path(__file__).resolve().parents[1] / "canonjson_worker.py"


def pack(value: object) -> bytes:
    return kit_pack(value, members=Object)


class Worker:
    """A running ``python canonjson_worker.py`` with frame helpers."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER), *args],
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

    def request(self, message: dict[str, Any], cases: list[Any] | None = None) -> dict[str, Any]:
        """Send a request whose cases are encoded with the protocol's value
        codec (not plain msgpack), and read the response."""
        self.send(msgpack.packb(message) if cases is None else _with_cases(message, cases))
        return self.receive()

    def receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        header = self.proc.stdout.read(4)
        assert len(header) == 4, f"worker closed stdout; stderr: {self.stderr_tail()!r}"
        (length,) = struct.unpack(">I", header)
        body = self.proc.stdout.read(length)
        response: dict[str, Any] = msgpack.unpackb(body, raw=False)
        return response

    def close(self, timeout: float = 10) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout)

    def stderr_tail(self) -> bytes:
        if self.proc.poll() is None or self.proc.stderr is None:
            return b"(still running)"
        return self.proc.stderr.read()[-2000:]


def _with_cases(message: dict[str, Any], cases: list[Any]) -> bytes:
    packer = msgpack.Packer()
    out: bytes = packer.pack_map_header(len(message) + 1)
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
        "protocol": 2,
        "language": "python",
        "name": "canonjson-python",
        "version": canonjson.__version__,
        "model": "exact",
        "inexpressible": [],
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


DIGEST_CASES = [
    envelope(Object([("b", 1), ("a", [1.0, 2**64, "\u00e9"])])),
    envelope(Object([("a", 1), ("a", 2)])),
    b"\x82\xa9tool_name\xa1t\xa4args\x81\xa1a\xd4\xff\x01",  # read the careful way
    envelope(Object([("x", "y" * 100)])),
    [1, 2],
]


def test_digest_only_batch_leaves_out_the_text(worker: Worker) -> None:
    worker.receive()
    full = worker.request({"type": "batch", "id": 1}, DIGEST_CASES)["results"]
    same_as_full = worker.request({"type": "batch", "id": 2, "digest_only": False}, DIGEST_CASES)["results"]
    digests = worker.request({"type": "batch", "id": 3, "digest_only": True}, DIGEST_CASES)
    assert same_as_full == full
    assert digests["type"] == "results" and digests["id"] == 3
    assert len(digests["results"]) == len(full)
    for answer, result in zip(digests["results"], full, strict=True):
        if "error" in result:
            assert answer == result  # errors are unchanged
        else:
            assert answer == {"digest": result["digest"]}
            assert answer["digest"] == blake3(result["canonical"]).digest()
    assert [r.get("error") for r in full] == [None, "duplicate_key", "unsupported_value", None, "bad_envelope"]
    assert worker.close() == 0


def test_batch_shapes_answer_alike(worker: Worker) -> None:
    """Cases last (read one by one), cases first (read whole) and a batch
    whose cases need the careful reading all give the same results."""
    worker.receive()
    cases = [envelope(Object([("i", i)])) for i in range(5)]
    last = worker.request({"type": "batch", "id": 1}, cases)["results"]
    packer = msgpack.Packer()
    first = packer.pack_map_header(3) + packer.pack("cases") + packer.pack_array_header(len(cases))
    first += b"".join(pack(c) for c in cases) + packer.pack("type") + packer.pack("batch")
    worker.send(first + packer.pack("id") + packer.pack(2))
    response = worker.receive()
    assert response.pop("batch_cpu_ns") > 0  # what the batch cost, which every results message says
    assert response == {"type": "results", "id": 2, "results": last}
    undecodable = b"\x82\xa9tool_name\xa1t\xa4args\x81\xa1a\xa2\xff\xfe"  # invalid UTF-8
    careful = worker.request({"type": "batch", "id": 3}, [*cases[:2], undecodable, *cases[2:]])["results"]
    assert careful[:2] + careful[3:] == last
    assert careful[2]["error"] == "unsupported_value"
    assert worker.close() == 0


def test_worker_answers_the_edge_fixtures(worker: Worker) -> None:
    """The fixtures' wire cases through the real process, in one batch each
    file: the same answers as the library, so the loop adds nothing."""
    worker.receive()
    folder = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "canonical-json-fuzz"
    for name in ("edge.jsonl", "out-of-domain.jsonl", "random-01.jsonl"):
        numbered = fixture_entries(folder / name)
        entries = [entry for _, entry in numbered]
        cases = [base64.b64decode(e["msgpack"]) for e in entries]
        response = worker.request({"type": "batch", "id": 1}, cases)
        assert len(response["results"]) == len(entries)
        for (number, entry), result in zip(numbered, response["results"], strict=True):
            where = f"{name}:{number} [{entry['category']}]"
            if "error" in entry:
                assert result.get("error") == entry["error"], where
            else:
                assert result.get("canonical") == entry["canonical"].encode("ascii"), where
                assert result["digest"].hex() == entry["signature"], where
    assert worker.close() == 0


def test_contract_flag() -> None:
    """--contract rfc8785: any top level, raw non-ASCII, big ints past
    what a double holds rejected."""
    w = Worker("--contract", "rfc8785")
    try:
        w.receive()
        response = w.request({"type": "batch", "id": 1}, [[1, "\u00e9"], [2**53 + 1], envelope(Object())])
        results = response["results"]
        assert results[0]["canonical"] == '[1,"\u00e9"]'.encode("utf-8")
        assert results[0]["digest"] == blake3(results[0]["canonical"]).digest()
        assert results[1]["error"] == "unsupported_value"
        assert results[2]["canonical"] == b'{"args":{},"tool_name":"t"}'
        assert w.close() == 0
    finally:
        if w.proc.poll() is None:
            w.proc.kill()
            w.proc.wait()


def test_contract_flag_refuses_an_unknown_contract() -> None:
    done = subprocess.run([sys.executable, str(WORKER), "--contract", "nope.toml"], capture_output=True, timeout=30, check=False)
    assert done.returncode == 2
    assert b"nope.toml" in done.stderr
