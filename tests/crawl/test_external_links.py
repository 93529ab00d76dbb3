"""External links: which links leave the site, what an answer means, the hop-by-hop check under
the SSRF policy, and the per-host politeness of a batch."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import Mapping
from typing import Any

import pytest

from audit.external_links import ExternalOutcome as O
from audit.external_links import HostReach as R
from common import ports, settings
from common.fetch_class import FetchClass
from crawl.external_check import check_external_url, check_external_urls
from crawl.external_links import (
    HostNames,
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


# No fetch failure is "broken": a name that does not resolve is `unresolved`, judged against the
# audit's other names (audit.external_links.DnsTally); the reach says what the failure tells of
# the host's name.
@pytest.mark.parametrize(
    ("error", "outcome", "reach", "reason"),
    [
        ("timed out after 10 s", O.TIMEOUT, R.SILENT, "no answer in time (timeout)"),
        (
            "fetch to https://nowhere.test/ failed: cannot resolve nowhere.test: [Errno -2] "
            "Name or service not known",
            O.UNRESOLVED,
            R.UNRESOLVED,
            "the host name does not resolve (DNS)",
        ),
        (
            "getaddrinfo ENOTFOUND nowhere.test",
            O.UNRESOLVED,
            R.UNRESOLVED,
            "the host name does not resolve (DNS)",
        ),
        (
            "cannot connect to a.test:81: [Errno 111] Connect call failed",
            O.REFUSED,
            R.CONNECTED,
            "the connection was refused",
        ),
        ("connect ECONNREFUSED 203.0.113.9:443", O.REFUSED, R.CONNECTED, None),
        (
            "refused to connect to a.test:80: it resolves only to non-public addresses",
            O.PRIVATE,
            R.CONNECTED,
            None,
        ),
        ("certificate verify failed", O.ERROR, R.CONNECTED, None),
        ("stream reset by a gremlin", O.ERROR, R.SILENT, "stream reset by a gremlin"),
        (None, O.ERROR, R.SILENT, "no answer"),
    ],
)
def test_a_fetch_without_an_answer_is_what_its_error_says(
    error: str | None, outcome: O, reach: R, reason: str | None
) -> None:
    found = failure_outcome(error)
    assert (found[0], found[2]) == (outcome, reach)
    if reason is not None:
        assert found[1] == reason


U, F = "https://a.test/x", "https://b.test/final"
TIMEOUT, DNS = "no answer in time (timeout)", "the host name does not resolve (DNS)"


def answered(
    url: str, outcome: str, status: int, final: str | None = None, reason: str | None = None
) -> ExternalCheck:
    return ExternalCheck(
        url, outcome, status, final, reason, (final or url).split("/")[2], "answered"
    )


@pytest.mark.parametrize(
    ("final_url", "hops", "status", "fetch_class", "error", "expected"),
    [
        (U, 0, 200, FetchClass.OK, None, answered(U, "ok", 200)),
        (U, 0, 204, FetchClass.OK, None, answered(U, "ok", 204)),
        (U, 0, 404, FetchClass.OK, None, answered(U, "broken", 404, None, "HTTP 404")),
        (U, 0, 500, FetchClass.OK, None, answered(U, "broken", 500, None, "HTTP 500")),
        (F, 2, 200, FetchClass.OK, None, answered(U, "redirect", 200, F)),
        (F, 1, 410, FetchClass.OK, None, answered(U, "broken", 410, F, "HTTP 410")),
        (U, 0, 403, FetchClass.BLOCKED, None, answered(U, "blocked", 403, None, "blocked")),
        (
            U,
            0,
            429,
            FetchClass.RATE_LIMITED,
            None,
            answered(U, "blocked", 429, None, "rate_limited"),
        ),
        (
            U,
            0,
            0,
            FetchClass.ERROR,
            "timed out",
            ExternalCheck(U, "timeout", 0, None, TIMEOUT, "a.test", "silent"),
        ),
        (
            F,
            1,
            0,
            FetchClass.ERROR,
            "timed out",
            ExternalCheck(U, "timeout", 0, F, TIMEOUT, "b.test", "silent"),
        ),
        (
            F,
            1,
            0,
            FetchClass.ERROR,
            "cannot resolve b.test: [Errno -2] Name or service not known",
            ExternalCheck(U, "unresolved", 0, F, DNS, "b.test", "unresolved"),
        ),
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

    answers: Mapping[tuple[str, str], tuple[int, str | None]]
    delay_s: float = 0.0
    unresolvable: frozenset[str] = frozenset()  # host names that do not resolve
    requests: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    in_flight: dict[str, int] = dataclasses.field(default_factory=dict)
    peak: dict[str, int] = dataclasses.field(default_factory=dict)

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        host = request.url.split("/")[2]
        self.requests.append((request.method, request.url))
        self.in_flight[host] = self.in_flight.get(host, 0) + 1
        self.peak[host] = max(self.peak.get(host, 0), self.in_flight[host])
        try:
            # A name that does not resolve fails at once; an answer takes a round trip.
            await asyncio.sleep(0 if host in self.unresolvable else self.delay_s)
        finally:
            self.in_flight[host] -= 1
        if host in self.unresolvable:  # the local platform's words (local_platform.http_client)
            error = f"fetch to {request.url} failed: cannot resolve {host}: {NO_NAME}"
            return ports.FetchResult(request.url, 0, {}, b"", False, 1.0, error)
        status, location = self.answers.get((request.method, request.url), (0, None))
        headers = {} if location is None else {"location": location}
        timeout = "timed out after 1 s" if status == 0 else None
        return ports.FetchResult(request.url, status, headers, b"", False, 1.0, timeout)


NO_NAME = "[Errno -2] Name or service not known"


A = "https://a.test"


@pytest.mark.parametrize(
    ("answers", "policy", "expected", "requests"),
    [
        (
            {("HEAD", f"{A}/x"): (405, None), ("GET", f"{A}/x"): (200, None)},
            PrivateHosts.DENY,
            answered(f"{A}/x", "ok", 200),
            [("HEAD", f"{A}/x"), ("GET", f"{A}/x")],
        ),
        (
            {("HEAD", f"{A}/x"): (301, "/y"), ("HEAD", f"{A}/y"): (200, None)},
            PrivateHosts.DENY,
            answered(f"{A}/x", "redirect", 200, f"{A}/y"),
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
            answered("http://127.0.0.2/x", "broken", 404, None, "HTTP 404"),
            [("HEAD", "http://127.0.0.2/x")],
        ),
        (
            {("HEAD", f"{A}/x"): (301, "/x")},
            PrivateHosts.DENY,
            answered(f"{A}/x", "broken", 301, f"{A}/x", "more than 3 redirects"),
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


def external_settings(monkeypatch: pytest.MonkeyPatch, **changes: Any) -> None:
    """`settings.EXTERNAL` with `changes`, for the rest of the test (monkeypatch puts it back)."""
    monkeypatch.setattr(settings, "EXTERNAL", dataclasses.replace(settings.EXTERNAL, **changes))


@pytest.fixture
def few_hops(monkeypatch: pytest.MonkeyPatch) -> None:
    external_settings(monkeypatch, max_hops=3, host_spacing_s=0.0)


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


def test_answers_are_recorded_as_they_come_for_the_progress_feed(
    few_hops: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    urls = [f"https://{host}.test/" for host in "abcdefgh"]
    now = [0.0]
    http = ScriptedHttp({("HEAD", url): (200, None) for url in urls}, delay_s=0.01)
    inner = http.fetch

    async def slow_fetch(request: ports.FetchRequest) -> ports.FetchResult:
        result = await inner(request)
        now[0] += 0.3  # each answer takes 0.3 s of the fake clock
        return result

    http.fetch = slow_fetch  # type: ignore[method-assign]
    external_settings(monkeypatch, concurrency=1)
    recorded: list[list[str]] = []

    async def record(checks: list[ExternalCheck]) -> None:
        recorded.append([check.url for check in checks])

    batch = asyncio.run(
        check_external_urls(
            http, urls, PrivateHosts.DENY, 1.0, deadline_s=30, clock=lambda: now[0], record=record
        )
    )
    assert len(recorded) > 1  # while the batch ran, not once at its end
    assert [url for part in recorded for url in part] == [c.url for c in batch.checks]
    assert sorted(c.url for c in batch.checks) == sorted(urls)


def test_requests_to_one_host_are_spaced(few_hops: None, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    external_settings(monkeypatch, host_spacing_s=0.05)
    urls = [f"https://a.test/{n}" for n in range(4)] + ["https://b.test/0"]
    starts: dict[str, list[float]] = {}
    http = ScriptedHttp({("HEAD", url): (200, None) for url in urls})
    inner = http.fetch
    # A request's start is read on the batch's own clock: the batch's last reading, the one it
    # launched the request at. The wall time from a launch to the request's first step is the
    # loop's (and the machine's load), not the batch's spacing.
    last_reading = [0.0]

    def clock() -> float:
        last_reading[0] = time.monotonic()
        return last_reading[0]

    async def timed_fetch(request: ports.FetchRequest) -> ports.FetchResult:
        starts.setdefault(request.url.split("/")[2], []).append(last_reading[0])
        return await inner(request)

    http.fetch = timed_fetch  # type: ignore[method-assign]
    asyncio.run(check_external_urls(http, urls, PrivateHosts.DENY, 1.0, deadline_s=30, clock=clock))
    gaps = [b - a for a, b in itertools.pairwise(starts["a.test"])]
    assert len(gaps) == 3 and min(gaps) >= 0.045, gaps
    assert starts["b.test"][0] - starts["a.test"][0] < 0.045  # another host does not wait


# -- host names: a dead name, and DNS that does not work where the audit runs -----------------------


def dead(name: str) -> str:
    return f"https://{name}.invalid/page"


def test_a_url_of_a_name_known_not_to_resolve_is_answered_without_a_request(
    few_hops: None,
) -> None:
    urls = [dead("gone"), "https://gone.invalid/other", "https://up.test/"]
    http = ScriptedHttp(
        {("HEAD", "https://up.test/"): (200, None)}, unresolvable=frozenset({"gone.invalid"})
    )
    names = HostNames.of(["up.test"], ["gone.invalid"])  # what an earlier step learnt
    batch = asyncio.run(
        check_external_urls(http, urls, PrivateHosts.DENY, 1.0, deadline_s=30, names=names)
    )
    assert sorted((c.url, c.outcome) for c in batch.checks) == [
        ("https://gone.invalid/other", "unresolved"),
        (dead("gone"), "unresolved"),
        ("https://up.test/", "ok"),
    ]
    assert [url for _, url in http.requests] == ["https://up.test/"]
    assert not batch.dns_stopped and batch.unlaunched == []


@pytest.mark.parametrize(
    ("resolving", "stopped", "requested"),
    [
        # Nothing resolves: the batch stops once DNS_PROBE_HOSTS names failed and the checks in
        # flight ended (all sixteen launch at once; nothing after that wave is requested).
        (0, True, 16),
        # Four names in forty resolve (the share DNS_MIN_RESOLVED_SHARE asks): DNS works, the
        # dead names are the site's, and all are checked, though twelve dead names end before
        # the first live one answers.
        (4, False, 40),
    ],
)
def test_a_batch_stops_when_dns_does_not_work_where_it_runs(
    few_hops: None, resolving: int, stopped: bool, requested: int
) -> None:
    live = [f"https://up{n}.test/" for n in range(resolving)]
    names = [f"n{n}" for n in range(40 - resolving)]
    urls = live + [dead(name) for name in names]
    answers = {("HEAD", url): (200, None) for url in live}
    dead_names = frozenset(f"{n}.invalid" for n in names)
    # The live names answer later than the dead ones fail, as on a real network: the verdict
    # must wait for them.
    http = ScriptedHttp(answers, delay_s=0.05, unresolvable=dead_names)
    batch = asyncio.run(check_external_urls(http, urls, PrivateHosts.DENY, 1.0, deadline_s=30))
    assert batch.dns_stopped is stopped
    assert len(http.requests) == requested
    assert sorted([*(c.url for c in batch.checks), *batch.unlaunched]) == sorted(urls)
    if stopped:
        assert all(c.outcome == "unresolved" for c in batch.checks)
        assert len(batch.unlaunched) == 40 - len(batch.checks)
