"""The audit's rate holds across Workflow step boundaries (crawl.pacing, workflow.pace): a step
hands on, per host, the wall-clock second its next request may start, and the next step's pacer
starts from it, so a new crawl chunk (or a render step, the timing re-measure, the security grade,
the exposure checks) never sends its first request the moment the last step sent its last one."""

from __future__ import annotations

import asyncio
import itertools
import time
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import ports
from crawl.chunk import ChunkReport
from crawl.pacing import HostPacer, NoTurnLeft, PacedHttp, StampedHttp, epoch_s
from crawl.site_health import NoAnswers
from local_platform.runtime import LocalPlatform
from tests.crawl_flow.test_chunk_refill import CHAIN, reports, site
from tests.crawl_flow.test_chunk_refill import audit as chain_audit
from tests.support.site_server import Site
from workflow.external_step import ExternalReport
from workflow.render_step import RenderReport
from workflow.security_step import SecurityGraded
from workflow.steps import CrawlStart

__all__ = ["reports", "site"]  # the chain site's fixtures (tests.crawl_flow.test_chunk_refill)

A, B = "https://a.test/x", "https://b.test/y"

# -- the pacer's state, carried ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("carried", "now", "epoch", "waits"),
    [
        ({}, 50.0, 1_000.0, {A: 0.0, B: 0.0}),  # nothing carried: at once
        ({"a.test": 1_000.4}, 50.0, 1_000.0, {A: 0.4, B: 0.0}),  # its turn is 0.4 s away
        ({"a.test": 999.9}, 50.0, 1_000.0, {A: 0.0, B: 0.0}),  # its turn has passed
        # Another instance's monotonic clock: only the wall's seconds cross the boundary.
        ({"a.test": 1_000.25, "b.test": 1_001.0}, 7.0, 1_000.0, {A: 0.25, B: 1.0}),
    ],
)
def test_a_resumed_pacer_waits_for_the_turns_the_last_step_carried(
    carried: dict[str, float], now: float, epoch: float, waits: dict[str, float]
) -> None:
    pacer = HostPacer.resumed(2.0, carried, now, epoch)
    assert {url: pytest.approx(pacer.wait_s(url, now)) for url in waits} == waits


@pytest.mark.parametrize(
    ("starts", "now", "epoch", "carried"),
    [
        ([], 10.0, 500.0, {}),
        ([(A, 9.9)], 10.0, 500.0, {"a.test": 500.4}),  # 9.9 + 0.5 is 0.4 s after now
        ([(A, 9.0)], 10.0, 500.0, {}),  # its turn has passed: nothing to carry
        ([(A, 9.8), (B, 9.95)], 10.0, 500.0, {"a.test": 500.3, "b.test": 500.45}),
        ([(A, 9.9)], 10.0, 500.0001, {"a.test": 500.401}),  # rounded up: late, never early
    ],
)
def test_a_pacer_carries_each_hosts_next_turn_in_epoch_seconds(
    starts: list[tuple[str, float]], now: float, epoch: float, carried: dict[str, float]
) -> None:
    pacer = HostPacer(2.0)
    for url, at in starts:
        pacer.started(url, at)
    assert pacer.carried(now, epoch) == carried


@given(
    st.dictionaries(st.sampled_from(["a.test", "b.test", "c.test"]), st.floats(0, 30), max_size=3),
    st.floats(0, 1e6),
    st.floats(1e9, 2e9),
)
def test_carried_then_resumed_keeps_every_wait_or_lengthens_it(
    waits: dict[str, float], now: float, epoch: float
) -> None:
    # What a step leaves and the next one reads back: no host's wait ever gets shorter.
    pacer = HostPacer(1.0)
    for host, wait in waits.items():
        pacer.started(f"https://{host}/", now + wait - 1.0)
    resumed = HostPacer.resumed(1.0, pacer.carried(now, epoch), now + 5.0, epoch)
    for host in waits:
        url = f"https://{host}/"
        assert resumed.wait_s(url, now + 5.0) >= pacer.wait_s(url, now) - 1e-6


@given(st.dictionaries(st.text(min_size=1), st.floats(0, 2e9), max_size=4))
def test_the_records_that_carry_the_pace_round_trip(pace: dict[str, float]) -> None:
    chunk = ChunkReport(1, 2, False, 2, 2, 0, 3, 0, 10, False, False, no_answers=NoAnswers())
    records: list[Any] = [
        replace(chunk, next_request_at=pace),
        CrawlStart(0, 1, 0, next_request_at=pace),
        ExternalReport(1, 2, 0, 0, next_request_at=pace),
        SecurityGraded(True, "A", 90, next_request_at=pace),
        RenderReport(claimed=2, rendered=2, next_request_at=pace),
    ]
    for record in records:
        assert type(record).from_dict(record.to_dict()) == record


