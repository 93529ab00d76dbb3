"""The start URL's fate from its fetch (crawl.start_verdict): each outcome once, in plain words."""

from __future__ import annotations

import pytest

from common import ports
from common.failures import ErrorCode
from common.net_failure import NetFailure
from crawl.redirects import FollowedFetch
from crawl.start_verdict import StartFailure, falls_back, http_twin, judge_start, scheme_note
from urls.credentials import BasicAuth, Credentials, CredentialScope

START = "http://127.0.0.1:9/"
REFUSED = "cannot connect to 127.0.0.1:9: [Errno 111] Connect call failed ('127.0.0.1', 9)"
TLS = "cannot connect to 127.0.0.1:8001: [SSL: WRONG_VERSION_NUMBER] wrong version number"
DNS = "cannot resolve nx.invalid: [Errno -2] Name or service not known"
PRIVATE = "refused to connect to a.test:80: it resolves only to non-public addresses (10.0.0.1)"


def answered(
    status: int,
    content_type: str | None = "text/html; charset=utf-8",
    *,
    error: str | None = None,
    hops: list[str] | None = None,
) -> FollowedFetch:
    url = (hops or [START])[-1]
    headers = {} if content_type is None else {"content-type": content_type}
    result = ports.FetchResult(url, status, headers, b"", False, 1.0, error)
    return FollowedFetch(result, url, hops or [START])


@pytest.mark.parametrize(
    ("followed", "code", "words"),
    [
        (answered(0, error=REFUSED), ErrorCode.SITE_CONNECTION_FAILED, "refused the connection"),
        (answered(0, error=TLS), ErrorCode.SITE_TLS_ERROR, "could not be reached securely"),
        (answered(0, error=DNS), ErrorCode.SITE_DNS_ERROR, "does not resolve in DNS"),
        (answered(0, error="timed out after 10 s"), ErrorCode.SITE_TIMEOUT, "within 10 seconds"),
        (answered(0, error=PRIVATE), ErrorCode.SITE_PRIVATE_ADDRESS, "private or reserved"),
        (answered(0, error="reset by a gremlin"), ErrorCode.SITE_NETWORK_ERROR, "gremlin"),
        (answered(0), ErrorCode.SITE_NETWORK_ERROR, "could not be fetched (no answer)"),
        (answered(500), ErrorCode.SITE_HTTP_ERROR, "500 Internal Server Error"),
        (answered(503), ErrorCode.SITE_HTTP_ERROR, "failed to produce the page"),
        (answered(404), ErrorCode.SITE_HTTP_ERROR, "404 Not Found: there is no page"),
        (answered(410), ErrorCode.SITE_HTTP_ERROR, "410 Gone: there is no page"),
        (answered(401), ErrorCode.SITE_HTTP_ERROR, "refused the audit access"),
        (answered(403), ErrorCode.SITE_HTTP_ERROR, "403 Forbidden"),
        (answered(429), ErrorCode.SITE_HTTP_ERROR, "rate limiting the audit"),
        (answered(418), ErrorCode.SITE_HTTP_ERROR, "refused the request"),
        (answered(499), ErrorCode.SITE_HTTP_ERROR, "answered 499: the server refused"),
        (answered(200, "text/css"), ErrorCode.START_NOT_HTML, "text/css, not an HTML page"),
        (answered(200, "application/pdf"), ErrorCode.START_NOT_HTML, "application/pdf"),
        (answered(204, None), ErrorCode.START_NOT_HTML, "without a Content-Type"),
    ],
)
def test_a_start_url_that_cannot_be_audited_says_why_in_one_sentence(
    followed: FollowedFetch, code: ErrorCode, words: str
) -> None:
    failure = judge_start(START, followed)
    assert failure is not None and failure.error_code is code
    assert words in failure.detail
    assert failure.detail.startswith(START) and failure.detail.endswith(".")
    assert "None" not in failure.detail and "_" not in failure.detail.replace(START, "")


@pytest.mark.parametrize(
    "followed",
    [
        answered(200),
        answered(200, "application/xhtml+xml"),
        answered(200, "TEXT/HTML"),
        answered(301, None),  # a redirect whose next hop was refused: crawled as a redirect
        answered(304, None),
    ],
)
def test_an_html_page_or_a_refused_redirect_goes_on_to_the_crawl(followed: FollowedFetch) -> None:
    assert judge_start(START, followed) is None


def test_a_failure_after_redirects_names_both_urls() -> None:
    followed = answered(0, error=TLS, hops=[START, "https://127.0.0.1:9/"])
    failure = judge_start(START, followed)
    assert failure == StartFailure(
        ErrorCode.SITE_TLS_ERROR,
        "http://127.0.0.1:9/ redirects to https://127.0.0.1:9/, which could not be reached "
        "securely: the TLS handshake or the certificate check failed. Check that the site's "
        "certificate is valid and issued for 127.0.0.1, or audit its http:// address if it "
        "serves no https.",
    )


