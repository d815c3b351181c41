"""The documented example worker (example/worker.py), started as a real
process the way the driver starts a worker."""

from __future__ import annotations

import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from blake3 import blake3

from _support import batch, frame, offered, texts
from difffuzz_kit import Members
from difffuzz_kit.models import TEXT_NEEDS_PROTOCOL_4

EXAMPLE = Path(__file__).resolve().parents[1] / "example" / "worker.py"


@pytest.fixture
def worker() -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen([sys.executable, str(EXAMPLE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()  # type: ignore[union-attr]
        proc.stdout.close()  # type: ignore[union-attr]


def receive(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert proc.stdout is not None
    header = proc.stdout.read(4)
    assert len(header) == 4, "worker closed stdout"
    message: dict[str, Any] = msgpack.unpackb(proc.stdout.read(struct.unpack(">I", header)[0]), raw=False)
    return message


def send(proc: subprocess.Popen[bytes], data: bytes) -> None:
    assert proc.stdin is not None
    proc.stdin.write(data)
    proc.stdin.flush()


def test_example_worker_answers_and_refuses(worker: subprocess.Popen[bytes]) -> None:
    hello = receive(worker)
    assert hello["protocol"] == 2 and hello["model"] == "native" and hello["name"] == "json-dumps-sorted"
    assert hello["inexpressible"] == ["duplicate_key", "non_string_key", "unsupported_value"]
    call = b"\x82\xa9tool_name\xa1t\xa4args\x82\xa1b\x01\xa1a\xcb" + struct.pack(">d", 0.5)
    duplicate = b"\x81\xa1a\x82\xa1x\x01\xa1x\x02"
    binary = b"\x81\xa1a\xc4\x01\x00"
    batch = b"\x83\xa4type\xa5batch\xa2id\x07\xa5cases\x93" + call + duplicate + binary
    send(worker, frame(batch))
    response = receive(worker)
    assert response["id"] == 7
    ok, refused, error = response["results"]
    assert ok == {"canonical": b'{"args":{"a":0.5,"b":1},"tool_name":"t"}', "digest": blake3(ok["canonical"]).digest()}
    assert refused["inexpressible"] == "duplicate_key" and "x" in refused["message"]
    assert error["error"] == "unsupported_value"  # json.dumps refuses bytes
    worker.stdin.close()  # type: ignore[union-attr]
    assert worker.wait(10) == 0


def test_a_bad_frame_length_exits_two(worker: subprocess.Popen[bytes]) -> None:
    receive(worker)
    send(worker, b"\x00\x00\x00\x00")
    response = receive(worker)
    assert response["type"] == "error" and "bad frame length" in response["message"]
    assert worker.wait(10) == 2


TEXT_EXAMPLE = EXAMPLE.with_name("text_worker.py")


def test_text_example_worker_parses_the_drivers_text() -> None:
    """On the driver's descriptors (protocol 4) the text example gets each
    case's JSON text as the driver spelled it and reads it with json.loads:
    the last repeated key wins (a finding, not an inexpressible answer), and
    a text json.loads refuses is an internal result that says where:
    json.loads, entered from the example's function."""
    with offered([sys.executable, str(TEXT_EXAMPLE)]) as worker:
        hello = worker.receive()
        assert hello["protocol"] == 4 and hello["model"] == "text"
        assert hello["inexpressible"] == ["non_string_key", "unsupported_value"]
        cases = texts('{"a":{"x":1,"x":2}}', '\n{ "b" :"\\u00E9\\/" ,"a":1.50E0}\t', "[1,]")
        worker.send(batch(7, cases))
        merged, spelled, refused = worker.receive()["results"]
        assert merged["canonical"] == b'{"a":{"x":2}}'
        assert spelled["canonical"] == b'{"a":1.5,"b":"\\u00e9/"}'
        assert refused["error"] == "internal" and refused["error_type"] == "json.decoder.JSONDecodeError"
        from_example = {"file": str(TEXT_EXAMPLE), "function": "canonical", "line": _line(TEXT_EXAMPLE, "json.loads(")}
        assert refused["frames"] == [{"file": "", "function": "json.loads", "line": 0}, from_example]
        _, err = worker.close()
        assert worker.proc.returncode == 0, err


def _line(path: Path, text: str) -> int:
    (line,) = [n for n, source in enumerate(path.read_text().splitlines(), 1) if text in source]
    return line


def test_text_example_worker_on_stdio_needs_a_driver_of_protocol_4() -> None:
    """Started by hand (stdin and stdout, protocol 2), the text example is
    sent values, which the kit does not spell: every case is an internal
    result that says so, and the worker goes on."""
    proc = subprocess.Popen([sys.executable, str(TEXT_EXAMPLE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        hello = receive(proc)
        assert hello["protocol"] == 2 and hello["model"] == "text"
        for request_id in (1, 2):
            send(proc, frame(batch(request_id, [Members([("a", 1)]), [b"\x00"]])))
            results = receive(proc)["results"]
            assert [r["error"] for r in results] == ["internal", "internal"]
            assert all(r["message"] == TEXT_NEEDS_PROTOCOL_4 for r in results)
        proc.stdin.close()  # type: ignore[union-attr]
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()  # type: ignore[union-attr]
