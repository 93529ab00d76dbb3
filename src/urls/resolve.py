"""Resolving a page's URL-valued attributes (href, src, action, ...) as a browser does.

Every link of every page passes through `resolve`, so the two shapes most links take are answered
by a regular expression instead of the full parser: a plain absolute http(s) URL, and a plain path
from the site root (or a scheme-relative one). "Plain" is defined so that the parser provably
returns the text unchanged (up to the fragment, and "/" for an empty path): a lowercase ASCII
domain whose last label starts with a letter (so not IPv4, nothing to map) without `xn--`, an
optional non-default port, path segments that are not dot segments and hold nothing the path
percent-encode set holds (nor `\\`), a query free of the special-query set. A property test checks
the fast paths against `parse_url` on generated URLs.
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

__all__ = ["clean", "document_base", "fast_resolve", "is_http", "resolve"]

_HOST = r"(?:[a-z0-9_\-]+\.)*[a-z][a-z0-9_\-]*\.?"
_PORT = r"(?::(?P<port>[1-9][0-9]{0,3}))?"
_SEGMENT = r"/(?!(?:\.|%2[eE]){1,2}(?:[/?#]|\Z))[^\x00-\x20\"#<>?`{}\x7f-\U0010ffff/\\]*"
_TAIL = rf"(?P<path>(?:{_SEGMENT})*)(?P<query>\?[^\x00-\x20\"#<>'\x7f-\U0010ffff]*)?(?:#.*)?\Z"
_PLAIN_ABSOLUTE = re.compile(rf"(?P<origin>https?://(?P<host>{_HOST}){_PORT}){_TAIL}", re.DOTALL)
_PLAIN_ROOTED = re.compile(rf"(?=/[^/\\]|/\Z){_TAIL}", re.DOTALL)
# A path-relative reference ("sql-select.html", "api/x.html?q"): a first segment that is no dot
# segment and holds no ":" (so it cannot be read as a scheme), then the plain tail. Against an
# http(s) base it is the base's directory plus the text (URL standard, "path state": the base's
# last segment is shortened away, nothing else of the base is kept).
_PLAIN_RELATIVE = re.compile(
    rf"(?!(?:\.|%2[eE]){{1,2}}(?:[/?#]|\Z))(?P<first>[^\x00-\x20\"#<>?`{{}}\x7f-\U0010ffff/\\:]+){_TAIL}",
    re.DOTALL,
)
_OPAQUE_SCHEMES = ("data", "javascript")


def resolve(raw: str, base: str) -> str | None:
    """`raw` resolved against `base` without its fragment, as a browser resolves it; None if it is
    not a valid URL. Schemes the parser does not model come back as written, less the fragment."""
    text = clean(raw)
    fast = fast_resolve(text, base)
    return fast if fast is not None else _resolve_fully(text, base)


def fast_resolve(text: str, base: str) -> str | None:
    """The fast paths' answer for a cleaned `text`, or None when they do not apply."""
    if text.startswith("/"):
        if text.startswith("//"):
            prefix = _scheme_of(base)
            return None if prefix is None else _plain_absolute(prefix + text)
        prefix = _origin_of(base)
        match = None if prefix is None else _PLAIN_ROOTED.match(text)
        return None if match is None else f"{prefix}{match['path']}{match['query'] or ''}"
    absolute = _plain_absolute(text)
    return absolute if absolute is not None else _plain_relative(text, base)


def _plain_relative(text: str, base: str) -> str | None:
    match = _PLAIN_RELATIVE.match(text)
    if match is None:
        return None
    directory = _directory_of(base)
    if directory is None:
        return None
    return f"{directory}{match['first']}{match['path']}{match['query'] or ''}"


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
        return parse_url(text, _parse_base(base)).without_fragment()
    except InvalidUrl:
        return None
    except UnsupportedScheme:
        # A mailto:, javascript:, data: ... link is reported as written; a relative one against
        # such a base cannot be resolved.
        return None if scheme_of(text) is None else text.partition("#")[0]


@lru_cache(maxsize=64)
def _parse_base(base: str) -> Url | None:
    """Cached: one page resolves all its links against the same base."""
    try:
        return parse_url(base)
    except (InvalidUrl, UnsupportedScheme):
        return None


@lru_cache(maxsize=64)
def _origin_of(base: str) -> str | None:
    """scheme://userinfo@host:port of an http(s) base: what a rooted path is appended to."""
    url = _parse_base(base)
    if url is None or url.scheme not in ("http", "https"):
        return None
    return url.authority_prefix()


@lru_cache(maxsize=64)
def _directory_of(base: str) -> str | None:
    """An http(s) base up to the last "/" of its path: what a path-relative reference extends."""
    url = _parse_base(base)
    if url is None or url.scheme not in ("http", "https"):
        return None
    return url.authority_prefix() + url.path[: url.path.rfind("/") + 1]


def _scheme_of(base: str) -> str | None:
    url = _parse_base(base)
    return None if url is None or url.scheme not in ("http", "https") else url.scheme + ":"


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
