"""The start URL's fate, decided once from its fetch (after redirects): auditable, or why not.

Sans-IO: `judge_start` reads a `FollowedFetch` and returns None (the audit goes on) or a
`StartFailure`, the audit's `error_code` (`common.failures`, the site's side) with a sentence for
the site's owner saying what happened and what to try. Nothing is retried: a start URL that did
not answer within discovery's probe timeout, or answered an error, gives the same verdict on a
second try made seconds later, and the owner's resume audits again once the site is fixed.

    no answer (status 0)       -> SITE_DNS_ERROR | SITE_CONNECTION_FAILED | SITE_TLS_ERROR |
                                  SITE_TIMEOUT | SITE_PRIVATE_ADDRESS | SITE_NETWORK_ERROR
                                  (the error text's kind, `common.net_failure`)
    4xx or 5xx (401, 403, 429) -> SITE_HTTP_ERROR: an access wall or a rate limit stops the whole
                                  audit as surely as a missing page; for 401 and 403 the sentence
                                  says what to pass (`_access_refused`): basic auth when a 401
                                  asks for it (`WWW-Authenticate: Basic`, RFC 7617 §2), else a
                                  header or a cookie; or, with credentials, that they were refused
                                  or not sent to that origin (urls.credentials)
    2xx, not text/html         -> START_NOT_HTML (as the crawl judges a page: by its Content-Type,
                                  `crawl.page_pipeline`); there are no links to follow
    robots.txt closes the start
    URL and no other page was
    open to seed (`robots_closed`) -> START_ROBOTS_DISALLOWED: an audit of nothing would pass
                                  with no issue, so it fails and says why (issue 28)
    anything else              -> None (a 3xx whose next hop was refused is crawled as a redirect)

A start URL typed without a scheme (`urls.start_url.StartUrl.scheme_assumed`) is read as
browsers read one typed in the address bar: https first, then http when https could not connect
or its TLS handshake failed (`falls_back`), never when https answered, even with an error: then
https is what the site serves. Chrome's HTTPS-Upgrades falls back the same way
(chromium.org/Home/chromium-security/https-upgrades: "falls back to HTTP" on a connection or
certificate error). `scheme_note` says which scheme the audit took, and why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from http import HTTPStatus
from urllib.parse import urlsplit

from common import settings
from common.failures import ErrorCode
from common.net_failure import NetFailure, classify_net_failure
from common.wire import JsonRecord
from crawl.page_pipeline import is_html_type
from crawl.redirects import FollowedFetch
from urls.credentials import CredentialKind, Credentials, CredentialScope
from urls.normalise import origin_of

__all__ = [
    "StartFailure",
    "falls_back",
    "http_twin",
    "judge_start",
    "robots_closed",
    "scheme_note",
]

# An error text from the fetch client is shown only where no kind explains it, and cut short.
_ERROR_TEXT_MAX_CHARS = 200
# Where https got no answer for one of these, http may still answer; DNS and our private-address
# policy concern the host, whatever the scheme, so http would fail the same way.
_FALLBACK_KINDS = frozenset(
    {NetFailure.REFUSED, NetFailure.TLS, NetFailure.TIMEOUT, NetFailure.OTHER}
)
_SHORT_REASONS = {
    NetFailure.REFUSED: "connection refused",
    NetFailure.TLS: "TLS failed",
    NetFailure.TIMEOUT: "timed out",
    NetFailure.OTHER: "connection failed",
}


@dataclass(frozen=True, slots=True)
class StartFailure(JsonRecord):
    """Why the start URL cannot be audited: the audit's error code and its `error_detail`."""

    error_code: ErrorCode
    detail: str


def judge_start(
    start_url: str, followed: FollowedFetch, credentials: CredentialScope | None = None
) -> StartFailure | None:
    """None when the start URL can be crawled; otherwise the failure, said once. `credentials`
    are the audit's, for what a 401 or 403 tells the owner to pass."""
    result = followed.result
    subject = _subject(start_url, followed.final_url)
    if result.status == 0:
        return _no_answer(subject, followed.final_url, result.error)
    if result.status in (401, 403):
        wall = Wall(followed, credentials)
        return StartFailure(ErrorCode.SITE_HTTP_ERROR, _access_refused(subject, wall))
    if result.status >= 400:
        return StartFailure(ErrorCode.SITE_HTTP_ERROR, _http_error(subject, result.status))
    content_type = result.header("content-type")
    if 200 <= result.status < 300 and not is_html_type(content_type):
        return StartFailure(ErrorCode.START_NOT_HTML, _not_html(subject, content_type))
    return None


