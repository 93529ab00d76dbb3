"""Raw versus rendered (audit.rendering_rules): one table per rule, each row a raw page, its
rendered page and what the browser saw, and exactly the findings they make.

The baseline pair is the clean page of `observe()` rendered to itself, with a clean load; each row
changes only what its rule reads.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from audit.catalogue import DUPLICATE_GROUP_SAMPLE, SCRIPT_LINK_SAMPLE, IssueType, descriptor
from audit.issues import DetectedIssue
from audit.rendering_rules import (
    ROBOTS_TXT_BLOCK,
    SOFT_404_PHRASES,
    RenderNotDoneReason,
    rendered_page_issues,
    rendering_not_done_issue,
)
from parse.facts import Heading, UrlRef
from render.records import BlockedRequest, BlockReason, RenderedPage, RenderFailure
from tests.audit.audit_builders import URL, link, observe

T = IssueType


def load(**changes: Any) -> RenderedPage:
    return replace(RenderedPage(URL, "test", final_url=URL, status=200, html="<p>x"), **changes)


def findings(
    raw: dict[str, Any] | None = None,
    rendered: dict[str, Any] | None = None,
    page: RenderedPage | None = None,
) -> list[DetectedIssue]:
    return rendered_page_issues(observe(raw), observe(rendered), page or load())


def only(issues: list[DetectedIssue], issue_type: IssueType) -> DetectedIssue:
    [issue] = [i for i in issues if i.issue_type is issue_type]
    return issue


def test_a_page_its_script_does_not_change_is_clean():
    assert findings() == []


def test_the_tables_samples_are_the_catalogues():
    """The rows below spell their samples out: five links or requests, three messages."""
    assert (SCRIPT_LINK_SAMPLE, DUPLICATE_GROUP_SAMPLE) == (5, 3)


def test_robots_block_reason_is_the_renderers_value():
    """audit/ may not import render/, so the value is spelled twice: they must agree."""
    assert BlockReason.ROBOTS_TXT.value == ROBOTS_TXT_BLOCK


# --------------------------------------------------------------------------- content


@pytest.mark.parametrize(
    ("raw_words", "rendered_words", "found"),
    [
        (0, 20, True),  # an empty shell, a page of text once rendered
        (0, 19, False),  # the rendered page has little text too
        (4, 20, True),  # 4 is 20 % of 20: four words in five come from script
        (5, 20, False),
        (60, 300, True),
        (61, 300, False),
        (300, 300, False),
        (300, 0, False),  # script removing text is not this finding
    ],
)
def test_content_only_after_script(raw_words, rendered_words, found):
    issues = findings({"word_count": raw_words}, {"word_count": rendered_words})
    expected = [{"rawWordCount": raw_words, "renderedWordCount": rendered_words}] if found else []
    assert [i.details for i in issues if i.issue_type is T.CONTENT_ONLY_AFTER_SCRIPT] == expected


@pytest.mark.parametrize("cut", ["raw", "rendered"])
def test_content_is_not_compared_when_a_page_was_cut_at_the_byte_cap(cut):
    sides: dict[str, dict[str, Any]] = {"raw": {"word_count": 0}, "rendered": {"word_count": 500}}
    sides[cut]["truncated"] = True
    issues = findings(sides["raw"], sides["rendered"])
    assert T.CONTENT_ONLY_AFTER_SCRIPT not in {i.issue_type for i in issues}


# --------------------------------------------------------------------------- links

A, B, C = (f"https://example.com/{name}" for name in "abc")
ELSEWHERE = "https://other.example/x"


@pytest.mark.parametrize(
    ("raw_links", "rendered_links", "expected"),
    [
        ([A], [A], None),
        ([], [A, B], {"count": 2, "sampleUrls": [A, B]}),
        ([A], [A, B, A], {"count": 1, "sampleUrls": [B]}),  # each target once
        ([], [ELSEWHERE], None),  # external links are not the site's own pages
        (
            [],
            ["https://www.example.com/a"],
            {"count": 1, "sampleUrls": [A.replace("//", "//www.")]},
        ),
        (["https://EXAMPLE.com:443/a"], [A], None),  # the same URL, spelled otherwise
        ([A, B], [A], None),  # links script removes are not this finding
        ([], [None], None),  # an href that does not resolve
        (
            [],
            [f"https://example.com/{n}" for n in range(7)],
            {"count": 7, "sampleUrls": [f"https://example.com/{n}" for n in range(5)]},
        ),
    ],
)
def test_links_only_after_script(raw_links, rendered_links, expected):
    raw = {"links": tuple(map(link, raw_links)), "links_seen": len(raw_links)}
    rendered = {"links": tuple(map(link, rendered_links)), "links_seen": len(rendered_links)}
    issues = [i for i in findings(raw, rendered) if i.issue_type is T.LINKS_ONLY_AFTER_SCRIPT]
    assert [i.details for i in issues] == ([expected] if expected else [])


@pytest.mark.parametrize(
    "raw_changes", [{"links_seen": 1001, "links": (link(A),)}, {"truncated": True, "links": ()}]
)
def test_links_are_not_compared_when_the_raw_pages_links_were_cut(raw_changes):
    """A link past the extractor's cap may well be in the raw HTML: no finding."""
    rendered = {"links": (link(A), link(B)), "links_seen": 2}
    assert T.LINKS_ONLY_AFTER_SCRIPT not in {i.issue_type for i in findings(raw_changes, rendered)}


