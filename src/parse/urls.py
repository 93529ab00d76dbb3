"""URL resolution for extracted attributes: against the document base URL, fragment dropped.

Mirrors the WHATWG URL parser where it matters for links: leading/trailing C0 controls and spaces
are stripped and tabs/newlines removed before resolving (browsers do this), and a value that
cannot be parsed resolves to None rather than raising.
"""

from __future__ import annotations

import re
from urllib.parse import urldefrag, urljoin, urlsplit

_STRIP = "".join(map(chr, range(0x21)))
_TAB_NEWLINE = str.maketrans("", "", "\t\n\r")
# URLs that urljoin would return unchanged (absolute http(s)) or as origin + path (rooted): no
# dot segments, parameters, backslashes or spaces in the path, no empty query.
_SEGMENTS = r"(?:/(?!\.\.?(?:[/?]|\Z))[^/?#;\\\s]*)*"
_QUERY = r"(?:\?[^#]+)?"  # urljoin keeps a non-empty query as it is
_PLAIN_ROOTED = re.compile(r"(?=/)(?!//)" + _SEGMENTS + _QUERY + r"\Z")
_ORIGIN = re.compile(r"https?://[^/?#;\\\s@]+(?=/|\Z)")
_PLAIN_ABSOLUTE = re.compile(r"https?://[^/?#;\\\s]+" + _SEGMENTS + _QUERY + r"\Z")


def clean(raw: str) -> str:
    """The URL string as a browser's URL parser sees it."""
    raw = raw.strip(_STRIP)
    if "\t" in raw or "\n" in raw or "\r" in raw:
        raw = raw.translate(_TAB_NEWLINE)
    return raw


def resolve(raw: str, base: str) -> str | None:
    """Resolve `raw` against `base`, dropping any fragment; None if it is not a valid URL."""
    url = clean(raw)
    if url.startswith("//") and _PLAIN_ABSOLUTE.match("http:" + url):
        origin = _ORIGIN.match(base)
        if origin is not None:
            return origin.group().partition(":")[0] + ":" + url
    elif _PLAIN_ABSOLUTE.match(url):
        return url  # what urljoin returns for these, without its cost (most links on a page)
    elif _PLAIN_ROOTED.match(url):
        origin = _ORIGIN.match(base)
        if origin is not None:
            return origin.group() + url  # likewise for a plain path from the site root
    try:
        return urldefrag(urljoin(base, url)).url
    except ValueError:
        return None


def document_base(page_url: str, base_href: str | None) -> str:
    """The document base URL: `<base href>` resolved against the page, if usable (HTML spec)."""
    if base_href is None:
        return page_url
    url = resolve(base_href, page_url)
    if url is None or urlsplit(url).scheme in ("data", "javascript"):
        return page_url
    return url


def is_http(url: str | None) -> bool:
    """Whether the resolved URL is fetched over plain http:."""
    return url is not None and url[:5].lower() == "http:"
