"""difffuzz_kit.testing, as a team's own tests use it: a worker function on
given cases in process, each case's result; and a worker process driven
frame by frame over real pipes, on the driver's descriptors or on stdin and
stdout."""

from __future__ import annotations

import json
import sys

import pytest
from blake3 import blake3

from _support import line_of
from difffuzz_kit import Exact, ExactObject, Signed, SpecError
from difffuzz_kit.testing import CaseResult, WorkerProcess, batch, pack, run_cases


def dumps(value: object) -> bytes:
    """A naive native-model function: json.dumps with sorted keys."""
    if value == "boom":
        raise RuntimeError("boom")
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()
    except TypeError as error:
        raise SpecError("unsupported_value", str(error)) from None


def test_run_cases_gives_each_cases_result() -> None:
    ok, bad, failed, refused = run_cases(
        dumps, [{"b": 1, "a": [2]}, {"a": b"\x00"}, "boom", b"\x82\xa1a\x01\xa1a\x02"], model="native"
    )
    assert ok == CaseResult(canonical=b'{"a":[2],"b":1}', digest=blake3(b'{"a":[2],"b":1}').digest())
    assert ok.text == '{"a":[2],"b":1}' and ok.code is None and not ok.internal
    assert bad.code == "unsupported_value" and bad.error == "unsupported_value" and bad.message
    assert failed.internal and failed.code is None and failed.error_type == "RuntimeError"
    assert failed.frames == ({"file": __file__, "function": "dumps", "line": line_of(dumps, 'RuntimeError("boom")')},)
    assert refused.inexpressible == "duplicate_key" and refused.canonical is None  # raw msgpack: a repeated key


def test_run_cases_digest_only_and_signed() -> None:
    own = bytes(range(32))

    def signing(value: object) -> Signed | tuple[bytes, bytes]:
        return Signed(b"1", own) if value == 1 else (b"2", own)

    full = run_cases(signing, [1, 2])
    assert [(r.canonical, r.digest) for r in full] == [(b"1", own), (b"2", own)]
    (only,) = run_cases(signing, [1], digest_only=True)
    assert only == CaseResult(digest=own)


def test_run_cases_in_each_model() -> None:
    seen: list[object] = []

    def keep(value: object) -> bytes:
        seen.append(value)
        return b"1"

    run_cases(keep, [ExactObject([("a", 1), ("a", 2)])])
    run_cases(keep, [ExactObject([("a", 1)])], model="native")
    run_cases(keep, ['{"a" : 1}'], model="text")
    run_cases(keep, [pack(ExactObject([("a", 1)]))], model=Exact(members=list))
    assert seen == [ExactObject([("a", 1), ("a", 2)]), {"a": 1}, '{"a" : 1}', [("a", 1)]]
    assert type(seen[3]) is list


def test_run_cases_hands_the_default_marker_over() -> None:
    def refuse(value: object) -> bytes:
        if isinstance(value, Exact.Unsupported):
            raise SpecError("unsupported_value", value.reason)
        return b"1"

    (result,) = run_cases(refuse, [b"\xd4\x05\x00"])
    assert result.code == "unsupported_value" and result.message == "msgpack ext type 5"


WORKER = """
import sys
from difffuzz_kit import serve

def canonical(value):
    if sys.argv[1:] == ["chatty"]:  # only where stdout is not the protocol's channel
        print("log:", value)
    if value == "boom":
        raise KeyError(value)
    return str(value).encode()

sys.exit(serve(canonical, name="toy", version="1", model="native"))
"""


@pytest.mark.parametrize("offer", [True, False], ids=["descriptors", "stdio"])
def test_worker_process_frame_by_frame(offer: bool) -> None:
    with WorkerProcess([sys.executable, "-c", WORKER, *(["chatty"] if offer else [])], offer=offer) as worker:
        hello = worker.hello()
        assert hello["protocol"] == (4 if offer else 2) and hello["name"] == "toy"
        ok, failed = worker.results(3, [1, "boom"])
        assert ok.canonical == b"1" and failed.internal and failed.error_type == "KeyError"
        worker.send(batch(4, [2], digest_only=True))
        assert worker.receive() == {
            "type": "results",
            "id": 4,
            "results": [{"digest": blake3(b"2").digest()}],
            "batch_cpu_ns": pytest.approx(1, abs=10**12),
        }
        worker.write(b"\x00\x00\x00\x00")  # a bad frame length: an error response, exit status 2
        assert worker.receive()["type"] == "error"
        out, err = worker.close()
    assert worker.returncode == 2
    if offer:  # the function's prints are only its log
        assert out.decode().splitlines() == ["log: 1", "log: boom", "log: 2"]
    assert b"bad frame length" in err


def test_worker_process_times_out_on_a_silent_worker() -> None:
    with (
        WorkerProcess([sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.5) as worker,
        pytest.raises(AssertionError, match="no response"),
    ):
        worker.receive()


def test_worker_process_names_a_worker_that_prints_on_its_channel() -> None:
    with (
        WorkerProcess([sys.executable, "-c", "print('debug: hello'); import time; time.sleep(30)"], offer=False) as worker,
        pytest.raises(AssertionError, match="print on its protocol channel"),
    ):
        worker.receive()


def test_worker_process_reads_a_long_log_as_it_comes() -> None:
    """A worker that logs more than a pipe holds before its hello does not
    block: its stdout and stderr are read as they come."""
    chatty = "import sys; print('x' * 300_000); print('y' * 300_000, file=sys.stderr)\n" + WORKER
    with WorkerProcess([sys.executable, "-c", chatty]) as worker:
        worker.hello()
        (result,) = worker.results(1, [1])
        assert result.canonical == b"1"
        out, err = worker.close()
    assert worker.returncode == 0
    assert out.count(b"x") == 300_000 and err.count(b"y") == 300_000
