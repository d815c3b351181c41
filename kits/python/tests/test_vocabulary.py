"""The kit's public names are the Python column of docs/your-sdk.md's "The
kits' vocabulary", the words the four kits share: what a team calls, and
nothing of the protocol's insides. The names are listed here, so that the
test holds the kit to them from an installed wheel too; in a checkout of the
repository the table itself is read as well, so that neither the table nor
this list can change without the other."""

from __future__ import annotations

import importlib
import re
from typing import get_args

import pytest

import difffuzz_kit
from _support import checkout_file

#: The Python column of the table, row by row.
VOCABULARY = {
    "serve a function as a worker": ["serve"],
    "the three models": ["Exact", "Native", "Text"],
    "the exact object (members in order, repeats kept)": ["ExactObject"],
    "a value the spec rejects": ["SpecError"],
    "its codes": ["ErrorCode"],
    "the SDK's own signature": ["Signed"],
    "a case the native model cannot hold": ["Inexpressible"],
}

#: Exported beside the table's words: the type of serve's ``model`` (a
#: model's name, "The kits' options"), and the release's version.
ALSO = ["ModelName", "__version__"]

#: The table's helpers for a team's own tests: a module of the kit, not a
#: name of ``__all__`` (``import difffuzz_kit.testing``).
TESTING = "difffuzz_kit.testing"

TESTING_NAMES = ["CaseResult", "WorkerProcess", "batch", "frame", "messages", "pack", "request", "run_cases", "session", "texts"]

#: docs/your-sdk.md of the repository holding this kit, when the tests run
#: from a checkout (kits/python/tests/).
YOUR_SDK = checkout_file("docs/your-sdk.md")


def test_all_is_the_vocabulary() -> None:
    expected = sorted([name for names in VOCABULARY.values() for name in names] + ALSO)
    assert sorted(difffuzz_kit.__all__) == expected


def test_every_name_is_there() -> None:
    for name in difffuzz_kit.__all__:
        assert hasattr(difffuzz_kit, name), name


def test_nothing_else_is_public() -> None:
    """Every other name of the package is a module (the private ones, and
    testing) or a dunder: the protocol's insides (frames, channel, hello,
    wire, the protocol numbers, internal) are reached only through a
    ``_``-prefixed module."""
    public = {name for name in vars(difffuzz_kit) if not name.startswith("_")}
    assert public - set(difffuzz_kit.__all__) <= {"testing"}
    for gone in ("Worker", "run", "channel", "hello", "pack", "wire", "frames", "INTERNAL", "FDS_ENV", "PROTOCOL", "Members"):
        assert not hasattr(difffuzz_kit, gone), gone


def test_the_codes_are_a_literal_of_six() -> None:
    assert len(get_args(difffuzz_kit.ErrorCode)) == 6
    assert "internal" not in get_args(difffuzz_kit.ErrorCode)


def test_signed_is_a_pair() -> None:
    signed = difffuzz_kit.Signed(b"1", bytes(32))
    canonical, digest = signed
    assert (canonical, digest) == (signed.canonical, signed.digest) == (b"1", bytes(32))
    assert isinstance(signed, tuple)


def test_the_testing_module() -> None:
    testing = importlib.import_module(TESTING)
    assert sorted(testing.__all__) == sorted(TESTING_NAMES)
    for name in testing.__all__:
        assert hasattr(testing, name), name


def _table_column() -> dict[str, list[str]]:
    """The table's Python cells, by concept: the code spans of each."""
    assert YOUR_SDK is not None
    text = YOUR_SDK.read_text(encoding="utf-8")
    section = text[text.index("## The kits' vocabulary") :]
    section = section[: section.index("\n## ", 1)]
    header = next(line for line in section.splitlines() if line.startswith("| concept"))
    columns = [cell.strip() for cell in header.strip("|").split("|")]
    python = next(i for i, cell in enumerate(columns) if cell.startswith("Python"))
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        if not line.startswith("|") or line.startswith(("| concept", "|---")):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        # a cell's words: the names in its code spans, before any call
        rows[cells[0]] = [re.match(r"[\w.]+", span).group(0) for span in re.findall(r"`([^`]+)`", cells[python])]  # type: ignore[union-attr]
    return rows


@pytest.mark.skipif(YOUR_SDK is None, reason="not in a difffuzz checkout: the table, docs/your-sdk.md, is the repository's")
def test_the_list_is_the_tables() -> None:
    """The names above are the table's Python column, row by row."""
    table = _table_column()
    assert table.pop("helpers for a team's own tests") == [TESTING]
    assert table.pop("serve a function as a worker")[0] == "serve"
    for concept, names in VOCABULARY.items():
        if concept == "serve a function as a worker":
            continue
        spans = table.pop(concept)
        assert [span for span in spans if span in names] == names, (concept, spans)
        # the cell's other spans are Python's words (a `Literal`), not the kit's
        assert not [span for span in spans if span not in names and hasattr(difffuzz_kit, span)], (concept, spans)
    # the rows left name no word of the kit's (an argument order, what
    # "text" means, any other failure)
    for concept, spans in table.items():
        assert not [span for span in spans if hasattr(difffuzz_kit, span)], (concept, spans)
