"""What failed and where (docs/adapter-protocol.md, "A failure's type and
place"): an implementation's exception as the ``error_type`` and ``frames``
of its ``internal`` result, so that the driver buckets a failure by its
type and place and never by its message, which quotes the input.

- :func:`error_type` is the exception's class, ``module.QualName``, with
  the module left out for ``builtins`` and ``__main__`` (``ValueError``,
  ``json.decoder.JSONDecodeError``, ``sdk.errors.CanonError``, and
  ``CanonError`` for a class of the worker's own script): short, and the
  same on every run and every machine.
- :func:`error_frames` is where it was raised, innermost first, at most
  :data:`MAX_FRAMES`, in the implementation's own code: the kit's frames
  are left out, and so are the standard library's, except that each run of
  them is kept as one frame, its entry point (``{"file": "", "function":
  "json.dumps", "line": 0}``). The standard library is what lies under
  ``sysconfig``'s ``stdlib`` and ``platstdlib`` folders, and frozen modules
  (``<frozen ...>``), but not what lies in a site-packages folder, where a
  team's SDK may be installed.

A RecursionError's traceback holds as many frames as the recursion limit
(1,000 by default): the walk keeps no more than a window of the innermost
ones, and its frames are the functions that recur in that window, each once,
sorted, with line 0 (the recursion passes through several lines, and which
one the limit lands on depends on the case), so that one unbounded
recursion is one bucket whatever the case's shape."""

from __future__ import annotations

import os
import site
import sysconfig
import traceback
from collections import Counter, deque
from collections.abc import Iterable
from enum import Enum
from typing import TypedDict


class StackFrame(TypedDict):
    """One place of a failure, as the protocol sends it."""

    file: str
    function: str
    line: int


#: The most frames a result carries (the driver keys a bucket on the first
#: three and shows a few more).
MAX_FRAMES = 8

#: How many of a RecursionError's innermost kept frames are searched for the
#: functions that recur.
RECURSION_WINDOW = 64


def error_type(error: BaseException) -> str:
    """The exception's class in the protocol's words: ``module.QualName``,
    or ``QualName`` alone for a builtin or a class of ``__main__``."""
    cls = type(error)
    module = getattr(cls, "__module__", None)
    if not isinstance(module, str) or module in ("builtins", "__main__"):
        return cls.__qualname__
    return f"{module}.{cls.__qualname__}"


class _Kind(Enum):
    OWN = "own"
    KIT = "kit"
    STDLIB = "stdlib"


#: How many file names the kinds' cache holds before it starts afresh.
_MAX_FILES = 4096


def _folder(path: str) -> str:
    """A folder as a prefix that matches only what lies inside it."""
    return os.path.join(os.path.normcase(os.path.realpath(path)), "")


class _Places:
    """Tells the kit's files, the standard library's and everything else
    (the implementation's) apart by their path, once per file name. A file
    in a site folder is never the standard library's, even where that
    folder lies inside the standard library's (a venv's ``platstdlib``, an
    interpreter built from source)."""

    def __init__(self, kit: str, stdlib: Iterable[str], sites: Iterable[str]) -> None:
        self._kit = _folder(kit)
        self._stdlib = tuple({_folder(path) for path in stdlib})
        self._sites = tuple({_folder(path) for path in sites})
        self._kinds: dict[str, _Kind] = {}

    @classmethod
    def of_this_interpreter(cls) -> _Places:
        paths = sysconfig.get_paths()
        sites = [paths["purelib"], paths["platlib"], *site.getsitepackages()]
        if site.ENABLE_USER_SITE:
            sites.append(site.getusersitepackages())
        return cls(os.path.dirname(os.path.abspath(__file__)), [paths["stdlib"], paths["platstdlib"]], sites)

    def kind(self, filename: str) -> _Kind:
        kind = self._kinds.get(filename)
        if kind is None:
            if len(self._kinds) >= _MAX_FILES:  # code compiled per case, say
                self._kinds.clear()
            kind = self._kinds[filename] = self._classify(filename)
        return kind

    def _classify(self, filename: str) -> _Kind:
        if filename.startswith("<frozen "):
            return _Kind.STDLIB
        if filename.startswith("<"):  # <string>, <stdin>: code the worker made
            return _Kind.OWN
        path = os.path.normcase(os.path.realpath(filename))
        if path.startswith(self._kit):
            return _Kind.KIT
        if path.startswith(self._sites):
            return _Kind.OWN
        if path.startswith(self._stdlib):
            return _Kind.STDLIB
        return _Kind.OWN


_PLACES = _Places.of_this_interpreter()


#: A kept frame before it becomes a :class:`StackFrame`: file, function, line.
_Place = tuple[str, str, int]


def error_frames(error: BaseException) -> list[StackFrame]:
    """Where ``error`` was raised, innermost first, at most MAX_FRAMES (see
    the module's doc); empty when it was raised in the kit itself."""
    kept = _kept(error)
    if isinstance(error, RecursionError):
        recurring = _recurring(kept)
        if recurring:
            return recurring
    return [_frame(place) for place in list(reversed(kept))[:MAX_FRAMES]]


def _kept(error: BaseException) -> deque[_Place]:
    """The traceback's frames outermost first, less the kit's, each run of
    the standard library's as its entry point; only the innermost
    RECURSION_WINDOW, so that memory stays bounded whatever the depth. The
    traceback's own frames are walked, without reading a line of source."""
    places = _PLACES
    kept: deque[_Place] = deque(maxlen=RECURSION_WINDOW)
    in_stdlib = False
    for frame, line in traceback.walk_tb(error.__traceback__):
        code = frame.f_code
        kind = places.kind(code.co_filename)
        if kind is _Kind.STDLIB:
            if not in_stdlib:
                module = frame.f_globals.get("__name__")
                name = f"{module}.{code.co_qualname}" if isinstance(module, str) else code.co_qualname
                kept.append(("", name, 0))
            in_stdlib = True
            continue
        in_stdlib = False
        if kind is _Kind.OWN:
            kept.append((code.co_filename, code.co_qualname, line or 0))
    return kept


def _recurring(kept: deque[_Place]) -> list[StackFrame]:
    """The functions met more than once among the kept frames, sorted, each
    with line 0: a recursion's cycle, whichever line and function the limit
    happened to land on."""
    counts = Counter((file, function) for file, function, _ in kept)
    cycle = sorted(key for key, count in counts.items() if count > 1)
    return [{"file": file, "function": function, "line": 0} for file, function in cycle[:MAX_FRAMES]]


def _frame(place: _Place) -> StackFrame:
    file, function, line = place
    return {"file": file, "function": function, "line": line}
