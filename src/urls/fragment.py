"""URL fragments and the compact keys that match them against a page's fragment targets.

A link `page#name` works when the target document has an element the HTML spec's "select the
indicated part" finds for `name`: an element whose id equals the fragment, or an `<a>` whose name
equals it (ids and names compare exactly, case-sensitively). The algorithm looks the fragment up
twice, first as the URL holds it (percent-encoded) and then percent-decoded and UTF-8 decoded
(without BOM, errors as U+FFFD); the empty fragment and, failing both lookups, any ASCII case
variant of `top` mean the top of the document, which always exists.

Pages keep their targets as compact keys (`fragment_key`: 53 bits of the SHA-256 of the UTF-8
text, a non-negative integer), and links keep the keys of both lookups (`fragment_keys`). 53 bits
is the most a JavaScript number holds exactly, and keys cross RPC and `json_each` as JSON numbers;
SQLite stores each in 8 bytes. A collision (2**-53 per pair) can only hide a broken fragment,
never report a working one.
"""

from __future__ import annotations

import hashlib
from urllib.parse import unquote_to_bytes

from urls.parser import clean
from urls.percent import FRAGMENT_SET, percent_encode

__all__ = ["FragmentKeys", "fragment_key", "fragment_keys", "fragment_of"]

_KEY_MASK = (1 << 53) - 1
type FragmentKeys = tuple[int, int]  # (as in the URL, percent-decoded)


def fragment_of(raw: str) -> str | None:
    """The fragment of the URL `raw` parses to (without `#`, percent-encoded as the URL parser
    encodes it), or None when it has none. The fragment does not depend on the base URL."""
    text = clean(raw)
    hash_mark = text.find("#")
    if hash_mark < 0:
        return None
    return percent_encode(text[hash_mark + 1 :], FRAGMENT_SET)


def fragment_key(text: str) -> int:
    """The key of an id, an `<a name>` or a fragment."""
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:7], "big") & _KEY_MASK


def fragment_keys(fragment: str) -> FragmentKeys | None:
    """The keys of both lookups of `fragment` (URL form), or None when it needs no target:
    empty, or `top` in any case (the top of the document, found or not)."""
    decoded = unquote_to_bytes(fragment).decode("utf-8", "replace")
    if not fragment or (decoded.isascii() and decoded.lower() == "top"):
        return None
    return fragment_key(fragment), fragment_key(decoded)
