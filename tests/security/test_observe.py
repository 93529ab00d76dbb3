"""security.observe asks for the site's two entry points at once, then the CORS probe."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from common import ports
from security.observe import observe_site
from urls.private_hosts import PrivateHosts


class SlowSite:
    """Answers every request 200 after a pause; records the order and how many were in flight."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.most_in_flight = 0
        self.asked: list[tuple[str, bool]] = []  # (url, with an Origin header)

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        self.asked.append((request.url, "origin" in request.headers))
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        return ports.FetchResult(
            request.url, 200, {"content-type": "text/html"}, b"<p>hi", False, 10
        )


@pytest.fixture
def site(outbound_http: object) -> Iterator[SlowSite]:
    real = ports.http_client()
    slow = SlowSite()
    ports.configure(http=slow)
    try:
        yield slow
    finally:
        ports.configure(http=real)


async def test_the_http_and_https_entry_points_are_asked_at_once(site: SlowSite) -> None:
    observed = await observe_site("http://a.test/docs", private_hosts=PrivateHosts.ALLOW)

    assert site.most_in_flight == 2
    assert sorted(site.asked[:2]) == [("http://a.test/docs", False), ("https://a.test/docs", False)]
    assert site.asked[2] == ("https://a.test/docs", True)  # the CORS probe asks `auto`: https
    assert (observed.http is not None, observed.https is not None) == (True, True)
