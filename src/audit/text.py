"""JavaScript string semantics the original's thresholds were measured with, and URL helpers.

Thresholds such as "title > 60 characters" were defined on JavaScript strings: `.trim()` and
`.length` (UTF-16 code units). Python's `str.strip()` and `len()` differ on a few characters
(U+FEFF, U+001C-U+001F; astral characters count 2 in JS), so rules measure through these helpers.

The URL helpers reproduce the original's `normalizeUrl` and same-origin test (original system §4.7)
for the canonical comparison and internal-link checks. They should become the crawl package's
normaliser once it exists: page URLs and canonicals must be normalised by one function.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit, urlunsplit

__all__ = ["is_absolute_url", "js_length", "js_trim", "normalize_url", "same_site"]

# ECMAScript WhiteSpace + LineTerminator: what String.prototype.trim() removes.
_JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_DEFAULT_PORTS = {"http": 80, "https": 443}


def js_trim(text: str) -> str:
    return text.strip(_JS_WHITESPACE)


def js_length(text: str) -> int:
    """`text.length` in JavaScript: UTF-16 code units."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def is_absolute_url(raw: str) -> bool:
    """True when `raw` names its scheme (RFC 3986 absolute-URI); "//host/x" is relative."""
    scheme, sep, _ = js_trim(raw).partition(":")
    return bool(sep) and scheme[:1].isalpha() and all(c.isalnum() or c in "+-." for c in scheme)


def _sorted_query(query: str) -> str:
    # URLSearchParams.sort(): stable by key, values of one key keep their order.
    if not query:
        return ""
    params = query.split("&")
    return "&".join(sorted(params, key=lambda p: p.partition("=")[0]))


def normalize_url(raw: str, base: str | None = None) -> str | None:
    """Resolve against `base`, keep http(s) only, drop the fragment, sort query parameters,
    lowercase the host, drop the default port, keep the trailing slash. None when unusable."""
    try:
        parts = urlsplit(urljoin(base, js_trim(raw)) if base else js_trim(raw))
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    if parts.username is not None or parts.password is not None:
        netloc = parts.netloc.rpartition("@")[0] + "@" + netloc
    return urlunsplit((scheme, netloc, parts.path or "/", _sorted_query(parts.query), ""))


def _site_host(host: str) -> str:
    return host.removeprefix("www.")


def _effective_port(scheme: str, port: int | None) -> int | None:
    return port if port is not None else _DEFAULT_PORTS.get(scheme)


def same_site(page_url: str, target_url: str) -> bool:
    """The original's same-origin test: hosts equal up to a leading "www."; the same scheme needs
    the same effective port; an http page may link to https on the default ports."""
    try:
        a, b = urlsplit(page_url), urlsplit(target_url)
        a_port, b_port = _effective_port(a.scheme, a.port), _effective_port(b.scheme, b.port)
    except ValueError:
        return False
    if not a.hostname or not b.hostname:
        return False
    if _site_host(a.hostname.lower()) != _site_host(b.hostname.lower()):
        return False
    if a.scheme == b.scheme:
        return a_port == b_port
    return (a.scheme, b.scheme, a_port, b_port) == ("http", "https", 80, 443)
