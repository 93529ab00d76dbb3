"""JavaScript string semantics the original's thresholds were measured with.

Thresholds such as "title > 60 characters" were defined on JavaScript strings: `.trim()` and
`.length` (UTF-16 code units). Python's `str.strip()` and `len()` differ on a few characters
(U+FEFF, U+001C-U+001F; astral characters count 2 in JS), so rules measure through these helpers
(`common.js_string`, re-exported here).

URLs are normalised by `urls.normalise` only: page URLs and the canonicals compared with them must
be spelled by one function.
"""

from __future__ import annotations

from common.js_string import js_length, js_trim

__all__ = ["is_absolute_url", "js_length", "js_trim"]


def is_absolute_url(raw: str) -> bool:
    """True when `raw` names its scheme (RFC 3986 absolute-URI); "//host/x" is relative."""
    scheme, sep, _ = js_trim(raw).partition(":")
    return bool(sep) and scheme[:1].isalpha() and all(c.isalnum() or c in "+-." for c in scheme)
