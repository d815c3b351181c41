"""The protocol's own channel: offered descriptors in DIFFFUZZ_FDS, the
worker serves there in protocol 4, and what its function prints, on
stdout or stderr, is only its log. Run as a real process, as the driver
runs a worker (which offers descriptors 3 and 4; here whatever numbers the
pipes got)."""

from __future__ import annotations

import os
import sys

import pytest
from blake3 import blake3

from difffuzz_kit._serve import FD_PROTOCOL, FDS_ENV, PROTOCOL, channel
from difffuzz_kit.testing import WorkerProcess

CHATTY = """
import sys
from difffuzz_kit import serve

def canonical(value):
    print("debug: canonicalizing", value)
    print("debug: on stderr", file=sys.stderr)
    return b"1"

print("debug: starting")
sys.exit(serve(canonical, name="chatty", version="0", model="native"))
"""


def test_a_printing_function_leaves_the_channel_alone() -> None:
    with WorkerProcess([sys.executable, "-c", CHATTY]) as worker:
        hello = worker.hello()
        assert hello["protocol"] == FD_PROTOCOL
        for request_id in (1, 2):
            worker.send(b"\x83\xa4type\xa5batch\xa2id" + bytes([request_id]) + b"\xa5cases\x92\x01\xa1x")
            response = worker.receive()
            assert response["id"] == request_id
            assert [r["canonical"] for r in response["results"]] == [b"1", b"1"]
            assert response["results"][0]["digest"] == blake3(b"1").digest()
        out, err = worker.close()
    assert worker.returncode == 0
    assert out.decode().splitlines() == ["debug: starting"] + ["debug: canonicalizing 1", "debug: canonicalizing x"] * 2
    assert err.decode().count("debug: on stderr") == 4


@pytest.mark.parametrize(
    ("offer", "protocol"),
    [("", PROTOCOL), ("3,4", FD_PROTOCOL)],
)
def test_channel_reads_the_offer(monkeypatch: pytest.MonkeyPatch, offer: str, protocol: int) -> None:
    monkeypatch.setenv(FDS_ENV, offer)
    opened: list[tuple[int, str]] = []

    def fdopen(fd: int, mode: str, buffering: int) -> int:
        opened.append((fd, mode))
        return fd

    monkeypatch.setattr(os, "fdopen", fdopen)
    assert channel()[2] == protocol
    assert opened == ([(3, "rb"), (4, "wb")] if offer else [])


@pytest.mark.parametrize("offer", ["3", "3,x", "3,4,5"])
def test_a_malformed_offer_is_an_error(monkeypatch: pytest.MonkeyPatch, offer: str) -> None:
    monkeypatch.setenv(FDS_ENV, offer)
    with pytest.raises(ValueError, match=FDS_ENV):
        channel()
