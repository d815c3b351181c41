"""Canonical JSON text of a tool call (docs/canonical-json.md), the reference.

Value model in Python:

=========  ==============================================================
spec       Python
=========  ==============================================================
null       ``None``
bool       ``True`` / ``False`` (never treated as the integers 1 and 0)
integer    ``int`` of any size
float      ``float`` (NaN, +-inf and -0.0 included)
string     ``str``; a ``str`` holding any code point U+D800..U+DFFF is a
           string with a lone surrogate (a Python ``str`` is a sequence of
           code points, so two surrogate code points side by side are not a
           pair: decoders such as ``json.loads`` and the UTF-16 codec already
           join real pairs into one astral character)
array      ``list``
object     ``dict`` (keys unique by construction) or :class:`Object`, a list
           of ``(key, value)`` tuples that keeps member order and duplicates,
           which is what decoders of untrusted input must produce
=========  ==============================================================

Anything else (``bytes``, ``tuple``, wire-level :class:`Unsupported`
markers, ...) is ``unsupported_value``.

Implementation notes: one recursive pass walks the value in input order
(so the first problem found is the one the spec's precedence names), builds
each member's text, and sorts an object's members only after all of them
were walked. The recursion is one Python frame per nesting level and stops at
level 513, so ~520 frames of headroom below ``sys.getrecursionlimit()`` are
enough for any input, however deep.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from json.encoder import encode_basestring as _escape_raw
from json.encoder import encode_basestring_ascii as _escape
from operator import itemgetter
from typing import Any

from blake3 import blake3

from canonjson.contract import CODE_POINTS, DIFFFUZZ, DOUBLE, ENVELOPE, ERROR, ESCAPE, RAW, Contract

#: Deepest container nesting accepted; the spec's MaxDepth.
MAX_DEPTH = 512

#: The spec's error codes, in the order of its table.
ERROR_CODES = (
    "too_deep",
    "non_string_key",
    "lone_surrogate",
    "duplicate_key",
    "unsupported_value",
    "bad_envelope",
)

if sys.float_repr_style != "short":  # pragma: no cover - CPython always is
    raise ImportError("canonjson needs repr(float) to give shortest round-trip digits")

_SURROGATE = re.compile("[\ud800-\udfff]")
_KEY = itemgetter(0)
# Python refuses int<->str conversions past this many digits unless told
# otherwise process-wide; the spec's integers have no size limit.
_DIGIT_CHUNK = 1000
_CHUNK_BASE = 10**_DIGIT_CHUNK


class CanonicalError(Exception):
    """An out-of-domain input, carrying the spec's error code so that every
    implementation's rejection can be compared by code, not by message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Object(list[tuple[Any, Any]]):
    """An object as its members, ``(key, value)`` tuples in input order with
    duplicates kept: a ``dict`` would silently merge duplicate keys ("last
    wins"), which the spec forbids repairing, and could not hold unhashable
    keys that a wire decoder must report as ``non_string_key``.

    Equality requires both sides to be :class:`Object`, so that a test cannot
    mistake an array of pairs for an object.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is Object and list.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"Object({list.__repr__(self)})"


class Unsupported:
    """A decoded wire value outside the model (unknown extension type,
    malformed extension payload, undecodable case); kept in place of the
    value so that the walk reports it at its position, after any earlier
    problem, as the precedence rules require."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"Unsupported({self.reason!r})"


def canonical(value: object) -> bytes:
    """The canonical text of a signed value (``{"tool_name", "args"}``), as
    the exact bytes that are hashed; raises :class:`CanonicalError`. It is
    :data:`DEFAULT`'s :meth:`Encoding.canonical`."""
    return DEFAULT.canonical(value)


def canonical_value(value: object) -> bytes:
    """The canonical text of any in-domain value, without the envelope check:
    for tools and tests that canonicalize fragments (numbers, strings)."""
    return DEFAULT.canonical_value(value)


def signature(value: object) -> str:
    """The spec's signature: BLAKE3-256 of the canonical text, 64 lowercase
    hex digits."""
    return blake3(canonical(value)).hexdigest()


