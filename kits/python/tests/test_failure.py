"""What failed and where (docs/adapter-protocol.md, "A failure's type and
place"): error_type and frames of an implementation's exception, through
the worker loop as the driver sees them, and the rules that pick frames."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from _support import batch, line_of, nested_arrays, session
from difffuzz_kit import Exact, Native
from difffuzz_kit._answers import Canonicalize
from difffuzz_kit._failure import MAX_FRAMES, _kept, _Kind, _Places, error_frames, error_type
from difffuzz_kit.testing import pack

HERE = __file__


def internal(fn: Canonicalize, *cases: object, model: Exact | Native | None = None) -> list[dict[str, Any]]:
    """The worker's results for ``cases``, each of which must be internal."""
    status, written = session(fn, model or Native(), batch(1, list(cases)), batch(2, [1]))
    assert status == 0
    failed, after = written[1:]
    assert after["type"] == "results" and len(after["results"]) == 1  # the worker went on
    results: list[dict[str, Any]] = failed["results"]
    assert [r["error"] for r in results] == ["internal"] * len(cases), results
    return results


def own(fn: Callable[..., object], text: str) -> dict[str, object]:
    """The frame of ``fn``'s line holding ``text``, in this file."""
    return {"file": HERE, "function": fn.__qualname__, "line": line_of(fn, text)}


def entry(function: str) -> dict[str, object]:
    """A run of the standard library's frames, as its entry point."""
    return {"file": "", "function": function, "line": 0}


# --- through a standard library call ---------------------------------------------


def dumps_canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True).encode()


def test_raised_inside_json_dumps_is_kept_as_its_entry_point() -> None:
    """json.dumps raises (a value it cannot write) from its encoder's
    frames: those are one frame, json.dumps, then the function's."""
    (result,) = internal(dumps_canonical, {"a": b"\x00"})
    assert result["error_type"] == "TypeError"
    assert result["frames"] == [entry("json.dumps"), own(dumps_canonical, "json.dumps(")]


def test_the_standard_library_calling_back_into_the_sdk() -> None:
    """A hook json.dumps calls is the implementation's again: innermost
    first, the hook, json.dumps, then the function that called it."""

    def hook(value: object) -> object:
        raise LookupError("no encoding for " + type(value).__name__)

    def canonical(value: object) -> bytes:
        return json.dumps(value, default=hook).encode()

    (result,) = internal(canonical, [b"\x00"])
    assert result["error_type"] == "LookupError"
    assert result["frames"] == [own(hook, "raise LookupError"), entry("json.dumps"), own(canonical, "json.dumps(")]


def test_a_function_of_the_standard_library_itself_is_its_one_frame() -> None:
    """With no frame of its own (the kit calls json.loads directly), the
    failure is sent as the one entry frame."""
    status, written = session(json.loads, Exact(), batch(1, ["[1,"]))
    assert status == 0
    (result,) = written[1]["results"]
    assert result["error_type"] == "json.decoder.JSONDecodeError"
    assert result["frames"] == [entry("json.loads")]


# --- the kit's own frames ----------------------------------------------------------


def test_the_kits_frames_are_left_out() -> None:
    """The function calls into the kit (pack), which raises two frames
    deep: only the function's frame is sent."""

    def canonical(value: object) -> bytes:
        return pack(object())

    (result,) = internal(canonical, 1)
    assert result["error_type"] == "TypeError" and "cannot encode" in result["message"]
    assert result["frames"] == [own(canonical, "pack(")]


def test_raised_by_the_kit_itself_has_no_frames() -> None:
    """A digest of the wrong length fails in the kit's own check: the
    type, and no frame (none is the implementation's)."""
    (result,) = internal(lambda value: (b"1", b"short"), 1)
    assert result["error_type"] == "ValueError" and "frames" not in result


# --- recursion ------------------------------------------------------------------------


def walk(value: object) -> int:
    """A naive walker with a call site per container kind."""
    if type(value) is list:
        total = 0
        for item in value:
            total += walk(item)
        return total
    if type(value) is dict:
        total = 0
        for member in value.values():
            total += walk(member)
        return total
    return len(json.dumps(value))


def walking(value: object) -> bytes:
    return str(walk(value)).encode()


def nested_maps(depth: int) -> object:
    value: object = {"leaf": "x"}
    for _ in range(depth - 1):
        value = {"k": value}
    return value


def mixed(depth: int) -> object:
    value: object = "x"
    for level in range(depth):
        value = [value] if level % 3 else {"k": value}
    return value


