"""The WHATWG URL Standard's basic URL parser, for the special schemes a crawler fetches.

Theory of operation
-------------------
`parse_url(text, base)` returns what a browser's `new URL(text, base)` holds, as a frozen `Url`,
for http, https, ws, wss and ftp (the special schemes other than file, which all parse alike and
differ only in their default port). It raises `InvalidUrl` where the standard returns failure,
and `UnsupportedScheme` for a file: or non-special URL (mailto:, javascript:, data:, ...), which
a crawler never fetches; it never raises anything else.

The spec's state machine walks code points; here the same states are taken over substrings, since
for special schemes every state boundary is a fixed delimiter:

1. Input clean-up: strip leading/trailing C0 controls and spaces, remove tabs and newlines
   anywhere, replace lone surrogates with U+FFFD (what a JS string passed to `new URL` becomes).
2. Scheme: `[A-Za-z][A-Za-z0-9+.-]*:` or none ("scheme state" / "no scheme state").
3. Authority ("special authority ignore slashes state") when the scheme differs from the base's,
   or the rest begins with two slashes; `\\` counts as `/` throughout special URLs. It ends at the
   first `/`, `\\`, `?` or `#`; the last `@` ends the userinfo, the first `:` splits it.
4. Otherwise the rest is relative to the base ("relative state"): a leading slash replaces the
   base's path, an empty rest keeps the base's path and query, anything else replaces the base's
   last path segment.
5. Path segments ("path state"): `.`/`..` in any mix of `%2e` spellings are dot segments, every
   other segment is percent-encoded with the path set; then the query (special-query set) and
   fragment (fragment set).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from urls.host import InvalidHost, parse_host
from urls.percent import FRAGMENT_SET, PATH_SET, SPECIAL_QUERY_SET, USERINFO_SET, percent_encode

__all__ = [
    "DEFAULT_PORTS",
    "InvalidUrl",
    "UnsupportedScheme",
    "Url",
    "clean",
    "parse_url",
    "scheme_of",
]

# The special schemes but file: (URL Standard §4.1), with their default ports.
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}

_C0_OR_SPACE = "".join(map(chr, range(0x21)))
_TAB_NEWLINE = str.maketrans("", "", "\t\n\r")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+\-.]*):")
_AUTHORITY_END = re.compile(r"[/\\?#]")
_SEGMENT_SPLIT = re.compile(r"[/\\]")
_SINGLE_DOT = frozenset({".", "%2e"})
_DOUBLE_DOT = frozenset({"..", ".%2e", "%2e.", "%2e%2e"})


class InvalidUrl(ValueError):
    """The text is not a valid URL: the URL Standard's parser returns failure."""


class UnsupportedScheme(ValueError):
    """The text is (or may be) a URL of a scheme this parser does not model: file: or a
    non-special scheme. Nothing a crawler fetches."""


@dataclass(frozen=True, slots=True)
class Url:
    """A parsed special URL. `port` is None for the scheme's default; `path` is serialised and
    starts with "/"; `query` and `fragment` are None when absent (not when empty)."""

    scheme: str
    username: str
    password: str
    host: str
    port: int | None
    path: str
    query: str | None
    fragment: str | None

    @property
    def href(self) -> str:
        """The URL serializer's output, as `URL.href` gives it."""
        fragment = "" if self.fragment is None else "#" + self.fragment
        return self.without_fragment() + fragment

    def without_fragment(self) -> str:
        query = "" if self.query is None else "?" + self.query
        return f"{self.authority_prefix()}{self.path}{query}"

    def authority_prefix(self) -> str:
        """`scheme://userinfo@host:port`: the href up to the path."""
        userinfo = ""
        if self.username or self.password:
            password = ":" + self.password if self.password else ""
            userinfo = f"{self.username}{password}@"
        port = "" if self.port is None else f":{self.port}"
        return f"{self.scheme}://{userinfo}{self.host}{port}"


def clean(text: str) -> str:
    """The input as the URL parser's first steps leave it (step 1 above)."""
    text = text.strip(_C0_OR_SPACE)
    if "\t" in text or "\n" in text or "\r" in text:
        text = text.translate(_TAB_NEWLINE)
    if not text.isascii():
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def scheme_of(text: str) -> str | None:
    """The scheme a cleaned URL string starts with, lowercased, or None (a relative URL)."""
    match = _SCHEME.match(text)
    return None if match is None else match[1].lower()


def parse_url(text: str, base: Url | None = None) -> Url:
    """`new URL(text, base)` for special schemes; see the module docstring."""
    text = clean(text)
    match = _SCHEME.match(text)
    if match is not None:
        scheme = match[1].lower()
        if scheme not in DEFAULT_PORTS:
            raise UnsupportedScheme(scheme)
        rest = text[match.end() :]
        if base is None or base.scheme != scheme or rest[:2] in ("//", "\\\\", "/\\", "\\/"):
            return _parse_authority_onwards(scheme, rest.lstrip("/\\"))
        return _parse_relative(rest, base)
    if base is None:
        raise InvalidUrl(f"relative URL {text!r} without a base")
    if text[:2] in ("//", "\\\\", "/\\", "\\/"):
        return _parse_authority_onwards(base.scheme, text.lstrip("/\\"))
    return _parse_relative(text, base)


