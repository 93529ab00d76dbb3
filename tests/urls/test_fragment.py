"""URL fragments and their lookup keys (HTML spec, "select the indicated part")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urls.fragment import fragment_key, fragment_keys, fragment_of
from urls.parser import parse_url


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ("/a", None),
        ("/a#", ""),
        ("/a#b", "b"),
        ("#Sec 2", "Sec%202"),
        ("  /a#b\t c\n ", "b%20c"),  # clean-up: stripped ends, tabs and newlines removed
        ("/a#r\u00e9sum\u00e9", "r%C3%A9sum%C3%A9"),
        ("/a#x#y", "x#y"),
        ("/a#%41", "%41"),  # the URL keeps percent-encodings as written
        ('#<"`>', "%3C%22%60%3E"),
    ],
)
def test_fragment_of(raw: str, fragment: str | None) -> None:
    assert fragment_of(raw) == fragment


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"])))
def test_fragment_of_agrees_with_the_url_parser(text: str) -> None:
    assert fragment_of("https://x.test/p#" + text) == parse_url("https://x.test/p#" + text).fragment


@pytest.mark.parametrize(
    ("fragment", "targets"),
    [
        ("Intro", ("Intro", "Intro")),
        ("a%20b", ("a%20b", "a b")),
        ("r%C3%A9sum%C3%A9", ("r%C3%A9sum%C3%A9", "r\u00e9sum\u00e9")),
        ("bad%FF", ("bad%FF", "bad\ufffd")),  # UTF-8 decode with replacement
        ("%EF%BB%BFx", ("%EF%BB%BFx", "\ufeffx")),  # without BOM: a BOM is kept
    ],
)
def test_both_lookups_have_a_key(fragment: str, targets: tuple[str, str]) -> None:
    assert fragment_keys(fragment) == tuple(fragment_key(t) for t in targets)


@pytest.mark.parametrize("fragment", ["", "top", "TOP", "ToP", "%74op"])
def test_the_top_of_the_document_needs_no_target(fragment: str) -> None:
    assert fragment_keys(fragment) is None


def test_keys_are_case_sensitive_and_fit_a_javascript_number() -> None:
    keys = [fragment_key(t) for t in ("intro", "Intro", "INTRO", "x" * 5000)]
    assert len(set(keys)) == 4
    assert all(0 <= key < 2**53 for key in keys)
