"""The scratchpad's RPC records: lossless `to_dict`/`from_dict`, and a wire of plain JSON only."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol, Self

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.link_graph import AnchorKind, PageLink, PageLinkLists, to_row
from common.wire import JsonObject
from durable.finalize import FinalizeOptions, FinalizePage
from durable.link_graph import LinkGraphPage, LinkGraphRequest
from durable.records import (
    BatchResult,
    Claim,
    ClaimRequest,
    ConfigSaved,
    CrawlConfig,
    Destroyed,
    DiscoveredUrl,
    ExternalRef,
    FragmentLink,
    FragmentTargets,
    FrontierStats,
    LeasedUrl,
    LinkBatch,
    LinkRow,
    RecordBatch,
    ReleaseResult,
    ResourceRef,
    ResumeState,
    SeedResult,
    SiteFact,
    SiteFactKind,
    SiteFactsPage,
    SiteFactsRequest,
    SitemapBlockedPage,
    SitemapBlockedRequest,
    WireError,
)

counts = st.integers(min_value=0, max_value=2**53 - 1)
depths = st.none() | st.integers(min_value=0, max_value=1000)
texts = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
urls = texts.map(lambda path: f"https://a.test/{path}")
maybe_texts = st.none() | texts
json_scalars = st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | texts
# Mirror rows hold SQLite values: booleans are already 0/1 there (page_pipeline.mirror_row).
sqlite_values = st.none() | st.integers(-(2**53) + 1, 2**53 - 1) | texts
mirror_rows = st.dictionaries(st.sampled_from(["url", "title", "depth", "is_html"]), sqlite_values)

stats = st.builds(FrontierStats, counts, counts, counts, counts, st.booleans())
leased = st.builds(LeasedUrl, urls, depths, st.booleans())
links = st.builds(LinkRow, urls, urls, st.booleans(), maybe_texts, maybe_texts, st.booleans())
statuses = st.none() | st.integers(0, 599)
page_links = st.one_of(
    st.builds(PageLink, urls, texts, st.sampled_from([AnchorKind.TEXT, AnchorKind.IMAGE])),
    st.builds(PageLink, urls, st.none(), st.just(AnchorKind.NONE)),
).flatmap(
    lambda link: st.builds(
        PageLink,
        st.just(link.url),
        st.just(link.anchor),
        st.just(link.anchor_kind),
        st.booleans(),
        st.booleans(),
        statuses,
    )
)
page_link_lists = st.builds(
    lambda url, inlinks, outlinks, extra, complete: PageLinkLists(
        url,
        len(inlinks) + extra,
        len(outlinks) + extra,
        tuple(inlinks),
        tuple(outlinks),
        complete,
    ),
    urls,
    st.lists(page_links, max_size=3),
    st.lists(page_links, max_size=3),
    counts.map(lambda n: n % 1000),
    st.booleans(),
)
found = st.builds(DiscoveredUrl, urls, depths, st.none() | urls)
facts = st.builds(SiteFact, st.sampled_from(SiteFactKind), texts, urls, maybe_texts)
fragment_links = st.builds(FragmentLink, urls, urls, texts, counts, counts)
resource_refs = st.builds(ResourceRef, urls, urls, texts, st.none() | texts)
fragment_targets = st.builds(FragmentTargets, urls, st.lists(counts, max_size=4).map(tuple))


class WireRecord(Protocol):
    """What crosses RPC: a record with its `to_dict()`/`from_dict()` pair."""

    def to_dict(self) -> JsonObject: ...

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self: ...


RECORDS: dict[str, st.SearchStrategy[WireRecord]] = {
    "FrontierStats": stats,
    "LeasedUrl": leased,
    "ClaimRequest": st.builds(ClaimRequest, counts, counts),
    "Claim": st.builds(Claim, st.lists(leased, max_size=4).map(tuple), st.booleans()),
    "ReleaseResult": st.builds(ReleaseResult, counts),
    "ResumeState": st.builds(ResumeState, stats, counts, st.booleans()),
    "SeedResult": st.builds(SeedResult, counts, counts),
    "SitemapBlockedRequest": st.builds(SitemapBlockedRequest, texts, counts),
    "SitemapBlockedPage": st.builds(SitemapBlockedPage, st.lists(urls, max_size=4).map(tuple)),
    "CrawlConfig": st.builds(CrawlConfig, texts, texts),
    "ConfigSaved": st.builds(ConfigSaved, st.booleans()),
    "Destroyed": st.builds(Destroyed, st.booleans()),
    "LinkRow": links,
    "DiscoveredUrl": found,
    "RecordBatch": st.builds(
        RecordBatch,
        st.lists(urls, max_size=3).map(tuple),
        st.lists(mirror_rows, max_size=3).map(tuple),
        st.lists(links, max_size=3).map(tuple),
        st.lists(found, max_size=3).map(tuple),
        st.none() | counts,
        st.just(()),
        st.lists(facts, max_size=3).map(tuple),
        st.lists(fragment_targets, max_size=3).map(tuple),
        st.lists(fragment_links, max_size=3).map(tuple),
    ),
    "LinkBatch": st.builds(
        LinkBatch,
        st.lists(links, max_size=3).map(tuple),
        st.lists(found, max_size=3).map(tuple),
        st.lists(fragment_links, max_size=3).map(tuple),
        st.lists(st.builds(ExternalRef, urls, urls), max_size=3).map(tuple),
        st.lists(resource_refs, max_size=3).map(tuple),
        st.none() | counts,
    ),
    "SiteFact": facts,
    "SiteFactsRequest": st.builds(SiteFactsRequest, st.sampled_from(SiteFactKind), texts, counts),
    "SiteFactsPage": st.builds(SiteFactsPage, st.lists(facts, max_size=4).map(tuple)),
    "FragmentLink": fragment_links,
    "FragmentTargets": fragment_targets,
    "BatchResult": st.builds(BatchResult, stats, counts, counts),
    "FinalizeOptions": st.builds(
        FinalizeOptions,
        texts,
        urls,
        st.booleans(),
        st.lists(urls, max_size=3).map(tuple),
        st.none() | texts,
        st.integers(1, 50_000),
        st.integers(1, 2**40),
    ),
    "LinkGraphRequest": st.builds(
        LinkGraphRequest, texts, st.integers(1, 1000), st.integers(1, 2**40)
    ),
    "LinkGraphPage": st.builds(
        LinkGraphPage, st.lists(page_link_lists.map(to_row), max_size=3), st.none() | urls
    ),
    "FinalizePage": st.builds(
        FinalizePage,
        st.lists(st.dictionaries(texts, json_scalars, max_size=3), max_size=3),
        st.none() | texts,
        st.booleans(),
        st.booleans(),
        st.none() | st.dictionaries(texts, counts, max_size=3),
        st.dictionaries(texts, counts, max_size=3),
    ),
}


def _no_tuples(value: Any) -> bool:
    if isinstance(value, tuple):
        return False
    if isinstance(value, list):
        return all(_no_tuples(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _no_tuples(v) for k, v in value.items())
    return value is None or isinstance(value, str | int | float | bool)


@pytest.mark.parametrize("name", list(RECORDS))
@given(data=st.data())
def test_round_trip_is_lossless_through_json(name: str, data: st.DataObject) -> None:
    record = data.draw(RECORDS[name])
    wire = record.to_dict()

    assert _no_tuples(wire), "the runtime refuses tuples over RPC"
    assert type(record).from_dict(wire) == record
    assert type(record).from_dict(json.loads(json.dumps(wire))) == record


def test_sqlite_flags_read_as_booleans() -> None:
    row = {"url": "https://a.test/", "depth": None, "in_sitemap": 1}
    assert LeasedUrl.from_dict(row) == LeasedUrl("https://a.test/", None, True)


def test_batches_may_leave_out_what_they_do_not_carry() -> None:
    assert RecordBatch.from_dict({}) == RecordBatch()
    assert CrawlConfig.from_dict({"final_url": None, "robots_txt": None}) == CrawlConfig()


def test_platform_spellings_are_read_as_wire_reads_them() -> None:
    # A JS number may cross as an integral float (wire's rule); mirror rows carry SQLite 0/1 flags.
    assert ClaimRequest.from_dict({"chunk_no": 3.0, "limit": 2}) == ClaimRequest(3, 2)
    assert type(ClaimRequest.from_dict({"chunk_no": 3.0, "limit": 2}).chunk_no) is int
    page = {"url": "u", "status_code": 200.0, "is_html": 1, "title": None}
    assert RecordBatch.from_dict({"pages": [page]}).pages == (page,)


@pytest.mark.parametrize(
    ("record", "wire", "message"),
    [
        (
            ClaimRequest,
            {"chunk_no": "1", "limit": 2},
            "ClaimRequest.chunk_no: expected an integer, got str '1'",
        ),
        (
            ClaimRequest,
            {"chunk_no": True, "limit": 2},
            "ClaimRequest.chunk_no: expected an integer, got bool True",
        ),
        (ClaimRequest, {"limit": 2}, "ClaimRequest: missing field 'chunk_no'"),
        (
            LeasedUrl,
            {"url": None, "depth": 0, "in_sitemap": 0},
            "LeasedUrl.url: expected a string, got null",
        ),
        (
            LeasedUrl,
            {"url": "u", "depth": 1.5, "in_sitemap": 0},
            "LeasedUrl.depth: expected an integer, got float 1.5",
        ),
        (
            Claim,
            {"urls": {"url": "u"}, "is_retry": False},
            "Claim.urls: expected a list, got dict",
        ),
        (Claim, {"urls": ["u"], "is_retry": False}, "Claim.urls: expected an object, got str"),
        (SitemapBlockedPage, {"urls": [1]}, "SitemapBlockedPage.urls: expected a string, got int"),
        (
            FrontierStats,
            {"seen": 1, "pending": 1, "leased": 0, "crawled": 0, "links_truncated": "no"},
            "FrontierStats.links_truncated: expected a boolean, got str 'no'",
        ),
        (
            BatchResult,
            {"seen": 1, "pending": 1, "leased": 0, "crawled": 0, "links_written": 0, "enqueued": 0},
            "BatchResult.stats: FrontierStats: missing field 'links_truncated'",
        ),
        (
            RecordBatch,
            {"pages": [{"url": ["u"]}]},
            "RecordBatch.pages: list ['u'] fits none of str | int | float",
        ),
        (RecordBatch, {"pages": ["u"]}, "RecordBatch.pages: expected an object, got str"),
        (
            FinalizePage,
            {"issues": [1], "next_cursor": None, "links_truncated": 0, "orphans_checked": 0},
            "FinalizePage.issues: expected an object, got int",
        ),
    ],
)
def test_a_value_of_the_wrong_shape_is_a_wire_error_naming_record_and_field(
    record: Any, wire: dict[str, Any], message: str
) -> None:
    with pytest.raises(WireError) as caught:
        record.from_dict(wire)
    assert str(caught.value) == message


def test_a_batchs_links_cross_as_columns_not_as_an_object_per_link() -> None:
    """Issue 29: each edge, URL to enqueue and link fragment crossed as its own object, converted
    field by field on both sides; a batch now carries one column per field."""
    batch = LinkBatch(
        links=(
            LinkRow("https://a.test/", "https://a.test/b"),
            LinkRow("https://a.test/", "x", True),
        ),
        discovered=(DiscoveredUrl("https://a.test/b", 1, "https://a.test/"),),
    )
    wire = json.loads(batch.to_json_text())
    assert wire["links"]["target_url"] == ["https://a.test/b", "x"]
    assert wire["links"]["nofollow"] == [False, True]
    assert wire["discovered"] == {
        "url": ["https://a.test/b"],
        "depth": [1],
        "found_on": ["https://a.test/"],
    }
    assert LinkBatch.from_json_text(batch.to_json_text()) == batch
    recorded = RecordBatch(links=batch.links, discovered=batch.discovered)
    assert json.loads(recorded.to_json_text())["links"] == wire["links"]
