"""What the grader looks at: responses as fetched, and a site's responses the Observatory's way.

The Observatory (mdn/mdn-http-observatory `src/types.js`, `Responses`) keeps four responses per
scan: `auto` (https if it answered, else http: the one most tests read), `http` and `https` (the
final response of each entry point, with the redirect route that led there) and `cors` (the same
URL fetched again with an `Origin` header). `ObservedSite` is that record; `ObservedResponse` is
one response with its repeated headers kept apart (several `Set-Cookie`, several CSPs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from common.wire import JsonRecord

# The Origin the cross-origin-resource-sharing probe sends; the test calls a response that
# echoes it back with credentials allowed "universal access".
CORS_PROBE_ORIGIN = "https://http-observatory.security.mozilla.org"
# fetch joins repeated headers with ", "; Set-Cookie values are split back where a new
# "name=" begins (a comma inside Expires is followed by a day number, never by "name=").
_COOKIE_SPLIT = re.compile(r",\s*(?=[^;,=\s]+=)")


def split_set_cookie(joined: str) -> list[str]:
    """The Set-Cookie values of a header fetch joined with ", "."""
    return _COOKIE_SPLIT.split(joined)


class ObservationError(ValueError):
    """The input does not describe a response (`security-check` prints it and exits 2)."""


@dataclass(frozen=True, slots=True)
class RedirectHop(JsonRecord):
    """A response that redirected on the way to the observed one."""

    url: str
    status: int
    headers: dict[str, list[str]] = field(default_factory=dict)
    tls_verified: bool = True  # False: the certificate chain did not verify


@dataclass(frozen=True, slots=True)
class ObservedResponse(JsonRecord):
    """One final response: lower-case header names, each with its values in order.

    `html` is the body as text when it was read (None when it was not, or was not text);
    `redirects` is the chain that led here, first hop first.
    """

    url: str
    status: int
    headers: dict[str, list[str]] = field(default_factory=dict)
    html: str | None = None
    redirects: list[RedirectHop] = field(default_factory=list)
    tls_verified: bool = True

    def values(self, name: str) -> list[str]:
        """Every value of header `name` (the Observatory's getHttpHeaders)."""
        return self.headers.get(name.lower(), [])

    def first(self, name: str) -> str | None:
        """The first value of header `name` (getFirstHttpHeader)."""
        values = self.values(name)
        return values[0] if values else None

    def route(self) -> list[str]:
        """The URLs from the first request to this response (the Observatory's redirect route)."""
        return [hop.url for hop in self.redirects] + [self.url]

    def set_cookies(self) -> list[str]:
        """Every Set-Cookie received on the way here, in order."""
        cookies = [value for hop in self.redirects for value in hop.headers.get("set-cookie", [])]
        return cookies + self.values("set-cookie")


@dataclass(frozen=True, slots=True)
class ObservedSite(JsonRecord):
    """The responses of one scan (the Observatory's `Requests`); None: no answer on that entry."""

    host: str
    auto: ObservedResponse | None
    http: ObservedResponse | None = None
    https: ObservedResponse | None = None
    cors: ObservedResponse | None = None
    cors_origin: str = CORS_PROBE_ORIGIN

    def cookies(self) -> list[str]:
        """The Set-Cookie headers of every response (the session's cookie jar), in order."""
        responses: list[ObservedResponse] = []
        for response in (self.http, self.https, self.auto):
            if response is not None and all(response is not seen for seen in responses):
                responses.append(response)
        return [cookie for response in responses for cookie in response.set_cookies()]


def site_of_response(response: ObservedResponse) -> ObservedSite:
    """A scan made of one response and the redirect chain that led to it (`security-check`).

    The chain is read as the Observatory's http entry point when it starts with an http URL;
    the response is the https entry point's answer when its URL is https. It is also the CORS
    probe's answer: `Access-Control-Allow-Origin` echoing CORS_PROBE_ORIGIN with credentials
    allowed is universal access.
    """
    route = response.route()
    host = _host_of(route[0])
    http = response if route[0].lower().startswith("http:") else None
    https = response if response.url.lower().startswith("https:") else None
    return ObservedSite(host=host, auto=response, http=http, https=https, cors=response)


def _host_of(url: str) -> str:
    from urllib.parse import urlsplit

    return (urlsplit(url).hostname or "").lower()


def header_map(raw: object, where: str) -> dict[str, list[str]]:
    """`{name: value or [values]}` as lower-case names to lists, or ObservationError."""
    if not isinstance(raw, dict):
        raise ObservationError(f"{where}: headers must be an object")
    headers: dict[str, list[str]] = {}
    for name, value in raw.items():
        values = value if isinstance(value, list) else [value]
        if not all(isinstance(item, str) for item in values):
            raise ObservationError(f"{where}: header {name!r} must be a string or strings")
        headers.setdefault(str(name).lower(), []).extend(values)
    return headers


def _url_and_status(raw: dict[str, object], where: str) -> tuple[str, int]:
    url, status = raw.get("url"), raw.get("status")
    if not isinstance(url, str) or not url.lower().startswith(("http://", "https://")):
        raise ObservationError(f"{where}: url must be an http(s) URL")
    if isinstance(status, bool) or not isinstance(status, int):
        raise ObservationError(f"{where}: status must be an integer")
    return url, status


def response_from_input(raw: object) -> ObservedResponse:
    """The `security-check` input, `{"url", "status", "headers", "html", "redirects"}`, checked."""
    if not isinstance(raw, dict):
        raise ObservationError("the response must be a JSON object")
    url, status = _url_and_status(raw, "response")
    html = raw.get("html")
    if html is not None and not isinstance(html, str):
        raise ObservationError("response: html must be a string or null")
    hops_raw = raw.get("redirects", [])
    if not isinstance(hops_raw, list):
        raise ObservationError("response: redirects must be a list")
    hops = [_hop_from_input(hop, f"redirects[{index}]") for index, hop in enumerate(hops_raw)]
    headers = header_map(raw.get("headers", {}), "response")
    verified = raw.get("tls_verified", True)
    return ObservedResponse(url, status, headers, html, hops, verified is not False)


def _hop_from_input(raw: object, where: str) -> RedirectHop:
    if not isinstance(raw, dict):
        raise ObservationError(f"{where}: must be an object")
    url, status = _url_and_status(raw, where)
    headers = header_map(raw.get("headers", {}), where)
    return RedirectHop(url, status, headers, raw.get("tls_verified", True) is not False)
