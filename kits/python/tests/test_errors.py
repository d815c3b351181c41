"""The kit's error codes against docs/adapter-protocol.md, read from the
page itself so that neither can change without the other."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from difffuzz_kit import ERROR_CODES, INTERNAL, SpecError

PROTOCOL_DOC = Path(__file__).resolve().parents[3] / "docs" / "adapter-protocol.md"


def documented_codes() -> tuple[list[str], str]:
    """The spec's codes the page lists for a result's ``error``, and the
    one it adds for an implementation that failed."""
    text = " ".join(PROTOCOL_DOC.read_text(encoding="utf-8").split())
    found = re.search(r"`code` is one of the spec's codes \(([^)]*)\), or `(\w+)`", text)
    assert found, f"{PROTOCOL_DOC} no longer lists the error codes as this test reads them"
    return re.findall(r"`(\w+)`", found.group(1)), found.group(2)


def test_error_codes_are_the_protocol_pages() -> None:
    spec, internal = documented_codes()
    assert list(ERROR_CODES) == spec
    assert internal == INTERNAL


@pytest.mark.parametrize("code", ERROR_CODES)
def test_spec_error_takes_each_spec_code(code: str) -> None:
    assert SpecError(code).code == code


@pytest.mark.parametrize("code", [INTERNAL, "TooDeep", ""])
def test_spec_error_refuses_anything_else(code: str) -> None:
    with pytest.raises(ValueError, match="not a spec error code"):
        SpecError(code)