def robots_closed(start_url: str, origin: str) -> StartFailure:
    """The failure of an audit whose robots.txt disallows the start URL, with nothing else open
    to crawl: the sentence names the file and the two ways on."""
    return StartFailure(
        ErrorCode.START_ROBOTS_DISALLOWED,
        f"{origin}/robots.txt disallows {start_url} to siteaudit, and no other page of the site "
        "is open to it, so nothing could be audited. If you own the site, verify the host "
        "(docs/manual/verify.md) and audit it with ignore_robots; or allow the user agent "
        "siteaudit in robots.txt.",
    )


def falls_back(followed: FollowedFetch) -> NetFailure | None:
    """Why an assumed https start URL gives way to http: the kind of failure that left https
    without an answer at its first hop; None when https answered (or failed for a reason http
    shares)."""
    if len(followed.hops) > 1 or followed.result.status != 0:
        return None
    kind = classify_net_failure(followed.result.error)
    return kind if kind in _FALLBACK_KINDS else None


def http_twin(url: str) -> str:
    """The same URL over plain http."""
    return "http://" + url.removeprefix("https://")


def scheme_note(https_url: str, fell_back: NetFailure | None) -> str:
    """The line that says which scheme a start URL typed without one was audited with."""
    if fell_back is None:
        return f"no scheme given: auditing {https_url} (https answered)"
    reason = _SHORT_REASONS[fell_back]
    return (
        f"no scheme given: {https_url} did not connect ({reason}), auditing {http_twin(https_url)}"
    )


# -- the sentences ------------------------------------------------------------------------------


def _subject(start_url: str, final_url: str) -> str:
    """Who did it: the start URL, or the page its redirects led to."""
    if final_url == start_url:
        return start_url
    return f"{start_url} redirects to {final_url}, which"


def _no_answer(subject: str, url: str, error: str | None) -> StartFailure:
    code, template = _NO_ANSWER[classify_net_failure(error)]
    parts = urlsplit(url)
    text = template.format(
        subject=subject,
        host=parts.hostname or url,
        port=parts.port or (443 if parts.scheme == "https" else 80),
        timeout=f"{settings.CRAWL.start_probe_timeout_s:g}",
        error=_clip(error),
    )
    return StartFailure(code, text)


_NO_ANSWER: dict[NetFailure, tuple[ErrorCode, str]] = {
    NetFailure.DNS: (
        ErrorCode.SITE_DNS_ERROR,
        "{subject} could not be found: the host name {host} does not resolve in DNS. Check the "
        "spelling of the address, and that the domain's DNS records exist.",
    ),
    NetFailure.REFUSED: (
        ErrorCode.SITE_CONNECTION_FAILED,
        "{subject} refused the connection: nothing answered on port {port}. Check that the site "
        "is running and that the address and port are right.",
    ),
    NetFailure.TLS: (
        ErrorCode.SITE_TLS_ERROR,
        "{subject} could not be reached securely: the TLS handshake or the certificate check "
        "failed. Check that the site's certificate is valid and issued for {host}, or audit its "
        "http:// address if it serves no https.",
    ),
    NetFailure.TIMEOUT: (
        ErrorCode.SITE_TIMEOUT,
        "{subject} did not answer within {timeout} seconds. Check that the site is up and not "
        "overloaded, and that no firewall drops the audit's requests.",
    ),
    NetFailure.PRIVATE: (
        ErrorCode.SITE_PRIVATE_ADDRESS,
        "{subject} could not be requested: the host name {host} resolves only to private or "
        "reserved addresses, which the audit may not request. Audit the site at its public "
        "address.",
    ),
    NetFailure.OTHER: (
        ErrorCode.SITE_NETWORK_ERROR,
        "{subject} could not be fetched ({error}). Check that the site is up and reachable, "
        "then audit it again.",
    ),
}


