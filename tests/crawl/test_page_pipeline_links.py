"""What one page's links become: the URLs to enqueue, the refusals counted, and the link edges."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from common import ports
from crawl.page_pipeline import CrawlScope, ProcessedPage
from crawl.page_stream import process_response
from crawl.url_policy import Decision, UrlPolicy
from durable.records import LeasedUrl
from tests.support.counted_calls import counted_calls
from urls.normalise import normalise_url

PAGE = "https://example.com/docs/page.html"
SCOPE = CrawlScope("a1", UrlPolicy("https://example.com/", exclude=("/private/",)), True)


def processed(body: str, depth: int = 0) -> ProcessedPage:
    result = ports.FetchResult(PAGE, 200, {"content-type": "text/html"}, body.encode(), False, 1.0)
    return process_response(SCOPE, LeasedUrl(PAGE, depth, False), result)


def test_each_distinct_target_is_judged_once_refused_or_enqueued() -> None:
    page = processed(
        '<a href="/a">A</a><a href="https://other.test/x">X</a><a href="/a#f">A again</a>'
        '<a href="/private/p">P</a><a href="https://other.test/x#y">X again</a>'
        '<iframe src="/frame"></iframe><a href="/private/p#z">P again</a><area href="/a">'
        '<link rel=next href="/next">'
    )
    assert [(d.url, d.depth) for d in page.discovered] == [
        ("https://example.com/a", 1),
        ("https://example.com/frame", 1),
        ("https://example.com/next", 1),
    ]
    assert page.skipped == {Decision.OFF_SITE.value: 1, Decision.EXCLUDED.value: 1}
    assert [(edge.target_url, edge.anchor, edge.external) for edge in page.links] == [
        ("https://example.com/a", "A", False),
        ("https://other.test/x", "X", True),
        ("https://example.com/private/p", "P", False),
        ("https://example.com/frame", None, False),
        ("https://example.com/next", None, False),
    ]


def test_every_link_target_is_an_edge_of_the_graph_with_its_anchor_or_image_alt() -> None:
    page = processed(
        '<a href="/img"><img src="l.png" alt="Logo"></a><a href="/deco"><img alt=""></a>'
        '<a href="/empty"></a><a href="/both">Text <img alt="icon"></a>'
        '<a rel="nofollow" href="https://other.test/"><img alt="Partner"></a>'
        '<area href="https://maps.test/" alt="Map"><a href="/img">Later text</a>'
    )
    assert [
        (edge.target_url, edge.anchor, edge.image_alt, edge.nofollow, edge.external)
        for edge in page.links
    ] == [
        ("https://example.com/img", None, "Logo", False, False),
        ("https://example.com/deco", None, None, False, False),
        ("https://example.com/empty", None, None, False, False),
        ("https://example.com/both", "Text", None, False, False),
        ("https://other.test/", None, "Partner", True, True),
        ("https://maps.test/", None, None, False, True),
    ]


_HREFS = st.sampled_from(
    [
        "/a",
        "/a#x",
        "b",
        "../c?q=1",
        "/private/d",
        "https://other.test/",
        "https://www.example.com/e",
        "http://example.com/f",
        "mailto:x@example.com",
        "https://example.com:8443/g",
        "/cdn-cgi/l",
        PAGE,
    ]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_HREFS, st.sampled_from(["a", "a nofollow", "area", "iframe"]))))
def test_discovery_is_every_allowed_distinct_url_and_a_count_of_each_refused_one(
    links: list[tuple[str, str]],
) -> None:
    tags = {
        "a": '<a href="{}">t</a>',
        "a nofollow": '<a rel=nofollow href="{}">t</a>',
        "area": '<area href="{}">',
        "iframe": '<iframe src="{}"></iframe>',
    }
    page = processed("".join(tags[kind].format(href) for href, kind in links), depth=2)
    # The specification, one candidate at a time: anchors (nofollow ones left out) in document
    # order first, then the other page links; the canonical (none here) between them.
    anchors: list[tuple[str, str]] = []
    others: list[tuple[str, str]] = []
    seen: set[str] = set()
    for href, kind in links:
        if kind in ("a", "a nofollow"):
            if href not in seen:  # the extractor keeps the first link to each raw href
                seen.add(href)
                anchors.append((href, kind))
        elif (href, kind) not in others:  # references are distinct by kind and raw value
            others.append((href, kind))
    candidates = [h for h, kind in anchors if kind == "a"] + [h for h, _ in others]
    expected: list[str] = []
    refused: dict[str, int] = {}
    judged: set[str] = set()  # a page's link targets are judged once each (crawl.page_links)
    for href in candidates:
        url = normalise_url(href, PAGE)
        if url is None or url in judged or url == PAGE:
            continue
        judged.add(url)
        decision = SCOPE.policy.decide(url, 3)
        if decision is Decision.ALLOWED:
            expected.append(url)
        else:
            refused[decision.value] = refused.get(decision.value, 0) + 1
    assert [d.url for d in page.discovered] == expected
    assert page.skipped == refused


def test_each_link_is_normalised_and_stripped_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: a followed link's target was stripped of the audit's query parameters twice,
    and parsed again by the policy; now once per link, and the policy judges the spelling it was
    given."""
    stripped = counted_calls(monkeypatch, UrlPolicy, "stripped")
    page = processed("".join(f'<a href="/t{i}?utm_source=x&k={i}">{i}</a>' for i in range(5)))
    assert len(stripped) == 5
    assert [d.url for d in page.discovered] == [
        f"https://example.com/t{i}?utm_source=x&k={i}" for i in range(5)
    ]


def test_share_images_are_checked_with_the_resources_once_each() -> None:
    """og:image and twitter:image URLs join the page's resources (audit.rules_social), with the
    tag as their kind; a relative or off-site one is not requested, and an image the page also
    shows keeps its first kind."""
    page = processed(
        '<meta property="og:image" content="https://example.com/share.png">'
        '<meta name="twitter:image" content="https://EXAMPLE.com/share.png">'
        '<meta property="og:image:secure_url" content="/relative.png">'
        '<meta property="og:image" content="https://cdn.other.test/a.png">'
        '<meta name="twitter:image" content="https://example.com/x.png">'
        '<img src="/shown.png" alt=""><meta property="og:image:url" content="/shown.png">'
        '<meta property="og:image:url" content="https://example.com/shown.png">'
    )
    assert [(r.url, r.kind) for r in page.resources] == [
        ("https://example.com/shown.png", "img"),
        ("https://example.com/share.png", "og:image"),
        ("https://example.com/x.png", "twitter:image"),
    ]