# --------------------------------------------------------------------------- title, description


@pytest.mark.parametrize(
    ("field", "issue_type"),
    [
        ("titles", T.TITLE_CHANGED_BY_SCRIPT),
        ("meta_descriptions", T.META_DESCRIPTION_CHANGED_BY_SCRIPT),
    ],
)
@pytest.mark.parametrize(
    ("raw", "rendered", "expected"),
    [
        (("Loading",), ("Home | Shop",), {"raw": "Loading", "rendered": "Home | Shop"}),
        ((), ("Home | Shop",), {"raw": "", "rendered": "Home | Shop"}),  # set by script
        (("Home | Shop",), (), {"raw": "Home | Shop", "rendered": ""}),  # removed by script
        (("Home | Shop",), ("Home | Shop",), None),
        ((" Home | Shop\n",), ("Home | Shop",), None),  # compared trimmed
        (("Home", "Other"), ("Home",), None),  # the first one is the page's
        ((), (), None),
    ],
)
def test_title_and_description_changed_by_script(field, issue_type, raw, rendered, expected):
    issues = findings({field: raw}, {field: rendered})
    assert [i.details for i in issues if i.issue_type is issue_type] == (
        [expected] if expected else []
    )


# --------------------------------------------------------------------------- canonical

CANON, OTHER = "https://example.com/canonical", "https://example.com/other-canonical"


def canonicals(url: str | None) -> dict[str, Any]:
    return {"canonicals": () if url is None else (UrlRef(url, url),)}


@pytest.mark.parametrize(
    ("raw_html", "header", "rendered_html", "expected"),
    [
        (None, None, None, None),
        (None, None, CANON, (T.CANONICAL_ADDED_BY_SCRIPT, {"renderedCanonical": CANON})),
        (CANON, None, CANON, None),
        (
            CANON,
            None,
            OTHER,
            (T.CANONICAL_CHANGED_BY_SCRIPT, {"rawCanonical": CANON, "renderedCanonical": OTHER}),
        ),
        (  # removed by script
            CANON,
            None,
            None,
            (T.CANONICAL_CHANGED_BY_SCRIPT, {"rawCanonical": CANON, "renderedCanonical": None}),
        ),
        # The Link header is the same response before and after script.
        (None, CANON, None, None),
        (None, CANON, CANON, None),
        (
            None,
            CANON,
            OTHER,
            (T.CANONICAL_CHANGED_BY_SCRIPT, {"rawCanonical": CANON, "renderedCanonical": OTHER}),
        ),
    ],
)
def test_canonical_added_or_changed_by_script(raw_html, header, rendered_html, expected):
    raw = replace(observe(canonicals(raw_html)), header_canonical=header)
    rendered = replace(observe(canonicals(rendered_html)), header_canonical=header)
    kinds = {T.CANONICAL_ADDED_BY_SCRIPT, T.CANONICAL_CHANGED_BY_SCRIPT}
    issues = rendered_page_issues(raw, rendered, load())
    found = [(i.issue_type, i.details) for i in issues if i.issue_type in kinds]
    assert found == ([expected] if expected else [])