@dataclass(frozen=True, slots=True)
class Wall:
    """A 401 or 403 at the start URL, and the credentials the audit had for it."""

    followed: FollowedFetch
    scope: CredentialScope | None

    @property
    def asks_basic(self) -> bool:
        """A 401 whose challenges include Basic (RFC 9110 §11.6.1, RFC 7617 §2)."""
        challenge = self.followed.result.header("www-authenticate") or ""
        return self.followed.result.status == 401 and _BASIC.search(challenge) is not None

    @property
    def unsent_origin(self) -> str | None:
        """The origin that answered, when the credentials do not go there."""
        origin = origin_of(self.followed.final_url)
        if self.scope is None or origin is None or self.scope.covers(self.followed.final_url):
            return None
        return origin


# A challenge's auth-scheme opens the header or follows a comma (RFC 9110 §11.6.1).
_BASIC = re.compile(r"(?:^|,)\s*basic(?:\s|,|$)", re.IGNORECASE)
_PASS_BASIC = "pass --auth USER:PASSWORD (the API's credentials.basic_auth)"


def _access_refused(subject: str, wall: Wall) -> str:
    status = wall.followed.result.status
    answered = f"{subject} answered {status}{_phrase(status)}"
    credentials = None if wall.scope is None else wall.scope.credentials
    if credentials is None and wall.asks_basic:
        return f"{answered}: the site needs HTTP basic auth: {_PASS_BASIC}."
    if credentials is None:
        return (
            f"{answered}: the server refused the audit access (a login, an access token, a "
            "firewall or bot protection). If the site is closed, pass what it needs: an access "
            "header with --header 'NAME: VALUE' or a login cookie with --cookie NAME=VALUE (the "
            "API's credentials.headers and credentials.cookies). Otherwise let the audit's user "
            "agent (siteaudit) through, or start from a public page."
        )
    unsent = wall.unsent_origin
    if unsent is not None and wall.scope is not None:
        allowed = ", ".join(sorted(wall.scope.allowed))
        return (
            f"{answered}: the audit's credentials go only to {allowed}, so {unsent} got none. "
            f"If it should, add it with --credentials-origin {unsent} (the API's "
            "credentials.origins)."
        )
    if wall.asks_basic and CredentialKind.BASIC_AUTH not in credentials.kinds:
        return f"{answered}: the site needs HTTP basic auth, which the credentials lack: {_PASS_BASIC}."
    return (
        f"{answered}: the server refused the credentials sent ({_described(credentials)}). "
        "Check that they are current and meant for this site."
    )


def _described(credentials: Credentials) -> str:
    """What was sent, by name only: never a value."""
    parts = []
    if credentials.basic_auth is not None:
        parts.append(f"basic auth as {credentials.basic_auth.user!r}")
    if credentials.headers:
        parts.append("the header " + ", ".join(credentials.headers))
    if credentials.cookies:
        parts.append("the cookie " + ", ".join(credentials.cookies))
    return "; ".join(parts)


def _http_error(subject: str, status: int) -> str:
    answered = f"{subject} answered {status}{_phrase(status)}"
    if status == 429:
        return (
            f"{answered}: the server is rate limiting the audit. Wait a while and audit again, "
            "or allow the audit's user agent (siteaudit) a higher rate."
        )
    if status in (404, 410):
        return (
            f"{answered}: there is no page at this address. Check the address, or start the "
            "audit from the site's home page."
        )
    if status >= 500:
        return (
            f"{answered}: the server failed to produce the page. Check the site's server and "
            "its logs, then audit it again."
        )
    return (
        f"{answered}: the server refused the request. Check the address, or start the audit "
        "from the site's home page."
    )


def _not_html(subject: str, content_type: str | None) -> str:
    if content_type is None:
        served = "a response without a Content-Type, so it is not an HTML page"
    else:
        served = f"{content_type.split(';')[0].strip()}, not an HTML page"
    return (
        f"{subject} answered with {served}: there are no links to follow and no page to "
        "audit. Start the audit from an HTML page of the site, such as its home page."
    )


def _phrase(status: int) -> str:
    try:
        return f" {HTTPStatus(status).phrase}"
    except ValueError:
        return ""


def _clip(error: str | None) -> str:
    text = " ".join((error or "no answer").split())
    if len(text) <= _ERROR_TEXT_MAX_CHARS:
        return text
    return text[: _ERROR_TEXT_MAX_CHARS - 1] + "…"
