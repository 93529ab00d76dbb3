"""External links: which links leave the site, what an answer means, the hop-by-hop check under
the SSRF policy, and the per-host politeness of a batch."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import Iterator

import pytest

from audit.external_links import ExternalOutcome as O
from common import ports, settings
from common.fetch_class import FetchClass
from crawl.external_check import check_external_url, check_external_urls
from crawl.external_links import (
    failure_outcome,
    judge,
    next_hop,
    next_ready,
)
from durable.records import ExternalCheck
from tests.support.streamed_links import page_links
from urls.private_hosts import PrivateHosts

PAGE = "https://site.test/docs/"


def test_a_page_names_its_external_links_once_each_normalised() -> None:
    html = (
        b"<a href=/internal>in</a><a href='https://www.site.test/x'>www is the site</a>"
        b"<a href='https://Other.test/a#one'>a</a><a href='https://other.test/a#two'>again</a>"
        b"<a href='http://site.test:8080/'>another port</a><a href='mailto:x@other.test'>m</a>"
        b"<a href='ftp://other.test/f'>ftp</a><map><area href='https://maps.test/' alt=m></map>"
        b"<img src='https://cdn.test/i.png' alt=''><script src='https://cdn.test/s.js'></script>"
    )
    links = page_links(html, PAGE, check_external=True)
    assert [ref.url for ref in links.external_refs] == [
        "https://other.test/a",
        "http://site.test:8080/",
        "https://maps.test/",
    ]
    assert page_links(html, PAGE).external_refs == []  # without check_external


@pytest.mark.parametrize(
    ("current", "status", "location", "hop"),
    [
        ("https://a.test/x", 301, "/y", "https://a.test/y"),
        ("https://a.test/x", 302, "https://b.test/", "https://b.test/"),
        ("https://a.test/x/", 307, "../z", "https://a.test/z"),
        ("https://a.test/x", 308, " //c.test/w ", "https://c.test/w"),
        ("https://a.test/x", 301, None, None),
        ("https://a.test/x", 301, "", None),
        ("https://a.test/x", 302, "mailto:me@a.test", None),
        ("https://a.test/x", 200, "/y", None),
        ("https://a.test/x", 404, "/y", None),
    ],
)
def test_next_hop(current: str, status: int, location: str | None, hop: str | None) -> None:
    assert next_hop(current, status, location) == hop


@pytest.mark.parametrize(
    ("error", "outcome"),
    [
        ("timed out after 10 s", O.TIMEOUT),
        ("cannot resolve nowhere.test: [Errno -2] Name or service not known", O.BROKEN),
        ("getaddrinfo ENOTFOUND nowhere.test", O.BROKEN),
        ("cannot connect to a.test:81: [Errno 111] Connect call failed", O.REFUSED),
        ("connect ECONNREFUSED 203.0.113.9:443", O.REFUSED),
        ("refused to connect to a.test:80: it resolves only to non-public addresses", O.PRIVATE),
        ("certificate verify failed", O.ERROR),
        (None, O.ERROR),
    ],
)
def test_a_fetch_without_an_answer_is_what_its_error_says(error: str | None, outcome: O) -> None:
    assert failure_outcome(error)[0] is outcome


U, F = "https://a.test/x", "https://b.test/final"


@pytest.mark.parametrize(
    ("final_url", "hops", "status", "fetch_class", "error", "expected"),
    [
        (U, 0, 200, FetchClass.OK, None, ExternalCheck(U, "ok", 200)),
        (U, 0, 204, FetchClass.OK, None, ExternalCheck(U, "ok", 204)),
        (U, 0, 404, FetchClass.OK, None, ExternalCheck(U, "broken", 404, None, "HTTP 404")),
        (U, 0, 500, FetchClass.OK, None, ExternalCheck(U, "broken", 500, None, "HTTP 500")),
        (F, 2, 200, FetchClass.OK, None, ExternalCheck(U, "redirect", 200, F)),
        (F, 1, 410, FetchClass.OK, None, ExternalCheck(U, "broken", 410, F, "HTTP 410")),
        (U, 0, 403, FetchClass.BLOCKED, None, ExternalCheck(U, "blocked", 403, None, "blocked")),
        (
            U,
            0,
            429,
            FetchClass.RATE_LIMITED,
            None,
            ExternalCheck(U, "blocked", 429, None, "rate_limited"),
        ),
        (U, 0, 0, FetchClass.ERROR, "timed out", ExternalCheck(U, "timeout", 0, None, "timeout")),
        (F, 1, 0, FetchClass.ERROR, "timed out", ExternalCheck(U, "timeout", 0, F, "timeout")),
    ],
)
def test_the_last_answer_decides(
    final_url: str,
    hops: int,
    status: int,
    fetch_class: FetchClass,
    error: str | None,
    expected: ExternalCheck,
) -> None:
    assert judge(U, final_url, hops, status, fetch_class, error) == expected


@pytest.mark.parametrize(
    ("queue", "busy", "free_at", "ready"),
    [
        (["https://a.test/1", "https://b.test/1"], {}, {}, 0),
        (["https://a.test/1", "https://b.test/1"], {"a.test": 2}, {}, 1),
        (["https://a.test/1", "https://b.test/1"], {"a.test": 1}, {}, 0),
        (["https://a.test/1", "https://b.test/1"], {}, {"a.test": 5.0}, 1),
        (["https://a.test/1", "https://b.test/1"], {"a.test": 2}, {"b.test": 5.0}, None),
        (["https://A.test/1"], {"a.test": 2}, {}, None),
        ([], {}, {}, None),
    ],
)
def test_the_next_url_is_the_first_whose_host_has_room(
    queue: list[str], busy: dict[str, int], free_at: dict[str, float], ready: int | None
) -> None:
    assert next_ready(queue, busy, free_at, now=1.0, per_host=2) == ready


# -- the checks, over a scripted client -----------------------------------------------------------


@dataclasses.dataclass
class ScriptedHttp:
    """Answers (status, location) per (method, url); records requests and the peak concurrency
    per host."""

    answers: dict[tuple[str, str], tuple[int, str | None]]
    delay_s: float = 0.0
    requests: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    in_flight: dict[str, int] = dataclasses.field(default_factory=dict)
    peak: dict[str, int] = dataclasses.field(default_factory=dict)

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        host = request.url.split("/")[2]
        self.requests.append((request.method, request.url))
        self.in_flight[host] = self.in_flight.get(host, 0) + 1
        self.peak[host] = max(self.peak.get(host, 0), self.in_flight[host])
        try:
            await asyncio.sleep(self.delay_s)
        finally:
            self.in_flight[host] -= 1
        status, location = self.answers.get((request.method, request.url), (0, None))
        headers = {} if location is None else {"location": location}
        error = "timed out after 1 s" if status == 0 else None
        return ports.FetchResult(request.url, status, headers, b"", False, 1.0, error)


A = "https://a.test"


@pytest.mark.parametrize(
    ("answers", "policy", "expected", "requests"),
    [
        (
            {("HEAD", f"{A}/x"): (405, None), ("GET", f"{A}/x"): (200, None)},
            PrivateHosts.DENY,
            ExternalCheck(f"{A}/x", "ok", 200),
            [("HEAD", f"{A}/x"), ("GET", f"{A}/x")],
        ),
        (
            {("HEAD", f"{A}/x"): (301, "/y"), ("HEAD", f"{A}/y"): (200, None)},
            PrivateHosts.DENY,
            ExternalCheck(f"{A}/x", "redirect", 200, f"{A}/y"),
            [("HEAD", f"{A}/x"), ("HEAD", f"{A}/y")],
        ),
        (
            {("HEAD", f"{A}/x"): (302, "http://10.0.0.1/admin")},
            PrivateHosts.DENY,
            ExternalCheck(
                f"{A}/x",
                "private",
                0,
                "http://10.0.0.1/admin",
                "not requested: 10.0.0.1 is a private or reserved address",
            ),
            [("HEAD", f"{A}/x")],
        ),
        (
            {},
            PrivateHosts.DENY,
            ExternalCheck(
                "http://127.0.0.2/x",
                "private",
                0,
                None,
                "not requested: 127.0.0.2 is a private or reserved address",
            ),
            [],
        ),
        (
            {("HEAD", "http://127.0.0.2/x"): (404, None)},
            PrivateHosts.LOOPBACK,
            ExternalCheck("http://127.0.0.2/x", "broken", 404, None, "HTTP 404"),
            [("HEAD", "http://127.0.0.2/x")],
        ),
        (
            {("HEAD", f"{A}/x"): (301, "/x")},
            PrivateHosts.DENY,
            ExternalCheck(f"{A}/x", "broken", 301, f"{A}/x", "more than 3 redirects"),
            [("HEAD", f"{A}/x")] * 4,
        ),
    ],
)
def test_a_check_follows_redirects_hop_by_hop_under_the_ssrf_policy(
    answers: dict[tuple[str, str], tuple[int, str | None]],
    policy: PrivateHosts,
    expected: ExternalCheck,
    requests: list[tuple[str, str]],
    few_hops: None,
) -> None:
    url = expected.url
    http = ScriptedHttp(answers)
    assert asyncio.run(check_external_url(http, url, policy, 1.0)) == expected
    assert http.requests == requests


@pytest.fixture
def few_hops() -> Iterator[None]:
    saved = settings.EXTERNAL
    settings.EXTERNAL = dataclasses.replace(saved, max_hops=3, host_spacing_s=0.0)
    try:
        yield
    finally:
        settings.EXTERNAL = saved


def test_a_batch_keeps_two_requests_per_host_and_checks_each_url_once(few_hops: None) -> None:
    urls = [f"https://{host}.test/{n}" for host in ("a", "b") for n in range(5)]
    answers = {("HEAD", url): (200, None) for url in urls}
    http = ScriptedHttp(answers, delay_s=0.01)
    batch = asyncio.run(check_external_urls(http, urls, PrivateHosts.DENY, 1.0, deadline_s=30))
    assert sorted(check.url for check in batch.checks) == sorted(urls)
    assert batch.unlaunched == []
    assert http.peak == {"a.test": 2, "b.test": 2}
    assert sorted(url for _, url in http.requests) == sorted(urls)


def test_a_batch_past_its_deadline_hands_back_what_it_did_not_launch(few_hops: None) -> None:
    urls = [f"https://a.test/{n}" for n in range(4)]
    now = [0.0]
    http = ScriptedHttp({("HEAD", url): (200, None) for url in urls})
    inner = http.fetch

    async def slow_fetch(request: ports.FetchRequest) -> ports.FetchResult:
        now[0] += 1.0  # each request takes a second of the fake clock
        return await inner(request)

    http.fetch = slow_fetch  # type: ignore[method-assign]
    batch = asyncio.run(
        check_external_urls(
            http, urls, PrivateHosts.DENY, 1.0, deadline_s=1.5, clock=lambda: now[0]
        )
    )
    assert sorted(check.url for check in batch.checks) == urls[:2]  # two per host at once
    assert batch.unlaunched == urls[2:]


def test_requests_to_one_host_are_spaced(few_hops: None) -> None:
    import time

    settings.EXTERNAL = dataclasses.replace(settings.EXTERNAL, host_spacing_s=0.05)
    urls = [f"https://a.test/{n}" for n in range(4)] + ["https://b.test/0"]
    starts: dict[str, list[float]] = {}
    http = ScriptedHttp({("HEAD", url): (200, None) for url in urls})
    inner = http.fetch

    async def timed_fetch(request: ports.FetchRequest) -> ports.FetchResult:
        starts.setdefault(request.url.split("/")[2], []).append(time.monotonic())
        return await inner(request)

    http.fetch = timed_fetch  # type: ignore[method-assign]
    asyncio.run(check_external_urls(http, urls, PrivateHosts.DENY, 1.0, deadline_s=30))
    gaps = [b - a for a, b in itertools.pairwise(starts["a.test"])]
    assert len(gaps) == 3 and min(gaps) >= 0.045, gaps
    assert starts["b.test"][0] - starts["a.test"][0] < 0.045  # another host does not wait
