"""A rendered page, audited as the crawl audits a fetched one (issue 30, docs/rendering.md).

Sans-IO. The rendered DOM (serialised back to HTML by the renderer) goes through the same
extractor and the same page rules as the raw HTML did (crawl.page_stream, crawl.page_pipeline),
judged with the raw answer's URL, status, time and headers (`RenderCandidate`). So titles,
descriptions, headings, canonicals, robots directives and links are judged on what a visitor's
browser shows, and the page's links found only there feed discovery (workflow.render_step). Each
of its findings says it comes from the rendered page (`RENDERED_DETAIL`).

The raw HTML's observation is rebuilt beside it from the raw facts the crawl kept, and the two are
compared (audit.rendering_rules: content, links, title, description, canonical and robots that
only script sets or changes, a soft 404) along with what went wrong while the page loaded
(uncaught exceptions, console errors): those findings join the rendered page's own.

Where the renderer ran axe-core on the page (`RenderedPage.accessibility`), its findings are
merged into the rendered observation's accessibility record before the page's rules and row see
it (crawl.page_stream), axe-core's verdict winning per rule and element over the static rules'
(a11y.merge): the page's accessibility issues are axe-core's, the rules only it decides among
them, and its row says axe-core checked it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from audit.issue_ids import page_id
from audit.page import PageObservation
from audit.rendering_rules import (
    RenderNotDoneReason,
    rendered_page_issues,
    rendering_not_done_issue,
)
from auditdb.records import IssueRecord
from common import ports
from crawl.page_links import PageLinks
from crawl.page_pipeline import CrawlScope, ParsedBody, ProcessedPage, is_html_type, observe
from crawl.page_stream import PageStream
from durable.records import LeasedUrl, RenderCandidate
from render.decision import RenderReason
from render.records import RenderedPage

__all__ = ["RENDERED_DETAIL", "RenderedPair", "not_rendered_issues", "rendered_pair"]

# The key every finding of a rendered page carries in its details (`true`): what the report, the
# API and the exports show to say the finding is about the rendered page, not its raw HTML.
RENDERED_DETAIL = "rendered"
# The renderer hands back the DOM as text; we send it to the extractor as UTF-8 and say so.
_RENDERED_TYPE = "text/html; charset=utf-8"


@dataclass(frozen=True, slots=True)
class RenderedPair:
    """A rendered page as the crawl would persist it, the raw and rendered observations, and the
    render itself (console errors, exceptions, refused requests)."""

    page: ProcessedPage
    raw: PageObservation
    rendered: PageObservation
    render: RenderedPage


def rendered_pair(
    scope: CrawlScope, candidate: RenderCandidate, page: RenderedPage
) -> RenderedPair:
    """Audit `page` (a successful render of `candidate`) with the page rules; `scope.render` is
    ignored: a rendered page is never queued again."""
    scope = replace(scope, render=None)
    leased = LeasedUrl(candidate.url, candidate.depth, candidate.in_sitemap)
    processed, rendered = PageStream(scope, leased).finish_observed(
        _as_fetched(candidate, page), axe=page.accessibility
    )
    raw = raw_observation(scope, candidate)
    compared = [
        IssueRecord.from_detected(scope.audit_id, issue, processed.record.id)
        for issue in rendered_page_issues(raw, rendered, page)
    ]
    marked = [
        replace(issue, details={**issue.details, RENDERED_DETAIL: True})
        for issue in [*processed.issues, *compared]
    ]
    return RenderedPair(replace(processed, issues=marked), raw, rendered, page)


def not_rendered_issues(
    scope: CrawlScope, candidate: RenderCandidate, reason: RenderNotDoneReason, detail: str
) -> list[IssueRecord]:
    """`rendering-not-done` on an app shell that was not rendered (why: `reason`, in the
    owner's words: `detail`); nothing for auto's sample or `always`'s other pages, whose raw
    HTML stands on its own. The page keeps its raw findings."""
    if candidate.reason is not RenderReason.APP_SHELL:
        return []
    issue = rendering_not_done_issue(raw_observation(scope, candidate), reason, detail)
    return [
        IssueRecord.from_detected(scope.audit_id, issue, page_id(scope.audit_id, candidate.url))
    ]


def _as_fetched(candidate: RenderCandidate, page: RenderedPage) -> ports.FetchResult:
    headers = dict(candidate.headers)
    if is_html_type(headers.get("content-type")):
        headers["content-type"] = _RENDERED_TYPE
    return ports.FetchResult(
        url=candidate.final_url,
        status=candidate.status,
        headers=headers,
        body=page.html.encode("utf-8", "surrogatepass"),
        truncated=False,
        elapsed_ms=candidate.elapsed_ms,
    )


def raw_observation(scope: CrawlScope, candidate: RenderCandidate) -> PageObservation:
    """The raw HTML's observation, as the crawl judged it, from what the candidate kept."""
    leased = LeasedUrl(candidate.url, candidate.depth, candidate.in_sitemap)
    result = ports.FetchResult(
        url=candidate.final_url,
        status=candidate.status,
        headers=dict(candidate.headers),
        body=b"",
        truncated=False,
        elapsed_ms=candidate.elapsed_ms,
    )
    # The crawl classified the raw answer OK before it queued the page (crawl.page_pipeline
    # .render_candidate); an empty head reads as OK for a 2xx HTML answer.
    body = ParsedBody(
        b"", candidate.raw_facts.html_bytes, candidate.raw_facts, PageLinks(scope.policy, leased)
    )
    return observe(scope, leased, result, body)
