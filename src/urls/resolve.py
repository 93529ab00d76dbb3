"""Resolving a page's URL-valued attributes (href, src, action, ...) as a browser does.

Every link of every page passes through `resolve`, so the two shapes most links take are answered
by a regular expression instead of the full parser: a plain absolute http(s) URL, and a plain path
from the site root (or a scheme-relative one). "Plain" is defined so that the parser provably
returns the text unchanged (up to the fragment, and "/" for an empty path): a lowercase ASCII
domain whose last label starts with a letter (so not IPv4, nothing to map) without `xn--`, an
optional non-default port, path segments that are not dot segments and hold nothing the path
percent-encode set holds (nor `\\`), a query free of the special-query set. A property test checks
the fast paths against `parse_url` on generated URLs.

A page resolves all its links against one base, so what the fast paths need of the base (its
scheme, its origin, its directory) is worked out once, in a `BaseUrl`; `resolve(raw, base)`
keeps the last few in a cache, and a caller that holds its base (parse.url_refs) asks its
`BaseUrl` directly. The fast paths' answers are remembered per (base directory, reference), a
bounded memo the pages of one directory share.
"""

from __future__ import annotations

import re
from functools import lru_cache

from urls.parser import (
    DEFAULT_PORTS,
    InvalidUrl,
    UnsupportedScheme,
    Url,
    clean,
    parse_url,
    scheme_of,
)

__all__ = [
    "RESOLVED_CACHED",
    "RESOLVED_RAW_MAX",
    "BaseUrl",
    "base_url",
    "clean",
    "document_base",
    "fast_resolve",
    "is_http",
    "parse_base",
    "resolve",
]

_HOST = r"(?:[a-z0-9_\-]+\.)*[a-z][a-z0-9_\-]*\.?"
_PORT = r"(?::(?P<port>[1-9][0-9]{0,3}))?"
# Character classes as positive ASCII sets (a bitmap test per character in the regex engine,
# where a negated class reaching U+10FFFF is a slower range test): printable ASCII outside the
# path percent-encode set, "/" and "\\" (a path segment's text), and outside the special-query
# percent-encode set (a query's).
_SEGMENT_CHARS = r"[!$-.0-;=@-\[\]-_a-z|~]"
_QUERY_CHARS = r"[!$-&(-;=?-~]"
_SEGMENT = rf"/(?!(?:\.|%2[eE]){{1,2}}(?:[/?#]|\Z)){_SEGMENT_CHARS}*"
_TAIL = rf"(?P<path>(?:{_SEGMENT})*)(?P<query>\?{_QUERY_CHARS}*)?(?:#.*)?\Z"
_PLAIN_ABSOLUTE = re.compile(rf"(?P<origin>https?://(?P<host>{_HOST}){_PORT}){_TAIL}", re.DOTALL)
_PLAIN_ROOTED = re.compile(rf"(?=/[^/\\]|/\Z){_TAIL}", re.DOTALL)
# A path-relative reference ("sql-select.html", "api/x.html?q"): a first segment that is no dot
# segment and holds no ":" (so it cannot be read as a scheme), then the plain tail. Against an
# http(s) base it is the base's directory plus the text (URL standard, "path state": the base's
# last segment is shortened away, nothing else of the base is kept).
_PLAIN_RELATIVE = re.compile(
    rf"(?!(?:\.|%2[eE]){{1,2}}(?:[/?#]|\Z))(?P<first>[!$-.0-9;=@-\[\]-_a-z|~]+){_TAIL}",
    re.DOTALL,
)
_OPAQUE_SCHEMES = ("data", "javascript")


class BaseUrl:
    """A base URL, read once, against which many references are resolved."""

    __slots__ = ("base", "_scheme", "_origin", "_directory")

    def __init__(self, base: str) -> None:
        self.base = base
        url = parse_base(base)
        # What a scheme-relative, rooted or path-relative reference is appended to, for an
        # http(s) base (the fast paths' only kind): "scheme:", "scheme://userinfo@host:port" and
        # that plus the path up to its last "/".
        self._scheme = self._origin = self._directory = None
        if url is not None and url.scheme in ("http", "https"):
            self._scheme = url.scheme + ":"
            self._origin = url.authority_prefix()
            self._directory = self._origin + url.path[: url.path.rfind("/") + 1]

    def resolve(self, raw: str) -> str | None:
        """`raw` resolved against this base; see `resolve`."""
        if len(raw) <= RESOLVED_RAW_MAX:
            fast = _fast_resolved(self._scheme, self._origin, self._directory, raw)
        else:
            fast = self.fast_resolve(clean(raw))
        return fast if fast is not None else _resolve_fully(clean(raw), self.base)

    def fast_resolve(self, text: str) -> str | None:
        """The fast paths' answer for a cleaned `text`, or None when they do not apply."""
        return _fast_paths(self._scheme, self._origin, self._directory, text)