def format_float(x: float) -> str:
    """ECMAScript ``Number::toString(x)`` from Python's shortest round-trip
    digits (``repr``), laid out by hand because Python's own layout differs
    (``1e+16`` vs ``10000000000000000``, ``1e-05`` vs ``0.00001``)."""
    if x - x != 0.0:  # NaN or an infinity
        return "NaN" if x != x else ("Infinity" if x > 0.0 else "-Infinity")
    if x == 0.0:
        return "0"
    digits, n = _shortest_digits(repr(x).lstrip("-"))
    return "-" + _layout(digits, n) if x < 0.0 else _layout(digits, n)


def _shortest_digits(text: str) -> tuple[str, int]:
    """(s, n) of the spec, |x| = 0.s * 10**n with s free of leading and
    trailing zeros, from repr's forms ``123.456``, ``0.001``, ``1e-05``,
    ``1.5e+300`` (whose integer part is "0" or has no leading zero)."""
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    if whole == "0":
        significant = fraction.lstrip("0")
        n = len(significant) - len(fraction)
    else:
        significant = whole + fraction
        n = len(whole)
    if exponent:
        n += int(exponent)
    return significant.rstrip("0"), n


def _layout(digits: str, n: int) -> str:
    """The four cases of ECMA-262 Number::toString for positive x."""
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    e = n - 1
    head = digits[0] + "." + digits[1:] if k > 1 else digits
    return head + ("e+" if e >= 0 else "e-") + str(abs(e))


def format_int(n: int) -> str:
    """Decimal digits of any integer, also past Python's default
    int-to-str digit limit (which would otherwise raise ValueError)."""
    try:
        return int.__repr__(n)
    except ValueError:
        return _long_int_text(n)


def parse_int(text: str) -> int:
    """``int(text)`` for a decimal ``-?[0-9]+``, also past Python's default
    str-to-int digit limit."""
    if len(text) <= _DIGIT_CHUNK:
        return int(text)
    negative = text.startswith("-")
    body = text[1:] if negative else text
    if not (body.isascii() and body.isdigit()):
        raise ValueError(f"not a decimal integer: {text[:40]!r}...")
    value = 0
    for start in range(0, len(body), _DIGIT_CHUNK):
        piece = body[start : start + _DIGIT_CHUNK]
        value = value * 10 ** len(piece) + int(piece)
    return -value if negative else value


def _long_int_text(n: int) -> str:
    if n < 0:
        return "-" + _long_int_text(-n)
    pieces = []
    while n:
        n, rest = divmod(n, _CHUNK_BASE)
        pieces.append(rest)
    head = int.__repr__(pieces.pop())
    return head + "".join(int.__repr__(p).zfill(_DIGIT_CHUNK) for p in reversed(pieces))


_CONTAINERS = (list, dict)

#: 2**53: every integer of at most this magnitude is a double.
_EXACT_INT = 2**53


