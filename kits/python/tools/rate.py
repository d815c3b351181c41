"""The example workers' rate, as the driver would see it: each example
(``example/worker.py``, native; ``example/text_worker.py``, text) started as
the driver starts a worker, on offered descriptors (protocol 4), and sent
the golden fixtures' random cases (tests/fixtures/canonical-json-fuzz) in
batches of 2,048, as a fuzzing run sends them: the native worker each
case's msgpack, the text worker its JSON text as bin. Prints cases per
second of wall time (the batches' round trips) and of the worker's CPU (the
sum of its batches' ``batch_cpu_ns``), the median of ``--repeat`` passes.

    adapters/python/.venv/bin/python kits/python/tools/rate.py

Until the driver speaks protocol 4, this is how the text model's rate is
measured against the native one's (docs/your-sdk.md, "The text model")."""

from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgpack

KIT = Path(__file__).resolve().parents[1]
FIXTURES = KIT.parents[1] / "tests" / "fixtures" / "canonical-json-fuzz"
BATCH = 2048


def fixture_cases() -> tuple[list[bytes], list[bytes]]:
    """Each random fixture's case as the native worker gets it (its
    msgpack) and as the text worker does (bin of its JSON text)."""
    records = []
    for path in sorted(FIXTURES.glob("random-*.jsonl")):
        records += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    native = [base64.b64decode(r["msgpack"]) for r in records]
    text = [bytes(msgpack.packb(r["input"].encode(), use_bin_type=True)) for r in records]
    return native, text


def batches(cases: list[bytes]) -> list[bytes]:
    """The cases as batch frames of BATCH cases each."""
    packer = msgpack.Packer()
    frames = []
    for at in range(0, len(cases), BATCH):
        chunk = cases[at : at + BATCH]
        body = packer.pack_map_header(3) + packer.pack("type") + packer.pack("batch")
        body += packer.pack("id") + packer.pack(at // BATCH + 1)
        body += packer.pack("cases") + packer.pack_array_header(len(chunk)) + b"".join(chunk)
        frames.append(struct.pack(">I", len(body)) + body)
    return frames


def read_exactly(fd: int, n: int) -> bytes:
    data = b""
    while len(data) < n:
        more = os.read(fd, n - len(data))
        if not more:
            raise EOFError("the worker closed its responses")
        data += more
    return data


def receive(fd: int) -> dict[str, Any]:
    (length,) = struct.unpack(">I", read_exactly(fd, 4))
    message: dict[str, Any] = msgpack.unpackb(read_exactly(fd, length), raw=False)
    return message


def one_pass(worker: Path, frames: list[bytes], count: int) -> tuple[float, float]:
    """Start ``worker``, send every frame, one round trip at a time; its
    cases per wall second and per CPU second (``batch_cpu_ns``)."""
    req_r, req_w = os.pipe()
    resp_r, resp_w = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, str(worker)],
        env={**os.environ, "DIFFFUZZ_FDS": f"{req_r},{resp_w}"},
        pass_fds=(req_r, resp_w),
        stdin=subprocess.DEVNULL,
    )
    os.close(req_r)
    os.close(resp_w)
    try:
        hello = receive(resp_r)
        assert hello["protocol"] == 4, hello
        cpu_ns = 0
        start = time.perf_counter()
        for frame in frames:
            os.write(req_w, frame)
            response = receive(resp_r)
            assert response["type"] == "results", response
            cpu_ns += response["batch_cpu_ns"]
        wall = time.perf_counter() - start
    finally:
        os.close(req_w)
        proc.wait(30)
        os.close(resp_r)
    return count / wall, count / (cpu_ns / 1e9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="passes per worker (default 5)")
    args = parser.parse_args()
    native, text = fixture_cases()
    rates: dict[str, tuple[float, float]] = {}
    for name, worker, cases in (
        ("native", KIT / "example" / "worker.py", native),
        ("text", KIT / "example" / "text_worker.py", text),
    ):
        frames = batches(cases)
        passes = [one_pass(worker, frames, len(cases)) for _ in range(args.repeat)]
        wall, cpu = statistics.median(p[0] for p in passes), statistics.median(p[1] for p in passes)
        rates[name] = wall, cpu
        print(f"{name:6}: {len(cases)} cases, {wall:10,.0f} cases/s wall, {cpu:10,.0f} cases/CPU-s (batch_cpu_ns)")
    (text_wall, text_cpu), (native_wall, native_cpu) = rates["text"], rates["native"]
    print(f"text/native: {text_wall / native_wall:.2f} (wall), {text_cpu / native_cpu:.2f} (CPU)")


if __name__ == "__main__":
    main()
