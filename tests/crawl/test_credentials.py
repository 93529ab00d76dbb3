"""Credentials on the wire (crawl.credentials): attached per request by the request URL's origin,
so a redirect to another origin drops them and a hop back re-adds them; error texts scrubbed."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from common import ports
from crawl.credentials import CredentialedFetchError, CredentialedHttp, credentialed
from crawl.redirects import fetch_following
from urls.credentials import REDACTED, BasicAuth, Credentials, CredentialScope, Recipient
from urls.private_hosts import PrivateHosts

START = "https://stage.example/"
SECRET = "pa55-w0rd"
CREDS = Credentials(
    basic_auth=BasicAuth("ci", SECRET),
    headers={"X-Access": "t0ken"},
    cookies={"session": "c00kie"},
    origins=["https://api.stage.example"],
)
FIELDS = CREDS.request_headers()


class RecordingHttp:
    """Answers by URL (a Location for a redirect), recording each request's headers."""

    def __init__(self, redirects: Mapping[str, str] = {}, error: str | None = None) -> None:
        self.redirects, self.error = redirects, error
        self.sent: list[tuple[str, dict[str, str]]] = []

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        self.sent.append((request.url, dict(request.headers)))
        location = self.redirects.get(request.url)
        if self.error is not None:
            return ports.FetchResult(request.url, 0, {}, b"", False, 1.0, self.error)
        if location is None:
            return ports.FetchResult(request.url, 200, {}, b"", False, 1.0)
        return ports.FetchResult(request.url, 302, {"location": location}, b"", False, 1.0)


def carried(headers: dict[str, str]) -> bool:
    present = [name in headers for name in FIELDS]
    assert all(present) or not any(present), headers  # all of them, or none
    return all(present)


@pytest.mark.parametrize(
    ("url", "gets"),
    [
        (START, True),
        ("https://stage.example/deep/page?q=1", True),
        ("https://stage.example:443/x", True),
        ("https://api.stage.example/v1", True),  # listed
        ("https://stage.example:8443/", False),  # another port: another origin
        ("http://stage.example/", False),  # another scheme
        ("https://www.stage.example/", False),  # another host, even the same site
        ("https://evil.example/?stage.example", False),
        ("https://stage.example.evil.example/", False),
    ],
)
async def test_a_request_carries_the_credentials_only_to_an_allowed_origin(
    url: str, gets: bool
) -> None:
    inner = RecordingHttp()
    http = CredentialedHttp(inner, CredentialScope.of(CREDS, START))
    await http.fetch(ports.FetchRequest(url, 1.0, 100, {"user-agent": "siteaudit"}))
    ((_, headers),) = inner.sent
    assert carried(headers) is gets
    assert headers["user-agent"] == "siteaudit"


async def test_a_redirect_to_another_origin_drops_them_and_a_hop_back_re_adds_them() -> None:
    hops = {
        START: "https://elsewhere.example/bounce",
        "https://elsewhere.example/bounce": "https://stage.example/landing",
    }
    inner = RecordingHttp(hops)
    followed = await fetch_following(
        CredentialedHttp(inner, CredentialScope.of(CREDS, START)),
        START,
        private_hosts=PrivateHosts.ALLOW,
        timeout_s=1.0,
        max_bytes=0,
        headers={},
    )
    assert followed.final_url == "https://stage.example/landing"
    assert [(url, carried(headers)) for url, headers in inner.sent] == [
        (START, True),
        ("https://elsewhere.example/bounce", False),
        ("https://stage.example/landing", True),
    ]


async def test_an_http_start_sends_them_over_the_https_upgrade_of_the_same_host() -> None:
    start = "http://stage.example/"
    inner = RecordingHttp({start: "https://stage.example/"})
    creds = Credentials(cookies={"session": "c00kie"})
    await fetch_following(
        CredentialedHttp(inner, CredentialScope.of(creds, start)),
        start,
        private_hosts=PrivateHosts.ALLOW,
        timeout_s=1.0,
        max_bytes=0,
        headers={},
    )
    assert [("cookie" in headers) for _, headers in inner.sent] == [True, True]


async def test_an_error_text_is_scrubbed_of_every_secret() -> None:
    leaky = f"h11 refused header authorization: {FIELDS['authorization']} (cookie session=c00kie)"
    http = CredentialedHttp(RecordingHttp(error=leaky), CredentialScope.of(CREDS, START))
    result = await http.fetch(ports.FetchRequest(START, 1.0, 100))
    assert result.error is not None and REDACTED in result.error
    for secret in (SECRET, "c00kie", FIELDS["authorization"]):
        assert secret not in result.error


class RaisingHttp:
    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        raise ValueError(f"Illegal header value {request.headers.get('x-access')!r}")


async def test_an_exception_is_re_raised_scrubbed_and_without_its_cause() -> None:
    http = CredentialedHttp(RaisingHttp(), CredentialScope.of(CREDS, START))
    with pytest.raises(CredentialedFetchError) as caught:
        await http.fetch(ports.FetchRequest(START, 1.0, 100))
    assert "t0ken" not in str(caught.value) and REDACTED in str(caught.value)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


@pytest.mark.parametrize(
    ("flags", "recipient", "wrapped"),
    [
        ({}, Recipient.SITE, True),
        ({}, Recipient.EXTERNAL_LINKS, False),
        ({}, Recipient.LIGHTHOUSE, False),
        ({"send_to_external_links": True}, Recipient.EXTERNAL_LINKS, True),
        ({"send_to_lighthouse": True}, Recipient.LIGHTHOUSE, True),
    ],
)
def test_checks_that_go_elsewhere_get_the_credentials_only_when_allowed(
    flags: dict[str, bool], recipient: Recipient, wrapped: bool
) -> None:
    inner = RecordingHttp()
    creds = Credentials(cookies={"s": "1"}, **flags)  # type: ignore[arg-type]
    scope = CredentialScope.of(creds, START)
    assert isinstance(credentialed(inner, scope, recipient), CredentialedHttp) is wrapped
    assert credentialed(inner, None, recipient) is inner
