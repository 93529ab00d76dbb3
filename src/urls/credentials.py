"""Credentials an audit sends to a closed site: HTTP basic auth, extra request headers and cookies,
and the origins they may go to.

Theory of operation
-------------------
A staging or preview site is closed by HTTP basic auth (RFC 7617), an access header (Cloudflare
Access service tokens, Vercel's and Netlify's protection-bypass headers) or a login cookie
(RFC 6265). `Credentials` holds any mix of the three and is checked when it is built, so nothing
downstream sends a header a server or the fetch layer would refuse:

* header names are RFC 9110 §5.6.2 tokens and values RFC 9110 §5.5 field values (visible ASCII,
  spaces and tabs inside, none at either end); the framing and hop-by-hop fields (RFC 9110 §7.6.1
  and `Host`, `Content-Length`, `Transfer-Encoding`, `Trailer`, `Expect`), the proxy's own
  credential and the fields the crawler owns (`User-Agent`, its product token matched against
  robots.txt; `Accept-Encoding`, which the platform decodes) are refused; `Cookie` and
  `Authorization` have fields of their own (`cookies`, `basic_auth`), and `Authorization` as a
  header is refused beside `basic_auth` only, so a bearer token can still be sent;
* cookie names are tokens and values `cookie-value`s (RFC 6265 §4.1.1), sent as one `Cookie`
  header in the order given;
* a basic-auth user has no `:` (RFC 7617 §2) and neither part a control character; both are sent
  UTF-8 encoded (RFC 7617 §2.1, `charset="UTF-8"`).

Where they go. Only to the audit's start origin and the origins the user lists (RFC 6454: scheme,
host, port), and to the https twin of an allowed http origin on the default port, as httpx
(`_client.py`, `_redirect_headers` with `is_https_redirect`) and requests (`sessions.py`,
`should_strip_auth`) keep `Authorization` on an http -> https redirect of the same host: TLS
reveals nothing the user already let go over plain http. The decision is made per request, on
the request's own URL (`attach`): every redirect hop is a request of its own (crawl.redirects),
so a hop to another origin goes without them, as browsers (Fetch standard, "HTTP-redirect fetch"
step 13) and httpx drop `Authorization`, and a later hop back to an allowed origin has them again.
External-link checks and Lighthouse get them only when the user says so (`send_to_external_links`,
`send_to_lighthouse`); even then, only allowed origins do.

Secrets never leave in plain text: `redacted()` is what every view shows (header and cookie names,
the basic-auth user, every value `[redacted]`), `repr()` is that view, and `secret_values()` lists
what an error text must be scrubbed of (crawl.credentials). At rest they are sealed
(common.sealing). Error messages here name the field, never its value.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Self

from urls.normalise import split_url

__all__ = [
    "MAX_COOKIES",
    "MAX_HEADERS",
    "MAX_ORIGINS",
    "MAX_VALUE_CHARS",
    "REDACTED",
    "BasicAuth",
    "CredentialKind",
    "CredentialScope",
    "Credentials",
    "CredentialsError",
    "Recipient",
    "RedactedCredentials",
    "parse_origin",
]

REDACTED = "[redacted]"
MAX_HEADERS = 20
MAX_COOKIES = 50
MAX_ORIGINS = 20
MAX_VALUE_CHARS = 4096
# What servers take in all: 8 KiB is nginx's default large_client_header_buffers line and
# Apache's LimitRequestFieldSize, 16 KiB what most CDNs accept for the whole header section.
MAX_HEADER_BYTES = 16384

# RFC 9110 §5.6.2: token = 1*tchar.
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# RFC 9110 §5.5 field-value, visible ASCII only (obs-text is refused: fetch takes ByteStrings and
# RFC 9110 says a sender SHOULD limit values to US-ASCII).
_FIELD_VALUE = re.compile(r"(?:[\x21-\x7e](?:[\x20\x09\x21-\x7e]*[\x21-\x7e])?)?")
# RFC 6265 §4.1.1: cookie-value = *cookie-octet / ( DQUOTE *cookie-octet DQUOTE ).
_COOKIE_OCTETS = r"[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*"
_COOKIE_VALUE = re.compile(f'{_COOKIE_OCTETS}|"{_COOKIE_OCTETS}"')
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

# Framing and hop-by-hop fields (RFC 9110 §6.4.1, §6.5, §7.2, §7.6.1, §7.8, §10.1.1) and the
# proxy's credential (§11.7.2): the connection's business, not a site's.
_FRAMING = frozenset(
    {
        "connection",
        "content-length",
        "expect",
        "host",
        "keep-alive",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
    }
)
# The crawler's own fields, and the two with a field of their own here.
_OWNED = {
    "user-agent": "the crawler sends its own User-Agent (robots.txt is matched on its token)",
    "accept-encoding": "the platform chooses the encodings it can decode",
    "cookie": "give cookies as `cookies` (--cookie NAME=VALUE)",
}


class CredentialsError(ValueError):
    """Credentials that cannot be sent; the message names the field, never a value."""


class CredentialKind(StrEnum):
    """What a closed site may ask for."""

    BASIC_AUTH = "basic_auth"
    HEADERS = "headers"
    COOKIES = "cookies"


class Recipient(StrEnum):
    """Who sends a request: the audit's own fetches of the site, or a check that goes elsewhere
    and gets the credentials only when the user allows it."""

    SITE = "site"  # the crawl, robots.txt, sitemaps, timing, the security grade, scripts read
    EXTERNAL_LINKS = "external_links"
    LIGHTHOUSE = "lighthouse"


# The records convert to and from JSON objects by hand (`to_dict`/`from_dict`, which common.wire
# uses for nested records): `urls` imports nothing from the project (tests/urls/test_leaf.py).


@dataclass(frozen=True, slots=True, repr=False)
class BasicAuth:
    user: str
    password: str

    def __repr__(self) -> str:
        return f"BasicAuth(user={self.user!r}, password={REDACTED!r})"

    def to_dict(self) -> dict[str, str]:
        return {"user": self.user, "password": self.password}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        return cls(_text(data, "user"), _text(data, "password"))


@dataclass(frozen=True, slots=True)
class _Shape:
    """The fields credentials and their redacted view share, and their JSON objects."""

    basic_auth: BasicAuth | None = None
    headers: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    # Serialised origins (`parse_origin`) besides the start URL's, which is always allowed.
    origins: list[str] = field(default_factory=list)
    send_to_lighthouse: bool = False
    send_to_external_links: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "basic_auth": None if self.basic_auth is None else self.basic_auth.to_dict(),
            "headers": dict(self.headers),
            "cookies": dict(self.cookies),
            "origins": list(self.origins),
            "send_to_lighthouse": self.send_to_lighthouse,
            "send_to_external_links": self.send_to_external_links,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        return cls(**_fields_of(data))


@dataclass(frozen=True, slots=True, repr=False)
class Credentials(_Shape):
    """What the audit sends to its allowed origins (module docstring); checked when built."""

    def __post_init__(self) -> None:
        if self.basic_auth is None and not self.headers and not self.cookies:
            raise CredentialsError("credentials must hold basic_auth, headers or cookies")
        if self.basic_auth is not None:
            _check_basic_auth(self.basic_auth)
        _check_headers(self.headers, basic_auth=self.basic_auth is not None)
        _check_cookies(self.cookies)
        _check_origins(self.origins)
        size = sum(len(name) + len(value) + 4 for name, value in self.request_headers().items())
        if size > MAX_HEADER_BYTES:
            raise CredentialsError(
                f"credentials add {size} bytes of request headers; servers take at most "
                f"{MAX_HEADER_BYTES}"
            )

    def __repr__(self) -> str:
        return f"Credentials({self.redacted().to_dict()!r})"

    @property
    def kinds(self) -> list[CredentialKind]:
        given = {
            CredentialKind.BASIC_AUTH: self.basic_auth is not None,
            CredentialKind.HEADERS: bool(self.headers),
            CredentialKind.COOKIES: bool(self.cookies),
        }
        return [kind for kind, present in given.items() if present]

    def request_headers(self) -> dict[str, str]:
        """The fields a request to an allowed origin gets, names lowercased."""
        sent = {name.lower(): value for name, value in self.headers.items()}
        if self.basic_auth is not None:
            sent["authorization"] = _basic_authorization(self.basic_auth)
        if self.cookies:
            sent["cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        return sent

    def allowed_origins(self, start_url: str) -> frozenset[str]:
        """The origins a request may carry these to: the start URL's, the listed ones, and the
        https twin of each http one on the default port (module docstring)."""
        start = split_url(start_url)
        origins = {*self.origins, *([] if start is None else [start.origin])}
        twins = {"https://" + o.removeprefix("http://") for o in origins if _default_http(o)}
        return frozenset(origins | twins)

    def allows(self, recipient: Recipient) -> bool:
        """Whether fetches made for `recipient` may carry these at all."""
        if recipient is Recipient.EXTERNAL_LINKS:
            return self.send_to_external_links
        if recipient is Recipient.LIGHTHOUSE:
            return self.send_to_lighthouse
        return True

    def secret_values(self) -> list[str]:
        """Every secret as it could appear in a text: each value, and the assembled fields."""
        values = [*self.headers.values(), *self.cookies.values()]
        if self.basic_auth is not None:
            authorization = _basic_authorization(self.basic_auth)
            values += [self.basic_auth.password, authorization, authorization.split(" ", 1)[1]]
        if self.cookies:
            values.append(self.request_headers()["cookie"])
        # Longest first, so a scrubbed assembled field is not left half-replaced.
        return sorted({value for value in values if value}, key=len, reverse=True)

    def scrub(self, text: str) -> str:
        """`text` with every secret replaced by `[redacted]`: for error texts that may quote a
        request (crawl.credentials)."""
        for value in self.secret_values():
            text = text.replace(value, REDACTED)
        return text

    def redacted(self) -> RedactedCredentials:
        user = None if self.basic_auth is None else BasicAuth(self.basic_auth.user, REDACTED)
        return RedactedCredentials(
            basic_auth=user,
            headers=dict.fromkeys(self.headers, REDACTED),
            cookies=dict.fromkeys(self.cookies, REDACTED),
            origins=list(self.origins),
            send_to_lighthouse=self.send_to_lighthouse,
            send_to_external_links=self.send_to_external_links,
        )


@dataclass(frozen=True, slots=True)
class RedactedCredentials(_Shape):
    """Credentials as every view shows them: names, the basic-auth user, the origins and the
    flags; every secret value is `[redacted]` (checked, so this record can never hold one)."""

    def __post_init__(self) -> None:
        values = [*self.headers.values(), *self.cookies.values()]
        if self.basic_auth is not None:
            values.append(self.basic_auth.password)
        if any(value != REDACTED for value in values):
            raise CredentialsError(f"a redacted view holds only {REDACTED!r} values")


@dataclass(frozen=True, slots=True)
class CredentialScope:
    """An audit's credentials and the origins they go to (`Credentials.allowed_origins` of the
    audit's start URL): the one answer to "does a request to this URL carry them?"."""

    credentials: Credentials
    allowed: frozenset[str]

    @classmethod
    def of(cls, credentials: Credentials, start_url: str) -> CredentialScope:
        return cls(credentials, credentials.allowed_origins(start_url))

    def covers(self, url: str) -> bool:
        parts = split_url(url)
        return parts is not None and parts.origin in self.allowed

    def fields_for(self, url: str) -> dict[str, str]:
        """The fields a request to `url` gets: the credentials' on an allowed origin, else none."""
        return self.credentials.request_headers() if self.covers(url) else {}