# --------------------------------------------------------------------------- robots


@pytest.mark.parametrize(
    ("raw", "rendered", "header", "expected"),
    [
        ((), (), None, None),
        (("index, follow",), ("index, follow",), None, None),
        ((), ("noindex",), None, T.NOINDEX_ADDED_BY_SCRIPT),
        (("index",), ("noindex",), None, T.NOINDEX_ADDED_BY_SCRIPT),
        ((), ("none",), None, T.NOINDEX_ADDED_BY_SCRIPT),  # none = noindex, nofollow
        (("noindex",), (), None, T.NOINDEX_REMOVED_BY_SCRIPT),
        (("noindex",), ("index",), None, T.NOINDEX_REMOVED_BY_SCRIPT),
        (("none",), ("nofollow",), None, T.NOINDEX_REMOVED_BY_SCRIPT),
        (("noindex, nofollow",), ("noindex",), None, T.ROBOTS_CHANGED_BY_SCRIPT),
        ((), ("nofollow",), None, T.ROBOTS_CHANGED_BY_SCRIPT),
        (("NoIndex",), ("noindex ",), None, None),  # directives compare lowercased, trimmed
        # X-Robots-Tag is the response's: script cannot add or remove its noindex.
        (("noindex",), (), "noindex", T.ROBOTS_CHANGED_BY_SCRIPT),
        ((), ("noindex",), "noindex", T.ROBOTS_CHANGED_BY_SCRIPT),
        ((), (), "noindex", None),
    ],
)
def test_robots_directives_changed_by_script(raw, rendered, header, expected):
    raw_obs = replace(observe({"meta_robots": raw}), x_robots_tag=header)
    rendered_obs = replace(observe({"meta_robots": rendered}), x_robots_tag=header)
    kinds = {T.NOINDEX_ADDED_BY_SCRIPT, T.NOINDEX_REMOVED_BY_SCRIPT, T.ROBOTS_CHANGED_BY_SCRIPT}
    issues = rendered_page_issues(raw_obs, rendered_obs, load())
    assert [i.issue_type for i in issues if i.issue_type in kinds] == (
        [expected] if expected else []
    )


def test_googlebot_meta_counts_as_a_robots_directive():
    [issue] = findings({}, {"meta_googlebot": ("noindex",)})
    assert issue.issue_type is T.NOINDEX_ADDED_BY_SCRIPT
    assert issue.details == {"rawDirectives": [], "renderedDirectives": ["noindex"]}


def test_robots_details_list_both_sides_directives():
    issue = only(
        findings({"meta_robots": ("noindex, max-snippet:20",)}, {"meta_robots": ("index",)}),
        T.NOINDEX_REMOVED_BY_SCRIPT,
    )
    assert issue.details == {
        "rawDirectives": ["max-snippet:20", "noindex"],
        "renderedDirectives": ["index"],
    }


# --------------------------------------------------------------------------- while loading


@pytest.mark.parametrize(
    ("field", "issue_type"),
    [
        ("exceptions", T.UNCAUGHT_EXCEPTION_DURING_LOAD),
        ("console_errors", T.CONSOLE_ERROR_DURING_LOAD),
    ],
)
@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        ([], None),
        (["Error: boom"], {"count": 1, "sample": ["Error: boom"]}),
        (["a", "b", "c", "d"], {"count": 4, "sample": ["a", "b", "c"]}),
        (["x" * 1000], {"count": 1, "sample": ["x" * 300]}),  # a message is cut for the row
    ],
)
def test_exceptions_and_console_errors_during_load(field, issue_type, messages, expected):
    issues = findings(page=load(**{field: messages}))
    assert [i.details for i in issues if i.issue_type is issue_type] == (
        [expected] if expected else []
    )


def test_uncaught_exceptions_outrank_console_errors():
    exception, console = (
        descriptor(T.UNCAUGHT_EXCEPTION_DURING_LOAD),
        descriptor(T.CONSOLE_ERROR_DURING_LOAD),
    )
    assert exception.severity.order < console.severity.order


def blocked(url: str, reason: BlockReason, kind: str = "script") -> BlockedRequest:
    return BlockedRequest(url, reason, kind)


