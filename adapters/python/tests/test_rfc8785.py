"""RFC 8785 conformance of the rfc8785 contract: the RFC's own examples,
written here with their sections, and its authors' test vectors
(github.com/cyberphone/json-canonicalization, testdata/input and
testdata/output), read from the Go module cache at the version
survey/go/go.mod pins (or from $JCS_TESTDATA, which the Makefile sets),
never copied into this repository.

A vector's input is parsed as JCS parses JSON: every number a double
(RFC 8785 §3.2.2.3), so that 56 and 56.0 are the same value, as they are to
JSON.parse; this package's value model would otherwise read 56 as an
integer."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import struct
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from test_properties import values

from _support import same
from canonjson import CanonicalError, Encoding, Object, canonical_value, loads
from canonjson.contract import DIFFFUZZ, RAW, RFC8785

JCS = Encoding(RFC8785)
#: Contracts that differ from this project's in their string choices only.
MIXED = [
    dataclasses.replace(DIFFFUZZ, name="del-raw", del_=RAW),
    dataclasses.replace(DIFFFUZZ, name="raw", non_ascii=RAW, del_=RAW, c1=RAW, line_separators=RAW),
    dataclasses.replace(DIFFFUZZ, name="c1-raw", c1=RAW),
    dataclasses.replace(DIFFFUZZ, name="js-safe", non_ascii=RAW, del_=RAW, c1=RAW),
]
JCS_MODULE = "github.com/cyberphone/json-canonicalization"
SURVEY_GO = Path(__file__).resolve().parents[3] / "survey" / "go"


def jcs_loads(text: str) -> object:
    """JSON as RFC 8785 reads it: numbers as doubles, members in order."""
    return json.loads(text, parse_int=float, object_pairs_hook=Object)


def jcs_testdata() -> Path:
    """The vectors' folder: $JCS_TESTDATA, else the module's testdata/ as
    `go mod download` (run in survey/go, whose go.mod pins the version)
    reports it; skips the test when neither is at hand."""
    if os.environ.get("JCS_TESTDATA"):
        return Path(os.environ["JCS_TESTDATA"])
    try:
        done = subprocess.run(
            ["go", "mod", "download", "-json", JCS_MODULE],
            cwd=SURVEY_GO,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        directory = json.loads(done.stdout or "{}").get("Dir")
    except (OSError, subprocess.TimeoutExpired, ValueError) as e:
        pytest.skip(f"RFC 8785 vectors unavailable: go mod download {JCS_MODULE}: {e}; set JCS_TESTDATA to run them")
    if not directory:
        pytest.skip(f"RFC 8785 vectors unavailable: go mod download {JCS_MODULE}: {done.stderr.strip()}; set JCS_TESTDATA")
    return Path(directory) / "testdata"


def vector_names() -> list[str]:
    # the names are known before the folder is: a missing vector fails, it is not left out
    return ["arrays.json", "french.json", "structures.json", "unicode.json", "values.json", "weird.json"]


@pytest.mark.parametrize("name", vector_names())
def test_vector(name: str) -> None:
    testdata = jcs_testdata()
    want = (testdata / "output" / name).read_bytes()
    hex_form = (testdata / "outhex" / name.replace(".json", ".txt")).read_text(encoding="ascii")
    assert bytes.fromhex(hex_form) == want, f"output/{name} and its outhex disagree"
    value = jcs_loads((testdata / "input" / name).read_text(encoding="utf-8"))
    assert JCS.canonical(value) == want


def test_every_vector_is_run() -> None:
    found = sorted(p.name for p in (jcs_testdata() / "input").glob("*.json"))
    assert found == vector_names()


# RFC 8785's own example documents.
EXAMPLES = [
    (
        "§3.2.2 primitive data types",
        r"""{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}""",
        r"""{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}""",
    ),
    (
        "§3.2.3 sorting of object properties",
        r"""{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}""",
        '{"\\r":"Carriage Return","1":"One","\x80":"Control","\xf6":"Latin Small Letter O With Diaeresis",'
        '"\u20ac":"Euro Sign","\U0001f600":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    ),
]


@pytest.mark.parametrize(("text", "want"), [(t, w) for _, t, w in EXAMPLES], ids=[e[0] for e in EXAMPLES])
def test_example(text: str, want: str) -> None:
    assert JCS.canonical(jcs_loads(text)).decode("utf-8") == want


# RFC 8785 Appendix B, "Number Serialization Samples": IEEE 754 bits and
# their text; None for NaN and Infinity, errors (§3.2.2.3).
NUMBERS = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("7fffffffffffffff", None),
    ("7ff0000000000000", None),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize(("bits", "want"), NUMBERS)
def test_number(bits: str, want: str | None) -> None:
    (x,) = struct.unpack(">d", bytes.fromhex(bits))
    if want is None:
        assert math.isnan(x) or math.isinf(x)
        with pytest.raises(CanonicalError) as caught:
            JCS.canonical(x)
        assert caught.value.code == "unsupported_value"
    else:
        assert JCS.canonical(x).decode("ascii") == want


# --- properties -----------------------------------------------------------


def as_plain(value: object) -> object:
    """A value read back by jcs_loads, with objects as dicts, so that two
    texts that differ only in key order and escaping compare equal."""
    if isinstance(value, Object):
        return {k: as_plain(v) for k, v in value}
    if isinstance(value, list):
        return [as_plain(v) for v in value]
    return value


@given(values)
def test_jcs_text_is_a_fixed_point(value: object) -> None:
    """JCS text read back as JCS reads JSON (numbers as doubles) and
    canonicalized again is the same bytes (RFC 8785 §3.2: canonicalizing
    canonical text changes nothing), and it means what this project's text
    of the same value means."""
    try:
        text = JCS.canonical(value)
    except CanonicalError as e:
        assert e.code == "unsupported_value"  # NaN, an infinity or an integer no double holds
        return
    read_back = jcs_loads(text.decode("utf-8"))
    assert JCS.canonical(read_back) == text
    assert as_plain(read_back) == as_plain(jcs_loads(canonical_value(value).decode("ascii")))


@given(values)
def test_every_contract_means_the_same(value: object) -> None:
    """The team's contract and ones mixing the string choices write the same
    value as this project's does, but for escaping: the texts read back
    equal."""
    want = loads(canonical_value(value))
    for contract in MIXED:
        got = Encoding(contract).canonical_value(value)
        assert same(loads(got), want), contract.name
