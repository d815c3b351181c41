"""The protocol loop, run in process over byte streams with a toy function:
hello, results, digest_only, bench, error responses, caps, exit statuses.

What ``difffuzz adapter check`` (harness/conform) checks of every worker is
left to it: ``make conform`` runs it on the example worker and on
adapters/python's. What is here is this kit's own: its options, how it maps
an exception to a result, its two ways of reading a batch, its buffers, and
the requests conform does not send (bench, ids, digest_only's type)."""

from __future__ import annotations

import io
import struct
from typing import Any, Literal

import msgpack
import pytest
from blake3 import blake3

from _support import batch, envelope, line_of, messages, request, session
from difffuzz_kit import Exact, ExactObject, Native, SpecError, Text, serve
from difffuzz_kit._answers import Canonicalize
from difffuzz_kit._frames import KEEP_BUFFER, MAX_FRAME
from difffuzz_kit._models import Model
from difffuzz_kit._wire import Unsupported
from difffuzz_kit.testing import pack


class CodedError(Exception):
    """An implementation's own error type: a spec code, no kit import."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def toy(value: object) -> bytes:
    """Canonical bytes by a rule of its own (the value's wire encoding),
    and every kind of failure on cue."""
    if type(value) is Unsupported:
        raise SpecError("unsupported_value", value.reason)
    if value == "coded":
        raise CodedError("duplicate_key", "its own type")
    if value == "boom":
        raise RuntimeError("boom")
    if value == "not-a-code":
        raise CodedError("internal", "a code that is not the spec's")
    if value == "text":
        return "a str, not bytes"  # type: ignore[return-value]
    if type(value) is str and value.startswith("big:"):
        return b"x" * int(value[4:])
    return pack(value)


def toy_session(
    *bodies: bytes, fn: Canonicalize = toy, model: Model | None = None, raw: bytes = b""
) -> tuple[int, list[dict[str, Any]]]:
    """:func:`session` with the toy function and the exact model by default."""
    return session(fn, model or Exact(), *bodies, raw=raw)


def answers(*bodies: bytes, fn: Canonicalize = toy, model: Model | None = None) -> list[dict[str, Any]]:
    """The responses to these frames (after the hello) of a worker that
    ends with status 0."""
    status, written = toy_session(*bodies, fn=fn, model=model)
    assert status == 0
    return written[1:]


def test_hello_of_each_model() -> None:
    models: list[tuple[Literal["exact", "native"], list[str]]] = [
        ("exact", []),
        ("native", ["duplicate_key", "non_string_key", "unsupported_value"]),
    ]
    for model, reasons in models:
        out = io.BytesIO()
        assert serve(toy, name="sdk", version="2.0", model=model, stdin=io.BytesIO(), stdout=out) == 0
        assert msgpack.unpackb(out.getvalue()[4:]) == {
            "type": "hello",
            "protocol": 2,
            "language": "python",
            "name": "sdk",
            "version": "2.0",
            "model": model,
            "inexpressible": reasons,
        }


def test_serve_refuses_options_it_cannot_honour() -> None:
    with pytest.raises(ValueError):
        serve(toy, name="x", version="1", model="lossy", stdin=io.BytesIO(), stdout=io.BytesIO())  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        serve(toy, name="x", version="1", model="native", members=list, stdin=io.BytesIO(), stdout=io.BytesIO())
    with pytest.raises(ValueError):
        SpecError("internal")  # type: ignore[arg-type]  # refused by the type too


def test_serve_takes_the_model_itself() -> None:
    """``model`` is a name or the model (the vocabulary's ``Exact()``,
    ``Native()``, ``Text()``): the same hello and the same answers; the
    exact model's options go to ``Exact``, not beside it."""
    body = b"".join(len(b).to_bytes(4, "big") + b for b in [batch(1, [ExactObject([("a", 1)]), b"\xd4\x05\x00"])])
    written = []
    for model in ("exact", Exact(), Exact(members=ExactObject), "native", Native()):
        out = io.BytesIO()
        assert serve(toy, name="sdk", version="1", model=model, stdin=io.BytesIO(body), stdout=out) == 0
        hello, response = messages(out.getvalue())
        response.pop("batch_cpu_ns")
        written.append((hello, response))
    assert written[0] == written[1] == written[2] and written[3] == written[4]
    assert written[0][0]["model"] == "exact" and written[3][0]["model"] == "native"
    assert written[3][1]["results"][1]["inexpressible"] == "unsupported_value"
    out = io.BytesIO()
    assert serve(str.encode, name="sdk", version="1", model=Text(), stdin=io.BytesIO(body), stdout=out) == 0
    hello, response = messages(out.getvalue())
    assert hello["model"] == "text" and hello["protocol"] == 2
    assert [r["error"] for r in response["results"]] == ["internal", "internal"]  # protocol 2: no text to hand over
    with pytest.raises(TypeError, match="Exact"):
        serve(toy, name="x", version="1", model=Exact(), members=list, stdin=io.BytesIO(), stdout=io.BytesIO())


def test_results_of_each_kind_and_the_worker_goes_on() -> None:
    cases = [envelope(ExactObject([("a", 1)])), b"\xd4\x05\x00", "coded", "boom", "not-a-code", "text", [1, 2]]
    (response,) = answers(batch(7, cases))
    assert response["type"] == "results" and response["id"] == 7
    results = response["results"]
    assert results[0] == {"canonical": pack(envelope(ExactObject([("a", 1)]))), "digest": blake3(pack(cases[0])).digest()}
    assert results[1] == {"error": "unsupported_value", "message": "msgpack ext type 5"}
    assert results[2] == {"error": "duplicate_key", "message": "its own type"}
    boom = {"file": __file__, "function": "toy", "line": line_of(toy, 'RuntimeError("boom")')}
    assert results[3] == {"error": "internal", "message": "RuntimeError: boom", "error_type": "RuntimeError", "frames": [boom]}
    assert results[4]["error"] == "internal" and "CodedError" in results[4]["message"]
    assert results[4]["error_type"] == "test_serve.CodedError"
    # blake3 refused the str in the kit's own code: no frame of the function's
    assert results[5]["error"] == "internal" and "TypeError" in results[5]["message"]
    assert results[5]["error_type"] == "TypeError" and "frames" not in results[5]
    assert results[6]["canonical"] == b"\x92\x01\x02"


def test_a_function_that_recurses_forever_is_an_internal_result() -> None:
    def forever(value: object) -> bytes:
        return forever(value)

    (response,) = answers(batch(1, [1, 2]), fn=forever)
    assert [r["error"] for r in response["results"]] == ["internal", "internal"]
    assert "RecursionError" in response["results"][0]["message"]


DIGEST_CASES = [envelope(ExactObject([("b", 1)])), "coded", b"\xd4\xff\x01", "x" * 100, [1, 2]]


def test_digest_only_batch_leaves_out_the_text() -> None:
    full, same_as_full, digests = answers(
        batch(1, DIGEST_CASES), batch(2, DIGEST_CASES, digest_only=False), batch(3, DIGEST_CASES, digest_only=True)
    )
    assert same_as_full["results"] == full["results"]
    assert digests["type"] == "results" and digests["id"] == 3
    for answer, result in zip(digests["results"], full["results"], strict=True):
        if "error" in result:
            assert answer == result  # errors are unchanged
        else:
            assert answer == {"digest": result["digest"]}
            assert answer["digest"] == blake3(result["canonical"]).digest()
    assert [r.get("error") for r in full["results"]] == [None, "duplicate_key", "unsupported_value", None, None]


def test_the_sdks_own_digest_is_sent_and_a_wrong_length_is_internal() -> None:
    """A function returning ``(text, digest)`` signs its own text: the kit
    sends that digest in full and digest-only answers alike, even one that
    is not BLAKE3 of the text (the driver judges it); a digest that is not
    32 bytes long is the case's internal result."""
    own = bytes(range(32))

    def signing(value: object) -> Any:  # a wrong digest on cue: None too
        if value == "short":
            return b"1", own[:31]
        if value == "none":
            return b"1", None
        return toy(value), bytearray(own)

    full, digests = answers(batch(1, [1, "coded", "short", "none"]), batch(2, [1], digest_only=True), fn=signing)
    results = full["results"]
    assert results[0] == {"canonical": pack(1), "digest": own}
    assert results[1] == {"error": "duplicate_key", "message": "its own type"}
    # raised by the kit's own check: no frame, since none is the function's
    assert results[2] == {
        "error": "internal",
        "message": "ValueError: the SDK's digest is 31 bytes long, want 32 (BLAKE3-256)",
        "error_type": "ValueError",
    }
    assert results[3]["error"] == "internal" and "TypeError" in results[3]["message"]
    assert digests["results"] == [{"digest": own}]


@pytest.mark.parametrize("flag", [1, 0, "true", None, b"\x01", [True]])
def test_digest_only_that_is_not_a_bool_is_an_error_response(flag: object) -> None:
    """As for a malformed cases or rounds: an error with the request's id."""
    bad, good = answers(batch(5, [envelope(ExactObject())], digest_only=flag), batch(6, [1], digest_only=True))
    assert bad["type"] == "error" and bad["id"] == 5
    assert "digest_only" in bad["message"]
    assert good["type"] == "results"


def test_batch_shapes_answer_alike() -> None:
    """Cases last (read one by one), cases first (read the careful way) and a
    batch whose cases need the careful reading all give the same results."""
    cases = [envelope(ExactObject([("i", i)])) for i in range(5)]
    packer = msgpack.Packer()
    first = packer.pack_map_header(3) + packer.pack("cases") + packer.pack_array_header(len(cases))
    first += b"".join(pack(c) for c in cases) + packer.pack("type") + packer.pack("batch")
    first += packer.pack("id") + packer.pack(2)
    undecodable = b"\xa2\xff\xfe"  # invalid UTF-8
    last, cases_first, careful = answers(batch(1, cases), first, batch(3, [*cases[:2], undecodable, *cases[2:]]))
    assert cases_first.pop("batch_cpu_ns") > 0
    assert cases_first == {"type": "results", "id": 2, "results": last["results"]}
    assert careful["results"][:2] + careful["results"][3:] == last["results"]
    assert careful["results"][2]["error"] == "unsupported_value"


def test_a_broken_batch_is_one_error_response() -> None:
    """Bytes after the cases, or a frame that ends inside them: an error
    response (id 0, the frame is not a request), not results."""
    body = batch(4, [envelope(ExactObject()), [1, 2]])
    *broken, after = answers(body + b"\x00", body[:-1], batch(5, [envelope(ExactObject())]))
    for response in broken:
        assert response["type"] == "error" and response["id"] == 0, response
    assert after["type"] == "results"


def test_large_responses() -> None:
    """A response larger than the buffers kept between requests, then one
    larger than a frame may be, then a small one: each answered."""
    large, small, too_large, after = answers(
        batch(1, [f"big:{KEEP_BUFFER + 10}"]),
        batch(2, [f"big:{3}"]),
        batch(3, [f"big:{MAX_FRAME}"]),
        batch(4, [1], digest_only=True),
    )
    assert large["results"][0]["canonical"] == b"x" * (KEEP_BUFFER + 10)
    assert small["results"][0]["canonical"] == b"xxx"
    assert too_large["type"] == "error" and too_large["id"] == 3
    assert "exceeds the frame cap" in too_large["message"]
    assert after["type"] == "results"


def test_empty_batch_and_ids() -> None:
    big_id = 2**64 - 1
    zero, big = answers(msgpack.packb({"type": "batch", "id": 0, "cases": []}), batch(big_id, []))
    assert zero.pop("batch_cpu_ns") > 0
    assert zero == {"type": "results", "id": 0, "results": []}
    assert big["id"] == big_id


def test_results_say_what_their_batch_cost() -> None:
    """Each results response carries its batch's CPU time, by either way of
    reading a batch; the loop's other responses carry none."""
    heavy = [envelope(ExactObject([("k" * 1000, list(range(200)))])) for _ in range(50)]
    careful = batch(2, [b"\xa2\xff\xfe"] * 3)  # invalid UTF-8: read the careful way
    fast, slow, bench_response = answers(batch(1, heavy), careful, request({"type": "bench", "id": 3, "rounds": 1}, [1]))
    assert type(fast["batch_cpu_ns"]) is int and fast["batch_cpu_ns"] > 0
    assert type(slow["batch_cpu_ns"]) is int and slow["batch_cpu_ns"] > 0
    assert len(slow["results"]) == 3
    assert "batch_cpu_ns" not in bench_response


def test_bench_times_every_v2_field() -> None:
    cases = [envelope(ExactObject([("a", i)])) for i in range(10)] + ["coded"]
    body = request({"type": "bench", "id": 8, "rounds": 20}, cases)
    response, zero = answers(body, msgpack.packb({"type": "bench", "id": 9, "cases": [], "rounds": 0}))
    assert response["type"] == "bench" and response["id"] == 8
    assert response["count"] == 20 * 11
    for field in ("elapsed_ns", "cpu_ns", "decode_elapsed_ns", "decode_cpu_ns"):
        assert type(response[field]) is int and response[field] > 0, field
    assert response["decode_elapsed_ns"] > 0
    assert zero["count"] == 0 and zero["elapsed_ns"] >= 0 and zero["decode_cpu_ns"] >= 0


def test_bench_never_calls_the_function_on_an_inexpressible_case() -> None:
    calls = []

    def counting(value: object) -> bytes:
        calls.append(value)
        return b"1"

    duplicate = b"\x82\xa1a\x01\xa1a\x02"
    body = request({"type": "bench", "id": 1, "rounds": 3}, [1, duplicate])
    (response,) = answers(body, fn=counting, model=Native())
    assert response["count"] == 6
    assert calls == [1] * 6  # 3 rounds of each loop; never the duplicate


# Bodies that are no msgpack, or no map, are conform's (malformed/...).
ERROR_REQUESTS = [
    (msgpack.packb({"type": "nope", "id": 3}), 3, "unknown request type"),
    (msgpack.packb({"type": "batch", "id": 4, "cases": 5}), 4, "batch: cases is not an array"),
    (msgpack.packb({"type": "bench", "id": 5, "cases": []}), 5, "rounds"),
    (msgpack.packb({"type": "bench", "id": 5, "cases": [], "rounds": -1}), 5, "rounds"),
    (msgpack.packb({"type": "batch", "id": -1, "cases": []}), 0, "id"),
    (msgpack.packb({"type": "batch", "cases": []}), 0, "id"),
    (msgpack.packb({"type": "batch", "id": 6, "cases": []}) + b"\x00", 0, "after"),
]


def test_error_responses_and_the_worker_goes_on() -> None:
    *errors, after = answers(*(body for body, _, _ in ERROR_REQUESTS), batch(10, []))
    for (body, request_id, message), response in zip(ERROR_REQUESTS, errors, strict=True):
        assert response["type"] == "error", body
        assert response["id"] == request_id, body
        assert message in response["message"], (body, response["message"])
    assert after["type"] == "results"


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"\x00\x00\x00\x00", "bad frame length 0"),
        (struct.pack(">I", MAX_FRAME + 1), "bad frame length 67108865"),
    ],
)
def test_bad_lengths_end_the_worker_with_status_two(raw: bytes, message: str) -> None:
    """conform lets a worker answer a bad length and go on; this kit exits
    (input that ends inside a frame is conform's alone)."""
    status, messages = toy_session(batch(1, [1]), raw=raw)
    assert status == 2
    assert messages[1]["type"] == "results"  # the request before is answered
    assert messages[2]["type"] == "error" and messages[2]["id"] == 0
    assert message in messages[2]["message"]
    assert len(messages) == 3


def test_exact_members_and_markers_are_the_callers_types() -> None:
    """The exact model builds objects and markers with the given types, so
    an implementation gets its own values without a copy per case."""

    class Pairs(list[tuple[object, object]]):
        pass

    class Bad:
        def __init__(self, reason: str) -> None:
            self.reason = reason

    seen: list[Any] = []

    def keep(value: object) -> bytes:
        seen.append(value)
        return b"1"

    (response,) = answers(batch(1, [b"\x81\xa1a\xd4\x05\x00"]), fn=keep, model=Exact(members=Pairs, unsupported=Bad))
    assert response["results"] == [{"canonical": b"1", "digest": blake3(b"1").digest()}]
    (value,) = seen
    assert type(value) is Pairs and value[0][0] == "a"
    assert type(value[0][1]) is Bad and value[0][1].reason == "msgpack ext type 5"