@pytest.mark.parametrize(
    ("requests", "expected"),
    [
        ([], None),
        ([blocked("https://example.com/a.png", BlockReason.RESOURCE_TYPE, "image")], None),
        ([blocked("http://127.0.0.1/x", BlockReason.PRIVATE_ADDRESS)], None),
        (
            [
                blocked("https://example.com/app.js", BlockReason.ROBOTS_TXT),
                blocked("https://example.com/a.png", BlockReason.RESOURCE_TYPE, "image"),
                blocked("https://example.com/api/items", BlockReason.ROBOTS_TXT, "fetch"),
            ],
            {
                "count": 2,
                "sample": [
                    {"url": "https://example.com/app.js", "resourceType": "script"},
                    {"url": "https://example.com/api/items", "resourceType": "fetch"},
                ],
            },
        ),
    ],
)
def test_resources_blocked_by_robots(requests, expected):
    issues = findings(page=load(blocked=requests))
    assert [i.details for i in issues if i.issue_type is T.RESOURCES_BLOCKED_BY_ROBOTS] == (
        [expected] if expected else []
    )


# --------------------------------------------------------------------------- soft 404

SOFT_TITLES = [
    "Page not found | Shop",
    "404",
    "Error 404 - Shop",
    "404-page",
    "Oops! This page doesn't exist",
    "NOT FOUND",
    "Seite nicht gefunden",
    "Page introuvable",
    "Página no encontrada",
    "Pagina non trovata",
    "Página não encontrada",
    "Pagina niet gevonden",
    "Strona nie istnieje",
    "Sidan hittades inte",
    "Страница не найдена",
    "お探しのページが見つかりません",
    "抱歉，页面不存在",
]
NOT_SOFT_TITLES = [
    "Products | Shop",
    "Error 4040 explained",  # 404 only as a whole word
    "Not foundations: a guide",  # phrases as whole words
    "Lost and found",
    "",
]


@pytest.mark.parametrize(
    ("title", "found"), [(t, True) for t in SOFT_TITLES] + [(t, False) for t in NOT_SOFT_TITLES]
)
def test_soft_404_reads_the_rendered_title(title, found):
    rendered = {"titles": (title,), "headings": (), "word_count": 12}
    issues = [i for i in findings({}, rendered) if i.issue_type is T.SOFT_404]
    expected = [{"statusCode": 200, "title": title, "h1": ""}] if found else []
    assert [i.details for i in issues] == expected


@pytest.mark.parametrize(
    ("headings", "found"),
    [
        ((Heading(1, "Page not found"),), True),
        ((Heading(2, "Shop"), Heading(1, "404")), True),  # the first H1, wherever it is
        ((Heading(2, "Page not found"),), False),  # only the title and the H1 speak for the page
        ((Heading(1, "Products"), Heading(1, "Not found")), False),
    ],
)
def test_soft_404_reads_the_rendered_first_h1(headings, found):
    rendered = {"titles": ("Shop",), "headings": headings, "word_count": 12}
    assert (T.SOFT_404 in {i.issue_type for i in findings({}, rendered)}) is found


NOT_FOUND_VIEW = {"titles": ("Page not found",), "word_count": 12}


@pytest.mark.parametrize(
    ("raw_changes", "page_changes", "rendered_changes", "status"),
    [
        ({}, {"status": 200}, {}, 200),
        ({}, {"status": 203}, {}, 203),
        ({}, {"status": None}, {}, 200),  # Browser Rendering cannot tell: the crawl's answer
        ({"status_code": 204}, {"status": None}, {}, 204),
        ({}, {"status": 404}, {}, None),  # a real 404
        ({}, {}, {"word_count": 149}, 200),
        ({}, {}, {"word_count": 150}, None),  # a long page that mentions "not found"
        ({}, {}, {"meta_robots": ("noindex",)}, None),  # Google's remedy for such a view
        ({"x_robots_tag": "noindex"}, {}, {}, None),
    ],
)
def test_soft_404_needs_a_2xx_answer_a_short_view_and_no_noindex(
    raw_changes, page_changes, rendered_changes, status
):
    raw = observe(**raw_changes)
    rendered = replace(observe(NOT_FOUND_VIEW | rendered_changes), x_robots_tag=raw.x_robots_tag)
    issues = rendered_page_issues(raw, rendered, load(**page_changes))
    soft = [i.details["statusCode"] for i in issues if i.issue_type is T.SOFT_404]
    assert soft == ([] if status is None else [status])


