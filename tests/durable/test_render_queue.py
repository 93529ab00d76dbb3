"""Pages to render in the scratchpad (durable.render_queue): queued once each with auto's sample
capped, leased per render step (a step that runs again gets back its own pages), outcomes kept,
the URLs only rendered pages linked marked as script links, and the tally finalize stores."""

from __future__ import annotations

import itertools

import pytest

from durable.client import Scratchpad
from durable.records import DiscoveredUrl, RecordBatch, RenderCandidate, RenderOutcome
from durable.render_queue import RenderState
from local_platform.runtime import LocalPlatform
from parse.extractor import PageExtractor
from render.decision import SAMPLE_MAX_PAGES, RenderReason
from render.records import RenderCounts

_names = itertools.count()
ORIGIN = "https://a.test"


@pytest.fixture
def pad(platform: LocalPlatform) -> Scratchpad:
    return Scratchpad(platform.env.AUDIT_SCRATCHPAD.getByName(f"renders-{next(_names)}"))


def candidate(path: str, reason: RenderReason = RenderReason.APP_SHELL) -> RenderCandidate:
    extractor = PageExtractor(f"{ORIGIN}{path}", content_type="text/html")
    extractor.feed(b'<title>Loading</title><div id="app"></div><script type="module"></script>')
    return RenderCandidate(
        url=f"{ORIGIN}{path}",
        reason=reason,
        final_url=f"{ORIGIN}{path}",
        status=200,
        elapsed_ms=12.5,
        headers={"content-type": "text/html", "x-robots-tag": "noarchive"},
        raw_facts=extractor.close(),
        depth=1,
    )


async def queue(pad: Scratchpad, *candidates: RenderCandidate) -> None:
    await pad.record_batch(RecordBatch(render=candidates))


async def test_a_page_is_queued_once_and_leased_to_one_step_which_gets_it_back(
    pad: Scratchpad,
) -> None:
    shells = [candidate(f"/p{n}") for n in range(5)]
    await queue(pad, *shells[:3])
    await queue(pad, *shells)  # a retried chunk queues the same pages again

    first = await pad.claim_renders(101, 2)
    again = await pad.claim_renders(101, 2)
    second = await pad.claim_renders(102, 10)

    assert first.candidates == tuple(shells[:2]) and not first.is_retry and first.pending == 3
    assert again.candidates == first.candidates and again.is_retry
    assert second.candidates == tuple(shells[2:]) and second.pending == 0
    await pad.record_renders([RenderOutcome(c.url, "rendered") for c in first.candidates])
    done = await pad.claim_renders(101, 2)  # after its outcomes: nothing new, still its key
    assert (done.candidates, done.is_retry) == ((), True)


async def test_a_resume_gives_a_dead_runs_leased_pages_back(pad: Scratchpad) -> None:
    await queue(pad, candidate("/a"), candidate("/b"))
    dead = await pad.claim_renders(1001, 10)
    await pad.prepare_resume()

    resumed = await pad.claim_renders(3001, 10)

    assert resumed.candidates == dead.candidates and not resumed.is_retry


async def test_auto_sample_stops_at_its_cap_and_app_shells_do_not(pad: Scratchpad) -> None:
    sampled = [candidate(f"/s{n}", RenderReason.SAMPLE) for n in range(SAMPLE_MAX_PAGES + 3)]
    await queue(pad, *sampled[:2], candidate("/shell"))
    await queue(pad, *sampled[2:], candidate("/shell2"))

    claim = await pad.claim_renders(1, 100)

    reasons = [c.reason for c in claim.candidates]
    assert reasons.count(RenderReason.SAMPLE) == SAMPLE_MAX_PAGES
    assert reasons.count(RenderReason.APP_SHELL) == 2


async def test_the_tally_counts_outcomes_and_the_app_shells_left_unrendered(
    pad: Scratchpad,
) -> None:
    await queue(
        pad,
        candidate("/a"),
        candidate("/b"),
        candidate("/c"),
        candidate("/s", RenderReason.SAMPLE),
        candidate("/late"),
    )
    claim = await pad.claim_renders(7, 4)
    urls = [c.url for c in claim.candidates]  # /a, /b, /c, /s
    await pad.record_renders(
        [
            RenderOutcome(urls[0], RenderState.RENDERED.value),
            RenderOutcome(urls[1], RenderState.FAILED.value, "timeout"),
            RenderOutcome(urls[3], RenderState.SKIPPED.value, "no renderer"),
        ]
    )  # /c stays leased: its step failed

    assert await pad.render_tally() == RenderCounts(
        rendered=1, failed=2, skipped=1, unreached=1, shells_not_rendered=3, reason="no renderer"
    )


async def test_links_new_to_the_frontier_from_rendered_pages_are_marked_as_script_links(
    pad: Scratchpad,
) -> None:
    await pad.seed_start(f"{ORIGIN}/")
    raw = DiscoveredUrl(f"{ORIGIN}/raw", 1, f"{ORIGIN}/")
    await pad.record_batch(RecordBatch(discovered=(raw,)))
    rendered = (
        DiscoveredUrl(f"{ORIGIN}/raw", 1, f"{ORIGIN}/"),  # already known: keeps its row
        DiscoveredUrl(f"{ORIGIN}/only-rendered", 1, f"{ORIGIN}/"),
    )
    result = await pad.record_batch(RecordBatch(discovered=rendered, from_rendered=True))

    assert result.enqueued == 1
    assert (await pad.render_tally()).script_links == 1
