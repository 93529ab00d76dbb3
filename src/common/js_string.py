"""JavaScript string semantics, for ports of JavaScript that must agree with it character for
character (ECMAScript §22.1.3.32 String.prototype.trim, §12.2 WhiteSpace, §12.3 LineTerminator).

Python's `str.strip()`, `str.split()` and `len()` differ on a few characters: U+FEFF is
whitespace in JavaScript and not in Python, U+001C-U+001F and U+0085 the other way round, and
astral characters count 2 in JavaScript's `.length`.
"""

from __future__ import annotations

import re

__all__ = ["JS_WHITESPACE", "js_length", "js_split_whitespace", "js_trim"]

# ECMAScript WhiteSpace + LineTerminator: what String.prototype.trim() removes and `\s` matches.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_JS_SPACE_RUN = re.compile(f"[{re.escape(JS_WHITESPACE)}]+")


def js_trim(text: str) -> str:
    return text.strip(JS_WHITESPACE)


def js_split_whitespace(text: str) -> list[str]:
    """`text.split(/\\s+/)`: an empty piece where `text` starts or ends with whitespace."""
    return _JS_SPACE_RUN.split(text)


def js_length(text: str) -> int:
    """`text.length` in JavaScript: UTF-16 code units."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2
