"""Cross-page checks: the executable specification the scratchpad SQL is tested against."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.catalogue import IssueType
from audit.cross_page import (
    CrawledPage,
    HreflangLink,
    LinkEdge,
    broken_internal_links,
    canonical_target_issues,
    crawled_page,
    duplicate_candidates,
    duplicate_issues,
    hreflang_return_link_issues,
    links_to_redirects,
    orphan_pages,
    redirect_issues,
    sitemap_issues,
)
from audit.issue_ids import page_id
from common.fetch_class import FetchClass
from parse.facts import Hreflang, Script, UrlRef
from tests.audit.audit_builders import URL, observe

T = IssueType


def page(url: str, status: int = 200, **kw) -> CrawledPage:
    return CrawledPage(url, status, **kw)


def redirect(url: str, to: str, status: int = 301) -> CrawledPage:
    return CrawledPage(url, status, redirect_url=to)


def summary(issues) -> list[tuple[str, str]]:
    return [(issue.issue_type.value, issue.page_url) for issue in issues]


# --------------------------------------------------------------------------- duplicates


@pytest.mark.parametrize(
    ("candidate", "eligible"),
    [
        (page("a"), True),
        (page("a", canonical_url="a"), True),  # self-canonical
        (page("a", canonical_url="b"), False),  # owner already de-duplicated
        (page("a", is_indexable=False), False),
        (page("a", javascript_shell=True), False),
        (page("a", 404), False),
        (page("a", 301, redirect_url="b"), False),
        (page("a", 200, fetch_class=FetchClass.BLOCKED), False),
        (page("a", 299), True),
    ],
)
def test_duplicate_candidate_filter(candidate, eligible):
    assert (duplicate_candidates([candidate]) == [candidate]) is eligible


def test_each_member_of_a_duplicate_title_group_gets_one_issue_with_a_sample_of_three():
    pages = [page(u, title="Same") for u in "edcba"] + [page("z", title="Other")]
    issues = duplicate_issues(pages)
    assert summary(issues) == [("duplicate-title", u) for u in "abcde"]
    assert issues[0].details == {"groupSize": 5, "otherUrls": ["b", "c", "d"]}
    assert issues[4].details == {"groupSize": 5, "otherUrls": ["a", "b", "c"]}
    assert all(issue.dedupe_key is None for issue in issues)


@pytest.mark.parametrize(
    ("pages", "expected"),
    [
        (
            [page("a", title="T"), page("b", title="T")],
            [("duplicate-title", "a"), ("duplicate-title", "b")],
        ),
        ([page("a", title="T"), page("b", title="t")], []),  # exact match only
        ([page("a"), page("b")], []),  # empty titles never group
        ([page("a", title="T"), page("b", title="T", is_indexable=False)], []),
        (
            [page("a", meta_description="D"), page("b", meta_description="D")],
            [("duplicate-meta-description", "a"), ("duplicate-meta-description", "b")],
        ),
        (
            [page("a", content_hash="h", word_count=1), page("b", content_hash="h", word_count=9)],
            [("duplicate-content", "a"), ("duplicate-content", "b")],
        ),
        # an empty body is not duplicate content
        (
            [page("a", content_hash="h", word_count=0), page("b", content_hash="h", word_count=0)],
            [],
        ),
        # one URL crawled twice is one page (last row wins), not a group
        ([page("a", title="T"), page("a", title="T")], []),
    ],
)
def test_duplicate_grouping(pages, expected):
    assert summary(duplicate_issues(pages)) == expected


# --------------------------------------------------------------------------- redirects


@pytest.mark.parametrize(
    ("pages", "expected"),
    [
        # a single redirect is normal
        ([redirect("a", "b"), page("b")], []),
        # two consecutive redirects before content: a chain, on its head
        (
            [redirect("a", "b"), redirect("b", "c"), page("c")],
            [("redirect-chain", "a", {"hops": ["a", "b", "c"], "finalUrl": "c"})],
        ),
        # the final target need not have been crawled
        (
            [redirect("a", "b"), redirect("b", "c", 302)],
            [("redirect-chain", "a", {"hops": ["a", "b", "c"], "finalUrl": "c"})],
        ),
        # a loop reached from a head is reported on the head, hops include the repeated URL
        (
            [redirect("a", "b"), redirect("b", "c"), redirect("c", "b")],
            [("redirect-loop", "a", {"hops": ["a", "b", "c", "b"]})],
        ),
        # headless cycles: self-redirect and a pair, on the smallest URL
        ([redirect("a", "a")], [("redirect-loop", "a", {"hops": ["a", "a"]})]),
        (
            [redirect("b", "a"), redirect("a", "b")],
            [("redirect-loop", "a", {"hops": ["a", "b", "a"]})],
        ),
        # two heads merging into one chain each get their issue
        (
            [redirect("a", "c"), redirect("b", "c"), redirect("c", "d")],
            [
                ("redirect-chain", "a", {"hops": ["a", "c", "d"], "finalUrl": "d"}),
                ("redirect-chain", "b", {"hops": ["b", "c", "d"], "finalUrl": "d"}),
            ],
        ),
        # a 3xx without Location is not part of the redirect graph
        ([page("a", 301), redirect("b", "a")], []),
    ],
)
def test_redirect_chains_and_loops(pages, expected):
    got = [(i.issue_type.value, i.page_url, i.details) for i in redirect_issues(pages)]
    assert got == expected


redirect_graphs = st.dictionaries(st.sampled_from("abcdef"), st.sampled_from("abcdefg"), max_size=6)


@given(redirect_graphs)
def test_every_cycle_yields_exactly_one_loop_issue_per_head_or_cycle(graph):
    pages = [redirect(src, dst) for src, dst in graph.items()]
    issues = redirect_issues(pages)
    loops = [i for i in issues if i.issue_type is T.REDIRECT_LOOP]
    cycles = set()
    for issue in loops:
        hops = issue.details["hops"]
        assert isinstance(hops, list)
        assert hops[-1] in hops[:-1]  # the repeated URL closes the list
        cycle_start = hops.index(hops[-1])
        cycles.add(frozenset(hops[cycle_start:]))
    # every URL on some cycle of the functional graph is covered by a reported loop
    for start in graph:
        seen, url = [], start
        while url in graph and url not in seen:
            seen.append(url)
            url = graph[url]
        if url in seen:
            assert frozenset(seen[seen.index(url) :]) in cycles
    assert len({i.page_url for i in issues}) == len(issues)  # at most one issue per URL


# --------------------------------------------------------------------------- links


def test_broken_internal_links_one_per_source_and_target_never_from_absence():
    pages = [
        page("s"),
        page("t1", 404),
        page("t2", 500),
        page("ok"),
        page("waf", 403, fetch_class=FetchClass.BLOCKED),
        page("rl", 429, fetch_class=FetchClass.RATE_LIMITED),
    ]
    edges = [LinkEdge("s", t) for t in ("t1", "t2", "ok", "waf", "rl", "never-crawled", "t1")]
    issues = broken_internal_links("audit", pages, edges)
    assert {(i.page_url, i.dedupe_key, i.details["targetStatus"]) for i in issues} == {
        ("s", "t1", 404),
        ("s", "t2", 500),
    }
    assert all(i.details["targetUrl"] == i.dedupe_key for i in issues)


def test_broken_links_list_every_referrer_in_source_page_id_then_target_order():
    sources = [f"s{i}" for i in range(2_500)]  # more than the original's 2,000-issue cap
    pages = [page(f"t{i}", 404) for i in range(2)] + [page(s) for s in sources]
    edges = [LinkEdge(s, f"t{i}") for s in sources for i in (1, 0)]
    issues = broken_internal_links("audit", pages, edges)
    ordered = sorted(sources, key=lambda s: page_id("audit", s))
    assert [(i.page_url, i.dedupe_key) for i in issues] == [
        (s, t) for s in ordered for t in ("t0", "t1")
    ]


def test_links_to_redirects_carry_the_redirect_target():
    pages = [page("s"), redirect("r", "final", 308), page("final"), page("e", 404)]
    edges = [LinkEdge("s", "r"), LinkEdge("s", "final"), LinkEdge("s", "e")]
    [issue] = links_to_redirects("audit", pages, edges)
    assert (issue.issue_type, issue.page_url, issue.dedupe_key) == (T.LINK_TO_REDIRECT, "s", "r")
    assert issue.details == {"targetUrl": "r", "targetStatus": 308, "redirectUrl": "final"}


ORPHAN_PAGES = [
    page("start"),
    page("linked"),
    page("self-only"),
    page("redirected"),
    redirect("old", "redirected"),
    page("nf", 404),
    page("lonely"),
    page("waf", 200, fetch_class=FetchClass.BLOCKED),
]
ORPHAN_EDGES = [LinkEdge("start", "linked"), LinkEdge("self-only", "self-only")]


@pytest.mark.parametrize(
    ("completed", "graph_complete", "expected"),
    [
        (True, True, ["lonely", "self-only"]),
        (False, True, []),  # frontier not exhausted: absence proves nothing
        (True, False, []),  # link storage budget tripped
    ],
)
def test_orphan_pages(completed, graph_complete, expected):
    issues = orphan_pages(
        ORPHAN_PAGES,
        ORPHAN_EDGES,
        "start",
        crawl_completed=completed,
        link_graph_complete=graph_complete,
    )
    assert [i.page_url for i in issues] == expected
    assert all(i.issue_type is T.ORPHAN_PAGE for i in issues)


# --------------------------------------------------------------------------- canonical, hreflang


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (page("c", 404), ("canonical-to-broken", {"canonicalUrl": "c", "targetStatus": 404})),
        (page("c", 503), ("canonical-to-broken", {"canonicalUrl": "c", "targetStatus": 503})),
        (
            redirect("c", "d"),
            (
                "canonical-to-redirect",
                {"canonicalUrl": "c", "targetStatus": 301, "redirectUrl": "d"},
            ),
        ),
        (
            page("c", is_indexable=False),
            ("canonical-to-noindex", {"canonicalUrl": "c", "targetStatus": 200}),
        ),
        (page("c"), None),
        (page("c", 403, fetch_class=FetchClass.BLOCKED), None),
        (page("c", 0, fetch_class=FetchClass.ERROR), None),
    ],
)
def test_canonical_target_is_judged_only_when_crawled(target, expected):
    issues = canonical_target_issues([page("p", canonical_url="c"), target])
    got = [(i.issue_type.value, i.details) for i in issues]
    assert got == ([] if expected is None else [expected])
    assert all(i.page_url == "p" for i in issues)


@pytest.mark.parametrize(
    "source",
    [
        page("p", canonical_url="p"),  # self-canonical
        page("p", canonical_url="elsewhere"),  # target not crawled
        page("p", 404, canonical_url="c"),  # source itself not a 2xx page
        page("p"),
    ],
)
def test_canonical_target_not_checked(source):
    assert canonical_target_issues([source, page("c", 404)]) == []


def alt(*pairs: tuple[str, str]) -> tuple[HreflangLink, ...]:
    return tuple(HreflangLink(lang, url) for lang, url in pairs)


@pytest.mark.parametrize(
    ("pages", "expected"),
    [
        # reciprocal pair: fine
        ([page("en", hreflang=alt(("de", "de"))), page("de", hreflang=alt(("en", "en")))], []),
        # de does not link back to en
        ([page("en", hreflang=alt(("de", "de"))), page("de")], [("en", "de", "de")]),
        # de links back to another URL, not to en
        (
            [page("en", hreflang=alt(("de", "de"))), page("de", hreflang=alt(("en", "en-x")))],
            [("en", "de", "de")],
        ),
        # self-references are not alternates; uncrawled and non-2xx targets are not judged
        ([page("en", hreflang=alt(("en", "en"), ("fr", "fr"), ("it", "it"))), page("it", 404)], []),
        # the same target listed twice yields one issue
        (
            [page("en", hreflang=alt(("de", "de"), ("de-AT", "de"))), page("de")],
            [("en", "de", "de")],
        ),
    ],
)
def test_hreflang_return_links(pages, expected):
    issues = hreflang_return_link_issues(pages)
    assert [(i.page_url, i.dedupe_key, i.details["hreflang"]) for i in issues] == expected
    assert all(i.issue_type is T.HREFLANG_MISSING_RETURN_LINK for i in issues)


# --------------------------------------------------------------------------- sitemap


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (page("u", 404, in_sitemap=True), ("sitemap-url-broken", {"statusCode": 404})),
        (page("u", 500, in_sitemap=True), ("sitemap-url-broken", {"statusCode": 500})),
        (
            CrawledPage("u", 302, redirect_url="v", in_sitemap=True),
            ("sitemap-url-redirect", {"statusCode": 302, "redirectUrl": "v"}),
        ),
        (
            page("u", is_indexable=False, in_sitemap=True),
            ("sitemap-url-noindex", {"statusCode": 200}),
        ),
        (page("u", in_sitemap=True), None),
        (page("u", 404), None),  # not in the sitemap
        (page("u", 403, fetch_class=FetchClass.BLOCKED, in_sitemap=True), None),
        (page("u", 0, fetch_class=FetchClass.ERROR, in_sitemap=True), None),
    ],
)
def test_sitemap_url_hygiene(row, expected):
    got = [(i.issue_type.value, i.details) for i in sitemap_issues([row])]
    assert got == ([] if expected is None else [expected])


def test_robots_blocked_sitemap_urls_are_reported_once_each():
    issues = sitemap_issues([], ["b", "a", "b"])
    assert summary(issues) == [("sitemap-url-blocked", "a"), ("sitemap-url-blocked", "b")]


# --------------------------------------------------------------------------- from observations


def test_crawled_page_derives_the_row_from_an_observation():
    obs = observe(
        {
            "titles": (" Title ",),
            "canonicals": (UrlRef("/c", "https://example.com/c"),),
            "hreflangs": (
                Hreflang("de", UrlRef("/de", "https://example.com/de")),
                Hreflang("xx", UrlRef("bad", None)),
            ),
        },
        x_robots_tag="noindex",
    )
    record = crawled_page(obs)
    assert (record.url, record.title, record.is_indexable) == (URL, "Title", False)
    assert record.canonical_url == "https://example.com/c"
    assert record.hreflang == (HreflangLink("de", "https://example.com/de"),)
    assert record.content_hash == "c" * 64 and not record.javascript_shell


def test_shell_pages_keep_no_content_hash_and_are_not_duplicate_candidates():
    shell = {
        "headings": (),
        "links": (),
        "links_seen": 0,
        "word_count": 3,
        "scripts": (Script(None, None, None, None),),
    }
    a = crawled_page(observe(shell, url="https://example.com/a"))
    b = crawled_page(observe(shell, url="https://example.com/b"))
    assert a.javascript_shell and a.content_hash is None
    assert duplicate_issues([a, b]) == []