async def test_paced_http_waits_for_each_hosts_turn() -> None:
    starts: list[tuple[str, float]] = []

    class Site:
        async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
            starts.append((request.url, time.monotonic()))
            return ports.FetchResult(request.url, 200, {}, b"", False, 1.0)

    http = PacedHttp.resumed(Site(), 20.0, {})
    # Concurrent callers too: each waits for its own turn, counted from the last real start.
    await asyncio.gather(*(http.fetch(ports.FetchRequest(url, 1.0, 1000)) for url in (A, A, B, A)))
    await http.fetch(ports.FetchRequest(A, 1.0, 1000))
    a_times = [at for url, at in starts if url == A]
    assert len(a_times) == 4 and all(
        later - earlier >= 0.05 - 0.002 for earlier, later in itertools.pairwise(a_times)
    )
    assert set(http.carried()) <= {"a.test", "b.test"}


async def test_a_request_that_starts_late_pushes_its_hosts_next_turn_back() -> None:
    # The chunk stamps a request at its launch (0.0); the event loop reaches its task at 0.03
    # (a descheduled process): the next request to the host may go at 0.03 + 1/rate, not 0.05.
    pacer, now = HostPacer(20.0), [0.0]
    pacer.started(A, now[0])

    class Site:
        async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
            return ports.FetchResult(request.url, 200, {}, b"", False, 1.0)

    now[0] = 0.03
    await StampedHttp(Site(), pacer, lambda: now[0]).fetch(ports.FetchRequest(A, 1.0, 1000))
    assert pacer.wait_s(A, 0.05) == pytest.approx(0.03)
    assert pacer.wait_s(B, 0.05) == 0.0


async def test_a_turn_past_the_steps_deadline_is_refused_not_waited_for() -> None:
    sent: list[str] = []

    class Site:
        async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
            sent.append(request.url)
            return ports.FetchResult(request.url, 200, {}, b"", False, 1.0)

    # The last step left a.test's next turn 30 s away; this step may wait 5 s at most.
    http = PacedHttp.resumed(Site(), 0.1, {"a.test": epoch_s() + 30.0}, budget_s=5.0)
    with pytest.raises(NoTurnLeft, match=r"0\.1 requests a second to a\.test"):
        await http.fetch(ports.FetchRequest(A, 1.0, 1000))
    await http.fetch(ports.FetchRequest(B, 1.0, 1000))  # another host's turn is now
    assert sent == [B]
    assert http.carried()["a.test"] >= epoch_s() + 29.0  # the refused turn was not booked


# -- a whole audit at a low rate, two chunks and the steps after them ------------------------------

RATE = 5.0  # requests a second: 0.2 s apart


@dataclass(frozen=True, slots=True)
class Start:
    """A request's start as its pacer booked it, on the pacer's (monotonic) clock."""

    url: str
    at: float

    @property
    def path(self) -> str:
        return urlsplit(self.url).path


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch) -> list[Start]:
    """Every start a pacer booked, on the pacer's own clock: the crawl chunks' scheduler and the
    paced client of the other steps both book a request's start with `HostPacer.started` when
    its turn has come.

    Read there, not off the site's server: the server's thread notes an arrival some varying time
    after the request started, so on a loaded machine a gap there looks shorter than the pacer
    made it (DEVELOPERS.md: tests never race the wall clock). That every request the site
    received was booked by a pacer is checked by counting both. (The crawl chunk also reserves
    a page's turn at its launch, `HostPacer.reserve`; the start is booked when its fetch really
    goes, crawl.pacing.StampedHttp.)"""
    seen: list[Start] = []
    real = HostPacer.started

    def started(self: HostPacer, url: str, now: float) -> None:
        seen.append(Start(url, now))
        real(self, url, now)

    monkeypatch.setattr(HostPacer, "started", started)
    return seen


def _gaps(starts: list[Start]) -> list[tuple[float, str, str]]:
    ordered = sorted(starts, key=lambda s: s.at)
    return [(b.at - a.at, a.path, b.path) for a, b in itertools.pairwise(ordered)]


async def test_the_rate_holds_across_chunks_and_the_steps_after_the_crawl(
    platform: LocalPlatform, site: Site, reports: list[ChunkReport], starts: list[Start]
) -> None:
    audit = await chain_audit(platform, site, rate_per_s=RATE)

    assert audit["status"] == "completed" and audit["pages_crawled"] == CHAIN + 1
    assert [r.attempted_in_chunk for r in reports] == [5, 5, 3]
    # Each chunk ended with a turn still to come on the site's host, handed to the next.
    assert [list(r.next_request_at) for r in reports[:2]] == [["127.0.0.1"]] * 2
    to_site = [s for s in starts if s.url.startswith(site.url("/"))]
    # Every request the site received was paced: discovery's, the chunks', the security
    # grade's (each its own step).
    assert sorted(s.path for s in to_site) == sorted(r.path for r in site.requests)
    pages = [s for s in to_site if s.path.startswith("/p") or s.path == "/"]
    # The boundaries between the chunks: a chunk's last page, then the next one's first.
    boundaries = [gap for gap in _gaps(pages) if gap[1:] in {("/p3", "/p4"), ("/p8", "/p9")}]
    assert len(boundaries) == 2
    # A millisecond for the carried turn's trip through the wall clock (rounded up, never early).
    assert min(gap for gap, _, _ in boundaries) >= 1 / RATE - 0.001, boundaries
    gaps = _gaps(to_site)
    assert len(gaps) > CHAIN + 1
    assert min(gap for gap, _, _ in gaps) >= 1 / RATE - 0.001, gaps
