"""crawl.remeasure: one quiet GET per page, timed to its headers, in order, a few at a time, none
started past the deadline."""

from __future__ import annotations

import asyncio

import pytest

from common import ports
from crawl.remeasure import measure, measure_all


class Answers:
    """Answers each URL as `by_url` says: an int is a 200 after that many ms (reported, not
    waited), "timeout" and "refused" are failures with the clients' texts."""

    def __init__(self, by_url: dict[str, int | str]) -> None:
        self.by_url = by_url
        self.in_flight = self.most_in_flight = 0
        self.requests: list[ports.FetchRequest] = []

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        self.requests.append(request)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await asyncio.sleep(0)
        self.in_flight -= 1
        answer = self.by_url[request.url]
        if answer == "timeout":
            return ports.FetchResult(request.url, 0, {}, b"", False, 3000.0, "timed out after 3 s")
        if answer == "refused":
            error = "cannot connect to a.test:80: [Errno 111] Connection refused"
            return ports.FetchResult(request.url, 0, {}, b"", False, 1.0, error)
        assert isinstance(answer, int)
        return ports.FetchResult(request.url, 200, {}, b"", False, answer + 0.4)


@pytest.mark.parametrize(
    ("answer", "figure"),
    [(20, 20), (1750, 1750), ("timeout", 3000), ("refused", None)],
)
async def test_a_measurement_is_the_time_to_the_headers(
    answer: int | str, figure: int | None
) -> None:
    http = Answers({"https://a.test/": answer})

    assert await measure(http, "https://a.test/", timeout_s=3.0) == figure
    [request] = http.requests
    assert (request.method, request.timeout_s, request.sink is not None) == ("GET", 3.0, True)


async def test_pages_are_measured_in_order_a_few_at_a_time() -> None:
    urls = [f"https://a.test/{i}" for i in range(7)]
    http = Answers(dict.fromkeys(urls, 20))

    times = await measure_all(http, urls, 3.0, concurrency=2)

    assert list(times) == urls
    assert [r.url for r in http.requests] == urls
    assert http.most_in_flight == 2


async def test_nothing_starts_past_the_deadline() -> None:
    urls = [f"https://a.test/{i}" for i in range(5)]
    http = Answers(dict.fromkeys(urls, 20))
    ticks = iter(range(100))

    times = await measure_all(http, urls, 3.0, concurrency=1, deadline=3, clock=lambda: next(ticks))

    assert list(times) == urls[:3]
