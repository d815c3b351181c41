"""The documented example worker (example/worker.py), started as a real
process the way the driver starts a worker."""

from __future__ import annotations

import struct
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from blake3 import blake3

from _support import texts
from difffuzz_kit import ExactObject
from difffuzz_kit._models import TEXT_NEEDS_PROTOCOL_4
from difffuzz_kit.testing import WorkerProcess

#: The example workers are the kit folder's (kits/python/example), not the
#: wheel's: a copy of tests/ run against an installed wheel finds them only
#: where example/ was copied beside it.
EXAMPLE = Path(__file__).resolve().parents[1] / "example" / "worker.py"
TEXT_EXAMPLE = EXAMPLE.with_name("text_worker.py")

pytestmark = pytest.mark.skipif(
    not EXAMPLE.is_file(), reason=f"no example workers beside tests/ ({EXAMPLE.parent}): copy example/ with tests/ to run these"
)


@pytest.fixture
def worker() -> Iterator[WorkerProcess]:
    """The example on stdin and stdout, as a driver of protocol 2 starts it."""
    with WorkerProcess([sys.executable, str(EXAMPLE)], offer=False) as proc:
        yield proc


def test_example_worker_answers_and_refuses(worker: WorkerProcess) -> None:
    hello = worker.hello()
    assert hello["protocol"] == 2 and hello["model"] == "native" and hello["name"] == "json-dumps-sorted"
    assert hello["inexpressible"] == ["duplicate_key", "non_string_key", "unsupported_value"]
    call = b"\x82\xa9tool_name\xa1t\xa4args\x82\xa1b\x01\xa1a\xcb" + struct.pack(">d", 0.5)
    duplicate = b"\x81\xa1a\x82\xa1x\x01\xa1x\x02"
    binary = b"\x81\xa1a\xc4\x01\x00"
    worker.send(b"\x83\xa4type\xa5batch\xa2id\x07\xa5cases\x93" + call + duplicate + binary)
    response = worker.receive()
    assert response["id"] == 7
    ok, refused, error = response["results"]
    assert ok == {"canonical": b'{"args":{"a":0.5,"b":1},"tool_name":"t"}', "digest": blake3(ok["canonical"]).digest()}
    assert refused["inexpressible"] == "duplicate_key" and "x" in refused["message"]
    assert error["error"] == "unsupported_value"  # json.dumps refuses bytes
    worker.close()
    assert worker.returncode == 0


def test_a_bad_frame_length_exits_two(worker: WorkerProcess) -> None:
    worker.hello()
    worker.write(b"\x00\x00\x00\x00")
    response = worker.receive()
    assert response["type"] == "error" and "bad frame length" in response["message"]
    _, err = worker.close()
    assert worker.returncode == 2
    assert b"bad frame length" in err


def test_text_example_worker_parses_the_drivers_text() -> None:
    """On the driver's descriptors (protocol 4) the text example gets each
    case's JSON text as the driver spelled it and reads it with json.loads:
    the last repeated key wins (a finding, not an inexpressible answer), and
    a text json.loads refuses is an internal result that says where:
    json.loads, entered from the example's function."""
    with WorkerProcess([sys.executable, str(TEXT_EXAMPLE)]) as worker:
        hello = worker.hello()
        assert hello["model"] == "text"
        assert hello["inexpressible"] == ["non_string_key", "unsupported_value"]
        cases = texts('{"a":{"x":1,"x":2}}', '\n{ "b" :"\\u00E9\\/" ,"a":1.50E0}\t', "[1,]")
        merged, spelled, refused = worker.results(7, cases)
        assert merged.canonical == b'{"a":{"x":2}}'
        assert spelled.canonical == b'{"a":1.5,"b":"\\u00e9/"}'
        assert refused.internal and refused.error_type == "json.decoder.JSONDecodeError"
        from_example = {"file": str(TEXT_EXAMPLE), "function": "canonical", "line": _line(TEXT_EXAMPLE, "json.loads(")}
        assert refused.frames == ({"file": "", "function": "json.loads", "line": 0}, from_example)
        _, err = worker.close()
        assert worker.returncode == 0, err


def _line(path: Path, text: str) -> int:
    (line,) = [n for n, source in enumerate(path.read_text().splitlines(), 1) if text in source]
    return line


def test_text_example_worker_on_stdio_needs_a_driver_of_protocol_4() -> None:
    """Started by hand (stdin and stdout, protocol 2), the text example is
    sent values, which the kit does not spell: every case is an internal
    result that says so, and the worker goes on."""
    with WorkerProcess([sys.executable, str(TEXT_EXAMPLE)], offer=False) as worker:
        assert worker.hello()["model"] == "text"
        for request_id in (1, 2):
            results = worker.results(request_id, [ExactObject([("a", 1)]), [b"\x00"]])
            assert [r.error for r in results] == ["internal", "internal"]
            assert all(r.message == TEXT_NEEDS_PROTOCOL_4 for r in results)
        worker.close()
        assert worker.returncode == 0