def _parse_authority_onwards(scheme: str, rest: str) -> Url:
    """From the "special authority ignore slashes state" on: `rest` starts with the authority."""
    end = _AUTHORITY_END.search(rest)
    authority, rest = (rest, "") if end is None else (rest[: end.start()], rest[end.start() :])
    userinfo, at, hostport = authority.rpartition("@")
    username, _, password = userinfo.partition(":")
    host, port = _host_and_port(scheme, hostport)
    path_text, query, fragment = _split_tail(rest)
    return Url(
        scheme=scheme,
        username=percent_encode(username, USERINFO_SET) if at else "",
        password=percent_encode(password, USERINFO_SET) if at else "",
        host=host,
        port=port,
        path=_rooted_path(path_text),
        query=query,
        fragment=fragment,
    )


def _parse_relative(rest: str, base: Url) -> Url:
    """The "relative state": `rest` (no scheme, or the base's) is read against `base`."""
    path_text, query, fragment = _split_tail(rest)
    if path_text == "":
        path = base.path
        if query is None:
            query = base.query
    elif path_text[0] in "/\\":
        path = _rooted_path(path_text)
    elif _is_plain_path(path_text):  # the base's directory, then the text as it is
        path = base.path[: base.path.rfind("/") + 1] + path_text
    else:
        path = _serialise_path(_add_segments(base.path[1:].split("/")[:-1], path_text))
    return Url(
        base.scheme, base.username, base.password, base.host, base.port, path, query, fragment
    )


def _host_and_port(scheme: str, hostport: str) -> tuple[str, int | None]:
    """The "host state" and "port state" of a special URL."""
    host_text, port_text = _split_port(hostport)
    if host_text == "":
        raise InvalidUrl("missing host")
    try:
        host = parse_host(host_text)
    except InvalidHost as exc:
        raise InvalidUrl(str(exc)) from None
    if port_text == "":  # no port, or `http://a:/`, which is the default port
        return host, None
    if not (port_text.isascii() and port_text.isdigit()) or int(port_text) > 65535:
        raise InvalidUrl(f"invalid port {port_text!r}")
    port = int(port_text)
    return host, None if port == DEFAULT_PORTS[scheme] else port


def _split_port(hostport: str) -> tuple[str, str]:
    """Split at the first `:` outside brackets ("host state"'s insideBrackets flag)."""
    if "[" not in hostport:
        host, _, port = hostport.partition(":")
        return host, port
    inside_brackets = False
    for index, char in enumerate(hostport):
        if char == "[":
            inside_brackets = True
        elif char == "]":
            inside_brackets = False
        elif char == ":" and not inside_brackets:
            return hostport[:index], hostport[index + 1 :]
    return hostport, ""


def _split_tail(rest: str) -> tuple[str, str | None, str | None]:
    """Path text, query and fragment of what follows the authority (each percent-encoded but
    the path, which `_add_segments` encodes per segment)."""
    rest, hash_mark, fragment_text = rest.partition("#")
    path_text, question_mark, query_text = rest.partition("?")
    query = percent_encode(query_text, SPECIAL_QUERY_SET) if question_mark else None
    fragment = percent_encode(fragment_text, FRAGMENT_SET) if hash_mark else None
    return path_text, query, fragment


def _rooted_path(path_text: str) -> str:
    """The path of `path_text`, which is empty or starts with "/" or "\\" (no base path)."""
    if _is_plain_path(path_text):
        return path_text or "/"
    return _serialise_path(_add_segments([], path_text[1:]))


def _is_plain_path(text: str) -> bool:
    """Whether the "path state" copies `text` as it is: nothing to percent-encode, no "\\"
    and no dot segment (a segment starting with "." or "%2" is checked the long way)."""
    return (
        text.isascii()
        and PATH_SET.isdisjoint(text)
        and "\\" not in text
        and "/." not in text
        and "%2" not in text
        and text[:1] != "."
    )


def _add_segments(path: list[str], text: str) -> list[str]:
    """The "path state" over `text` (no leading slash), appending to `path`'s segments."""
    segments = _SEGMENT_SPLIT.split(text) if "\\" in text else text.split("/")
    last = len(segments) - 1
    for index, segment in enumerate(segments):
        dots = segment.lower() if "%" in segment else segment
        if dots in _DOUBLE_DOT:
            if path:
                path.pop()
            if index == last:
                path.append("")
        elif dots in _SINGLE_DOT:
            if index == last:
                path.append("")
        else:
            path.append(percent_encode(segment, PATH_SET))
    return path


def _serialise_path(segments: list[str]) -> str:
    return "/" + "/".join(segments)
