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
from json.encoder import encode_basestring_ascii as _escape
from operator import itemgetter

from blake3 import blake3

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


class Object(list):
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

    __hash__ = None  # type: ignore[assignment]

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
    the exact bytes that are hashed; raises :class:`CanonicalError`."""
    text = _walk(value, 1)
    _check_envelope(value)
    return text.encode("ascii")


def canonical_value(value: object) -> bytes:
    """The canonical text of any in-domain value, without the envelope check:
    for tools and tests that canonicalize fragments (numbers, strings)."""
    return _walk(value, 1).encode("ascii")


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


def _walk(value: object, level: int) -> str:
    """Validate ``value`` in the spec's pre-order and return its canonical
    text; ``level`` is the nesting level a container ``value`` is at."""
    if isinstance(value, _CONTAINERS):
        return _container(value, level)
    return _scalar(value)


_CONTAINERS = (list, dict)


def _container(v: list | dict, level: int) -> str:
    """An array's or object's text. The only recursive function, one frame
    per nesting level: children are dispatched inline, not through _walk."""
    if level > MAX_DEPTH:
        raise CanonicalError("too_deep", f"nesting deeper than {MAX_DEPTH}")
    t = type(v)
    if t is not list and t is not Object and t is not dict:
        v = _base_container(v)
        t = type(v)
    inner = level + 1
    if t is list:
        parts = []
        append = parts.append
        for item in v:
            if type(item) is str and item.isascii():
                append(_escape(item))
            elif isinstance(item, _CONTAINERS):
                append(_container(item, inner))
            else:
                append(_scalar(item))
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
            members.append((key, _escape(item)))
        elif isinstance(item, _CONTAINERS):
            members.append((key, _container(item, inner)))
        else:
            members.append((key, _scalar(item)))
    members.sort(key=_KEY)
    return "{" + ",".join([_escape(k) + ":" + text for k, text in members]) + "}"


def _base_container(v: list | dict) -> list | dict:
    """Subclasses of list and dict (OrderedDict, ...) as the base type; an
    Object subclass stays an object."""
    if isinstance(v, Object):
        return Object(v)
    if isinstance(v, dict):
        return dict(v)
    return list(v)


def _scalar(v: object) -> str:
    """A non-container value's text."""
    t = type(v)
    if t is str:
        if not v.isascii() and _SURROGATE.search(v):  # type: ignore[union-attr]
            raise CanonicalError("lone_surrogate", "string holds a lone surrogate")
        return _escape(v)
    if t is int:
        try:
            return str(v)
        except ValueError:  # past Python's int-to-str digit limit
            return _long_int_text(v)  # type: ignore[arg-type]
    if t is float:
        return format_float(v)  # type: ignore[arg-type]
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    return _scalar_subclass(v)


def _string_key(key: object) -> str:
    """A str subclass key as a plain str; any other key type is rejected."""
    if isinstance(key, str):
        return str.__str__(key)
    raise CanonicalError("non_string_key", f"object key of type {type(key).__name__}")


def _scalar_subclass(v: object) -> str:
    """Subclasses of the model's scalar types (IntEnum, ...) read as their
    base type; everything else is out of the model."""
    if isinstance(v, int):
        return format_int(int(v))
    if isinstance(v, float):
        return format_float(float(v))
    if isinstance(v, str):
        return _scalar(str.__str__(v))
    if isinstance(v, Unsupported):
        raise CanonicalError("unsupported_value", v.reason)
    raise CanonicalError("unsupported_value", f"value of type {type(v).__name__}")


def _check_envelope(value: object) -> None:
    """The signed value must be exactly {"tool_name": str, "args": object};
    runs only after the walk, so members are known unique string keys."""
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
