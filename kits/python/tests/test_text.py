"""The text model (docs/adapter-protocol.md, "The text model's bytes"): at
protocol 4 the driver sends each case as msgpack bin holding its JSON text,
which the function gets as a ``str`` with every character as sent; on stdin
and stdout (protocol 2) the driver sends values, and every case is an
internal result saying the text model needs a driver of protocol 4."""

from __future__ import annotations

import io
import json
from typing import Any

import msgpack
import pytest
from blake3 import blake3

from _support import batch, messages, request, session, texts
from difffuzz_kit import ExactObject, Text, serve
from difffuzz_kit import _serve as serve_module
from difffuzz_kit._models import TEXT_NEEDS_PROTOCOL_4
from difffuzz_kit._serve import FD_PROTOCOL

#: JSON texts as the driver may spell them: whitespace, escapes (a lone
#: surrogate's too), raw characters past ASCII, a repeated key.
SPELLED = [
    '\n{"tool_\\u006Eame"\n  :"a\\/\\u0022é😀\\n",  "args":\t{"n":[1.5e2, 0.1E+3]}}\r\n',
    '["\\uD800", "\\udc00x"]',
    '{"a":1,"a":2}',
    "",
]


class Recorder:
    """A function that keeps what it was handed and answers its UTF-8."""

    def __init__(self) -> None:
        self.seen: list[object] = []

    def __call__(self, text: str) -> bytes:
        self.seen.append(text)
        return text.encode()


def text_session(*bodies: bytes, fn: Any = None) -> list[dict[str, Any]]:
    status, written = session(fn or Recorder(), Text(), *bodies, protocol=FD_PROTOCOL)
    assert status == 0
    assert written[0]["protocol"] == FD_PROTOCOL and written[0]["model"] == "text"
    return written[1:]


def test_the_function_gets_the_drivers_text_unchanged() -> None:
    recorder = Recorder()
    (response,) = text_session(batch(3, texts(*SPELLED)), fn=recorder)
    assert recorder.seen == SPELLED
    assert all(type(text) is str for text in recorder.seen)
    for text, result in zip(SPELLED, response["results"], strict=True):
        assert result == {"canonical": text.encode(), "digest": blake3(text.encode()).digest()}


def test_both_readings_of_a_batch_hand_over_the_same_text() -> None:
    """Cases last (read one by one) and cases first (the careful reading)."""
    cases = texts(*SPELLED)
    packer = msgpack.Packer()
    first = packer.pack_map_header(3) + packer.pack("cases") + packer.pack_array_header(len(cases))
    first += b"".join(cases) + packer.pack("type") + packer.pack("batch") + packer.pack("id") + packer.pack(2)
    recorder = Recorder()
    last, cases_first = text_session(batch(1, cases), first, fn=recorder)
    assert cases_first["results"] == last["results"]
    assert recorder.seen == SPELLED + SPELLED


def test_digest_only_and_bench_take_text_too() -> None:
    recorder = Recorder()
    digests, bench = text_session(
        batch(1, texts("[1]"), digest_only=True), request({"type": "bench", "id": 2, "rounds": 3}, texts("[2]")), fn=recorder
    )
    assert digests["results"] == [{"digest": blake3(b"[1]").digest()}]
    assert bench["type"] == "bench" and bench["count"] == 3
    assert set(recorder.seen) == {"[1]", "[2]"}


@pytest.mark.parametrize(
    ("case", "message"),
    [
        (msgpack.packb("[1]"), "a case is a msgpack str, not bin"),
        (msgpack.packb(ExactObject()), "a case is a msgpack"),
        (msgpack.packb(b"\xff[", use_bin_type=True), "not UTF-8"),
    ],
)
def test_a_case_that_is_not_utf8_bin_is_the_drivers_error(case: bytes, message: str) -> None:
    """The driver never sends one: an error response for the request (not a
    finding against the implementation), and the worker goes on."""
    recorder = Recorder()
    bad, after = text_session(batch(4, [*texts("[1]"), case]), batch(5, texts("[2]")), fn=recorder)
    assert bad["type"] == "error" and bad["id"] == 4
    assert message in bad["message"]
    assert after["type"] == "results" and after["results"][0]["canonical"] == b"[2]"


def test_an_exception_of_the_function_is_internal_with_its_place() -> None:
    def canonical(text: str) -> bytes:
        return json.dumps(json.loads(text)).encode()

    (response,) = text_session(batch(1, texts("[NaN]", "[1,")), fn=canonical)
    ok, refused = response["results"]
    assert ok["canonical"] == b"[NaN]"
    assert refused["error_type"] == "json.decoder.JSONDecodeError"
    assert [f["function"] for f in refused["frames"]] == ["json.loads", canonical.__qualname__]


def test_serve_on_the_offered_channel_speaks_protocol_4(monkeypatch: pytest.MonkeyPatch) -> None:
    """serve picks the text model that reads bin where the driver offers
    its descriptors."""
    out = io.BytesIO()
    inp = io.BytesIO(b"".join(len(b).to_bytes(4, "big") + b for b in [batch(1, texts("[1]"))]))
    monkeypatch.setattr(serve_module, "channel", lambda: (inp, out, FD_PROTOCOL))
    assert serve(str.encode, name="sdk", version="1", model="text") == 0
    hello, response = messages(out.getvalue())
    assert hello["protocol"] == 4 and hello["inexpressible"] == ["non_string_key", "unsupported_value"]
    assert response["results"][0]["canonical"] == b"[1]"


def test_on_stdio_every_case_needs_a_driver_of_protocol_4() -> None:
    """A driver of protocol 2 sends values: the function is never called,
    and each case, in a batch or in a bench, is answered and skipped."""
    recorder = Recorder()
    body = batch(1, [ExactObject([("a", 1)]), b"\xd4\x05\x00", [1, 2]])  # ext 5: no JSON text either
    bench = request({"type": "bench", "id": 2, "rounds": 2}, [1])
    out = io.BytesIO()
    inp = io.BytesIO(b"".join(len(b).to_bytes(4, "big") + b for b in [body, bench]))
    assert serve(recorder, name="sdk", version="1", model="text", stdin=inp, stdout=out) == 0
    hello, response, bench_response = messages(out.getvalue())
    assert hello["protocol"] == 2 and hello["model"] == "text"
    assert response["results"] == [{"error": "internal", "message": TEXT_NEEDS_PROTOCOL_4}] * 3
    assert bench_response["count"] == 2
    assert recorder.seen == []
