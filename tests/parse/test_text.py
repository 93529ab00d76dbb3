"""parse.text's character-reference tables are the HTML spec's, as the html5lib reference has them.

The extractor reads the standard library's copy of the named references so that an audit does not
import html5lib for a table; the reference parser (html5lib) must decode every reference the same.
"""

from __future__ import annotations

from html5lib import constants

from parse import text


def test_the_named_references_are_html5libs_table() -> None:
    assert constants.entities == text._ENTITIES


def test_the_numeric_replacements_are_html5libs_table() -> None:
    assert constants.replacementCharacters == text._REPLACEMENTS


def test_numeric_references_in_the_windows_1252_range_decode_as_the_spec_says() -> None:
    assert text.decode_text("&#128;&#x81;&#150;&#0;&#x9F;") == "\u20ac\x81\u2013\ufffd\u0178"


def test_named_references_decode_with_and_without_their_semicolon() -> None:
    assert text.decode_text("&amp;&ampx &notin; &noti") == "&&x \u2209 \u00aci"
    assert text.decode_attr("a&amp=b&notx") == "a&amp=b&notx"