# Distinct (base directory, raw reference) pairs whose fast-path answer is remembered across
# pages: a site's pages in one directory share their navigation's references, which each page
# resolved again (parse.url_refs remembers them for one page only; issue 29). What the fast paths
# answer depends on the base's scheme, origin and directory alone, which key the memo with the
# reference as written. Only references of at most RESOLVED_RAW_MAX characters are remembered (a
# `data:` URL may be megabytes), so a full memo holds at most about 3 MB, under 1 MB for links of
# a usual length.
RESOLVED_CACHED = 4096
RESOLVED_RAW_MAX = 256


@lru_cache(maxsize=RESOLVED_CACHED)
def _fast_resolved(
    scheme: str | None, origin: str | None, directory: str | None, raw: str
) -> str | None:
    return _fast_paths(scheme, origin, directory, clean(raw))


def _fast_paths(
    scheme: str | None, origin: str | None, directory: str | None, text: str
) -> str | None:
    """What the fast paths answer for a cleaned `text` against a base's "scheme:",
    "scheme://userinfo@host:port" and its directory (None for a base that is not http(s))."""
    if text[:1] == "/":
        if text[1:2] == "/":
            return None if scheme is None else _plain_absolute(scheme + text)
        if origin is None:
            return None
        match = _PLAIN_ROOTED.match(text)
        return None if match is None else f"{origin}{match['path']}{match['query'] or ''}"
    if text[:4] == "http":
        absolute = _plain_absolute(text)
        if absolute is not None:
            return absolute
    if directory is None:
        return None
    match = _PLAIN_RELATIVE.match(text)
    if match is None:
        return None
    return f"{directory}{match['first']}{match['path']}{match['query'] or ''}"


@lru_cache(maxsize=64)
def base_url(base: str) -> BaseUrl:
    """The `BaseUrl` of `base`, cached: one page resolves all its links against one base."""
    return BaseUrl(base)


def resolve(raw: str, base: str) -> str | None:
    """`raw` resolved against `base` without its fragment, as a browser resolves it; None if it is
    not a valid URL. Schemes the parser does not model come back as written, less the fragment."""
    return base_url(base).resolve(raw)


def fast_resolve(text: str, base: str) -> str | None:
    """The fast paths' answer for a cleaned `text`, or None when they do not apply."""
    return base_url(base).fast_resolve(text)


def _plain_absolute(text: str) -> str | None:
    match = _PLAIN_ABSOLUTE.match(text)
    if match is None or "xn--" in match["host"]:
        return None
    port = match["port"]
    if port is not None and int(port) == DEFAULT_PORTS[text[: text.index(":")]]:
        return None
    return f"{match['origin']}{match['path'] or '/'}{match['query'] or ''}"


def _resolve_fully(text: str, base: str) -> str | None:
    try:
        return parse_url(text, parse_base(base)).without_fragment()
    except InvalidUrl:
        return None
    except UnsupportedScheme:
        # A mailto:, javascript:, data: ... link is reported as written; a relative one against
        # such a base cannot be resolved.
        return None if scheme_of(text) is None else text.partition("#")[0]


@lru_cache(maxsize=64)
def parse_base(base: str) -> Url | None:
    """Cached: one page resolves all its links against the same base."""
    try:
        return parse_url(base)
    except (InvalidUrl, UnsupportedScheme):
        return None


def document_base(page_url: str, base_href: str | None) -> str:
    """The document base URL: `<base href>` resolved against the page, if usable (HTML spec)."""
    if base_href is None:
        return page_url
    url = resolve(base_href, page_url)
    if url is None or scheme_of(url) in _OPAQUE_SCHEMES:
        return page_url
    return url


def is_http(url: str | None) -> bool:
    """Whether the resolved URL is fetched over plain http:."""
    return url is not None and url[:5].lower() == "http:"
