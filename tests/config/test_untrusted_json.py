"""The one reader of untrusted JSON (config.untrusted_json): size and depth before parsing, strict
JSON, and every refusal one exception worded in the reader's language."""

from __future__ import annotations

import json
import sys

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from config.untrusted_json import (
    NOT_JSON,
    NOT_TEXT,
    NOT_UTF8,
    TOO_DEEP,
    TOO_LARGE,
    JSONRefused,
    nesting_depth,
    over_size,
    read_json,
)

LIMIT = 10_000


def refusal(data, **limits) -> str:
    with pytest.raises(JSONRefused) as refused:
        read_json(data, **{"max_bytes": LIMIT, **limits})
    return refused.value.code


@pytest.mark.parametrize(
    "body",
    [
        "[" * 1000 + "]" * 1000,  # the audit's 2 KB body
        '{"a":' * 1000 + "1" + "}" * 1000,
        "[" * 5000,  # never closed: the parser would recurse before it found out
        '{"players": ' + "[" * 3000 + "]" * 3000 + "}",
    ],
)
def test_json_nested_too_deep_is_refused_before_the_parser_recurses(body):
    depth = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # json.loads would hit it; the reader never calls it on these
    try:
        assert refusal(body) == TOO_DEEP
    finally:
        sys.setrecursionlimit(depth)


def test_brackets_inside_strings_do_not_count():
    text = json.dumps({"name": "[[[[{{{{" * 100, "quote": 'a "[" b \\ [[[['})
    assert nesting_depth(text) == 1
    assert read_json(text, max_bytes=LIMIT, max_depth=1)["quote"] == 'a "[" b \\ [[[['


def test_depth_is_counted_up_to_the_limit_and_no_further():
    assert read_json("[[[1]]]", max_bytes=LIMIT, max_depth=3) == [[[1]]]
    assert refusal("[[[[1]]]]", max_depth=3) == TOO_DEEP
    assert read_json("[]", max_bytes=LIMIT, max_depth=1) == []
    assert refusal('{"a": []}', max_depth=1) == TOO_DEEP


def test_the_size_is_checked_on_bytes_and_on_text_in_utf8():
    assert refusal(b" " * (LIMIT + 1)) == TOO_LARGE
    assert read_json(b" " * (LIMIT - 2) + b"[]", max_bytes=LIMIT) == []
    assert over_size("ж" * (LIMIT // 2 + 1), LIMIT)  # 2 bytes a letter: one byte over
    assert not over_size("ж" * (LIMIT // 2), LIMIT)
    assert refusal('"' + "ж" * LIMIT + '"') == TOO_LARGE


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"\xff\xfe{}", NOT_UTF8),
        ("{}".encode("utf-16"), NOT_UTF8),
        (b"{not json", NOT_JSON),
        (b"", NOT_JSON),
        (b"NaN", NOT_JSON),
        (b'{"eyes": Infinity}', NOT_JSON),
        (b"[-Infinity]", NOT_JSON),
        (b"9" * 5000, NOT_JSON),  # an integer too long to convert
        (b'{"a": 1', NOT_JSON),
        (b'"\\u0000"', NOT_TEXT),  # PostgreSQL stores no NUL
        (b'{"name": "\\ud800"}', NOT_TEXT),  # half a surrogate pair: UTF-8 cannot hold it
        (b'["\\udc00"]', NOT_TEXT),
        (b'"\\ud800x\\udc00"', NOT_TEXT),
    ],
)
def test_what_is_not_json_text_is_refused(data, code):
    assert refusal(data) == code


def test_a_reader_that_checks_its_own_strings_may_take_nul_and_half_pairs():
    """The API's serializers refuse them by field; a field the API ignores may hold them."""
    assert read_json(b'{"note": "a\\u0000\\ud800"}', max_bytes=LIMIT, text_only=False) == {
        "note": "a\x00\ud800"
    }
    assert refusal(b'{"note": "a\\u0000"}') == NOT_TEXT


@pytest.mark.parametrize(
    ("data", "value"),
    [
        (b'\xef\xbb\xbf{"a": 1}', {"a": 1}),  # a byte-order mark, as Windows editors save
        (b'"\\ud83c\\udccf"', "\U0001f0cf"),  # a whole surrogate pair
        (b'"\\\\u0000"', "\\u0000"),  # a backslash, then text
        ('{"имя": "Асель"}', {"имя": "Асель"}),
    ],
)
def test_json_text_is_read(data, value):
    assert read_json(data, max_bytes=LIMIT) == value


def test_a_refusal_is_worded_in_the_active_language():
    with pytest.raises(JSONRefused) as deep:
        read_json("[[[]]]", max_bytes=LIMIT, max_depth=2)
    with pytest.raises(JSONRefused) as large:
        read_json(b" " * 70_000, max_bytes=65_536)
    with translation.override("en"):
        assert deep.value.message() == "This JSON is nested too deep (levels allowed here: 2)."
        assert large.value.message() == "This is too large: the site reads at most 64.0\xa0KB here."
    with translation.override("ru"):
        assert deep.value.message() == (
            "В этом JSON слишком глубокая вложенность (здесь допустимо уровней: 2)."
        )
        assert str(large.value) == "Слишком большой объём: здесь сайт читает не больше 64,0\xa0КБ."
    with translation.override("kk"):
        assert "JSON" in deep.value.message() and "2" in deep.value.message()
        assert deep.value.message() != "This JSON is nested too deep (levels allowed here: 2)."
    with translation.override("uk"):
        assert deep.value.message() == "У цьому JSON завелика вкладеність (тут допустимо рівнів: 2)."


def _depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _text(max_size: int | None = None):
    """Text the site stores: no NUL, no half of a surrogate pair."""
    return st.text(
        alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=max_size
    )


_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | _text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text(max_size=5), inner, max_size=4),
    max_leaves=30,
)


@given(_values, st.booleans())
def test_the_scan_finds_the_depth_the_value_has(value, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert nesting_depth(text) == _depth(value)
    assert read_json(text, max_bytes=1 << 20, max_depth=_depth(value)) == value
    if _depth(value):
        with pytest.raises(JSONRefused):
            read_json(text, max_bytes=1 << 20, max_depth=_depth(value) - 1)
