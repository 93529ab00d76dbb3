"""Where the crawl observes a page, its structured data is checked: the JSON-LD blocks' texts are
validated and dropped (the observation carries the bounded check, not the blocks), and the
element tree is walked for Microdata and RDFa when the page's bytes show some
(structured.markup_scan). Markup the check could not read is never passed over in silence."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.catalogue import IssueType
from common import ports
from common.settings import CRAWL
from crawl.page_pipeline import CrawlScope, checked_structured_data
from crawl.page_stream import PageStream
from crawl.url_policy import UrlPolicy
from durable.records import LeasedUrl
from parse.facts import EncodingInfo, EncodingSource, JsonLd, PageFacts
from structured.findings import FindingKind, RichResultFeature
from structured.page import PageStructuredData, Unread
from urls.private_hosts import PrivateHosts

FACTS = PageFacts("https://x.test/", EncodingInfo("utf-8", EncodingSource.DEFAULT), 10, False)


def test_the_blocks_are_checked_and_dropped_from_the_facts() -> None:
    block = '{"@context": "https://schema.org", "@type": "Prodcut"}'
    facts = replace(FACTS, json_ld=JsonLd(blocks=1, types=("Prodcut",), documents=(block,)))

    kept, checked = checked_structured_data(facts)

    assert kept == replace(facts, json_ld=JsonLd(blocks=1, types=("Prodcut",)))
    assert checked is not None
    assert [f.suggestions for f in checked.findings] == [("Product",)]


def test_a_page_without_blocks_has_no_check() -> None:
    assert checked_structured_data(FACTS) == (FACTS, None)
    assert checked_structured_data(None) == (None, None)


def test_markup_without_a_tree_is_said_to_be_unchecked() -> None:
    block = '{"@context": "https://schema.org", "@type": "Person", "name": "Jo"}'
    facts = replace(FACTS, json_ld=JsonLd(blocks=1, types=("Person",), documents=(block,)))

    _, checked = checked_structured_data(facts, None, markup=True)

    assert checked is not None
    assert checked.types == ("Person",)  # the JSON-LD is still checked
    assert [(f.kind, f.term) for f in checked.findings] == [
        (FindingKind.MARKUP_UNCHECKED, Unread.NO_TREE.value)
    ]


# -- through the page stream: a fetched page, as the crawl processes it -----------------------

SITE = "https://shop.test/"
PAGE = SITE + "fern"
S = "https://schema.org/"
JSON_LD = json.dumps(
    {
        "@context": "https://schema.org",
        "@type": "Article",
        "headline": "Ferns",
        "image": "https://shop.test/fern.jpg",
        "datePublished": "2026-01-01",
        "dateModified": "2026-01-02",
        "author": {"@type": "Person", "name": "Jo", "url": "https://shop.test/jo"},
    }
)
MICRODATA = f"""<div itemscope itemtype="{S}Product"><h1 itemprop="name">Fern</h1>
  <div itemprop="offers" itemscope itemtype="{S}Offer">
    <span itemprop="price" content="12.50">12,50 €</span>
    <meta itemprop="priceCurrency" content="EUR">
    <link itemprop="availability" href="{S}InStock">
    <meta itemprop="priceValidUntil" content="2027-01-01"></div></div>"""
RDFA = f"""<div vocab="{S}" typeof="Place"><span property="name">Hall</span></div>"""
OPEN_GRAPH = '<meta property="og:title" content="Fern"><meta property="og:type" content="article">'


def _page(*, head: str = "", body: str = "") -> bytes:
    return (
        f"<!doctype html><html lang=en><head><title>Fern</title>{head}</head><body>{body}".encode()
    )


def _observed(body: bytes, content_type: str = "text/html; charset=utf-8") -> PageStructuredData:
    policy = UrlPolicy(SITE, private_hosts=PrivateHosts.ALLOW)
    stream = PageStream(CrawlScope("audit", policy, True), LeasedUrl(PAGE, 0, False))
    result = ports.FetchResult(PAGE, 200, {"content-type": content_type}, body, False, 9.0)
    checked = stream.finish_observed(result)[1].structured_data
    assert checked is not None
    return checked


_SCRIPT = f'<script type="application/ld+json">{JSON_LD}</script>'

# page, the types found (syntaxes in the order JSON-LD, Microdata, RDFa), eligible features.
CASES = {
    "json-ld": (_page(head=_SCRIPT), ("Article",), ("article",)),
    "microdata": (_page(body=MICRODATA), ("Product",), ("product-snippet",)),
    "rdfa": (_page(body=RDFA), ("Place",), ()),
    "all three": (
        _page(head=_SCRIPT + OPEN_GRAPH, body=MICRODATA + RDFA),
        ("Article", "Product", "Place"),
        ("article", "product-snippet"),
    ),
}


@pytest.mark.parametrize(("page", "types", "features"), CASES.values(), ids=list(CASES))
def test_each_syntax_is_checked_where_the_crawl_observes_the_page(
    page: bytes, types: tuple[str, ...], features: tuple[str, ...]
) -> None:
    checked = _observed(page)

    assert checked.types == types
    assert checked.eligible_features == tuple(RichResultFeature(f) for f in features)
    assert [f for f in checked.findings if f.severity == "error"] == []


@pytest.mark.parametrize("page", [case[0] for case in CASES.values()], ids=list(CASES))
def test_the_page_row_says_it_has_structured_data_in_any_syntax(page: bytes) -> None:
    policy = UrlPolicy(SITE, private_hosts=PrivateHosts.ALLOW)
    stream = PageStream(CrawlScope("audit", policy, True), LeasedUrl(PAGE, 0, False))
    html = {"content-type": "text/html"}
    processed = stream.finish_observed(ports.FetchResult(PAGE, 200, html, page, False, 9.0))[0]

    assert processed.record.has_structured_data


@pytest.mark.parametrize(
    "page",
    [_page(body="<p>A fern.</p>"), _page(head=OPEN_GRAPH, body="<p>typeof x</p>")],
    ids=["plain", "open graph"],
)
def test_a_page_without_structured_data_has_no_check_and_no_walk(
    page: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    def walked(*_: object, **__: object) -> None:
        raise AssertionError("the tree was walked for markup the page does not have")

    monkeypatch.setattr("crawl.page_pipeline.check_page", walked)
    policy = UrlPolicy(SITE, private_hosts=PrivateHosts.ALLOW)
    stream = PageStream(CrawlScope("audit", policy, True), LeasedUrl(PAGE, 0, False))
    html = {"content-type": "text/html"}
    observation = stream.finish_observed(ports.FetchResult(PAGE, 200, html, page, False, 9.0))[1]

    assert observation.structured_data is None


def test_microdata_mistakes_become_issues_with_their_paths() -> None:
    broken = MICRODATA.replace('"price"', '"prise"').replace(f"{S}InStock", f"{S}Instock")
    policy = UrlPolicy(SITE, private_hosts=PrivateHosts.ALLOW)
    stream = PageStream(CrawlScope("audit", policy, True), LeasedUrl(PAGE, 0, False))
    html = {"content-type": "text/html"}
    page = stream.finish(ports.FetchResult(PAGE, 200, html, _page(body=broken), False, 9.0))

    paths = {
        issue.issue_type: [_path(f) for f in _findings(issue.details)]
        for issue in page.issues
        if issue.issue_type.startswith(("structured-data", "rich-result"))
    }
    assert paths[IssueType.STRUCTURED_DATA_UNKNOWN_PROPERTY] == ["Product > offers > prise"]
    assert paths[IssueType.STRUCTURED_DATA_INVALID_VALUE] == ["Product > offers > availability"]
    assert paths[IssueType.RICH_RESULT_MISSING_REQUIRED] == ["Product > offers > price"]
    assert page.record.structured_types == ["Product"]
    assert page.record.eligible_features == []


def _findings(details: object) -> list[object]:
    assert isinstance(details, dict)
    found = details["findings"]
    assert isinstance(found, list)
    return found


def _path(finding: object) -> object:
    assert isinstance(finding, dict)
    return finding["path"]


def test_markup_past_the_parsers_cut_is_said_to_be_unchecked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tree holds only what the parser read; the scan reads the whole body, so it knows the
    page has markup the check did not see."""
    page = _page(body="<p>" + "A fern. " * 40 + "</p>" + MICRODATA)
    monkeypatch.setattr("crawl.page_stream.settings.CRAWL", replace(CRAWL, parse_max_bytes=200))

    checked = _observed(page)

    assert checked.types == ()
    assert [(f.kind, f.term) for f in checked.findings] == [
        (FindingKind.MARKUP_UNCHECKED, Unread.TREE_CUT.value)
    ]


def test_a_utf16_page_is_walked_though_its_bytes_cannot_be_scanned() -> None:
    page = b"\xff\xfe" + _page(body=MICRODATA).decode().encode("utf-16-le")
    assert _observed(page, "text/html").types == ("Product",)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 1 << 16), max_size=6))
def test_any_chunking_checks_the_page_as_the_whole_body(cuts: list[int]) -> None:
    page = CASES["all three"][0]
    points = sorted({cut % (len(page) + 1) for cut in cuts})
    policy = UrlPolicy(SITE, private_hosts=PrivateHosts.ALLOW)
    stream = PageStream(CrawlScope("audit", policy, True), LeasedUrl(PAGE, 0, False))
    html = {"content-type": "text/html; charset=utf-8"}
    stream.open(200, html)
    for start, end in zip([0, *points], [*points, len(page)], strict=True):
        stream.take(page[start:end])
    result = ports.FetchResult(PAGE, 200, html, page, False, 9.0)

    assert stream.finish_observed(result)[1].structured_data == _observed(page)
