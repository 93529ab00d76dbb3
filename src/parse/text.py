"""Text helpers shared by the streaming extractor and the html5lib reference.

Whitespace collapsing, the visible-text digest (word count and SHA-256, computed incrementally with
bounded memory) and HTML character-reference decoding (WHATWG "character reference state", with the
attribute-value rule for legacy references without a semicolon; the spec's tables).
"""

from __future__ import annotations

import hashlib
import re
from html.entities import html5

# The HTML spec's named character references (https://html.spec.whatwg.org/entities.json): the
# standard library's copy, the table html5lib ships too (tests/parse/test_text.py compares them);
# importing html5lib for it cost every audit's start-up html5lib's parser modules.
_ENTITIES: dict[str, str] = html5
# HTML spec "numeric character reference end state": U+0000 becomes U+FFFD, and 0x80-0x9F are
# read as windows-1252 where it defines a character (the others stay themselves). U+000D is
# listed because html5lib's table (the reference parser's) lists it; it maps to itself.
_REPLACEMENTS: dict[int, str] = {
    0x00: "\ufffd",
    0x0D: "\r",
    **{code: chr(code) for code in (0x81, 0x8D, 0x8F, 0x90, 0x9D)},
    **{
        code: bytes([code]).decode("windows-1252")
        for code in range(0x80, 0xA0)
        if code not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)
    },
}

_LONGEST_ENTITY = max(map(len, _ENTITIES))
_CHARREF = re.compile(r"&(?:#([0-9]+);?|#[xX]([0-9a-fA-F]+);?|([A-Za-z][A-Za-z0-9]*;?))")
# A reference cut by a chunk boundary: the tail that must wait for more input.
PARTIAL_CHARREF = re.compile(rf"&[#A-Za-z0-9]{{0,{_LONGEST_ENTITY + 1}}}\Z")


def collapse(text: str) -> str:
    """Whitespace-collapse and trim, as the facts define it (Python `str.split()` whitespace)."""
    return " ".join(text.split())


def cut(text: str, cap: int) -> str:
    """Collapse then cut to `cap` characters (without a space left dangling at the cut)."""
    return collapse(text)[:cap].rstrip(" ")


def _numeric(digits: str, radix: int) -> str:
    digits = digits.lstrip("0") or "0"
    if len(digits) > 8:  # beyond U+10FFFF in any radix; also keeps int() cheap
        return "\ufffd"
    code = int(digits, radix)
    if code in _REPLACEMENTS:
        return _REPLACEMENTS[code]
    if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
        return "\ufffd"
    return chr(code)


def _named(name: str, following: str, in_attribute: bool) -> str:
    """Longest entity prefix of `name`; unmatched or (in attributes) ambiguous stays literal."""
    if name in _ENTITIES:
        if name[-1] == ";" or not in_attribute or following != "=":
            return _ENTITIES[name]
        return "&" + name
    for end in range(min(len(name), _LONGEST_ENTITY) - 1, 1, -1):
        prefix = name[:end]
        if prefix in _ENTITIES:
            # The legacy (semicolon-less) match is followed by an alphanumeric character here.
            return "&" + name if in_attribute else _ENTITIES[prefix] + name[end:]
    return "&" + name


_TEXT_CACHE: dict[str, str] = {}  # reference -> replacement; pages repeat a few (&nbsp; &amp;)


def _replace_text(m: re.Match[str]) -> str:
    ref = m.group()
    cached = _TEXT_CACHE.get(ref)
    if cached is None:
        cached = _replace_text_uncached(m)
        if len(_TEXT_CACHE) < 4096:  # bounded: hostile pages can invent endless references
            _TEXT_CACHE[ref] = cached
    return cached


def _replace_text_uncached(m: re.Match[str]) -> str:
    if m.group(1) is not None:
        return _numeric(m.group(1), 10)
    if m.group(2) is not None:
        return _numeric(m.group(2), 16)
    return _named(m.group(3), "", False)


def _replace_attr(m: re.Match[str]) -> str:
    name = m.group(3)
    if name is None:
        return _replace_text_uncached(m)
    end = m.end()
    return _named(name, m.string[end : end + 1], True)


def decode_text(text: str) -> str:
    """Decode character references in character data (text, RCDATA)."""
    return _CHARREF.sub(_replace_text, text) if "&" in text else text


def decode_attr(value: str) -> str:
    """Decode character references in an attribute value."""
    return _CHARREF.sub(_replace_attr, value) if "&" in value else value


class TextDigest:
    """Word count and SHA-256 of the collapsed concatenation of text pieces, fed incrementally.

    Pieces are concatenated without separators, so a word may continue across pieces; the digest
    keeps only the last unfinished word between feeds.
    """

    __slots__ = ("_hash", "_words", "_tail", "_started")

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self._words = 0
        self._tail = ""  # text after the last whitespace seen, possibly a word still growing
        self._started = False  # whether any word has been hashed yet

    def feed(self, text: str) -> None:
        text = self._tail + text
        words = text.split()
        if not words:
            self._tail = ""
            return
        if not text[-1].isspace():
            self._tail = words.pop()
        else:
            self._tail = ""
        self._emit(words)

    def _emit(self, words: list[str]) -> None:
        if not words:
            return
        joined = " ".join(words)
        self._hash.update(((" " if self._started else "") + joined).encode("utf-8"))
        self._started = True
        self._words += len(words)

    def result(self) -> tuple[int, str | None]:
        """(word count, hex SHA-256 of the collapsed text or None when there is no text)."""
        self._emit(self._tail.split())
        self._tail = ""
        return self._words, self._hash.hexdigest() if self._started else None
