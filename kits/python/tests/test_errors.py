"""The kit's error codes: the six of the spec, in the order of
docs/adapter-protocol.md (results), and ``internal``, which is a failure,
never a code a function raises. The codes are listed here, so that the
tests hold the kit to them from an installed wheel too; in a checkout of
the repository the protocol page itself is read as well, so that neither
can change without the other."""

from __future__ import annotations

import re
from typing import Any, get_args

import pytest

from _support import checkout_file
from difffuzz_kit import ErrorCode, SpecError
from difffuzz_kit._answers import ERROR_CODES, INTERNAL

#: The spec's codes, in the protocol page's order.
SPEC_CODES = ["too_deep", "non_string_key", "lone_surrogate", "duplicate_key", "unsupported_value", "bad_envelope"]

#: docs/adapter-protocol.md of the repository holding this kit, when the
#: tests run from a checkout (kits/python/tests/).
PROTOCOL_DOC = checkout_file("docs/adapter-protocol.md")


def test_error_codes_are_the_six() -> None:
    assert list(get_args(ErrorCode)) == SPEC_CODES
    assert list(ERROR_CODES) == SPEC_CODES
    assert INTERNAL == "internal" and INTERNAL not in SPEC_CODES


@pytest.mark.skipif(PROTOCOL_DOC is None, reason="not in a difffuzz checkout: docs/adapter-protocol.md is the repository's")
def test_error_codes_are_the_protocol_pages() -> None:
    assert PROTOCOL_DOC is not None
    text = " ".join(PROTOCOL_DOC.read_text(encoding="utf-8").split())
    found = re.search(r"`code` is one of the spec's codes \(([^)]*)\), or `(\w+)`", text)
    assert found, f"{PROTOCOL_DOC} no longer lists the error codes as this test reads them"
    assert re.findall(r"`(\w+)`", found.group(1)) == SPEC_CODES
    assert found.group(2) == INTERNAL


@pytest.mark.parametrize("code", SPEC_CODES)
def test_spec_error_takes_each_spec_code(code: Any) -> None:
    assert SpecError(code).code == code


@pytest.mark.parametrize("code", [INTERNAL, "TooDeep", ""])
def test_spec_error_refuses_anything_else(code: Any) -> None:
    with pytest.raises(ValueError, match="not a spec error code"):
        SpecError(code)