def test_the_soft_404_trigger_names_as_many_languages_as_the_table_has():
    assert f"phrases in {len(SOFT_404_PHRASES)} languages" in descriptor(T.SOFT_404).trigger


# --------------------------------------------------------------------------- comparable pages

SCRIPTED = {"titles": ("Set by script",), "links": (link(B),), "links_seen": 1}


@pytest.mark.parametrize(
    ("page", "raw_changes", "rendered_facts"),
    [
        (RenderedPage.failed(URL, "test", RenderFailure.TIMEOUT, "20 s"), {}, SCRIPTED),
        (load(final_url="https://example.com/elsewhere"), {}, SCRIPTED),  # script navigated away
        (load(), {"status_code": 404}, SCRIPTED),
        (load(), {"is_html": False}, SCRIPTED),
        (load(), {"facts": None}, SCRIPTED),
    ],
)
def test_no_comparison_unless_both_pages_were_read_and_are_the_same_document(
    page, raw_changes, rendered_facts
):
    raw = observe(**raw_changes)
    exceptions = replace(page, exceptions=["Error: boom"])
    issues = rendered_page_issues(raw, observe(rendered_facts), exceptions)
    # What the browser saw while loading is a fact whatever the DOM became.
    assert [i.issue_type for i in issues] == [T.UNCAUGHT_EXCEPTION_DURING_LOAD]


def test_a_redirect_the_crawler_followed_is_the_same_document():
    raw = observe(final_url="https://example.com/page/")
    page = load(url=URL, final_url="https://example.com/page/")
    issues = rendered_page_issues(raw, observe({"titles": ("New",)}), page)
    assert [i.issue_type for i in issues] == [T.TITLE_CHANGED_BY_SCRIPT]


def test_the_rendered_page_without_facts_is_not_compared():
    raw = observe({"titles": ("Loading",)})
    assert rendered_page_issues(raw, replace(observe(), facts=None), load()) == []


# --------------------------------------------------------------------------- rendering not done


@pytest.mark.parametrize(
    ("reason", "detail"),
    [
        (RenderNotDoneReason.MODE_NEVER, "the audit was run with rendering off"),
        (RenderNotDoneReason.NOT_CONFIGURED, "BROWSER_RENDERING_API_TOKEN is not set"),
        (RenderNotDoneReason.RENDER_FAILED, "timeout: the page took longer than 20 s"),
    ],
)
def test_rendering_not_done_carries_the_reason(reason, detail):
    raw = observe({"word_count": 3, "links": (), "links_seen": 0, "headings": ()})
    issue = rendering_not_done_issue(raw, reason, detail)
    assert issue.issue_type is T.RENDERING_NOT_DONE and issue.page_url == URL
    assert issue.details == {"reason": reason.value, "detail": detail, "rawWordCount": 3}


def test_every_finding_round_trips_as_json():
    raw = observe({"titles": ("Loading",), "meta_robots": ("noindex",), "word_count": 0})
    rendered = observe(
        {"titles": ("Not found",), "canonicals": (UrlRef(CANON, CANON),), "word_count": 40}
    )
    page = load(
        exceptions=["Error: x"],
        console_errors=["404 /api"],
        blocked=[blocked("https://example.com/app.js", BlockReason.ROBOTS_TXT)],
    )
    issues = rendered_page_issues(raw, rendered, page)
    assert [i.issue_type for i in issues] == [
        T.UNCAUGHT_EXCEPTION_DURING_LOAD,
        T.CONSOLE_ERROR_DURING_LOAD,
        T.RESOURCES_BLOCKED_BY_ROBOTS,
        T.CONTENT_ONLY_AFTER_SCRIPT,
        T.TITLE_CHANGED_BY_SCRIPT,
        T.CANONICAL_ADDED_BY_SCRIPT,
        T.NOINDEX_REMOVED_BY_SCRIPT,
        T.SOFT_404,
    ]
    for issue in issues:
        assert DetectedIssue.from_dict(json.loads(json.dumps(issue.to_dict()))) == issue
