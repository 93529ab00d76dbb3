"""Whether a page carries Microdata or RDFa that could make a schema.org item, decided from its
bytes as they stream in, so the crawl walks a page's element tree for that markup only when it
may find some (structured.page.check_page), and knows there was some where the tree was cut.

Theory of operation. The crawl hands `MarkupScan.feed` each chunk of the body it parses. The
chunk is lower-cased (bytes: ASCII only, which is all an attribute name is) and searched with
`bytes.find` for the few names below; each occurrence is then matched, at its place, against
what an attribute in a tag looks like (a whitespace, quote or slash before the name, then the
end of the name). Once one decides, the scan stops for the page. Reading bytes, not decoded
text, keeps the search in C at memory speed (a regular expression tried at every position, or
`str.lower` on non-ASCII text, costs several times more; bench/markup_scan_bench.py), and it
reads the whole fetched body, so markup past the parser's or the tree's caps is still known.
The names are ASCII, which every encoding a page is decoded with writes as itself except UTF-16
(`ascii_compatible`); for such a page the scan cannot tell and the caller walks the tree.

Which attributes decide (HTML §5.2 for Microdata; RDFa Lite 1.1 and RDFa Core 1.1 §7.5):
- `itemscope`, `itemprop`, `itemtype`, `typeof`, `vocab`, `resource`: any of them.
- `property`, `prefix` and RDFa 1.0's `xmlns:*` only when their value names schema
  (`schema:name`, `https://schema.org/`, `sdo: http://schema.org/`). Without a `vocab`, a
  `typeof` or a declaration of schema.org, a `property` can only state terms of other
  vocabularies about the document (the Open Graph `<meta property="og:title">` tags most pages
  carry), which is no item (structured.nodes `_is_rdfa_item`: an untyped node is an item only
  when it states a schema.org term). So a page of sharing tags is not walked for them.

Bytes are matched where they are, in tags or not: a false positive (`typeof=` in a script) costs
a walk that finds nothing, never a wrong result. An occurrence cut by a chunk's end is decided
with the next chunk: the scan keeps the chunk's last `_OVERLAP` bytes, or from an attribute
whose value has not ended yet, at most `MAX_PENDING` bytes; an attribute longer than that
decides (a value that long is not the sharing tags this filter is for). Each occurrence is
decided by the bytes around it alone, so any split of a body gives the same answer as the whole.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["MAX_PENDING", "MarkupScan", "ascii_compatible", "has_markup"]

# What a value-checked attribute (name, `=`, value) may span before it decides: a real
# `property` or `prefix` value is a few CURIEs; parse.extractor.MAX_PENDING bounds a cut tag alike.
MAX_PENDING: Final = 4096
# More than the longest match that needs no value: a delimiter, `itemscope`, the byte after.
_OVERLAP: Final = 16

# What `find` looks for: `item` covers itemscope, itemprop and itemtype.
_NAMES: Final = (b"item", b"typeof", b"vocab", b"resource", b"property", b"prefix", b"xmlns:")
_SPACE = rb"[\t\n\f\r ]"
# Matched at the byte before an occurrence (lower-cased text). Group 1: a name whose value decides.
_ATTRIBUTE: Final = re.compile(
    rb"[\t\n\f\r \"'/](?:(?:itemscope|itemprop|itemtype|typeof|vocab|resource)(?=[\t\n\f\r />=])"
    rb"|(property(?=[\t\n\f\r =])|prefix(?=[\t\n\f\r =])|xmlns:))"
)
# After a value-checked name: the rest of an `xmlns:` name, then `=` and the value.
_VALUE: Final = re.compile(
    rb"[^\t\n\f\r />=]*"
    + _SPACE
    + rb"*(=?)"
    + _SPACE
    + rb"*(?:\"([^\"]*)(\"?)|'([^']*)('?)|([^\t\n\f\r >]*))"
)
# WHATWG encodings that do not write ASCII as itself (parse.decoding's names).
_NOT_ASCII_COMPATIBLE: Final = frozenset({"utf-16le", "utf-16be"})


class MarkupScan:
    """Feed a body's bytes in chunks; `seen` says whether Microdata or RDFa was found.
    Never raises on any bytes."""

    def __init__(self) -> None:
        self.seen = False
        self._tail = b""  # lower-cased bytes kept from the last chunk

    def feed(self, chunk: bytes) -> None:
        if self.seen or not chunk:
            return
        text = self._tail + chunk.lower()
        keep = max(0, len(text) - _OVERLAP)
        for name in _NAMES:
            at = text.find(name, 1)
            while at >= 0:
                decided = _decided(text, at - 1)
                if decided:
                    self.seen, self._tail = True, b""
                    return
                if decided is None:
                    keep = min(keep, at - 1)
                at = text.find(name, at + 1)
        self._tail = text[keep:]


def has_markup(body: bytes) -> bool:
    """Whether a whole body has Microdata or RDFa (one chunk through `MarkupScan`)."""
    scan = MarkupScan()
    scan.feed(body)
    return scan.seen


def ascii_compatible(encoding: str) -> bool:
    """Whether a page decoded with `encoding` (a WHATWG name) writes attribute names as ASCII
    bytes, so that `MarkupScan` can read them."""
    return encoding not in _NOT_ASCII_COMPATIBLE


def _decided(text: bytes, start: int) -> bool | None:
    """Whether the occurrence whose delimiter is at `start` is markup: None while the bytes
    that decide may go on past the text's end."""
    match = _ATTRIBUTE.match(text, start)
    if match is None:
        return None if len(text) - start < _OVERLAP else False
    if match.lastindex is None:
        return True
    return _names_schema(text, start, match.end())


def _names_schema(text: bytes, start: int, name_end: int) -> bool | None:
    """Whether the value-checked attribute at `start` names schema: None while its value may go
    on past the text's end; True when it spans more than MAX_PENDING bytes."""
    window = text[start : start + MAX_PENDING + 1]
    value = _VALUE.match(window, name_end - start)
    assert value is not None  # every part of the pattern may be empty
    has_equals, quoted, quote_closed, single, single_closed, bare = value.groups()
    if quoted is not None:
        ended = bool(quote_closed)
    elif single is not None:
        ended = bool(single_closed)
    else:
        ended = value.end() < len(window)
    if not ended:
        return True if len(window) > MAX_PENDING else None
    if not has_equals:
        return False  # a name without a value: an empty attribute
    return b"schema" in (quoted or single or bare or b"")