@pytest.fixture
def low_limit() -> Iterator[int]:
    """A recursion limit that cases within the wire's 1000 levels exceed."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(500)
    try:
        yield 500
    finally:
        sys.setrecursionlimit(limit)


def test_recursion_is_one_bounded_stable_bucket(low_limit: int) -> None:
    """However the limit is met (arrays, maps, both; entering the walker,
    calling json.dumps at a leaf or inside it: the innermost frame differs,
    as the tips show), the frames are the recursion's function,
    once, line 0: the same list for every case."""
    tips = set()
    for depth in range(low_limit - 120, low_limit + 20):
        for case in (nested_arrays(depth, "x"), nested_maps(depth), mixed(depth)):
            try:
                walking(case)
            except RecursionError as error:
                tips.add(_kept(error)[-1][1:])
                assert error_frames(error) == [{"file": HERE, "function": "walk", "line": 0}]
    assert ("json.dumps", 0) in tips and len(tips) >= 3, tips
    for result in internal(walking, nested_maps(low_limit + 50), mixed(low_limit + 50)):
        assert result["error_type"] == "RecursionError"
        assert result["frames"] == [{"file": HERE, "function": "walk", "line": 0}]


def test_mutual_recursion_names_each_function_once_sorted() -> None:
    def even(value: object) -> bytes:
        return odd(value)

    def odd(value: object) -> bytes:
        return even(value)

    (result,) = internal(even, 1)
    names = [frame["function"] for frame in result["frames"]]
    assert names == sorted([even.__qualname__, odd.__qualname__])


@pytest.fixture
def deep_limit() -> Iterator[int]:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(100_000)
    try:
        yield 100_000
    finally:
        sys.setrecursionlimit(limit)


def test_a_deep_recursions_frames_take_little_time(deep_limit: int) -> None:
    """A traceback of 100,000 frames: read once, the frames' source never
    looked up, the window bounded; the worker answers the next case."""

    def down(n: int) -> int:
        return down(n + 1) + 1

    try:
        down(0)
    except RecursionError as error:
        start = time.perf_counter()
        frames = error_frames(error)
        took = time.perf_counter() - start
    assert frames == [{"file": HERE, "function": down.__qualname__, "line": 0}]
    assert took < 1.0, took


# --- the rules, one by one ---------------------------------------------------------------


def test_at_most_eight_frames_innermost_first() -> None:
    def chain(n: int) -> None:
        if n == 0:
            raise KeyError("bottom")
        chain(n - 1)

    try:
        chain(11)
    except KeyError as error:
        frames = error_frames(error)
    raise_line = line_of(chain, "raise KeyError")
    call_line = line_of(chain, "chain(n - 1)")
    assert len(frames) == MAX_FRAMES
    assert [f["line"] for f in frames] == [raise_line] + [call_line] * (MAX_FRAMES - 1)


class Outer:
    class Inner(Exception):
        pass


@pytest.mark.parametrize(
    ("error", "name"),
    [
        (ValueError("x"), "ValueError"),
        (json.JSONDecodeError("x", "", 0), "json.decoder.JSONDecodeError"),
        (Outer.Inner(), "test_failure.Outer.Inner"),
        (type("Script", (Exception,), {"__module__": "__main__"})(), "Script"),
        (UnicodeEncodeError("utf-8", "\udcee", 0, 1, "surrogates not allowed"), "UnicodeEncodeError"),
    ],
)
def test_error_type(error: BaseException, name: str) -> None:
    assert error_type(error) == name


def test_places(tmp_path: Any) -> None:
    """A site folder inside the standard library's (a venv's platstdlib, an
    interpreter built from source) holds SDKs, not the standard library."""
    stdlib, kit = tmp_path / "lib" / "python3", tmp_path / "kit"
    site_packages = stdlib / "site-packages"
    places = _Places(str(kit), [str(stdlib)], [str(site_packages)])
    assert places.kind(str(stdlib / "json" / "encoder.py")) is _Kind.STDLIB
    assert places.kind(str(site_packages / "sdk" / "canon.py")) is _Kind.OWN
    assert places.kind(str(kit / "_serve.py")) is _Kind.KIT
    assert places.kind(str(tmp_path / "lib" / "python3-other" / "x.py")) is _Kind.OWN  # a prefix, not a folder
    assert places.kind("<frozen codecs>") is _Kind.STDLIB
    assert places.kind("<string>") is _Kind.OWN
    assert places.kind(os.path.relpath(str(site_packages / "a.py"))) is _Kind.OWN


def test_this_interpreters_places() -> None:
    places = _Places.of_this_interpreter()
    assert places.kind(json.__file__) is _Kind.STDLIB
    assert places.kind(pytest.__file__) is _Kind.OWN  # site-packages
    assert places.kind(pack.__code__.co_filename) is _Kind.KIT
    assert places.kind(HERE) is _Kind.OWN
