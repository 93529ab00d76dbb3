"""Discovery's start URL with a fake HttpClient: the verdict, the https-then-http rule for a start
URL typed without a scheme, and a failed start that stores nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from common import ports
from common.failures import ErrorCode
from crawl.discovery import discover, resolve_start
from urls.private_hosts import PrivateHosts

HTTPS = "https://127.0.0.1:8001/"
HTTP = "http://127.0.0.1:8001/"
TLS = "cannot connect to 127.0.0.1:8001: [SSL: WRONG_VERSION_NUMBER] wrong version number"
REFUSED = "cannot connect to 127.0.0.1:8001: [Errno 111] Connect call failed"
HTML = {"content-type": "text/html"}

type Answer = tuple[int, Mapping[str, str], str | None]


class FakeHttp:
    """Answers by URL; an unknown URL gets no answer (a refused connection)."""

    def __init__(self, answers: Mapping[str, Answer]) -> None:
        self.answers, self.urls = answers, list[str]()

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        self.urls.append(request.url)
        status, headers, error = self.answers.get(request.url, (0, {}, REFUSED))
        return ports.FetchResult(request.url, status, dict(headers), b"", False, 1.0, error)


class UntouchedPad:
    """A scratchpad that fails the test on any use: a failed start must store nothing."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the scratchpad was used ({name}) for a start URL that failed")


async def resolve(answers: Mapping[str, Answer], url: str = HTTPS, *, assumed: bool = True) -> Any:
    http = FakeHttp(answers)
    start = await resolve_start(http, url, private_hosts=PrivateHosts.ALLOW, scheme_assumed=assumed)
    return start, http.urls


async def test_a_bare_host_whose_https_fails_its_handshake_is_audited_over_http() -> None:
    start, urls = await resolve({HTTPS: (0, {}, TLS), HTTP: (200, HTML, None)})
    assert urls == [HTTPS, HTTP]
    assert (start.final_url, start.failure) == (HTTP, None)
    assert start.scheme_note == (
        "no scheme given: https://127.0.0.1:8001/ did not connect (TLS failed), auditing "
        "http://127.0.0.1:8001/"
    )


async def test_a_bare_host_whose_https_answers_stays_on_https_even_with_an_error() -> None:
    start, urls = await resolve({HTTPS: (503, HTML, None), HTTP: (200, HTML, None)})
    assert urls == [HTTPS]
    assert start.final_url == HTTPS
    assert start.failure is not None and start.failure.error_code is ErrorCode.SITE_HTTP_ERROR
    assert start.scheme_note == "no scheme given: auditing https://127.0.0.1:8001/ (https answered)"


async def test_a_bare_host_with_neither_scheme_answering_fails_on_the_http_attempt() -> None:
    start, urls = await resolve({})
    assert urls == [HTTPS, HTTP]
    assert start.failure is not None
    assert start.failure.error_code is ErrorCode.SITE_CONNECTION_FAILED
    assert start.failure.detail.startswith("http://127.0.0.1:8001/ refused the connection")
    assert "connection refused" in start.scheme_note


@pytest.mark.parametrize("url", [HTTPS, HTTP])
async def test_a_typed_scheme_is_never_changed(url: str) -> None:
    start, urls = await resolve({}, url, assumed=False)
    assert urls == [url]
    assert start.scheme_note is None
    assert (
        start.failure is not None and start.failure.error_code is ErrorCode.SITE_CONNECTION_FAILED
    )


async def test_a_start_url_that_fails_stops_discovery_before_anything_is_stored() -> None:
    css = "http://127.0.0.1:8001/style.css"
    http = FakeHttp({css: (200, {"content-type": "text/css"}, None)})
    report = await discover(
        http,
        UntouchedPad(),  # type: ignore[arg-type]
        start_url=css,
        policy_for=lambda final_url, robots: pytest.fail("no policy for a failed start"),
        max_pages=50,
        private_hosts=PrivateHosts.ALLOW,
    )
    assert report.start_failure is not None
    assert report.start_failure.error_code is ErrorCode.START_NOT_HTML
    assert (report.seeded, report.start_allowed, report.final_url) == (0, False, css)
    # The start URL and the robots.txt asked for at the same time; no sitemap, no second try.
    assert sorted(http.urls) == sorted([css, "http://127.0.0.1:8001/robots.txt"])
