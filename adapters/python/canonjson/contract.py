"""Canonical JSON's settled choices as data (docs/canonical-json.md §7):
this package's own reading of a contract, independent of the Go package
``contract`` that the judge uses, so that the two implementations of a
contract can disagree and be caught.

A contract is a built-in (:data:`DIFFFUZZ`, :data:`RFC8785`) or a TOML file
naming a built-in as its ``base`` and the choices it changes
(:func:`load`)."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

ESCAPE, RAW = "escape", "raw"
CODE_POINTS, UTF16_UNITS = "code_points", "utf16_units"
EXACT, ERROR, TOKENS = "exact", "error", "tokens"
#: numbers.big_ints = double: a number is the double its text denotes, as
#: JSON.parse reads it (RFC 8785 §3.2.2): an integer past +-2**53 is written
#: as the nearest double, and one past the largest double is rejected.
DOUBLE = "double"
ENVELOPE, ANY = "envelope", "any"

#: Deepest nesting the adapter protocol carries: the largest max_depth.
MAX_WIRE_DEPTH = 1000


@dataclasses.dataclass(frozen=True)
class Contract:
    """Every settled choice of one canonical JSON; the fields are the keys
    of a contract file (``del_`` is ``strings.del``)."""

    name: str
    non_ascii: str  # strings.non_ascii: U+0080 and up, unless a class below says otherwise
    del_: str  # strings.del: U+007F
    c1: str  # strings.c1: U+0080..U+009F
    line_separators: str  # strings.line_separators: U+2028, U+2029
    key_order: str
    big_ints: str  # numbers.big_ints: integers past +-2**53
    non_finite: str  # numbers.non_finite: NaN, +-Infinity
    top_level: str
    max_depth: int
    base: str = ""  # the built-in a file's contract starts from

    def check(self) -> None:
        """Raise ValueError naming the first choice that is none of its
        field's values."""
        for key, got, ok in (
            ("strings.non_ascii", self.non_ascii, (ESCAPE, RAW)),
            ("strings.del", self.del_, (ESCAPE, RAW)),
            ("strings.c1", self.c1, (ESCAPE, RAW)),
            ("strings.line_separators", self.line_separators, (ESCAPE, RAW)),
            ("key_order", self.key_order, (CODE_POINTS, UTF16_UNITS)),
            ("numbers.big_ints", self.big_ints, (EXACT, ERROR, DOUBLE)),
            ("numbers.non_finite", self.non_finite, (TOKENS, ERROR)),
            ("top_level", self.top_level, (ENVELOPE, ANY)),
        ):
            if got not in ok:
                raise ValueError(f"{key} = {got!r}: want one of {list(ok)}")
        if type(self.max_depth) is not int or not 1 <= self.max_depth <= MAX_WIRE_DEPTH:
            raise ValueError(f"max_depth = {self.max_depth!r}: want 1 to {MAX_WIRE_DEPTH}")
        if self.top_level == ENVELOPE and self.max_depth < 2:
            raise ValueError(f"max_depth = {self.max_depth}: the envelope is 2 levels deep already")


#: This project's contract, docs/canonical-json.md: the default.
DIFFFUZZ = Contract(
    name="difffuzz",
    non_ascii=ESCAPE,
    del_=ESCAPE,
    c1=ESCAPE,
    line_separators=ESCAPE,
    key_order=CODE_POINTS,
    big_ints=EXACT,
    non_finite=TOKENS,
    top_level=ENVELOPE,
    max_depth=512,
)

#: RFC 8785 (JCS): strings as ES6 JSON.stringify (§3.2.2.2), keys by UTF-16
#: units (§3.2.3), numbers as I-JSON doubles (§3.2.2.3), any top level.
RFC8785 = Contract(
    name="rfc8785",
    non_ascii=RAW,
    del_=RAW,
    c1=RAW,
    line_separators=RAW,
    key_order=UTF16_UNITS,
    big_ints=ERROR,
    non_finite=ERROR,
    top_level=ANY,
    max_depth=512,
)

#: The contracts known by name, the default first.
BUILTINS = {c.name: c for c in (DIFFFUZZ, RFC8785)}

# A contract file's keys: table -> {key: field}, "" for the top level.
_FILE_KEYS = {
    "": {"name": "name", "base": "base", "key_order": "key_order", "top_level": "top_level", "max_depth": "max_depth"},
    "strings": {"non_ascii": "non_ascii", "del": "del_", "c1": "c1", "line_separators": "line_separators"},
    "numbers": {"big_ints": "big_ints", "non_finite": "non_finite"},
}

#: The keys of a file's [allows] table: what the contract leaves open to a
#: library (docs/canonical-json.md §7). They concern the judge, not an
#: implementation, which follows the contract's choices: they are known
#: here so that a team's file reads, and their values are the driver's to
#: check.
_ALLOWS_KEYS = {"error_codes", "depth_floor", "refuse_unsafe_ints", "big_ints"}


def resolve(name_or_path: str) -> Contract:
    """The contract a ``--contract`` argument names: a built-in by name,
    else a TOML file by path; "" is the default."""
    if not name_or_path:
        return DIFFFUZZ
    if name_or_path in BUILTINS:
        return BUILTINS[name_or_path]
    return load(name_or_path)


def load(path: str | Path) -> Contract:
    """Read a contract file; ValueError names the file."""
    path = Path(path)
    try:
        return parse(path.read_text(encoding="utf-8"), path.stem)
    except (OSError, ValueError) as e:
        raise ValueError(f"contract {path}: {e}") from e


def parse(text: str, name: str) -> Contract:
    """A contract document: the built-in named by ``base`` (default
    "difffuzz") with the choices it sets; ``name`` is its name when the
    document sets none. Unknown keys and bad values raise ValueError."""
    doc = tomllib.loads(text)
    base = doc.get("base", DIFFFUZZ.name)
    if base not in BUILTINS:
        raise ValueError(f"base = {base!r}: want a built-in ({', '.join(BUILTINS)})")
    changes: dict[str, Any] = {"name": name, "base": base}  # read from TOML; check() judges it
    for key, val in doc.items():
        if key == "allows" and isinstance(val, dict):
            if unknown := sorted(set(val) - _ALLOWS_KEYS):
                raise ValueError(f"unknown key allows.{unknown[0]}")
        elif isinstance(val, dict) and key in _FILE_KEYS and key:
            for sub, subval in val.items():
                if sub not in _FILE_KEYS[key]:
                    raise ValueError(f"unknown key {key}.{sub}")
                changes[_FILE_KEYS[key][sub]] = subval
        elif key in _FILE_KEYS[""]:
            changes[_FILE_KEYS[""][key]] = val
        else:
            raise ValueError(f"unknown key {key}")
    if changes["name"] in BUILTINS:
        raise ValueError(f"name = {changes['name']!r} is a built-in's: a file's contract needs a name of its own")
    contract = dataclasses.replace(BUILTINS[base], **changes)
    contract.check()
    return contract
