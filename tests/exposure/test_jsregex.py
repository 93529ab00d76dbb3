"""JavaScript regexes keep their JavaScript meaning once translated to Python `re`."""

import re

import pytest

from exposure.jsregex import UnsupportedRegex, compile_js, required_literal, translate


@pytest.mark.parametrize(
    ("source", "text", "matches"),
    [
        ("abc$", "abc\n", False),  # JS `$` (no m flag) is the end of the input only
        ("abc$", "abc", True),
        ("a.c", "a\rc", False),  # `.` excludes every line terminator
        ("a.c", "a\u2028c", False),
        ("a.c", "a-c", True),
        (r"a\sb", "a\u00a0b", True),  # \s is JavaScript's white space, NBSP included
        (r"a\sb", "a\ufeffb", True),
        (r"a\sb", "a\x1cb", False),  # a Python-only white space character
        (r"a\Sb", "a\x1cb", True),
        (r"a[\s\S]b", "a\nb", True),
        (r"\d", "٣", False),  # \d is ASCII without the u flag
        (r"\w", "é", False),
        (r"x[[]y", "x[y", True),  # a literal `[` in a class is not a nested set
        (r"(?<=[0-9]{1,2}\.[0-9]{1,2})x", "10.2x", True),  # variable-width look-behind
        (r"(?<=[0-9]{1,2}\.[0-9]{1,2})x", "a.2x", False),
        (r"(?<![0-9]{1,2})x", "1x", False),
        (r"(?<![0-9]{1,2})x", "ax", True),
    ],
)
def test_semantics(source: str, text: str, matches: bool) -> None:
    assert bool(compile_js(source).search(text)) is matches


def test_named_groups_become_python_named_groups() -> None:
    assert compile_js("(?<major>[0-9]+)").search("v12").group("major") == "12"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "source",
    [r"a\e", r"[\S]", "[]a]", "(?<=a+)b", "(?<=a|bc)d", "ab\\", "[ab"],
)
def test_unsupported_constructs_raise(source: str) -> None:
    with pytest.raises(UnsupportedRegex):
        translate(source)


def test_translation_output_compiles_without_warnings() -> None:
    re.compile(translate(r"[\s\S]{1,300}[&~|]+"), re.ASCII)


@pytest.mark.parametrize(
    ("source", "literal"),
    [
        (r"/\*!? jQuery v([0-9]+)", " jQuery v"),  # `!?` makes the `!` optional
        (r".\.throttle=[a-zA-Z_]+,.\.time=", ".throttle="),
        (r"abc|defgh", ""),  # a top-level alternation: nothing is certain
        (r"(abc|de)fg", "fg"),
        (r"x\u00a0yz", "yz"),  # \uHHHH is one character, not literal text
        (r"ab{2,3}cd", "cd"),  # a quantified atom ends the run (b may repeat)
        (r"[abc]+", ""),
        (r"tinyMCEPreInit.*majorVersion:", "tinyMCEPreInit"),
        (r"a\/b\.c", "a/b.c"),
    ],
)
def test_required_literal(source: str, literal: str) -> None:
    assert required_literal(source) == literal


@pytest.mark.parametrize(
    ("source", "text"),
    [(r"/\*!? jQuery v([0-9]+)", "/* jQuery v1"), (r"ab{2,3}cd", "abbcd"), (r"(abc|de)fg", "defg")],
)
def test_required_literal_is_in_every_match(source: str, text: str) -> None:
    match = compile_js(source).search(text)
    assert match is not None and required_literal(source) in match.group(0)
