"""Percent-encoding: the URL Standard's encode sets, and the crawler's RFC 3986 normalisation.

The sets are those of the URL Standard snapshot our WPT vectors were taken with (see
tests/data/wpt/README.md): the path set does not hold `^`, so `/a^b` stays as written. Every
code point above U+007E is in every set and is encoded as UTF-8.
"""

from __future__ import annotations

import re

__all__ = [
    "FRAGMENT_SET",
    "PATH_SET",
    "QUERY_SET",
    "SPECIAL_QUERY_SET",
    "USERINFO_SET",
    "normalise_percent_encoding",
    "percent_encode",
]

_C0_CONTROL_SET = frozenset(map(chr, range(0x20))) | {"\x7f"}
FRAGMENT_SET = _C0_CONTROL_SET | frozenset(' "<>`')
QUERY_SET = _C0_CONTROL_SET | frozenset(' "#<>')
SPECIAL_QUERY_SET = QUERY_SET | {"'"}
PATH_SET = QUERY_SET | frozenset("?`{}")
USERINFO_SET = PATH_SET | frozenset("/:;=@[\\]^|")

_PERCENT = re.compile(r"%([0-9A-Fa-f]{2})?")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_HEX_DIGITS = frozenset("0123456789ABCDEFabcdef")


def percent_encode(text: str, encode_set: frozenset[str]) -> str:
    """URL Standard "UTF-8 percent-encode" of each code point of `text` in `encode_set` or above
    U+007E; a `%` is left as it is, as the parser leaves it."""
    if text.isascii() and encode_set.isdisjoint(text):
        return text  # the common case: nothing to do, and no per-character loop
    return "".join(_encode_char(char, encode_set) for char in text)


def _encode_char(char: str, encode_set: frozenset[str]) -> str:
    if char.isascii() and char not in encode_set:
        return char
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8"))


def normalise_percent_encoding(text: str, encode_set: frozenset[str] = PATH_SET) -> str:
    """RFC 3986 §6.2.2 on top of `percent_encode`: the hex digits of a valid `%XX` uppercased
    (§6.2.2.1), a `%XX` of an unreserved character decoded (§6.2.2.2), and what a browser
    percent-encodes encoded (the code points in `encode_set` and all non-ASCII, as UTF-8).

    Nothing else changes: each form names the same resource as the text, so the request a server
    receives is the one the page asked for. A `%` not followed by two hex digits is kept as written,
    as browsers send it (URL Standard, "percent-encoded bytes": the parser leaves it alone); writing
    it `%25` would request a different resource. An unreserved hex digit is not decoded right
    after such a stray `%` (or a stray `%` and one hex digit): `%%41B` decoded would read `%AB`,
    one byte where the page sent three, so `%41` stays. That also keeps the normalisation
    idempotent.
    """
    if "%" in text:
        text = _PERCENT.sub(_normalise_escape, text)
    return percent_encode(text, encode_set)


def _normalise_escape(match: re.Match[str]) -> str:
    hex_digits = match.group(1)
    if hex_digits is None:
        return "%"  # a stray "%": kept
    char = chr(int(hex_digits, 16))
    if char in _UNRESERVED and not (char in _HEX_DIGITS and _after_stray_percent(match)):
        return char
    return "%" + hex_digits.upper()


def _after_stray_percent(match: re.Match[str]) -> bool:
    """Whether the escape follows `%` or `%h` in the text: a `%` there is stray (two hex digits
    do not follow it), and a decoded hex digit would complete it into a new escape."""
    before = match.string[max(0, match.start() - 2) : match.start()]
    return before[-1:] == "%" or (before[:1] == "%" and before[1:] in _HEX_DIGITS)
