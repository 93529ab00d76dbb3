"""crawl.page_stream: a page fed network chunk by network chunk, its links sent as they are found.

The specification is the whole-body path (`process_response`): whatever the chunking, the page
streamed in pieces yields the same record, issues, facts and outcome, and the links it sent
early plus those it still holds are exactly the whole-body page's, in the same order. Caps are
shrunk here (LINKS_CAP, the batch sizes) so small pages exercise the early sends.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from common import ports
from common.settings import CRAWL
from crawl.page_pipeline import CrawlScope, ProcessedPage
from crawl.page_stream import PageStream, process_response
from crawl.url_policy import UrlPolicy
from durable.records import (
    DiscoveredUrl,
    ExternalRef,
    FragmentLink,
    LeasedUrl,
    LinkBatch,
    LinkRow,
)
from urls.private_hosts import PrivateHosts

SITE = "https://site.test/"
PAGE = SITE + "index"
HTML = {"content-type": "text/html; charset=utf-8"}


def scope() -> CrawlScope:
    policy = UrlPolicy(SITE, private_hosts=PrivateHosts.ALLOW)
    return CrawlScope("audit", policy, True, check_external=True)


def leased() -> LeasedUrl:
    return LeasedUrl(PAGE, 0, False)


def link_page(count: int, *, head: str = "") -> bytes:
    """A page whose <a href>s mix repeats, nofollow, other sites, fragments and relative
    targets, and which ends with bare #fragment links."""
    items = []
    for i in range(count):
        if i % 7 == 3:
            items.append(f'<a href="/p/{i - 1}">again {i}</a>')  # a repeat of an earlier target
        elif i % 11 == 5:
            items.append(f'<a rel="nofollow" href="/private/{i}">nofollow {i}</a>')
        elif i % 13 == 6:
            items.append(f'<a href="https://elsewhere.test/{i}">out {i}</a>')
        elif i % 17 == 8:
            items.append(f'<a href="p/{i}#part-{i}">section {i}</a>')  # a fragment to check
        else:
            items.append(f'<a href="p/{i}">entry <b>{i}</b></a>')
    return (
        f"<!doctype html><html lang=en><head><title>Index of links</title>{head}</head>"
        f"<body><h1>Index</h1><ul>{''.join(f'<li>{a}</li>' for a in items)}</ul>"
        '<p><a href="#top">top</a> <a href="#missing">here</a></p></body></html>'
    ).encode()


def result(body: bytes = b"", *, status: int = 200) -> ports.FetchResult:
    return ports.FetchResult(PAGE, status, dict(HTML), body, False, 12.0)


class Sent:
    """The link writer: keeps what the page sent early."""

    def __init__(self) -> None:
        self.batches: list[LinkBatch] = []

    async def __call__(self, batch: LinkBatch) -> None:
        self.batches.append(batch)

    @property
    def links(self) -> list[LinkRow]:
        return [link for batch in self.batches for link in batch.links]

    @property
    def discovered(self) -> list[DiscoveredUrl]:
        return [url for batch in self.batches for url in batch.discovered]

    @property
    def fragment_links(self) -> list[FragmentLink]:
        return [link for batch in self.batches for link in batch.fragment_links]

    @property
    def external(self) -> list[ExternalRef]:
        return [ref for batch in self.batches for ref in batch.external]


async def streamed(body: bytes, cuts: list[int]) -> tuple[ProcessedPage, Sent]:
    sent = Sent()
    page = PageStream(scope(), leased(), sent)
    page.open(200, dict(HTML))
    edges = [0, *sorted(set(cuts)), len(body)]
    for start, end in pairwise(edges):
        await page.feed(body[start:end])
    return page.finish(result()), sent


def same_page(a: ProcessedPage, b: ProcessedPage) -> bool:
    return replace(a.record, crawled_at="") == replace(b.record, crawled_at="") and (
        a.issues,
        a.mirror,
        a.outcome,
        a.skipped,
        a.facts,
        a.fragment_targets,
        a.resources,
    ) == (
        b.issues,
        b.mirror,
        b.outcome,
        b.skipped,
        b.facts,
        b.fragment_targets,
        b.resources,
    )


@pytest.fixture(autouse=True)
def small_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parse.builder.LINKS_CAP", 20)
    monkeypatch.setattr("parse.builder.LINK_BATCH", 8)
    monkeypatch.setattr("crawl.page_links.LINK_BATCH_ROWS", 10)


BODY = link_page(150, head='<base href="https://site.test/docs/">')


@settings(max_examples=40, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=len(BODY)), max_size=12))
def test_any_chunking_streams_the_same_page_and_links(cuts: list[int]) -> None:
    whole = process_response(scope(), leased(), result(BODY))
    page, sent = asyncio.run(streamed(BODY, cuts))

    assert same_page(page, whole)
    assert sent.links + page.links == whole.links
    assert sent.discovered + page.discovered == whole.discovered
    assert sent.fragment_links + page.fragment_links == whole.fragment_links
    assert sent.external + page.external == whole.external


@pytest.mark.parametrize("size", [1, 7, 512, 4096, len(BODY)])
async def test_fixed_chunk_sizes_stream_the_same_page(size: int) -> None:
    whole = process_response(scope(), leased(), result(BODY))
    page, sent = await streamed(BODY, list(range(size, len(BODY), size)))

    assert same_page(page, whole)
    assert sent.links + page.links == whole.links
    assert sent.fragment_links + page.fragment_links == whole.fragment_links
    assert sent.external + page.external == whole.external
    assert {"part-8", "part-144", "missing"} <= {f.fragment for f in whole.fragment_links}
    outbound = [i for i in range(150) if i % 7 != 3 and i % 11 != 5 and i % 13 == 6]
    assert [ref.url for ref in whole.external] == [f"https://elsewhere.test/{i}" for i in outbound]
    assert sent.batches  # the page was big enough to send links early


