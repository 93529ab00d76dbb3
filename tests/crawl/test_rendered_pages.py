"""A rendered page audited as a fetched one (crawl.rendered_pages, sans-IO): the rendered DOM goes
through the same extractor and page rules with the raw answer's status and headers, each finding
says it comes from the rendered page, its links are the ones to queue, and the raw HTML's
observation is rebuilt beside it for the comparison; the crawl queues app shells
(crawl.page_pipeline.render_candidate) and a rendered page never again."""

from __future__ import annotations

from dataclasses import replace

from a11y.axe import AxeResult
from a11y.findings import Finding, Impact, Source
from a11y.merge import merged
from a11y.rule_ids import RenderedRuleId
from common import ports
from crawl.page_pipeline import CrawlScope
from crawl.page_stream import process_response
from crawl.rendered_pages import RENDERED_DETAIL, rendered_pair
from crawl.url_policy import UrlPolicy
from durable.records import LeasedUrl
from render.decision import RenderReason
from render.records import RenderedPage, RenderMode
from urls.private_hosts import PrivateHosts

SITE = "https://shop.test/"
SHELL = (
    b"<!doctype html><title>Loading</title><script type=module src=/app.js></script>"
    b"<body><div id=app></div>"
)
RENDERED = (
    "<html><head><title>Widgets</title><meta name=robots content=noindex></head><body>"
    '<div id="app"><h1>Widgets</h1><p>All the widgets.</p><a href="/widgets/blue">Blue</a>'
    '<a href="/about">About</a></div><script type="module" src="/app.js"></script></body></html>'
)
SCOPE = CrawlScope(
    "a1", UrlPolicy(SITE, private_hosts=PrivateHosts.ALLOW), True, render=RenderMode.AUTO
)


def fetched(body: bytes) -> ports.FetchResult:
    headers = {"content-type": "text/html; charset=windows-1252", "x-robots-tag": "noarchive"}
    return ports.FetchResult(f"{SITE}widgets", 200, headers, body, False, 42.0)


def test_the_crawl_queues_an_app_shell_with_its_raw_answer() -> None:
    page = process_response(SCOPE, LeasedUrl(f"{SITE}widgets", 1, False), fetched(SHELL))

    candidate = page.render
    assert candidate is not None and candidate.reason is RenderReason.APP_SHELL
    assert (candidate.status, candidate.depth, candidate.elapsed_ms) == (200, 1, 42.0)
    assert candidate.headers["x-robots-tag"] == "noarchive"
    assert candidate.raw_facts.titles == ("Loading",)
    assert "javascript-rendering-suspected" in {i.issue_type for i in page.issues}


def test_the_rendered_dom_is_judged_by_the_same_rules_and_its_findings_say_so() -> None:
    raw = process_response(SCOPE, LeasedUrl(f"{SITE}widgets", 1, False), fetched(SHELL))
    assert raw.render is not None
    page = RenderedPage(f"{SITE}widgets", "chromium", f"{SITE}widgets", 200, RENDERED)

    pair = rendered_pair(SCOPE, raw.render, page)

    record = pair.page.record
    assert (record.title, record.h1_count, record.is_indexable) == ("Widgets", 1, False)
    assert (record.status_code, record.response_time_ms, record.x_robots_tag) == (
        200,
        42,
        "noarchive",
    )
    types = {issue.issue_type for issue in pair.page.issues}
    assert "noindex-page" in types and "javascript-rendering-suspected" not in types
    assert all(issue.details[RENDERED_DETAIL] is True for issue in pair.page.issues)
    assert {d.url for d in pair.page.discovered} >= {f"{SITE}widgets/blue", f"{SITE}about"}
    assert pair.page.render is None  # never queued again
    assert (pair.raw.title, pair.rendered.title) == ("Loading", "Widgets")
    assert pair.raw.facts == raw.render.raw_facts


def test_a_shell_whose_raw_answer_says_noindex_is_never_rendered() -> None:
    noindex = replace(
        fetched(SHELL), headers={"content-type": "text/html", "x-robots-tag": "noindex"}
    )
    page = process_response(SCOPE, LeasedUrl(f"{SITE}widgets", 1, False), noindex)
    assert page.render is None


def test_without_the_option_nothing_is_queued() -> None:
    scope = replace(SCOPE, render=None)
    page = process_response(scope, LeasedUrl(f"{SITE}widgets", 1, False), fetched(SHELL))
    assert page.render is None


def test_axe_core_s_results_are_merged_into_the_rendered_page_and_its_issues() -> None:
    raw = process_response(SCOPE, LeasedUrl(f"{SITE}widgets", 1, False), fetched(SHELL))
    assert raw.render is not None
    contrast = Finding(
        RenderedRuleId.COLOR_CONTRAST,
        Impact.SERIOUS,
        ("1.4.3",),
        "#app > p",
        "<p>",
        Source.RENDERED,
    )
    axe = AxeResult((contrast,), 1, (RenderedRuleId.COLOR_CONTRAST,), "axe-core 4.14.1")
    page = RenderedPage(f"{SITE}widgets", "chromium", f"{SITE}widgets", 200, RENDERED)

    checked = rendered_pair(SCOPE, raw.render, replace(page, accessibility=axe))
    unchecked = rendered_pair(SCOPE, raw.render, page)

    assert checked.rendered.accessibility == merged(unchecked.rendered.accessibility, axe)
    assert checked.rendered.accessibility is not None
    assert contrast in checked.rendered.accessibility.findings
    # The persisted page: axe-core's finding is an issue of its own type, the row says axe-core
    # checked the page; without a run, neither.
    [issue] = [i for i in checked.page.issues if i.issue_type == "a11y-color-contrast"]
    assert issue.details["elements"] == [
        {"selector": "#app > p", "snippet": "<p>", "source": "rendered"}
    ]
    assert not [i for i in unchecked.page.issues if i.issue_type == "a11y-color-contrast"]
    assert (checked.page.record.a11y_rendered, unchecked.page.record.a11y_rendered) == (True, False)