def parse_origin(text: str) -> str:
    """`text` as a serialised origin (RFC 6454 §6.2: lowercase scheme and host, IDNA, no default
    port); a trailing slash is forgiven, any other path, a query, a fragment or userinfo is not."""
    raw = text.strip()
    parts = split_url(raw)
    if parts is None or "://" not in raw:
        raise CredentialsError(f"origin {text!r} is not an http(s) origin like https://example.com")
    if parts.userinfo is not None or parts.path != "/" or parts.query is not None or "#" in raw:
        raise CredentialsError(
            f"origin {text!r} must be scheme://host[:port] only, without a path, query or user"
        )
    return parts.origin


# -- the checks ---------------------------------------------------------------------------------


def _check_basic_auth(auth: BasicAuth) -> None:
    if not auth.user:
        raise CredentialsError("basic_auth.user must not be empty")
    if ":" in auth.user:
        raise CredentialsError("basic_auth.user must not contain ':' (RFC 7617 §2)")
    for name, value in (("user", auth.user), ("password", auth.password)):
        if _CONTROL.search(value):
            raise CredentialsError(f"basic_auth.{name} must not contain control characters")
        if len(value) > MAX_VALUE_CHARS:
            raise CredentialsError(f"basic_auth.{name} is longer than {MAX_VALUE_CHARS}")
    if auth.password == REDACTED:
        raise CredentialsError(_RESEND.format(field="basic_auth.password"))


