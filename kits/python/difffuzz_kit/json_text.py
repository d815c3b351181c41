"""The text model (docs/your-sdk.md, "The text model"): a case as the JSON
text a tool call's arguments arrive in, for an SDK that parses them with its
own parser (``json.loads``) before canonicalizing.

The text spells each value in one of many equivalent ways (characters raw or
escaped, floats in four notations, whitespace between tokens), all read back
as the same value by the spec's reader (docs/canonical-json.md §6). The
choices come from a small generator fed with the value's own content, so the
same value always gets the same text (a replay or a minimization step sees
what the run saw) while different cases spell alike things differently. The
rules, and so the text of every value, are the same in all four kits."""

from __future__ import annotations

import math
from collections.abc import Iterator

import msgpack

from difffuzz_kit.models import Exact, Inexpressible
from difffuzz_kit.wire import Members, format_decimal

_MASK = 0xFFFFFFFF

#: The whitespace a pick of 10..15 (of 16) writes between tokens.
_SPACES = (" ", "  ", "\n", "\t", "\r\n", "\n  ")

#: The two-character escapes of the control characters that have one.
_SHORT = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"}


class _NoText(Exception):
    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class _Writer:
    """One case's text. ``s`` is the spelling generator's state: ``mix``
    folds the value's content in as it is written, ``pick`` draws a choice
    (a Weyl step through murmur3's finalizer), all in 32-bit arithmetic so
    that every kit draws the same choices."""

    __slots__ = ("out", "s")

    def __init__(self) -> None:
        self.out: list[str] = []
        self.s = 0x811C9DC5

    def mix(self, x: int) -> None:
        self.s = ((self.s ^ x) * 0x01000193) & _MASK

    def pick(self, n: int) -> int:
        s = self.s = (self.s + 0x9E3779B9) & _MASK
        z = ((s ^ (s >> 16)) * 0x85EBCA6B) & _MASK
        z = ((z ^ (z >> 13)) * 0xC2B2AE35) & _MASK
        return (z ^ (z >> 16)) % n

    def space(self) -> None:
        r = self.pick(16)
        if r >= 10:
            self.out.append(_SPACES[r - 10])

    def scalar(self, value: object) -> None:
        t = type(value)
        if value is None:
            self.word(1, "null")
        elif t is bool:
            self.word(2, "true") if value else self.word(3, "false")
        elif t is int:
            self.integer(format_decimal(value))  # past str()'s digit limit too
        elif t is float:
            self.float(value)  # type: ignore[arg-type]
        elif t is str:
            self.string(value)  # type: ignore[arg-type]
        elif t is bytes:
            raise _NoText("unsupported_value", "bin data has no JSON text")
        else:
            raise _NoText("unsupported_value", getattr(value, "reason", f"a {t.__name__} has no JSON text"))

    def word(self, tag: int, text: str) -> None:
        self.mix(tag)
        self.out.append(text)

    def integer(self, digits: str) -> None:
        """An integer's decimal digits, its only spelling: an exponent or a
        fraction would make it a float in the spec's reader."""
        for c in digits:
            self.mix(ord(c))
        self.out.append(digits)

    def string(self, s: str) -> None:
        """Each code point raw or escaped: raw only where the reader maps it
        to the same code point, so never a quote, a backslash, a control
        character or a (lone) surrogate."""
        self.mix(0x22)
        out = self.out
        out.append('"')
        pick = self.pick
        for ch in s:
            c = ord(ch)
            self.mix(c)
            if c == 0x22 or c == 0x5C:
                if pick(2) == 0:
                    out.append("\\" + ch)
                    continue
            elif c == 0x2F:
                r = pick(3)
                if r < 2:
                    out.append("/" if r == 0 else "\\/")
                    continue
            elif c < 0x20:
                if c in _SHORT and pick(2) == 0:
                    out.append(_SHORT[c])
                    continue
            elif 0xD800 <= c <= 0xDFFF:
                pass
            elif pick(8) < 7:
                out.append(ch)
                continue
            out.append(self.escape(c))
        out.append('"')

    def escape(self, c: int) -> str:
        """\\uXXXX (a surrogate pair past the BMP), hex all upper or all lower."""
        form = "\\u%04X" if self.pick(2) == 0 else "\\u%04x"
        if c >= 0x10000:
            c -= 0x10000
            return form % (0xD800 + (c >> 10)) + form % (0xDC00 + (c & 0x3FF))
        return form % c

    def float(self, x: float) -> None:
        """Four notations of the shortest digits D and exponent X
        (x = d.ddd × 10^X), each with a fraction or an exponent so that the
        reader takes a float: 0 scientific (1.5e2, 1.0E+2), 1 plain (150.0;
        only for X in [-7, 20], else 2), 2 integer mantissa (15e1), 3
        fraction mantissa (0.15e3). NaN and the infinities are extended
        JSON's bare tokens, which a standard parser refuses: a finding about
        the SDK, not something the kit hides."""
        if math.isnan(x):
            return self.word(0x4E, "NaN")
        if math.isinf(x):
            return self.word(0x49, "Infinity") if x > 0 else self.word(0x69, "-Infinity")
        neg, digits, exp = _shortest(x)
        for c in ("-" if neg else "") + digits + "e" + str(exp):
            self.mix(ord(c))
        out = self.out
        if neg:
            out.append("-")
        form = self.pick(4)
        if form == 1 and not -7 <= exp <= 20:
            form = 2
        if form == 0:
            out.append(digits[0])
            if len(digits) > 1:
                out.append("." + digits[1:])
            elif self.pick(2) == 1:
                out.append(".0")
            self.exponent(exp)
        elif form == 1:
            out.append(_plain(digits, exp))
        elif form == 2:
            out.append(digits)
            self.exponent(exp - len(digits) + 1)
        else:
            out.append("0." + digits)
            self.exponent(exp + 1)

    def exponent(self, k: int) -> None:
        parts = ["eE"[self.pick(2)]]
        if k < 0:
            parts.append("-")
            k = -k
        elif self.pick(2) == 1:
            parts.append("+")
        if self.pick(4) == 0:
            parts.append("0")
        parts.append(str(k))
        self.out.append("".join(parts))


