"""URL normalisation, the same-site rule and origins: every URL the crawl meets passes through here.

Theory of operation
-------------------
`normalise_url` turns an href (as found in a page, a redirect's Location or a sitemap) into the one
spelling the frontier stores and dedupes on, or None when the URL cannot or must not be fetched.

1. Clean like a browser (WHATWG URL "basic URL parser"): strip leading/trailing C0 controls and
   spaces, remove tabs and newlines anywhere, read `\\` as `/` before the query (http(s) only).
   Any other control character left makes the URL malformed.
2. Split with the RFC 3986 Appendix B grammar, which keeps "empty" apart from "absent" (urllib
   does not: `urljoin(base, "?")` keeps the base's query, RFC 3986 §5.4 says it empties it), and
   resolve against the base with RFC 3986 §5.2.2 (non-strict: `http:foo` is relative, as browsers
   read it).
3. http(s) only; lowercase scheme and host; IDNA host labels to punycode; numeric hosts to dotted
   IPv4 (WHATWG "ends in a number", parsed by `crawl.ssrf.parse_ip`); IPv6 compressed; default
   ports removed; bad ports, empty labels, spaces or `%` in hosts → None.
4. RFC 3986 §6.2.2: percent-encodings of unreserved characters decoded, all other hex uppercased;
   characters a browser would percent-encode (WHATWG path and query percent-encode sets, and all
   non-ASCII as UTF-8) encoded; dot segments removed (§5.2.4); empty path → "/".
5. The fragment is dropped (never sent to servers). An empty query (`/a?`) is dropped too, as
   Scrapy's `canonicalize_url` does; RFC 3986 §6.2.3 calls that scheme-specific, and no server
   we know of distinguishes the two.

Decisions
---------
* Trailing slashes are kept exactly as written, never added or stripped: `/docs` and `/docs/` are
  different resources, and stripping them made the original crawler re-queue WordPress's
  `/x` → `/x/` redirect forever (original system §9, PR #61, "508 Loop Detected").
* Query parameter order is kept. The original sorted parameters (original system §4.7), as
  Scrapy's `canonicalize_url` does by default, so `?a=1&b=2` and `?b=2&a=1` were one URL. We keep
  the site's order because (a) the fetched and reported URL is then the one the page links to, so
  a "broken link" report names a URL the user can find in their HTML; (b) search engines treat
  reordered parameters as distinct URLs, and an SEO audit should surface such duplicates (via
  canonical and duplicate-content checks) rather than hide them; (c) sorting merges URLs whose
  applications read parameters positionally. The cost is a few extra fetches on sites that link
  one page with several parameter orders.
* Hosts use Python's IDNA 2003 codec (the stdlib has no UTS #46): it maps `ß` to `ss` where
  browsers keep it (`xn--strae-oqa`). Such hosts are rare and still resolve to a fetchable name.
* Userinfo (`user:pass@`) is kept, since it is part of what the server receives.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from functools import lru_cache

from crawl.ssrf import parse_ip

__all__ = [
    "DEFAULT_PORTS",
    "UrlParts",
    "normalise_percent_encoding",
    "normalise_request_target",
    "normalise_url",
    "origin_of",
    "path_and_query",
    "same_site",
    "same_site_parts",
    "split_url",
]

DEFAULT_PORTS = {"http": 80, "https": 443}

# RFC 3986 Appendix B, with the scheme restricted to RFC 3986 §3.1 characters so that
# "a b:c" is a relative path (as browsers read it), not a URL of scheme "a b".
_URI = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*):)?(?://(?P<authority>[^/?#]*))?"
    r"(?P<path>[^?#]*)(?:\?(?P<query>[^#]*))?(?:#(?P<fragment>.*))?",
    re.DOTALL,
)
_C0_OR_SPACE = "".join(map(chr, range(0x21)))
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_PERCENT = re.compile(r"%([0-9A-Fa-f]{2})?")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# WHATWG URL §1.3 percent-encode sets, minus C0 controls (rejected earlier) and "#"/"?" (which
# cannot occur inside the component they would end). Everything else ASCII stays literal.
_PATH_ENCODE = frozenset(' "<>`{}\x7f')
_QUERY_ENCODE = frozenset(" \"<>'\x7f")
_USERINFO_ENCODE = _PATH_ENCODE | {"@"}
_HOST_CHARS = re.compile(r"[a-z0-9_\-]{1,63}")
_MAX_HOST_LENGTH = 253  # RFC 1035 §2.3.4, without the optional trailing dot


@dataclass(frozen=True, slots=True)
class UrlParts:
    """A split http(s) URL after normalisation; `port` is None when it is the scheme's default."""

    scheme: str
    userinfo: str | None
    host: str
    port: int | None
    path: str
    query: str | None

    @property
    def effective_port(self) -> int:
        return self.port if self.port is not None else DEFAULT_PORTS[self.scheme]

    @property
    def origin(self) -> str:
        port = "" if self.port is None else f":{self.port}"
        return f"{self.scheme}://{self.host}{port}"

    @property
    def request_target(self) -> str:
        return self.path + ("?" + self.query if self.query else "")

    def unsplit(self) -> str:
        userinfo = "" if self.userinfo is None else self.userinfo + "@"
        port = "" if self.port is None else f":{self.port}"
        return f"{self.scheme}://{userinfo}{self.host}{port}{self.request_target}"