def test_the_closed_port_sentence_is_the_one_a_site_owner_reads() -> None:
    failure = judge_start(START, answered(0, error=REFUSED))
    assert failure is not None
    assert failure.detail == (
        "http://127.0.0.1:9/ refused the connection: nothing answered on port 9. Check that the "
        "site is running and that the address and port are right."
    )


@pytest.mark.parametrize(
    ("followed", "kind"),
    [
        (answered(0, error=REFUSED), NetFailure.REFUSED),
        (answered(0, error=TLS), NetFailure.TLS),
        (answered(0, error="timed out after 10 s"), NetFailure.TIMEOUT),
        (answered(0, error="something odd"), NetFailure.OTHER),
        # the name does not resolve, or resolves where we may not go: http shares the host
        (answered(0, error=DNS), None),
        (answered(0, error=PRIVATE), None),
        # https answered, even with an error: https is what the site serves
        (answered(200), None),
        (answered(404), None),
        (answered(500), None),
        # https redirected and a later hop failed: the site chose where to send us
        (answered(0, error=REFUSED, hops=[START, "https://elsewhere.test/"]), None),
    ],
)
def test_https_gives_way_to_http_only_when_it_could_not_connect(
    followed: FollowedFetch, kind: NetFailure | None
) -> None:
    assert falls_back(followed) is kind


def test_the_scheme_note_says_which_scheme_was_used_and_why() -> None:
    https = "https://127.0.0.1:8001/"
    assert http_twin(https) == "http://127.0.0.1:8001/"
    assert scheme_note(https, NetFailure.TLS) == (
        "no scheme given: https://127.0.0.1:8001/ did not connect (TLS failed), auditing "
        "http://127.0.0.1:8001/"
    )
    assert (
        scheme_note(https, None)
        == "no scheme given: auditing https://127.0.0.1:8001/ (https answered)"
    )


# -- a closed site: what to pass (issue 28) --------------------------------------------------

BASIC_CHALLENGE = {"www-authenticate": 'Basic realm="staging", charset="UTF-8"'}


def walled(status: int, headers: dict[str, str] | None = None, url: str = START) -> FollowedFetch:
    result = ports.FetchResult(url, status, dict(headers or {}), b"", False, 1.0)
    return FollowedFetch(result, url, [START] if url == START else [START, url])


def scope(**fields: object) -> CredentialScope:
    return CredentialScope.of(Credentials(**fields), START)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("followed", "credentials", "sentence"),
    [
        (
            walled(401, BASIC_CHALLENGE),
            None,
            "answered 401 Unauthorized: the site needs HTTP basic auth: pass --auth "
            "USER:PASSWORD (the API's credentials.basic_auth).",
        ),
        (  # several challenges, Basic among them (RFC 9110 §11.6.1)
            walled(401, {"www-authenticate": 'Bearer realm="api", basic realm="x"'}),
            None,
            "needs HTTP basic auth: pass --auth",
        ),
        (
            walled(401, {"www-authenticate": 'Bearer realm="api"'}),
            None,
            "pass what it needs: an access header with --header 'NAME: VALUE' or a login cookie "
            "with --cookie NAME=VALUE",
        ),
        (
            walled(403, BASIC_CHALLENGE),  # a challenge on a 403 asks for nothing
            None,
            "answered 403 Forbidden: the server refused the audit access",
        ),
        (
            walled(401, BASIC_CHALLENGE),
            scope(basic_auth=BasicAuth("ci", "pw-1"), cookies={"session": "c-1"}),
            "answered 401 Unauthorized: the server refused the credentials sent (basic auth as "
            "'ci'; the cookie session). Check that they are current and meant for this site.",
        ),
        (
            walled(401, BASIC_CHALLENGE),
            scope(headers={"X-Token": "t-1"}),
            "the site needs HTTP basic auth, which the credentials lack: pass --auth",
        ),
        (
            walled(403),
            scope(headers={"CF-Access-Client-Id": "i", "CF-Access-Client-Secret": "s-1"}),
            "refused the credentials sent (the header CF-Access-Client-Id, "
            "CF-Access-Client-Secret)",
        ),
        (
            walled(401, BASIC_CHALLENGE, url="https://login.example/"),
            scope(basic_auth=BasicAuth("ci", "pw-1")),
            "http://127.0.0.1:9/ redirects to https://login.example/, which answered 401 "
            "Unauthorized: the audit's credentials go only to http://127.0.0.1:9, so "
            "https://login.example got none. If it should, add it with --credentials-origin "
            "https://login.example (the API's credentials.origins).",
        ),
    ],
)
def test_a_wall_at_the_start_url_says_what_to_pass_and_never_a_value(
    followed: FollowedFetch, credentials: CredentialScope | None, sentence: str
) -> None:
    failure = judge_start(START, followed, credentials)
    assert failure is not None and failure.error_code is ErrorCode.SITE_HTTP_ERROR
    assert sentence in failure.detail
    for secret in ("pw-1", "c-1", "t-1", "s-1"):
        assert secret not in failure.detail