def _shortest(x: float) -> tuple[bool, str, int]:
    """A finite float's sign, shortest round-trip digits (no leading or
    trailing zeros; "0" for zero) and the exponent of its first digit."""
    text = repr(x)
    neg = text[0] == "-"
    mantissa, _, e = text.lstrip("-").partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = whole + frac
    exp = (int(e) if e else 0) + len(whole) - 1
    stripped = digits.lstrip("0")
    if not stripped:
        return neg, "0", 0
    return neg, stripped.rstrip("0"), exp - (len(digits) - len(stripped))


def _plain(digits: str, exp: int) -> str:
    """D × 10^(X-len(D)+1) with a point and at least one digit after it."""
    if exp < 0:
        return "0." + "0" * (-exp - 1) + digits
    if len(digits) <= exp + 1:
        return digits + "0" * (exp + 1 - len(digits)) + ".0"
    return digits[: exp + 1] + "." + digits[exp + 1 :]


def json_text(value: object) -> str:
    """``value``, of the exact model (:class:`Members` objects), as JSON text
    in its spelling; raises _NoText for what JSON text cannot spell.
    Iterative, so any depth: each frame is a container and its next index."""
    w = _Writer()
    out = w.out
    w.space()
    stack: list[list] = []
    item = value
    while True:
        t = type(item)
        if t is list or t is Members:
            is_object = t is Members
            w.mix(0x7B if is_object else 0x5B)
            w.mix(len(item))  # type: ignore[arg-type]
            out.append("{" if is_object else "[")
            if item:
                stack.append([item, 0, is_object])
            else:
                w.space()
                out.append("}" if is_object else "]")
        else:
            w.scalar(item)
        item = _next(w, stack)
        if item is _DONE:
            w.space()
            return "".join(out)


_DONE = object()


def _next(w: _Writer, stack: list[list]) -> object:
    """The next value to write, after the punctuation before it and the
    closing brackets of the containers it ends; _DONE at the end."""
    out = w.out
    while stack:
        top = stack[-1]
        source, index, is_object = top
        if index > 0:
            w.space()  # after the member or element just written
        if index == len(source):
            out.append("}" if is_object else "]")
            stack.pop()
            continue
        top[1] = index + 1
        if index > 0:
            out.append(",")
        if not is_object:
            w.space()
            return source[index]
        key, item = source[index]
        if type(key) is not str:
            raise _NoText("non_string_key", f"a {type(key).__name__} key has no JSON text")
        w.space()
        w.string(key)
        w.space()
        out.append(":")
        w.space()
        return item
    return _DONE


def to_text(value: object) -> object:
    """An exact-model value as its JSON text, or the :class:`Inexpressible`
    of the first thing in it JSON text cannot spell."""
    try:
        return json_text(value)
    except _NoText as problem:
        return Inexpressible(problem.reason, problem.message)


class Text:
    """The text model: each case as a ``str`` of JSON text (see
    :func:`json_text`), read from the wire exactly first. Only bin data,
    other values outside the spec and non-string keys are inexpressible."""

    name = "text"
    inexpressible = ("non_string_key", "unsupported_value")

    def __init__(self) -> None:
        self._exact = Exact()
        self.options = self._exact.options

    def case(self, data: bytes) -> object:
        return to_text(self._exact.case(data))

    def stream(self, unpacker: msgpack.Unpacker, count: int, body: bytes | memoryview) -> Iterator[object]:
        for value in self._exact.stream(unpacker, count, body):
            yield to_text(value)