@dataclass(frozen=True, slots=True)
class _Reference:
    """An RFC 3986 URI reference; None means the component is absent, "" that it is empty."""

    scheme: str | None
    authority: str | None
    path: str
    query: str | None


def normalise_url(href: str, base: str | None = None) -> str | None:
    """The canonical spelling of `href` resolved against `base`, or None if not a fetchable
    http(s) URL. Never raises."""
    parts = split_url(href, base)
    return None if parts is None else parts.unsplit()


@lru_cache(maxsize=8192)
def split_url(href: str, base: str | None = None) -> UrlParts | None:
    """Like `normalise_url`, but returns the normalised components.

    Cached: a crawl asks about the same page and link URLs many times (resolving, scoping,
    counting internal links), and the result is an immutable value of its arguments.
    """
    reference = _parse_reference(href)
    if reference is None:
        return None
    base_reference = None if base is None else _parse_reference(base)
    if (
        base_reference is not None
        and base_reference.scheme is not None
        and reference.scheme in (None, base_reference.scheme)
    ):
        reference = _resolve(reference, base_reference)
    return _normalise_parts(reference)


def same_site(a: str, b: str) -> bool:
    """The original's same-origin rule (original system §4.7, `url-utils.ts`): see
    `same_site_parts`. False when either is not an http(s) URL."""
    first, second = split_url(a), split_url(b)
    return first is not None and second is not None and same_site_parts(first, second)


def same_site_parts(first: UrlParts, second: UrlParts) -> bool:
    """Hosts must be equal or differ only by a leading `www.`. With equal schemes the effective
    ports must be equal; across http and https both ports must be their scheme's default, so an
    http:80 link on an https:443 site (or the reverse) stays on the site: it is the site's own
    page, usually one redirect away from the other scheme."""
    if _site_host(first.host) != _site_host(second.host):
        return False
    if first.scheme == second.scheme:
        return first.effective_port == second.effective_port
    return first.port is None and second.port is None


def origin_of(url: str) -> str | None:
    """scheme://host[:port] of an http(s) URL (default port omitted), or None."""
    parts = split_url(url)
    return None if parts is None else parts.origin


def path_and_query(url: str) -> str | None:
    """The request target (`/path?query`) of an http(s) URL, or None."""
    parts = split_url(url)
    return None if parts is None else parts.request_target


def normalise_request_target(target: str) -> str:
    """Percent-encoding normalisation of a `/path?query` string (or a robots.txt pattern) with the
    same rules `normalise_url` applies to each component, so the two compare equal."""
    path, mark, query = target.partition("?")
    query = normalise_percent_encoding(query, _QUERY_ENCODE)
    return normalise_percent_encoding(path) + mark + query


def normalise_percent_encoding(text: str, encode: frozenset[str] = _PATH_ENCODE) -> str:
    """RFC 3986 §6.2.2.1–2: decode %XX of unreserved characters, uppercase other %XX, and
    percent-encode non-ASCII characters (as UTF-8) and the ASCII characters in `encode`.

    A `%` not followed by two hex digits becomes `%25`: lenient servers read a stray `%` literally,
    which `%25` also means, and leaving it bare would let `%%41` turn into `%A` + ... on a second
    pass (the normalisation must be idempotent).
    """
    fixed = _PERCENT.sub(_fix_percent, text)
    if fixed.isascii() and encode.isdisjoint(fixed):
        return fixed
    return "".join(_encode_char(ch, encode) for ch in fixed)


def _fix_percent(match: re.Match[str]) -> str:
    hex_digits = match.group(1)
    if hex_digits is None:
        return "%25"
    char = chr(int(hex_digits, 16))
    return char if char in _UNRESERVED else "%" + hex_digits.upper()


def _encode_char(char: str, encode: frozenset[str]) -> str:
    if char.isascii() and char not in encode:
        return char
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))


def _site_host(host: str) -> str:
    host = host.rstrip(".")
    return host.removeprefix("www.")


