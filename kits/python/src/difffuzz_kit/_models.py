"""The value models a worker hands its function (docs/adapter-protocol.md,
the hello's ``model``), each reading a case from its msgpack bytes.

- :class:`Exact` is lossless: objects as a list-of-pairs type of the
  worker's choosing (``ExactObject`` by default), integers of any size, lone
  surrogates in ``str``, int told apart from float, bad values as markers.
- :class:`Native` is what a Python SDK receives in production: ``dict``
  (insertion order), ``list``, ``int``, ``float``, ``str``, ``bool``,
  ``None`` and ``bytes``. A case it cannot hold comes out as an
  :class:`Inexpressible`, never converted lossily.
- :class:`Text` is the case as JSON text, a ``str``: the driver (protocol
  4) writes the text and sends it as msgpack bin, and the model only
  decodes its UTF-8. Where the driver speaks protocol 2, which sends values,
  :class:`TextOnStdio` answers each case with an ``internal`` error instead:
  the spelling of the text is the driver's alone.

A model offers ``case(data)`` (one case's bytes) and ``stream(unpacker,
count, body)`` (a batch's cases, see :data:`difffuzz_kit._wire.Stream`), with
the Unpacker ``options`` that stream expects: the :class:`Model` protocol."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, Literal, Protocol

import msgpack

from difffuzz_kit._wire import CaseStreamError, ExactObject, Unsupported, exact_options, exact_stream, unpack_case

_Marker = Unsupported

#: The name of a value model, as the hello says it.
ModelName = Literal["exact", "native", "text"]


class Model(Protocol):
    """What the worker loop needs of a value model."""

    #: The hello's ``model``.
    name: ModelName
    #: The reasons the hello declares (a native or text model's).
    inexpressible: tuple[str, ...]
    #: The msgpack Unpacker options that :meth:`stream` expects.
    options: dict[str, Any]

    def case(self, data: bytes) -> object:
        """One case's value from its msgpack bytes."""
        ...

    def stream(self, unpacker: msgpack.Unpacker, count: int, body: bytes | memoryview) -> Iterator[object]:
        """A batch's cases, one at a time (:data:`difffuzz_kit._wire.Stream`)."""
        ...


class Inexpressible:
    """A case the native model cannot hold, in place of its value: the
    worker answers ``{"inexpressible": reason, "message": message}`` and
    never calls the function."""

    __slots__ = ("message", "reason")

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        self.message = message

    def __repr__(self) -> str:
        return f"Inexpressible({self.reason!r}, {self.message!r})"


class Exact:
    """The lossless model. ``members`` builds an object from its list of
    ``(key, value)`` tuples and ``unsupported(reason)`` stands in for a value
    outside the model; an implementation that has such types of its own
    (as the project's canonjson has Object and Unsupported) takes them here,
    so that the decoder builds its values directly, with no copy per case."""

    name: ModelName = "exact"
    inexpressible: tuple[str, ...] = ()
    #: The default ``unsupported``: the stand-in, with its ``reason``, for a
    #: value outside the model, which a function of the default exact model
    #: answers with ``SpecError("unsupported_value", marker.reason)``.
    Unsupported: ClassVar[type[_Marker]] = _Marker

    def __init__(
        self,
        members: Callable[[list[Any]], object] = ExactObject,
        unsupported: Callable[[str], object] = Unsupported,
    ) -> None:
        self.options = exact_options(members, unsupported)
        self._unsupported = unsupported
        self.stream = exact_stream

    def case(self, data: bytes) -> object:
        return unpack_case(data, self.options, self._unsupported)


#: Bytes that may start a valid msgpack timestamp (ext -1 of 4, 8 or 12
#: bytes: fixext 4 ``d6 ff``, fixext 8 ``d7 ff``, and a 12-byte ext 8/16/32
#: whose length ends in ``0c`` just before the type ``ff``). msgpack-python
#: decodes a timestamp itself, without the ext hook, into a
#: ``msgpack.Timestamp``, which is not a native value: a case holding these
#: bytes anywhere is read again the careful way.
_TIMESTAMP = re.compile(rb"[\xd6\xd7\x0c]\xff")


