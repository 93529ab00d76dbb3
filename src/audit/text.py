"""JavaScript string semantics the original's thresholds were measured with.

Thresholds such as "title > 60 characters" were defined on JavaScript strings: `.trim()` and
`.length` (UTF-16 code units). Python's `str.strip()` and `len()` differ on a few characters
(U+FEFF, U+001C-U+001F; astral characters count 2 in JS), so rules measure through these helpers.

URLs are normalised by `urls.normalise` only: page URLs and the canonicals compared with them must
be spelled by one function.
"""

from __future__ import annotations

__all__ = ["is_absolute_url", "js_length", "js_trim"]

# ECMAScript WhiteSpace + LineTerminator: what String.prototype.trim() removes.
_JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    return text.strip(_JS_WHITESPACE)


def js_length(text: str) -> int:
    """`text.length` in JavaScript: UTF-16 code units."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def is_absolute_url(raw: str) -> bool:
    """True when `raw` names its scheme (RFC 3986 absolute-URI); "//host/x" is relative."""
    scheme, sep, _ = js_trim(raw).partition(":")
    return bool(sep) and scheme[:1].isalpha() and all(c.isalnum() or c in "+-." for c in scheme)