def _parse_reference(text: str) -> _Reference | None:
    cleaned = _clean(text)
    if cleaned is None:
        return None
    reference = _match_reference(cleaned)
    if reference.scheme in (None, *DEFAULT_PORTS) and "\\" in cleaned:
        # WHATWG URL: in http(s) URLs a backslash before the query or fragment is a slash.
        end = len(cleaned.split("?", 1)[0].split("#", 1)[0])
        reference = _match_reference(cleaned[:end].replace("\\", "/") + cleaned[end:])
    return reference


def _match_reference(text: str) -> _Reference:
    match = _URI.fullmatch(text)
    assert match is not None  # every part of the grammar is optional, so any text matches
    scheme = match["scheme"].lower() if match["scheme"] else None
    return _Reference(scheme, match["authority"], match["path"], match["query"])


def _clean(text: str) -> str | None:
    """WHATWG URL parsing's input cleanup; None when what is left holds a control character or
    cannot be encoded as UTF-8 (a lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    text = text.strip(_C0_OR_SPACE).replace("\t", "").replace("\n", "").replace("\r", "")
    return None if _CONTROL.search(text) else text


def _resolve(ref: _Reference, base: _Reference) -> _Reference:
    """RFC 3986 §5.2.2; the caller has applied the non-strict rule (a scheme equal to the base's
    is dropped)."""
    if ref.authority is not None:
        return _Reference(base.scheme, ref.authority, _remove_dot_segments(ref.path), ref.query)
    if ref.path == "":
        query = ref.query if ref.query is not None else base.query
        return _Reference(base.scheme, base.authority, base.path, query)
    if ref.path.startswith("/"):
        path = ref.path
    elif base.authority is not None and base.path == "":
        path = "/" + ref.path
    else:
        path = base.path[: base.path.rfind("/") + 1] + ref.path
    return _Reference(base.scheme, base.authority, _remove_dot_segments(path), ref.query)


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4, written over segments rather than the RFC's string buffer."""
    output: list[str] = []
    segments = path.split("/")
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == ".":
            if last:
                output.append("")
        elif segment == "..":
            if len(output) > 1 or (output and output[0] != ""):
                output.pop()
            if last:
                output.append("")
        else:
            output.append(segment)
    result = "/".join(output)
    if path.startswith("/") and not result.startswith("/"):
        result = "/" + result
    return result


def _normalise_parts(ref: _Reference) -> UrlParts | None:
    if ref.scheme not in DEFAULT_PORTS or ref.authority is None:
        return None
    userinfo, at, hostport = ref.authority.rpartition("@")
    host_and_port = _split_host_port(hostport)
    if host_and_port is None:
        return None
    host, port = host_and_port
    # The authority grammar leaves the path empty or starting with "/".
    path = _remove_dot_segments(normalise_percent_encoding(ref.path)) or "/"
    query = None if ref.query is None else normalise_percent_encoding(ref.query, _QUERY_ENCODE)
    return UrlParts(
        scheme=ref.scheme,
        userinfo=normalise_percent_encoding(userinfo, _USERINFO_ENCODE) if at else None,
        host=host,
        port=None if port == DEFAULT_PORTS[ref.scheme] else port,
        path=path,
        query=query,
    )


def _split_host_port(hostport: str) -> tuple[str, int | None] | None:
    if hostport.startswith("["):
        host_text, bracket, port_text = hostport[1:].partition("]")
        if not bracket or (port_text and not port_text.startswith(":")):
            return None
        host = _ipv6_host(host_text)
        port_text = port_text[1:]
    else:
        host_text, _, port_text = hostport.partition(":")
        host = _domain_or_ipv4_host(host_text)
    if host is None:
        return None
    if port_text == "":  # no port, or `http://a:/`, which browsers read as the default port
        return host, None
    if not (port_text.isascii() and port_text.isdigit()) or int(port_text) > 65535:
        return None
    return host, int(port_text)


def _ipv6_host(text: str) -> str | None:
    if "%" in text:  # a zone id names a local interface: never a site's host
        return None
    try:
        return f"[{ipaddress.IPv6Address(text).compressed}]"
    except ValueError:
        return None


def _domain_or_ipv4_host(text: str) -> str | None:
    if not text or "%" in text:
        return None
    try:
        host = text.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None
    labels = host.removesuffix(".").split(".")
    if _ends_in_number(labels[-1]):
        address = parse_ip(host)
        return None if address is None else str(address)
    if len(host.removesuffix(".")) > _MAX_HOST_LENGTH:
        return None
    if not all(_HOST_CHARS.fullmatch(label) for label in labels):
        return None
    return host


def _ends_in_number(label: str) -> bool:
    """WHATWG URL "ends in a number checker": such hosts are IPv4 addresses or invalid."""
    if label.isascii() and label.isdigit():
        return True
    return label[:2] in ("0x", "0X") and all(c in "0123456789abcdefABCDEF" for c in label[2:])