class Native:
    """The native model. Its fast reading is msgpack's own (maps through a
    hook that builds the dict and notes a repeated or unhashable key, ext
    types through one that notes a bad one): a case with nothing noted is
    already its native value. A noted case, or one whose bytes may hold a
    timestamp, is read again exactly and converted by :func:`to_native`,
    which finds the first problem in the walk's order."""

    name: ModelName = "native"
    inexpressible: tuple[str, ...] = ("duplicate_key", "non_string_key", "unsupported_value")

    def __init__(self) -> None:
        self._exact = Exact()
        noted = self._noted = [False]
        hook = self._exact.options["ext_hook"]

        def pairs(members: list[tuple[object, object]]) -> object:
            try:
                value = dict(members)
            except TypeError:  # an unhashable key (an array or a map)
                noted[0] = True
                return members
            if len(value) != len(members):
                noted[0] = True
            return value

        def ext(code: int, data: bytes) -> object:
            value = hook(code, data)
            if type(value) is Unsupported:
                noted[0] = True
            return value

        self.options = dict(self._exact.options, object_pairs_hook=pairs, ext_hook=ext)

    def case(self, data: bytes) -> object:
        noted = self._noted
        noted[0] = False
        try:
            value = msgpack.unpackb(data, **self.options)
        except Exception:  # msgpack raises several unrelated types
            return self._careful(data)
        if noted[0] or _TIMESTAMP.search(data):
            return self._careful(data)
        return value

    def stream(self, unpacker: msgpack.Unpacker, count: int, body: bytes | memoryview) -> Iterator[object]:
        noted = self._noted
        noted[0] = False
        unpack, tell = unpacker.unpack, unpacker.tell
        suspects = [match.start() for match in _TIMESTAMP.finditer(body)]
        try:
            for _ in range(count):
                start = tell()
                value = unpack()
                if noted[0] or (suspects and _within(suspects, start, tell())):
                    noted[0] = False
                    value = self._careful(bytes(body[start : tell()]))
                yield value
            complete = tell() == len(body)
        except Exception as error:
            raise CaseStreamError(f"{type(error).__name__}: {error}") from None
        if not complete:
            raise CaseStreamError("bytes after the cases")

    def _careful(self, data: bytes) -> object:
        return to_native(self._exact.case(data))


def _within(positions: list[int], start: int, end: int) -> bool:
    """Whether a sorted list of offsets holds one in [start, end)."""
    at = bisect.bisect_left(positions, start)
    return at < len(positions) and positions[at] < end


class Text:
    """The text model: each case is the JSON text the driver wrote
    (docs/adapter-protocol.md, "The text model's bytes"), a msgpack bin of
    UTF-8, handed to the function as a ``str`` with its characters
    unchanged. The driver answers what JSON text cannot spell (bin data and
    other values outside the spec, non-string keys) itself, as inexpressible
    on the worker's behalf, so no case of this model is: the hello still
    declares those two reasons, which are the model's.

    A case that is not bin, or not UTF-8, is the driver's error, not the
    implementation's: :meth:`case` raises ValueError, and the request gets
    an ``error`` response."""

    name: ModelName = "text"
    inexpressible: tuple[str, ...] = ("non_string_key", "unsupported_value")

    def __init__(self) -> None:
        self.options: dict[str, Any] = {"raw": False}

    def case(self, data: bytes) -> str:
        return _text(msgpack.unpackb(data, raw=False))

    def stream(self, unpacker: msgpack.Unpacker, count: int, body: bytes | memoryview) -> Iterator[object]:
        unpack = unpacker.unpack
        try:
            for _ in range(count):
                data = unpack()
                if type(data) is not bytes:
                    raise ValueError("a case is not bin")
                yield data.decode()
            complete = unpacker.tell() == len(body)
        except Exception as error:  # msgpack raises several unrelated types
            raise CaseStreamError(f"{type(error).__name__}: {error}") from None
        if not complete:
            raise CaseStreamError("bytes after the cases")


def _text(data: object) -> str:
    """A text case's characters, from the bytes of its bin."""
    if type(data) is not bytes:
        raise ValueError(f"text model: a case is a msgpack {_wire_kind(data)}, not bin holding JSON text")
    try:
        return data.decode()
    except UnicodeDecodeError as error:
        raise ValueError(f"text model: a case's JSON text is not UTF-8 ({error})") from None


def _wire_kind(value: object) -> str:
    return {str: "str", list: "array", dict: "map", int: "int", float: "float", bool: "bool"}.get(
        type(value), type(value).__name__
    )


