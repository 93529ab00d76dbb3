"""Finalize checks in the scratchpad, called through Durable Object RPC, one table per check.

Every expectation is also checked against `audit.cross_page` (the specification) so the tables
pin both the SQL and the agreement with it.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from audit.catalogue import IssueType
from audit.cross_page import (
    CrawledPage,
    HreflangLink,
    LinkEdge,
    broken_internal_links,
    canonical_target_issues,
    duplicate_issues,
    hreflang_return_link_issues,
    links_to_redirects,
    orphan_pages,
    redirect_issues,
    sitemap_issues,
)
from audit.issue_ids import page_id
from common.fetch_class import FetchClass
from durable.finalize import FinalizeOptions, FinalizePage
from local_platform.runtime import LocalPlatform

AUDIT = "audit-f"
START = "https://a.test/"
T = IssueType
_names = itertools.count()


def url(path: str) -> str:
    return f"https://a.test/{path}"


def page(path: str, status: int = 200, **kw: Any) -> CrawledPage:
    return CrawledPage(url(path), status, **kw)


def mirror_row(audit_id: str, p: CrawledPage) -> dict[str, Any]:
    """The `page_mirror` row record_batch receives for a crawled page."""
    return {
        "url": p.url,
        "page_id": page_id(audit_id, p.url),
        "status_code": p.status_code,
        "fetch_class": p.fetch_class.value,
        "final_url": p.url,
        "redirect_url": p.redirect_url,
        "is_html": 1,
        "is_indexable": int(p.is_indexable),
        "canonical_url": p.canonical_url,
        "title": p.title,
        "meta_description": p.meta_description,
        "content_hash": p.content_hash,
        "word_count": p.word_count,
        "javascript_shell": int(p.javascript_shell),
        "depth": 1,
        "in_sitemap": int(p.in_sitemap),
        "hreflang_json": json.dumps([{"lang": h.lang, "url": h.url} for h in p.hreflang]),
    }


async def write_crawl(
    pad: Any,
    pages: Sequence[CrawledPage],
    edges: Sequence[LinkEdge] = (),
    *,
    audit_id: str = AUDIT,
    truncate: bool = False,
    batch_size: int = 500,
) -> None:
    links = [{"source_url": e.source_url, "target_url": e.target_url, "nofollow": 0} for e in edges]
    rows = [mirror_row(audit_id, p) for p in pages]
    for i in range(0, max(len(rows), len(links)), batch_size):
        batch = {"pages": rows[i : i + batch_size], "links": links[i : i + batch_size]}
        await pad.record_batch(batch)
    if truncate:  # trip the storage budget: the link graph is incomplete from here on
        # A new edge (a stored one costs nothing again), too large for a 1-byte budget.
        dummy = {"source_url": START, "target_url": START + "never-stored", "nofollow": 0}
        await pad.record_batch({"links": [dummy], "link_budget_bytes": 1})


async def finalize_all(
    pad: Any, **overrides: Any
) -> tuple[list[dict[str, Any]], list[FinalizePage]]:
    """Every page of the result, following the cursor."""
    options = FinalizeOptions(AUDIT, START, crawl_completed=True).to_dict() | overrides
    pages = [FinalizePage.from_dict(await pad.run_finalize_checks(options))]
    while pages[-1].next_cursor is not None:
        options["cursor"] = pages[-1].next_cursor
        pages.append(FinalizePage.from_dict(await pad.run_finalize_checks(options)))
    return [issue for p in pages for issue in p.issues], pages


def specification(
    pages: Sequence[CrawledPage],
    edges: Sequence[LinkEdge] = (),
    *,
    audit_id: str = AUDIT,
    start_url: str = START,
    crawl_completed: bool = True,
    link_graph_complete: bool = True,
    blocked: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """audit.cross_page's issues, in finalize's section order."""
    issues = [
        *duplicate_issues(pages),
        *redirect_issues(pages),
        *broken_internal_links(audit_id, pages, edges),
        *links_to_redirects(audit_id, pages, edges),
        *orphan_pages(
            pages,
            edges,
            start_url,
            crawl_completed=crawl_completed,
            link_graph_complete=link_graph_complete,
        ),
        *canonical_target_issues(pages),
        *hreflang_return_link_issues(pages),
        *sitemap_issues(pages, blocked),
    ]
    return [issue.to_dict() for issue in issues]


def of_type(issues: list[dict[str, Any]], *types: IssueType) -> list[tuple[str, Any, Any]]:
    wanted = {t.value for t in types}
    return [
        (i["page_url"], i["details"], i["dedupe_key"]) for i in issues if i["issue_type"] in wanted
    ]


@pytest.fixture
def pad(platform: LocalPlatform) -> Any:
    return platform.env.AUDIT_SCRATCHPAD.getByName(f"finalize-{next(_names)}")


async def check(
    pad: Any, pages: Sequence[CrawledPage], edges: Sequence[LinkEdge] = (), **options: Any
) -> list[dict[str, Any]]:
    """Write, finalize, and assert agreement with the specification; return the issues."""
    await write_crawl(pad, pages, edges)
    issues, _ = await finalize_all(pad, **options)
    spec_options = {
        "crawl_completed": options.get("crawl_completed", True),
        "blocked": options.get("robots_blocked_sitemap_urls", ()),
    }
    assert issues == specification(pages, edges, **spec_options)
    return issues


# --------------------------------------------------------------------------- duplicates


async def test_duplicate_groups_give_each_member_a_sample_of_three_others(pad: Any) -> None:
    same = [page(p, title="Same") for p in "edcba"]
    issues = await check(pad, [*same, page("solo", title="Solo"), page("x", title="")])

    assert of_type(issues, T.DUPLICATE_TITLE) == [
        (url("a"), {"groupSize": 5, "otherUrls": [url("b"), url("c"), url("d")]}, None),
        (url("b"), {"groupSize": 5, "otherUrls": [url("a"), url("c"), url("d")]}, None),
        (url("c"), {"groupSize": 5, "otherUrls": [url("a"), url("b"), url("d")]}, None),
        (url("d"), {"groupSize": 5, "otherUrls": [url("a"), url("b"), url("c")]}, None),
        (url("e"), {"groupSize": 5, "otherUrls": [url("a"), url("b"), url("c")]}, None),
    ]


@pytest.mark.parametrize(
    ("second", "grouped"),
    [
        (page("b", title="T"), True),
        (page("b", title="T", canonical_url=url("b")), True),  # self-canonical
        (page("b", title="T", canonical_url=url("a")), False),  # owner de-duplicated
        (page("b", title="T", canonical_url=""), False),  # as the specification: "" is not None
        (page("b", title="T", is_indexable=False), False),
        (page("b", title="T", javascript_shell=True), False),
        (page("b", 404, title="T"), False),
        (page("b", 200, title="T", fetch_class=FetchClass.BLOCKED), False),
        (page("b", title="t"), False),  # exact string equality
    ],
)
async def test_duplicate_candidate_filter(pad: Any, second: CrawledPage, grouped: bool) -> None:
    issues = await check(pad, [page("a", title="T"), second])
    assert bool(of_type(issues, T.DUPLICATE_TITLE)) is grouped


async def test_duplicate_content_needs_words_and_meta_descriptions_group_alike(pad: Any) -> None:
    pages = [
        page("a", meta_description="M", content_hash="h", word_count=3),
        page("b", meta_description="M", content_hash="h", word_count=3),
        page("c", content_hash="z", word_count=0),
        page("d", content_hash="z", word_count=0),
    ]
    issues = await check(pad, pages)

    assert [i["issue_type"] for i in issues if i["issue_type"].startswith("duplicate")] == [
        "duplicate-meta-description",
        "duplicate-meta-description",
        "duplicate-content",
        "duplicate-content",
    ]


# --------------------------------------------------------------------------- redirects


def hop(src: str, dst: str, status: int = 301) -> CrawledPage:
    return page(src, status, redirect_url=url(dst))


async def test_redirect_chains_loops_and_headless_cycles(pad: Any) -> None:
    pages = [
        hop("single", "ok"),
        page("ok"),  # one hop: no issue
        hop("c1", "c2"),
        hop("c2", "c3", 302),
        page("c3"),  # chain
        hop("l1", "l2"),
        hop("l2", "l3"),
        hop("l3", "l2"),  # loop reached from a head
        hop("x", "y"),
        hop("y", "x"),  # headless pair
        hop("self", "self"),  # headless self-redirect
        page("empty", 301, redirect_url=""),  # no target: not a redirect row
    ]
    issues = await check(pad, pages)

    assert of_type(issues, T.REDIRECT_CHAIN, T.REDIRECT_LOOP) == [
        (url("c1"), {"hops": [url("c1"), url("c2"), url("c3")], "finalUrl": url("c3")}, None),
        (url("l1"), {"hops": [url("l1"), url("l2"), url("l3"), url("l2")]}, None),
        (url("self"), {"hops": [url("self"), url("self")]}, None),
        (url("x"), {"hops": [url("x"), url("y"), url("x")]}, None),
    ]


# --------------------------------------------------------------------------- links


async def test_broken_links_and_links_to_redirects_one_per_source_and_target(pad: Any) -> None:
    pages = [
        page("a"),
        page("b"),
        page("gone", 404),
        page("down", 503),
        page("waf", 403, fetch_class=FetchClass.BLOCKED),
        hop("moved", "a"),
    ]
    edges = [
        LinkEdge(url(s), url(t))
        for s, t in [
            ("a", "gone"),
            ("a", "down"),
            ("b", "gone"),
            ("a", "waf"),
            ("a", "never-crawled"),
            ("b", "moved"),
            ("gone", "gone"),
        ]
    ]
    issues = await check(pad, pages, edges)

    broken = of_type(issues, T.BROKEN_INTERNAL_LINK)
    assert sorted(broken, key=str) == sorted(
        [
            (url("a"), {"targetUrl": url("gone"), "targetStatus": 404}, url("gone")),
            (url("a"), {"targetUrl": url("down"), "targetStatus": 503}, url("down")),
            (url("b"), {"targetUrl": url("gone"), "targetStatus": 404}, url("gone")),
            (url("gone"), {"targetUrl": url("gone"), "targetStatus": 404}, url("gone")),
        ],
        key=str,
    )
    assert of_type(issues, T.LINK_TO_REDIRECT) == [
        (
            url("b"),
            {"targetUrl": url("moved"), "targetStatus": 301, "redirectUrl": url("a")},
            url("moved"),
        ),
    ]


async def test_broken_links_list_every_referrer_in_source_page_id_then_target_order(
    pad: Any,
) -> None:
    pages = [page(f"s{i}") for i in range(30)] + [page(f"t{i}", 404) for i in range(80)]
    edges = [LinkEdge(url(f"s{i}"), url(f"t{j}")) for i in range(30) for j in range(80)]
    issues = await check(pad, pages, edges)  # 2,400 hits: more than the original's 2,000 cap

    broken = of_type(issues, T.BROKEN_INTERNAL_LINK)
    assert len(broken) == 2400
    keys = [(page_id(AUDIT, source), details["targetUrl"]) for source, details, _ in broken]
    assert keys == sorted(keys)


async def test_an_edge_whose_source_has_no_mirror_row_still_sorts_by_its_page_id(pad: Any) -> None:
    pages = [page(p) for p in "abcdef"] + [page("gone", 404)]
    await write_crawl(pad, pages, [LinkEdge(url(p), url("gone")) for p in "abcdef"])
    await pad.record_batch({"links": [{"source_url": url("ghost"), "target_url": url("gone")}]})
    edges = [LinkEdge(url(p), url("gone")) for p in [*"abcdef", "ghost"]]

    issues, _ = await finalize_all(pad)

    assert of_type(issues, T.BROKEN_INTERNAL_LINK) == of_type(
        specification(pages, edges), T.BROKEN_INTERNAL_LINK
    )


# --------------------------------------------------------------------------- orphans


ORPHAN_SITE = [
    page(""),
    page("linked"),
    page("self-only"),
    page("redirected-to"),
    hop("r", "redirected-to"),
    page("lonely"),
    page("gone", 404),
    page("waf", 200, fetch_class=FetchClass.BLOCKED),
]
ORPHAN_EDGES = [LinkEdge(url(""), url("linked")), LinkEdge(url("self-only"), url("self-only"))]


@pytest.mark.parametrize(
    ("completed", "truncate", "orphans"),
    [
        (True, False, [url("lonely"), url("self-only")]),
        (False, False, []),  # the frontier was not exhausted
        (True, True, []),  # the link graph is incomplete
    ],
)
async def test_orphans_only_for_complete_crawls_with_a_complete_graph(
    pad: Any, completed: bool, truncate: bool, orphans: list[str]
) -> None:
    await write_crawl(pad, ORPHAN_SITE, ORPHAN_EDGES, truncate=truncate)

    issues, pages = await finalize_all(pad, crawl_completed=completed)

    assert [p for p, _, _ in of_type(issues, T.ORPHAN_PAGE)] == orphans
    first = pages[0]
    assert (first.links_truncated, first.orphans_checked) == (truncate, completed and not truncate)
    assert issues == specification(
        ORPHAN_SITE, ORPHAN_EDGES, crawl_completed=completed, link_graph_complete=not truncate
    )


# --------------------------------------------------------------------------- canonical, hreflang


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (page("t", 404), (T.CANONICAL_TO_BROKEN, {"canonicalUrl": url("t"), "targetStatus": 404})),
        (
            hop("t", "x"),
            (
                T.CANONICAL_TO_REDIRECT,
                {"canonicalUrl": url("t"), "targetStatus": 301, "redirectUrl": url("x")},
            ),
        ),
        (
            page("t", is_indexable=False),
            (T.CANONICAL_TO_NOINDEX, {"canonicalUrl": url("t"), "targetStatus": 200}),
        ),
        (page("t"), None),
        (page("t", 500, fetch_class=FetchClass.ERROR), None),  # not judged
    ],
)
async def test_canonical_targets(pad: Any, target: CrawledPage, expected: Any) -> None:
    issues = await check(
        pad, [page("a", canonical_url=url("t")), target, page("b", 404, canonical_url=url("t"))]
    )  # source must be 2xx

    found = [
        (i["issue_type"], i["details"]) for i in issues if i["issue_type"].startswith("canonical")
    ]
    assert found == ([] if expected is None else [(expected[0].value, expected[1])])


async def test_hreflang_return_links(pad: Any) -> None:
    def alt(*pairs: tuple[str, str]) -> tuple[HreflangLink, ...]:
        return tuple(HreflangLink(lang, url(p)) for lang, p in pairs)

    pages = [
        page(
            "en", hreflang=alt(("en", "en"), ("de", "de"), ("fr", "fr"), ("x", "de"), ("es", "es"))
        ),
        page("de", hreflang=alt(("de", "de"))),  # no return link to en
        page("fr", hreflang=alt(("en", "en"))),  # returns
        page("es", 404),  # not 2xx: not judged
    ]
    issues = await check(pad, pages)

    assert of_type(issues, T.HREFLANG_MISSING_RETURN_LINK) == [
        (url("en"), {"hreflang": "de", "targetUrl": url("de")}, url("de")),
    ]


# --------------------------------------------------------------------------- sitemap


async def test_sitemap_entries_and_robots_blocked_urls(pad: Any) -> None:
    pages = [
        page("ok", in_sitemap=True),
        page("gone", 410, in_sitemap=True),
        page("moved", 308, redirect_url=url("ok"), in_sitemap=True),
        page("hidden", is_indexable=False, in_sitemap=True),
        page("not-listed", 404),
    ]
    blocked = [url("z"), url("y"), url("z")]
    issues = await check(pad, pages, robots_blocked_sitemap_urls=blocked)

    sitemap = [i for i in issues if i["issue_type"].startswith("sitemap")]
    assert [(i["issue_type"], i["page_url"]) for i in sitemap] == [
        ("sitemap-url-broken", url("gone")),
        ("sitemap-url-noindex", url("hidden")),
        ("sitemap-url-redirect", url("moved")),
        ("sitemap-url-blocked", url("y")),
        ("sitemap-url-blocked", url("z")),
    ]


# --------------------------------------------------------------------------- paging and shape


async def test_pages_concatenate_to_the_full_result_and_counts_are_totals(pad: Any) -> None:
    pages = [
        page(
            f"p{i:02}",
            title=f"T{i % 3}",
            in_sitemap=i % 4 == 0,
            canonical_url=url(f"gone{i}") if i % 5 == 0 else None,
        )
        for i in range(40)
    ]
    pages += [page(f"gone{i}", 404) for i in range(0, 40, 5)]
    await write_crawl(pad, pages)
    whole, [single] = await finalize_all(pad, limit=10_000)

    paged, parts = await finalize_all(pad, limit=7)

    assert paged == whole == specification(pages)
    assert all(len(p.issues) <= 7 for p in parts) and len(parts) > 1
    assert parts[0].counts == single.counts and all(p.counts is None for p in parts[1:])
    assert single.counts is not None
    assert {k: v for k, v in single.counts.items() if v} == Counter(i["issue_type"] for i in whole)
    assert sum(sum(p.page_counts.values()) for p in parts) == len(whole)


async def test_a_byte_budget_splits_pages_but_always_makes_progress(pad: Any) -> None:
    pages = [page(f"p{i}", title="same") for i in range(6)]
    await write_crawl(pad, pages)

    issues, parts = await finalize_all(pad, max_bytes=1)

    assert issues == specification(pages)
    assert [len(p.issues) for p in parts] == [1] * 12  # 6 duplicate titles + 6 orphans


async def test_an_unknown_cursor_is_refused(pad: Any) -> None:
    options = FinalizeOptions(AUDIT, START, crawl_completed=True, cursor="bogus:1").to_dict()
    with pytest.raises(Exception, match="not a finalize cursor"):
        await pad.run_finalize_checks(options)


async def test_an_empty_scratchpad_finalizes_to_nothing(pad: Any) -> None:
    issues, [only] = await finalize_all(pad)
    assert issues == [] and only.next_cursor is None and only.counts is not None
    assert set(only.counts.values()) == {0}


def test_options_and_page_round_trip() -> None:
    options = FinalizeOptions(AUDIT, START, True, ("https://a.test/x",), "redirects:3", 5, 100)
    assert FinalizeOptions.from_dict(options.to_dict()) == options
    page_ = FinalizePage(
        [{"issue_type": "orphan-page"}],
        "orphan-page:1",
        True,
        False,
        {"orphan-page": 1},
        {"orphan-page": 1},
    )
    assert FinalizePage.from_dict(page_.to_dict()) == page_
    with pytest.raises(ValueError):
        FinalizeOptions(AUDIT, START, True, limit=0)
