"""The link graph the report keeps, read out of the scratchpad (durable.link_graph), through RPC.

Each crawled page gets its first INLINKS_KEPT inlinks and OUTLINKS_KEPT outlinks by URL with
their anchors (text, image alt, none), nofollow flags, the outlinks' target status and the
external mark, and both totals; pages come a bounded answer at a time, in URL order.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.issue_ids import page_id
from audit.link_graph import (
    INLINKS_KEPT,
    OUTLINKS_KEPT,
    AnchorKind,
    PageLink,
    PageLinkLists,
    anchor_of,
)
from durable.client import Scratchpad
from durable.link_graph import LinkGraphRequest
from durable.records import ExternalCheck, ExternalRef, LinkRow, RecordBatch
from local_platform.runtime import LocalPlatform

_names = itertools.count()
TEXT, IMAGE, NONE = AnchorKind.TEXT, AnchorKind.IMAGE, AnchorKind.NONE


def url(path: str) -> str:
    return f"https://a.test/{path}"


def mirror(path: str, status: int = 200) -> dict[str, Any]:
    return {
        "url": url(path),
        "page_id": page_id("a1", url(path)),
        "status_code": status,
        "fetch_class": "ok",
        "is_html": 1,
    }


@pytest.fixture
def pad(platform: LocalPlatform) -> Scratchpad:
    return Scratchpad(platform.env.AUDIT_SCRATCHPAD.getByName(f"graph-{next(_names)}"))


async def every_page(pad: Scratchpad, **request: Any) -> list[PageLinkLists]:
    pages: list[PageLinkLists] = []
    after = ""
    while True:
        answer = await pad.link_graph(LinkGraphRequest(after, **request))
        pages.extend(answer.pages())
        if answer.next_after is None:
            return pages
        after = answer.next_after


async def test_a_page_linked_from_two_pages_and_its_outlinks_of_every_kind(pad: Scratchpad) -> None:
    # B is linked from A and C with different anchors; B links an image, an empty anchor, a
    # nofollow page, another site and a missing page.
    await pad.record_batch(
        RecordBatch(
            pages=(mirror(""), mirror("a"), mirror("b"), mirror("c"), mirror("gone", 404)),
            links=(
                LinkRow(url("a"), url("b"), anchor="Read B"),
                LinkRow(url("c"), url("b"), anchor="B, from C"),
                LinkRow(url("b"), url(""), image_alt="Home logo"),
                LinkRow(url("b"), url("a")),
                LinkRow(url("b"), url("c"), nofollow=True, anchor="C (nofollow)"),
                LinkRow(url("b"), "https://other.test/x", anchor="Elsewhere", external=True),
                LinkRow(url("b"), url("gone"), anchor="Broken"),
                LinkRow(url("b"), url("never-crawled"), anchor="Not crawled"),
            ),
            external=(ExternalRef(url("b"), "https://other.test/x"),),
        )
    )
    await pad.claim_external(1, 10, 10)
    await pad.record_external([ExternalCheck("https://other.test/x", "ok", 200)])

    pages = {page.url: page for page in await every_page(pad)}

    assert list(pages) == [url(""), url("a"), url("b"), url("c"), url("gone")]
    assert pages[url("b")] == PageLinkLists(
        url("b"),
        inlinks_total=2,
        outlinks_total=6,
        inlinks=(PageLink(url("a"), "Read B", TEXT), PageLink(url("c"), "B, from C", TEXT)),
        outlinks=(
            PageLink("https://a.test/", "Home logo", IMAGE, status_code=200),
            PageLink(url("a"), None, NONE, status_code=200),
            PageLink(url("c"), "C (nofollow)", TEXT, nofollow=True, status_code=200),
            PageLink(url("gone"), "Broken", TEXT, status_code=404),
            PageLink(url("never-crawled"), "Not crawled", TEXT),
            PageLink("https://other.test/x", "Elsewhere", TEXT, external=True, status_code=200),
        ),
    )
    assert pages[url("")].inlinks == (PageLink(url("b"), "Home logo", IMAGE),)
    assert pages[url("gone")].inlinks == (PageLink(url("b"), "Broken", TEXT),)
    assert pages[url("c")].inlinks == (PageLink(url("b"), "C (nofollow)", TEXT, nofollow=True),)


async def test_lists_stop_at_their_caps_and_totals_count_every_link(pad: Scratchpad) -> None:
    sources = [f"s{n:03}" for n in range(INLINKS_KEPT + 1)]
    targets = [f"t{n:03}" for n in range(OUTLINKS_KEPT + 2)]
    await pad.record_batch(
        RecordBatch(
            pages=tuple(mirror(p) for p in ["hub", *sources]),
            links=(
                *(LinkRow(url(s), url("hub"), anchor=s) for s in sources),
                *(LinkRow(url("hub"), url(t), anchor=t) for t in targets),
            ),
        )
    )

    hub = next(page for page in await every_page(pad) if page.url == url("hub"))

    assert (hub.inlinks_total, hub.outlinks_total) == (INLINKS_KEPT + 1, OUTLINKS_KEPT + 2)
    assert [link.anchor for link in hub.inlinks] == sources[:INLINKS_KEPT]
    assert [link.anchor for link in hub.outlinks] == targets[:OUTLINKS_KEPT]


@pytest.mark.parametrize(("max_pages", "max_bytes"), [(1, 10**6), (3, 10**6), (200, 1)])
async def test_answers_concatenate_to_every_page_once_in_url_order(
    pad: Scratchpad, max_pages: int, max_bytes: int
) -> None:
    paths = [f"p{n}" for n in range(7)]
    await pad.record_batch(
        RecordBatch(
            pages=tuple(mirror(p) for p in paths),
            links=tuple(LinkRow(url(p), url(q), anchor=q) for p in paths for q in paths[:3]),
        )
    )

    whole = await every_page(pad)
    paged = await every_page(pad, max_pages=max_pages, max_bytes=max_bytes)

    assert [page.url for page in paged] == [url(p) for p in paths]
    assert paged == whole


async def test_a_graph_the_budget_cut_short_says_so(pad: Scratchpad) -> None:
    await pad.record_batch(
        RecordBatch(pages=(mirror("a"),), links=(LinkRow(url("a"), url("a"), anchor="self"),))
    )
    # A new edge too large for a 1-byte budget: the graph is incomplete from here on.
    await pad.record_batch(
        RecordBatch(links=(LinkRow(url("a"), url("more")),), link_budget_bytes=1)
    )

    (page,) = await every_page(pad)

    assert (page.complete, page.outlinks_total) == (False, 1)


async def test_an_empty_crawl_has_no_pages(pad: Scratchpad) -> None:
    answer = await pad.link_graph(LinkGraphRequest())

    assert (answer.rows, answer.next_after) == ([], None)


# Edges of a small crawl: (source, target, nofollow, text, alt, external); targets on another
# origin, and URLs on the page's origin with a path, are both drawn.
PATHS = st.sampled_from(["", "a", "b", "c/d", "c/d?x=1"])
EDGES = st.lists(
    st.tuples(
        PATHS,
        st.one_of(PATHS.map(url), st.sampled_from(["https://o.test/", "http://a.test/x"])),
        st.booleans(),
        st.none() | st.sampled_from(["", "Text", "é “quoted”"]),
        st.none() | st.sampled_from(["", "Alt"]),
    ),
    max_size=12,
)


@settings(max_examples=30, deadline=None)
@given(EDGES)
def test_the_lists_sqlite_builds_are_what_the_specification_says(
    runner: tuple[asyncio.AbstractEventLoop, LocalPlatform], edges: list[Any]
) -> None:
    loop, platform = runner
    pad = Scratchpad(platform.env.AUDIT_SCRATCHPAD.getByName(f"graph-prop-{next(_names)}"))
    crawled = [url(p) for p in ["", "a", "b", "c/d", "c/d?x=1"]]
    rows: dict[tuple[str, str], LinkRow] = {}
    for source, target, nofollow, text, alt in edges:
        external = not target.startswith("https://a.test/")
        # One edge per (source, target), the first one's anchor; an alt only without text.
        row = LinkRow(url(source), target, nofollow, text or None, None if text else alt or None)
        rows.setdefault((url(source), target), dataclasses.replace(row, external=external))
    batch = RecordBatch(pages=tuple(mirror(u.removeprefix(url(""))) for u in crawled))
    loop.run_until_complete(
        pad.record_batch(dataclasses.replace(batch, links=tuple(rows.values())))
    )

    got = {page.url: page for page in loop.run_until_complete(every_page(pad))}

    def spec(row: LinkRow, other: str, *, outlink: bool) -> PageLink:
        anchor, kind = anchor_of(row.anchor, row.image_alt)
        status = 200 if outlink and not row.external and other in crawled else None
        return PageLink(other, anchor, kind, row.nofollow, outlink and row.external, status)

    for page_url in crawled:
        inlinks = sorted(
            (r for r in rows.values() if r.target_url == page_url and not r.external),
            key=lambda r: r.source_url,
        )
        outlinks = sorted(
            (r for r in rows.values() if r.source_url == page_url), key=lambda r: r.target_url
        )
        assert got[page_url] == PageLinkLists(
            page_url,
            len(inlinks),
            len(outlinks),
            tuple(spec(r, r.source_url, outlink=False) for r in inlinks),
            tuple(spec(r, r.target_url, outlink=True) for r in outlinks),
        )