async def test_links_leave_in_bounded_batches_once_the_head_is_judged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("crawl.page_stream.FEED_SLICE_BYTES", 256)
    page, sent = await streamed(BODY, [len(BODY) // 2])  # two chunks of several KB each

    # Rows wait until the classifier has its head (CRAWL.body_head_chars) and then leave in
    # batches of at most LINK_BATCH_ROWS plus what one slice of a chunk adds.
    rows = [len(b.links) + len(b.discovered) for b in sent.batches]
    assert len(rows) > 5 and max(rows[1:]) <= 10 + 16
    assert len(page.links) + len(page.discovered) <= 10 + 16


async def test_a_challenge_page_sends_nothing_early_and_keeps_no_links() -> None:
    body = b"<title>Just a moment...</title>" + link_page(150)  # a Cloudflare challenge title
    sent = Sent()
    page = PageStream(scope(), leased(), sent)
    page.open(503, {**HTML, "server": "cloudflare", "cf-mitigated": "challenge"})
    for start in range(0, len(body), 512):
        await page.feed(body[start : start + 512])
    done = page.finish(result(status=503))

    assert (sent.batches, done.links, done.discovered) == ([], [], [])


async def test_a_fetch_that_fails_mid_body_records_a_failure_without_its_part() -> None:
    sent = Sent()
    page = PageStream(scope(), leased(), sent)
    page.open(200, dict(HTML))
    await page.feed(BODY[: len(BODY) // 2])
    failed = ports.FetchResult(PAGE, 0, {}, b"", False, 2000.0, "timed out after 2 s")
    done = page.finish(failed)

    assert (done.record.status_code, done.record.html_bytes, done.links) == (0, 0, [])
    assert done.record.title is None


async def test_a_client_that_does_not_stream_gives_the_body_whole() -> None:
    sent = Sent()
    page = PageStream(scope(), leased(), sent).finish(result(BODY))

    assert sent.batches == []  # nothing to stream from: every link stays with the page
    assert page.links == process_response(scope(), leased(), result(BODY)).links


def test_the_five_thousandth_link_is_stored_and_enqueued(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # the real caps
    links = "".join(
        f'<a href="/p/{i}#deep">{i}</a>' if i == 4_000 else f'<a href="/p/{i}">{i}</a>'
        for i in range(4_999)
    )
    body = f"<title>Many links</title>{links}<a href='/last-one'>last</a>".encode()
    sent = Sent()

    async def run() -> ProcessedPage:
        page = PageStream(scope(), leased(), sent)
        page.open(200, dict(HTML))
        for start in range(0, len(body), 16_384):
            await page.feed(body[start : start + 16_384])
        return page.finish(result())

    page = asyncio.run(run())
    stored = [link.target_url for link in sent.links + page.links]
    queued = [found.url for found in sent.discovered + page.discovered]

    assert len(stored) == len(queued) == 5_000
    assert stored[-1] == queued[-1] == SITE + "last-one"
    fragments = [(f.target_url, f.fragment) for f in sent.fragment_links + page.fragment_links]
    assert fragments == [(SITE + "p/4000", "deep")]
    assert page.record.internal_link_count == 5_000
    assert len(sent.batches) >= 2  # sent while the page was parsed


@pytest.mark.parametrize(
    ("status", "content_type", "wanted"),
    [
        (200, "text/html; charset=utf-8", CRAWL.fetch_max_bytes),  # parsed: up to 20 MiB
        (200, "application/pdf", CRAWL.whole_body_max_bytes),  # never parsed: as before
        (404, "text/html", CRAWL.whole_body_max_bytes),
        (503, "text/html", CRAWL.whole_body_max_bytes),
    ],
)
def test_the_stream_asks_for_the_whole_page_only_when_it_parses_it(
    status: int, content_type: str, wanted: int
) -> None:
    page = PageStream(scope(), leased())

    assert page.open(status, {"content-type": content_type}) == wanted


A11Y_PAGE = (
    b'<!doctype html><html lang="en"><head><title>Tents</title></head><body><main><h1>Tents</h1>'
    b'<img src="a.png"><img src="b.png" alt="A tent"><a href="/x"></a></main></body></html>'
)


@pytest.mark.parametrize("size", [1, 9, len(A11Y_PAGE)])
async def test_the_accessibility_rules_judge_the_streamed_tree(size: int) -> None:
    sent = Sent()
    page = PageStream(scope(), leased(), sent)
    page.open(200, dict(HTML))
    for start in range(0, len(A11Y_PAGE), size):
        await page.feed(A11Y_PAGE[start : start + size])
    observation = page.finish_observed(result())[1]

    assert observation.accessibility is not None
    assert observation.accessibility.complete
    failed = [(f.rule, f.selector) for f in observation.accessibility.findings]
    assert [rule for rule, _ in failed] == ["image-alt", "link-name"]


async def test_a_page_that_is_not_parsed_has_no_accessibility() -> None:
    page = PageStream(scope(), leased())
    observation = page.finish_observed(result(A11Y_PAGE, status=404))[1]
    assert observation.accessibility is None


def test_a_page_cut_at_the_byte_cap_is_judged_incomplete(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("crawl.page_stream.settings.CRAWL", replace(CRAWL, parse_max_bytes=99))
    observation = PageStream(scope(), leased()).finish_observed(result(A11Y_PAGE))[1]
    assert observation.accessibility is not None
    assert not observation.accessibility.complete