class Encoding:
    """Canonical JSON under one contract (:mod:`canonjson.contract`): how
    strings are escaped, how keys are ordered, which numbers are accepted,
    what the top level may be, how deep a value may nest. The module's
    functions are :data:`DEFAULT`, this project's contract."""

    __slots__ = (
        "_big_ints_double",
        "_big_ints_error",
        "_envelope",
        "_escape",
        "_max_depth",
        "_non_finite_error",
        "_sort_key",
        "contract",
    )

    def __init__(self, contract: Contract) -> None:
        contract.check()
        self.contract = contract
        self._escape = _string_escaper(contract)
        self._sort_key = _KEY if contract.key_order == CODE_POINTS else _utf16_key
        self._big_ints_error = contract.big_ints == ERROR
        self._big_ints_double = contract.big_ints == DOUBLE
        self._non_finite_error = contract.non_finite == ERROR
        self._envelope = contract.top_level == ENVELOPE
        self._max_depth = contract.max_depth

    def canonical(self, value: object) -> bytes:
        """The canonical text of a signed value under the contract: the
        envelope when its top_level is "envelope", any value when "any"."""
        text = self._walk(value, 1)
        if self._envelope:
            _check_envelope(value)
        return text.encode("utf-8")

    def canonical_value(self, value: object) -> bytes:
        """The canonical text of any in-domain value, without the top-level
        check."""
        return self._walk(value, 1).encode("utf-8")

    def signature(self, value: object) -> str:
        """BLAKE3-256 of :meth:`canonical`'s text, 64 lowercase hex digits."""
        return blake3(self.canonical(value)).hexdigest()

    def _walk(self, value: object, level: int) -> str:
        """Validate ``value`` in the spec's pre-order and return its canonical
        text; ``level`` is the nesting level a container ``value`` is at."""
        if isinstance(value, _CONTAINERS):
            return self._container(value, level)
        return self._scalar(value)

    def _container(self, v: list[Any] | dict[Any, Any], level: int) -> str:
        """An array's or object's text. The only recursive method, one frame
        per nesting level: children are dispatched inline, not through _walk."""
        if level > self._max_depth:
            raise CanonicalError("too_deep", f"nesting deeper than {self._max_depth}")
        escape = self._escape
        t = type(v)
        if t is not list and t is not Object and t is not dict:
            v = _base_container(v)
            t = type(v)
        inner = level + 1
        if t is list:
            parts: list[str] = []
            append = parts.append
            for item in v:
                if type(item) is str and item.isascii():
                    append(escape(item))
                elif isinstance(item, _CONTAINERS):
                    append(self._container(item, inner))
                else:
                    append(self._scalar(item))
            return "[" + ",".join(parts) + "]"
        seen: set[str] = set()
        members = []
        for member in v if t is Object else v.items():  # type: ignore[union-attr]
            try:
                key, item = member
            except (TypeError, ValueError):
                raise CanonicalError("unsupported_value", "object member is not a (key, value) pair") from None
            if type(key) is not str:
                key = _string_key(key)
            if not key.isascii() and _SURROGATE.search(key):
                raise CanonicalError("lone_surrogate", "object key holds a lone surrogate")
            if key in seen:
                raise CanonicalError("duplicate_key", f"duplicate key {_escape(key)}")
            seen.add(key)
            if type(item) is str and item.isascii():
                members.append((key, escape(item)))
            elif isinstance(item, _CONTAINERS):
                members.append((key, self._container(item, inner)))
            else:
                members.append((key, self._scalar(item)))
        members.sort(key=self._sort_key)
        return "{" + ",".join([escape(k) + ":" + text for k, text in members]) + "}"

    def _scalar(self, v: object) -> str:
        """A non-container value's text."""
        t = type(v)
        if t is str:
            if not v.isascii() and _SURROGATE.search(v):  # type: ignore[attr-defined,call-overload]
                raise CanonicalError("lone_surrogate", "string holds a lone surrogate")
            return self._escape(v)  # type: ignore[arg-type]
        if t is int:
            return self._int(v)  # type: ignore[arg-type]
        if t is float:
            return self._float(v)  # type: ignore[arg-type]
        if v is None:
            return "null"
        if v is True:
            return "true"
        if v is False:
            return "false"
        return self._scalar_subclass(v)

    def _int(self, n: int) -> str:
        """An integer's text. Under numbers.big_ints = error an integer past
        +-2**53 is the double that holds it exactly, written as that double
        (RFC 8785 §3.2.2.3 serializes a number's double), or rejected when no
        double does: rounding it would silently change the value. Under
        big_ints = double it is the nearest double, as JSON.parse reads it."""
        if self._big_ints_double and not -_EXACT_INT <= n <= _EXACT_INT:
            try:
                return format_float(float(n))  # the nearest double, ties to even
            except OverflowError:
                raise CanonicalError(
                    "unsupported_value",
                    f"the integer of {n.bit_length()} bits is past the largest double, "
                    f"under contract {self.contract.name} (numbers.big_ints = double)",
                ) from None
        if self._big_ints_error and not -_EXACT_INT <= n <= _EXACT_INT:
            try:
                x = float(n)  # the nearest double
            except OverflowError:
                x = None
            if x is None or int(x) != n:
                what = str(n) if n.bit_length() < 256 else f"of {n.bit_length()} bits"
                raise CanonicalError(
                    "unsupported_value",
                    f"the integer {what} is past +-2**53 and no double holds it exactly, "
                    f"under contract {self.contract.name} (numbers.big_ints = error)",
                )
            return format_float(x)
        try:
            return int.__repr__(n)
        except ValueError:  # past Python's int-to-str digit limit
            return _long_int_text(n)

    def _float(self, x: float) -> str:
        if self._non_finite_error and x - x != 0.0:  # NaN or an infinity
            raise CanonicalError(
                "unsupported_value",
                f"{format_float(x)} is not a number under contract {self.contract.name} (numbers.non_finite = error)",
            )
        return format_float(x)

    def _scalar_subclass(self, v: object) -> str:
        """Subclasses of the model's scalar types (IntEnum, ...) read as their
        base type; everything else is out of the model."""
        if isinstance(v, int):
            return self._int(int(v))
        if isinstance(v, float):
            return self._float(float(v))
        if isinstance(v, str):
            return self._scalar(str.__str__(v))
        if isinstance(v, Unsupported):
            raise CanonicalError("unsupported_value", v.reason)
        raise CanonicalError("unsupported_value", f"value of type {type(v).__name__}")