def _check_headers(headers: dict[str, str], *, basic_auth: bool) -> None:
    if len(headers) > MAX_HEADERS:
        raise CredentialsError(f"at most {MAX_HEADERS} headers may be given")
    seen: set[str] = set()
    for name, value in headers.items():
        key = name.lower()
        if not _TOKEN.fullmatch(name):
            raise CredentialsError(f"header name {name!r} is not an RFC 9110 token")
        if key in seen:
            raise CredentialsError(f"header {name} is given twice (names are case-insensitive)")
        seen.add(key)
        if key in _FRAMING:
            raise CredentialsError(f"header {name} is the connection's, not a site credential")
        if key in _OWNED:
            raise CredentialsError(f"header {name} cannot be set: {_OWNED[key]}")
        if key == "authorization" and basic_auth:
            raise CredentialsError("give basic_auth or an Authorization header, not both")
        _check_value(f"header {name}", value, _FIELD_VALUE, "an RFC 9110 field value")


def _check_cookies(cookies: dict[str, str]) -> None:
    if len(cookies) > MAX_COOKIES:
        raise CredentialsError(f"at most {MAX_COOKIES} cookies may be given")
    for name, value in cookies.items():
        if not _TOKEN.fullmatch(name):
            raise CredentialsError(f"cookie name {name!r} is not an RFC 6265 token")
        _check_value(f"cookie {name}", value, _COOKIE_VALUE, "an RFC 6265 cookie-value")