class Unanswerable:
    """A case the function is never called on, and that is not
    inexpressible either: the worker answers it with an ``internal`` error
    whose message says why (:class:`TextOnStdio`)."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message

    def __repr__(self) -> str:
        return f"Unanswerable({self.message!r})"


#: Why a text worker on stdin and stdout answers no case.
TEXT_NEEDS_PROTOCOL_4 = (
    "the text model needs a driver of protocol 4, which writes each case's JSON text: "
    "this one speaks protocol 2 (stdin and stdout, no DIFFFUZZ_FDS offer)"
)

_NEEDS_PROTOCOL_4 = Unanswerable(TEXT_NEEDS_PROTOCOL_4)


class TextOnStdio:
    """The text model where the driver speaks protocol 2 (no offer of
    descriptors: a driver older than version 4, or a worker run by hand): it
    sends values, not text, and the kit has no JSON writer of its own, so
    every case is :class:`Unanswerable` (the request is still read whole and
    checked, as any batch is)."""

    name: ModelName = "text"
    inexpressible: tuple[str, ...] = Text.inexpressible

    def __init__(self) -> None:
        self.options: dict[str, Any] = {"raw": False}

    def case(self, data: bytes) -> Unanswerable:
        return _NEEDS_PROTOCOL_4

    def stream(self, unpacker: msgpack.Unpacker, count: int, body: bytes | memoryview) -> Iterator[object]:
        skip = unpacker.skip
        try:
            for _ in range(count):
                skip()
                yield _NEEDS_PROTOCOL_4
            complete = unpacker.tell() == len(body)
        except Exception as error:  # msgpack raises several unrelated types
            raise CaseStreamError(f"{type(error).__name__}: {error}") from None
        if not complete:
            raise CaseStreamError("bytes after the cases")


class _NotNative(Exception):
    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def to_native(value: object) -> object:
    """An exact-model value (kit :class:`ExactObject` and :class:`Unsupported`)
    as a native one, or the :class:`Inexpressible` of its first problem in
    the spec's walk order (a key before its value, members and items in
    order). Iterative, so any depth."""
    try:
        if type(value) is not list and type(value) is not ExactObject:
            return _native_scalar(value)
        root: list[object] | dict[object, object] = {} if type(value) is ExactObject else []
        stack: list[list[Any]] = [[value, 0, root]]  # source, next index, target
        while stack:
            top = stack[-1]
            source, index, target = top
            if index == len(source):
                stack.pop()
                continue
            top[1] = index + 1
            is_map = type(source) is ExactObject
            if is_map:
                key, item = source[index]
                key = _native_key(key, target)
            else:
                item = source[index]
            if type(item) is list or type(item) is ExactObject:
                child: object = {} if type(item) is ExactObject else []
                stack.append([item, 0, child])
            else:
                child = _native_scalar(item)
            if is_map:
                target[key] = child
            else:
                target.append(child)
        return root
    except _NotNative as problem:
        return Inexpressible(problem.reason, problem.message)


def _native_key(key: object, target: dict[object, object]) -> object:
    """A member's key as a dict key. A ``dict`` holds any hashable key (an
    SDK must reject an int or bytes key itself), but not an array or a map,
    a key that is not a value of the model (a bad ext, undecodable bytes, a
    timestamp), nor two keys it deems equal."""
    if type(key) is list or type(key) is ExactObject:
        raise _NotNative("non_string_key", f"object key is {'an array' if type(key) is list else 'a map'}")
    if type(key) is Unsupported:
        raise _NotNative("non_string_key", f"object key is not a value: {key.reason}")
    if type(key) is msgpack.Timestamp:
        raise _NotNative("non_string_key", "object key is a msgpack timestamp")
    if key in target:
        if type(key) is str:
            raise _NotNative("duplicate_key", f"duplicate key {key!r}")
        # 1, 1.0 and True are one dict key: the keys are not strings, and a
        # dict cannot tell them apart
        raise _NotNative("non_string_key", f"object keys equal as dict keys: {key!r}")
    return key


def _native_scalar(value: object) -> object:
    if type(value) is Unsupported:
        raise _NotNative("unsupported_value", value.reason)
    if type(value) is msgpack.Timestamp:
        raise _NotNative("unsupported_value", "msgpack ext type -1 (timestamp)")
    return value