def _base_container(v: list[Any] | dict[Any, Any]) -> list[Any] | dict[Any, Any]:
    """Subclasses of list and dict (OrderedDict, ...) as the base type; an
    Object subclass stays an object."""
    if isinstance(v, Object):
        return Object(v)
    if isinstance(v, dict):
        return dict(v)
    return list(v)


def _string_key(key: object) -> str:
    """A str subclass key as a plain str; any other key type is rejected."""
    if isinstance(key, str):
        return str.__str__(key)
    raise CanonicalError("non_string_key", f"object key of type {type(key).__name__}")


def _utf16_key(member: tuple[str, object]) -> bytes:
    """A member's sort key under key_order = utf16_units (RFC 8785 §3.2.3):
    big-endian UTF-16 bytes compare as the code units do. Keys reach it
    free of lone surrogates."""
    return member[0].encode("utf-16-be")


#: The escapes every contract shares: the short ones, and \u00XX (lower-case
#: hex) for the other C0 controls.
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _string_escaper(contract: Contract) -> Callable[[str], str]:
    """The function that quotes and escapes a string under the contract's
    strings choices. The two uniform ones are the standard library's C
    encoders (every code point from U+007F escaped, or none); a mixed
    contract gets a regular expression of the code points it escapes, each
    class's choice (DEL, C1, U+2028/9) winning over non_ascii's."""
    classes = (contract.del_, contract.c1, contract.line_separators, contract.non_ascii)
    if all(c == ESCAPE for c in classes):
        return _escape
    if all(c == RAW for c in classes):
        return _escape_raw
    escaped = ['\\x00-\\x1f"\\\\']
    if contract.del_ == ESCAPE:
        escaped.append("\\x7f")
    if contract.c1 == ESCAPE:
        escaped.append("\\x80-\\x9f")
    if contract.line_separators == ESCAPE:
        escaped.append("\\u2028\\u2029")
    if contract.non_ascii == ESCAPE:
        escaped.append("\\xa0-\\u2027\\u202a-\\U0010ffff")
    pattern = re.compile("[" + "".join(escaped) + "]")

    def escape(s: str) -> str:
        return '"' + pattern.sub(_escape_match, s) + '"'

    return escape


def _escape_match(m: re.Match[str]) -> str:
    c = m.group()
    short = _SHORT.get(c)
    if short is not None:
        return short
    n = ord(c)
    if n < 0x10000:
        return f"\\u{n:04x}"
    n -= 0x10000
    return f"\\u{0xD800 | n >> 10:04x}\\u{0xDC00 | n & 0x3FF:04x}"


def _check_envelope(value: object) -> None:
    """The signed value must be exactly {"tool_name": str, "args": object};
    runs only after the walk, so members are known unique string keys."""
    members: list[tuple[Any, Any]]
    if isinstance(value, Object):
        members = value
    elif isinstance(value, dict):
        members = list(value.items())
    else:
        raise CanonicalError("bad_envelope", "the signed value is not an object")
    if len(members) != 2:
        raise CanonicalError("bad_envelope", f"the signed value has {len(members)} members, not 2")
    (k0, v0), (k1, v1) = members
    if k0 == "tool_name" and k1 == "args":
        name, args = v0, v1
    elif k0 == "args" and k1 == "tool_name":
        name, args = v1, v0
    else:
        raise CanonicalError("bad_envelope", 'the signed value must have the members "tool_name" and "args"')
    if not isinstance(name, str):
        raise CanonicalError("bad_envelope", '"tool_name" is not a string')
    if not isinstance(args, (dict, Object)):
        raise CanonicalError("bad_envelope", '"args" is not an object')


#: This project's contract (docs/canonical-json.md): the module's functions.
DEFAULT = Encoding(DIFFFUZZ)
