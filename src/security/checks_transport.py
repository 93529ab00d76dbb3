"""The redirection and strict-transport-security tests (mdn/mdn-http-observatory
`src/analyzer/tests/redirection.js`, `strict-transport-security.js`).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from common.wire import JsonValue
from security.observed import ObservedResponse, ObservedSite
from security.results import HstsResult, RedirectionResult, TestName, TestOutcome, outcome
from security.site_names import is_hsts_preloaded

# strict-transport-security.js: 15768000 s is six months, but many sites send 15552000
# (180 days), so the Observatory accepts that ("a white lie is in order").
SIX_MONTHS_S = 15_552_000
_PARSE_INT = re.compile(r"\s*([+-]?\d+)")


def redirection(site: ObservedSite) -> TestOutcome:
    """How the http entry point reaches https: same host first, then anywhere."""
    name = TestName.REDIRECTION
    response = site.http
    if response is None:
        return outcome(name, RedirectionResult.NOT_NEEDED_NO_HTTP, True)
    if not (response.tls_verified and all(hop.tls_verified for hop in response.redirects)):
        return outcome(name, RedirectionResult.INVALID_CERT, False)
    route = [urlsplit(url) for url in response.route()]
    details = {"route": response.route()}
    if all(is_hsts_preloaded(part.hostname or "") for part in route):
        return outcome(name, RedirectionResult.ALL_REDIRECTS_PRELOADED, True, details)
    if len(route) == 1:
        return outcome(name, RedirectionResult.MISSING, False, details)
    if route[-1].scheme != "https":
        return outcome(name, RedirectionResult.NOT_TO_HTTPS, False, details)
    if route[1].scheme == "http":
        return outcome(name, RedirectionResult.NOT_TO_HTTPS_ON_INITIAL_REDIRECTION, False, details)
    if route[0].scheme == "http" and route[0].hostname != route[1].hostname:
        return outcome(name, RedirectionResult.OFF_HOST_FROM_HTTP, False, details)
    return outcome(name, RedirectionResult.TO_HTTPS, True, details)


def strict_transport_security(site: ObservedSite) -> TestOutcome:
    """HSTS on the https entry point's response; the preload list overrides the header."""
    name = TestName.STRICT_TRANSPORT_SECURITY
    result, details = _hsts_header(site.https)
    if site.https is not None and is_hsts_preloaded(site.host):
        result = HstsResult.PRELOADED
    passed = result in (HstsResult.MAX_AGE_AT_LEAST_SIX_MONTHS, HstsResult.PRELOADED)
    return outcome(name, result, passed, details)


def _hsts_header(response: ObservedResponse | None) -> tuple[HstsResult, dict[str, JsonValue]]:
    if response is None:
        return HstsResult.NOT_IMPLEMENTED_NO_HTTPS, {}
    if not response.tls_verified:
        return HstsResult.INVALID_CERT, {}
    values = response.values("strict-transport-security")
    if not values:
        return HstsResult.NOT_IMPLEMENTED, {}
    data = values[0][:1024]
    if "," in data:  # the header was sent twice and joined
        return HstsResult.HEADER_INVALID, {"value": data}
    max_age: float | None = None
    directives = [part.strip().lower() for part in data.split(";")]
    for directive in directives:
        if directive.startswith("max-age="):
            max_age = _parse_int(directive[8:128])
    details: dict[str, JsonValue] = {
        "value": data,
        "max_age": None if max_age is None or max_age != max_age else int(max_age),
        "include_subdomains": "includesubdomains" in directives,
        "preload": "preload" in directives,
    }
    if max_age is None:
        return HstsResult.HEADER_INVALID, details
    # A max-age that is not a number is NaN in the JavaScript, and NaN < SIX_MONTHS is false.
    if max_age < SIX_MONTHS_S:
        return HstsResult.MAX_AGE_LESS_THAN_SIX_MONTHS, details
    return HstsResult.MAX_AGE_AT_LEAST_SIX_MONTHS, details


def _parse_int(text: str) -> float:
    """JavaScript's Number.parseInt(text, 10): leading digits, or NaN."""
    match = _PARSE_INT.match(text)
    return float(match.group(1)) if match else float("nan")