def _check_value(subject: str, value: str, grammar: re.Pattern[str], what: str) -> None:
    if len(value) > MAX_VALUE_CHARS:
        raise CredentialsError(f"{subject}: the value is longer than {MAX_VALUE_CHARS}")
    if value == REDACTED:
        raise CredentialsError(_RESEND.format(field=subject))
    if not grammar.fullmatch(value):
        # The value is a secret: say what is wrong with it, never what it is.
        raise CredentialsError(f"{subject}: the value is not {what} (visible ASCII)")


def _check_origins(origins: list[str]) -> None:
    if len(origins) > MAX_ORIGINS:
        raise CredentialsError(f"at most {MAX_ORIGINS} origins may be given")
    for origin in origins:
        if parse_origin(origin) != origin:
            raise CredentialsError(f"origin {origin!r} is not serialised (parse_origin)")


_RESEND = (
    f"{{field}} is {REDACTED!r}, which is how stored values are shown: send the real value, or "
    "leave credentials out to keep the stored ones"
)


# -- to and from JSON objects --------------------------------------------------------------------


# Any: the keyword arguments of either record, each checked against its field's type here.
def _fields_of(data: Mapping[str, object]) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise CredentialsError("credentials must be an object")
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise CredentialsError(f"credentials have unknown fields {unknown}")
    auth = data.get("basic_auth")
    if auth is not None and not isinstance(auth, Mapping):
        raise CredentialsError("basic_auth must be an object with user and password")
    return {
        "basic_auth": None if auth is None else BasicAuth.from_dict(auth),
        "headers": _text_map(data.get("headers", {}), "headers"),
        "cookies": _text_map(data.get("cookies", {}), "cookies"),
        "origins": _texts(data.get("origins", []), "origins"),
        "send_to_lighthouse": _flag(data.get("send_to_lighthouse", False), "send_to_lighthouse"),
        "send_to_external_links": _flag(
            data.get("send_to_external_links", False), "send_to_external_links"
        ),
    }


_FIELDS = frozenset(
    {
        "basic_auth",
        "headers",
        "cookies",
        "origins",
        "send_to_lighthouse",
        "send_to_external_links",
    }
)


def _text(data: Mapping[str, object], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str):
        raise CredentialsError(f"basic_auth.{name} must be a string")
    return value


def _text_map(value: object, name: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise CredentialsError(f"{name} must be an object of strings")
    return dict(value)


def _texts(value: object, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise CredentialsError(f"{name} must be a list of strings")
    return list(value)


def _flag(value: object, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)  # SQLite and D1 store booleans as 0/1
    raise CredentialsError(f"{name} must be true or false")


def _basic_authorization(auth: BasicAuth) -> str:
    token = base64.b64encode(f"{auth.user}:{auth.password}".encode()).decode("ascii")
    return f"Basic {token}"


def _default_http(origin: str) -> bool:
    parts = split_url(origin)
    return parts is not None and parts.scheme == "http" and parts.port is None
