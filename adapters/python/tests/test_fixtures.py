"""The golden fixtures (tests/fixtures/canonical-json-fuzz, docs/fixtures.md):
every line, read both from its extended JSON "input" and from its "msgpack"
wire bytes, must give the recorded canonical text and signature, or error."""

from __future__ import annotations

import base64
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from blake3 import blake3

from _support import FixtureContractError, first_difference, fixture_entries
from canonjson import CanonicalError, Object, Unsupported, canonical, loads
from difffuzz_kit import Exact

FIXTURES = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "canonical-json-fuzz"
FILES = sorted(FIXTURES.glob("*.jsonl"))
WIRE = Exact(members=Object, unsupported=Unsupported)  # as canonjson_worker.py decodes cases
DECODERS = {
    "input": lambda entry: loads(entry["input"]),
    "msgpack": lambda entry: WIRE.case(base64.b64decode(entry["msgpack"], validate=True)),
}


def check(entry: dict[str, Any], source: str) -> str | None:
    """Why the entry fails when read from ``source``, or None."""
    try:
        value = DECODERS[source](entry)
        text = canonical(value)
    except CanonicalError as error:
        if entry.get("error") == error.code:
            return None
        want = f"error {entry['error']}" if "error" in entry else "canonical text"
        return f"expected {want}, got error {error.code} ({error.message})"
    if "error" in entry:
        return f"expected error {entry['error']}, got canonical {text[:60]!r}"
    expected = entry["canonical"].encode("ascii")
    if text != expected:
        return "canonical differs: " + first_difference(expected, text)
    if blake3(text).hexdigest() != entry["signature"]:
        return f"signature differs: expected {entry['signature']}, got {blake3(text).hexdigest()}"
    return None


@pytest.mark.parametrize("source", sorted(DECODERS))
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_fixture_file(path: Path, source: str) -> None:
    failures = []
    checked = 0
    for number, entry in fixture_entries(path):
        if entry[source] is None:  # not expressible in extended JSON: wire only
            continue
        checked += 1
        problem = check(entry, source)
        if problem:
            failures.append(f"{path.name}:{number} [{entry['category']}] via {source}: {problem}")
    assert checked > 0
    assert not failures, f"{len(failures)} fixture failures, first ones:\n" + "\n".join(failures[:10])


def test_fixture_set_is_complete() -> None:
    """Guards against an empty or truncated folder passing silently."""
    counts: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    for path in FILES:
        for _, entry in fixture_entries(path):
            counts[entry["category"]] += 1
            if entry["category"] == "out_of_domain":
                codes[entry["error"]] += 1
            assert set(entry) in (
                {"category", "input", "msgpack", "canonical", "signature"},
                {"category", "input", "msgpack", "error"},
            )
    minimum = {
        "random": 10_000,
        "nan": 20,
        "infinity": 20,
        "negative_zero": 20,
        "empty_object": 10,
        "empty_array": 10,
        "deep_nesting": 10,
        "unicode": 20,
        "big_integers": 20,
        "float_boundaries": 10,
        "empty_strings": 10,
        "long_strings": 10,
        "special_key_characters": 10,
    }
    for category, least in minimum.items():
        assert counts[category] >= least, f"{category}: {counts[category]} < {least}"
    assert all(
        codes[code] >= 3
        for code in ("too_deep", "non_string_key", "lone_surrogate", "duplicate_key", "unsupported_value", "bad_envelope")
    ), codes


@pytest.mark.parametrize(
    ("head", "message"),
    [
        (
            '{"contract": "rfc8785"}',
            "x.jsonl:1: fixtures of contract 'rfc8785', but these tests hold canonjson's default to 'difffuzz'",
        ),
        (
            '{"category": "c", "input": "1", "error": "bad_envelope"}',
            'x.jsonl:1: want the header line {"contract": "difffuzz"} first',
        ),
    ],
)
def test_fixture_contract_header(tmp_path: Path, head: str, message: str) -> None:
    """A fixture file of another contract, or without its header, fails
    with why, not with a thousand mismatches."""
    path = tmp_path / "x.jsonl"
    path.write_text(head + "\n" + '{"category": "c", "input": "1", "error": "bad_envelope"}\n', "ascii")
    with pytest.raises(FixtureContractError) as caught:
        fixture_entries(path)
    assert str(caught.value).startswith(message)
