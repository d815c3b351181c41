"""The planted bugs are really there: the benchmark's cause lists
(triagebench/impls/*.toml) count on each of them."""

import pytest

from triagebench_py import dumps_utf8, handrolled


@pytest.mark.parametrize(
    "fn, value, want",
    [
        (dumps_utf8.canonical, {"b": 1, "a": "é"}, '{"a":"é","b":1}'.encode()),
        (dumps_utf8.canonical, {"a": "\x7f"}, b'{"a":"\x7f"}'),
        (dumps_utf8.canonical, {"a": 1.0, "b": 1e-05}, b'{"a":1.0,"b":1e-05}'),
        (dumps_utf8.canonical, [[[]]], b"[[[]]]"),
        (handrolled.canonical, {'a":1,"b': 2}, b'{"a":1,"b":2}'),
        (handrolled.canonical, {"x": 0.1}, b'{"x":0.10000000000000001}'),
        (handrolled.canonical, {"x": float("inf")}, b'{"x":inf}'),
        (handrolled.canonical, {"é": 1}, b"null"),
        (handrolled.canonical_text, '{"a":1,"a":2}', b'{"a":2}'),
    ],
)
def test_bug(fn, value, want):
    assert fn(value) == want


def test_dumps_utf8_lone_surrogate_raises_unicode_encode_error():
    with pytest.raises(UnicodeEncodeError, match=r"'\\udcee'"):
        dumps_utf8.canonical({"a": "x\udcee"})


def test_dumps_utf8_recurses_without_a_depth_guard():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RecursionError):
        dumps_utf8.canonical(deep)


def test_handrolled_turns_recursion_into_null():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert handrolled.canonical(deep) == b"null"
