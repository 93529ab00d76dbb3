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
    """RFC 3986 §6.2.2.1–2 on top of `percent_encode`: decode %XX of unreserved characters,
    uppercase other %XX, and percent-encode what a browser would (the code points in
    `encode_set` and all non-ASCII, as UTF-8).

    A `%` not followed by two hex digits becomes `%25`: lenient servers read a stray `%` literally,
    which `%25` also means, and leaving it bare would let `%%41` turn into `%A` + ... on a second
    pass (the normalisation must be idempotent).
    """
    if "%" in text:
        text = _PERCENT.sub(_fix_percent, text)
    return percent_encode(text, encode_set)


def _fix_percent(match: re.Match[str]) -> str:
    hex_digits = match.group(1)
    if hex_digits is None:
        return "%25"
    char = chr(int(hex_digits, 16))
    return char if char in _UNRESERVED else "%" + hex_digits.upper()
