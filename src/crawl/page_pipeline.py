"""From one fetched response to everything the crawl persists about it (sans-IO).

`assemble` takes a response whose body went through the streaming extractor (crawl.page_stream
feeds it chunk by chunk as it arrives, and `process_response` there takes a whole body), runs the
per-page rules and derives: the `audit_pages` row, its issues, the scratchpad's mirror row, the
page's link edges and URLs to enqueue not yet sent (crawl.page_links), its fragments, resources
and site facts. It does no I/O, so tests can call it on canned responses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

from a11y.result import PageAccessibility
from audit import rules_social
from audit.cross_page import crawled_page
from audit.issue_ids import page_id
from audit.page import PageObservation
from audit.page_rules import run_page_rules
from auditdb.records import IssueRecord, PageRecord
from auditdb.structured_data import page_structured
from common import ports, settings
from common.fetch_class import FetchClass, classify_fetch
from crawl.fragments import fragment_targets
from crawl.page_links import PageLinks
from crawl.site_facts import site_facts
from crawl.url_policy import UrlPolicy
from crawl.window import PageOutcome
from durable.records import (
    DiscoveredUrl,
    ExternalRef,
    FragmentLink,
    FragmentTargets,
    LeasedUrl,
    LinkRow,
    MirrorRow,
    RenderCandidate,
    ResourceRef,
    SiteFact,
)
from parse.facts import PageFacts
from parse.tree import Element
from render.decision import render_reason
from render.records import RenderMode
from structured.page import PageStructuredData, check_json_ld, check_page
from urls.normalise import normalise_url
from urls.resolve import document_base

_HTML_TYPES = ("text/html", "application/xhtml+xml")
# The response headers `observe` reads: what a page queued for rendering keeps of its raw answer,
# so its rendered HTML is judged with the same headers (RenderCandidate, crawl.rendered_pages).
OBSERVED_HEADERS = (
    "content-type",
    "x-robots-tag",
    "link",
    "strict-transport-security",
    "content-security-policy",
    "x-content-type-options",
    "x-frame-options",
    "referrer-policy",
    "location",
)


@dataclass(frozen=True, slots=True)
class CrawlScope:
    """What every page of one audit is judged against."""

    audit_id: str
    policy: UrlPolicy
    site_is_https: bool
    check_external: bool = False  # keep links to other sites for the external-links steps
    follow_links: bool = True  # false in list mode (auditdb.scope): only redirects are followed
    # The audit's `render` option: which pages are queued for rendering (render.decision); None
    # for pages that are themselves rendered, which are never queued again.
    render: RenderMode | None = None

    @property
    def site_host(self) -> str:
        """The host the grade scans (the start URL's after redirects): "same origin" for SRI."""
        return (urlsplit(self.policy.start_url).hostname or "").lower()


@dataclass(slots=True)
class ProcessedPage:
    record: PageRecord
    issues: list[IssueRecord]
    mirror: MirrorRow
    links: list[LinkRow]
    discovered: list[DiscoveredUrl]
    outcome: PageOutcome
    skipped: dict[str, int] = field(default_factory=dict)
    facts: list[SiteFact] = field(default_factory=list)  # for the grade and the exposure checks
    fragment_targets: FragmentTargets | None = None
    fragment_links: list[FragmentLink] = field(default_factory=list)
    resources: list[ResourceRef] = field(default_factory=list)
    external: list[ExternalRef] = field(default_factory=list)
    render: RenderCandidate | None = None  # queued for rendering (render.decision)


@dataclass(slots=True)
class ParsedBody:
    """What the page stream kept of a body: its head, its size, the facts and the links, and
    for a parsed page its element tree, the accessibility rules' verdict on it and whether its
    bytes showed Microdata or RDFa."""

    head: bytes  # the first bytes (fetch classification)
    size: int  # bytes received, up to the fetch's cap
    facts: PageFacts | None  # None unless the page was parsed (an ok 2xx HTML page)
    links: PageLinks  # rows not yet sent, and the page's counts
    # The page's `<html>` element (parse.tree_builder), for whatever else reads the tree while
    # the page is processed (the Microdata/RDFa extraction); never stored: the body and its
    # tree are dropped once the page is assembled.
    tree: Element | None = None
    accessibility: PageAccessibility | None = None
    # Whether the tree holds the whole page (parse.tree_builder.ParsedTree.complete).
    tree_complete: bool = True
    # Whether the body showed Microdata or RDFa attributes, or could not tell (a UTF-16 page):
    # structured.markup_scan. Only then is the tree walked for that markup.
    markup: bool = False


def assemble(
    scope: CrawlScope,
    leased: LeasedUrl,
    result: ports.FetchResult,
    body: ParsedBody,
    *,
    retried_after_429: bool = False,
) -> ProcessedPage:
    return assemble_observed(scope, leased, result, body, retried_after_429=retried_after_429)[0]


def assemble_observed(
    scope: CrawlScope,
    leased: LeasedUrl,
    result: ports.FetchResult,
    body: ParsedBody,
    *,
    retried_after_429: bool = False,
) -> tuple[ProcessedPage, PageObservation]:
    """`assemble`, with the observation the rules judged (a rendered page is compared with its
    raw HTML's, crawl.rendered_pages)."""
    observation = observe(scope, leased, result, body)
    row_id = page_id(scope.audit_id, leased.url)
    issues = [
        IssueRecord.from_detected(scope.audit_id, issue, row_id)
        for issue in run_page_rules(observation)
    ]
    links = body.links
    other_links(links, observation)
    page = ProcessedPage(
        record=page_record(scope.audit_id, observation, links),
        issues=issues,
        mirror=mirror_row(scope.audit_id, observation),
        links=links.rows,
        discovered=links.discovered,
        outcome=PageOutcome(
            fetch_class=observation.fetch_class,
            status=result.status,
            response_time_ms=result.elapsed_ms,
            html_bytes=observation.html_bytes,
            truncated=result.truncated,
            retried_after_429=retried_after_429,
        ),
        skipped=links.skipped,
        facts=site_facts(leased.url, result, observation.facts, scope.site_host),
        fragment_targets=fragment_targets(
            leased.url, observation.facts, body_complete=not result.truncated
        ),
        fragment_links=links.fragments,
        resources=links.resources,
        external=links.external_refs,
        render=render_candidate(scope, leased, result, observation),
    )
    return page, observation


def render_candidate(
    scope: CrawlScope, leased: LeasedUrl, result: ports.FetchResult, obs: PageObservation
) -> RenderCandidate | None:
    """The page queued for rendering with what its raw answer left, or None (render.decision).

    A page whose raw answer says `noindex` (meta robots or X-Robots-Tag) is never rendered: that
    `noindex` is final, as Google does not render such a page ("Understand the JavaScript SEO
    basics", developers.google.com/search/docs/crawling-indexing/javascript/javascript-seo-basics),
    so what its script would add is never seen by a search engine."""
    facts = obs.facts
    if scope.render is None or facts is None or obs.fetch_class is not FetchClass.OK:
        return None
    if not obs.is_indexable:
        return None
    reason = render_reason(scope.render, leased.url, facts)
    if reason is None:
        return None
    return RenderCandidate(
        url=leased.url,
        reason=reason,
        final_url=result.url,
        status=result.status,
        elapsed_ms=result.elapsed_ms,
        headers={name: result.headers[name] for name in OBSERVED_HEADERS if name in result.headers},
        raw_facts=facts,
        depth=leased.depth,
        in_sitemap=leased.in_sitemap,
    )


def fetch_class_of(status: int, headers: dict[str, str], head: bytes) -> FetchClass:
    """The classifier reads only the start of a body (`CRAWL.body_head_chars`)."""
    text = head[: settings.CRAWL.body_head_chars].decode("latin-1")
    return FetchClass(classify_fetch(status, headers, text).value)


def parses(status: int, headers: dict[str, str]) -> bool:
    """Whether a body with this status and headers is parsed (if its class is ok)."""
    return 200 <= status < 300 and is_html_type(headers.get("content-type"))


def observe(
    scope: CrawlScope, leased: LeasedUrl, result: ports.FetchResult, body: ParsedBody
) -> PageObservation:
    headers = result.headers
    content_type = headers.get("content-type")
    facts, structured_data = checked_structured_data(
        body.facts, body.tree, markup=body.markup, tree_complete=body.tree_complete
    )
    return PageObservation(
        url=leased.url,
        final_url=result.url,
        status_code=result.status,
        fetch_class=fetch_class_of(result.status, headers, body.head),
        response_time_ms=None if result.status == 0 else round(result.elapsed_ms),
        content_type=content_type,
        is_html=is_html_type(content_type),
        html_bytes=_body_size(result, body.size),
        x_robots_tag=headers.get("x-robots-tag"),
        header_canonical=header_canonical(headers.get("link")),
        strict_transport_security=headers.get("strict-transport-security"),
        content_security_policy=headers.get("content-security-policy"),
        x_content_type_options=headers.get("x-content-type-options"),
        x_frame_options=headers.get("x-frame-options"),
        referrer_policy=headers.get("referrer-policy"),
        redirect_url=_redirect_target(leased.url, result),
        crawl_depth=leased.depth,
        in_sitemap=leased.in_sitemap,
        site_is_https=scope.site_is_https,
        facts=facts,
        structured_data=structured_data,
        accessibility=body.accessibility,
    )


def checked_structured_data(
    facts: PageFacts | None,
    tree: Element | None = None,
    *,
    markup: bool = False,
    tree_complete: bool = True,
) -> tuple[PageFacts | None, PageStructuredData | None]:
    """The page's structured data validated, and its facts without the JSON-LD blocks' texts:
    the observation crosses step and storage boundaries, so it keeps the bounded findings, not
    the blocks. The tree is walked for Microdata and RDFa only when the body showed some
    (`markup`); without a tree, the check says that markup was not read (structured.page)."""
    if facts is None:
        return None, None
    documents = facts.json_ld.documents
    kept = replace(facts, json_ld=replace(facts.json_ld, documents=())) if documents else facts
    if markup:
        base = document_base(facts.page_url, facts.base_href)
        return kept, check_page(documents, tree, base, complete=tree_complete)
    return kept, check_json_ld(documents) if documents else None


def is_html_type(content_type: str | None) -> bool:
    """An HTML document by its Content-Type (the audit never sniffs a body)."""
    return content_type is not None and content_type.split(";")[0].strip().lower() in _HTML_TYPES


def _body_size(result: ports.FetchResult, size: int) -> int:
    """The whole body's size: Content-Length when the read stopped at the cap and it says more."""
    if result.truncated:
        declared = result.headers.get("content-length", "")
        size = max(size + 1, int(declared) if declared.isdigit() else 0)
    return size


def _redirect_target(url: str, result: ports.FetchResult) -> str | None:
    if not 300 <= result.status < 400:
        return None
    location = result.headers.get("location")
    return None if not location else normalise_url(location, url)


def header_canonical(link_header: str | None) -> str | None:
    """The target of a `Link: <url>; rel="canonical"` header (RFC 8288), as sent."""
    if not link_header:
        return None
    for part in _split_link_header(link_header):
        target, _, params = part.partition(">")
        if not target.strip().startswith("<"):
            continue
        rels = [
            p.split("=", 1)[1].strip().strip('"').lower().split()
            for p in params.split(";")
            if p.strip().lower().startswith("rel=")
        ]
        if any("canonical" in rel for rel in rels):
            return target.strip()[1:].strip()
    return None


def _split_link_header(value: str) -> list[str]:
    # Commas separate links but may appear inside <...>; split only outside angle brackets.
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in value:
        depth += char == "<"
        depth -= char == ">" and depth > 0
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def page_record(audit_id: str, obs: PageObservation, links: PageLinks) -> PageRecord:
    facts = obs.facts
    headings = [] if facts is None else list(facts.heading_levels)
    counts = {level: headings.count(level) for level in range(2, 7)}
    social = {} if facts is None else {tag.key: tag.value for tag in reversed(facts.social)}
    structured = page_structured(obs.structured_data)
    return PageRecord(
        id=page_id(audit_id, obs.url),
        audit_id=audit_id,
        url=obs.url,
        crawled_at=ports.iso_now(),
        status_code=obs.status_code,
        fetch_class=obs.fetch_class.value,
        final_url=obs.final_url,
        redirect_url=obs.redirect_url,
        content_type=obs.content_type,
        is_html=obs.is_html,
        response_time_ms=obs.response_time_ms,
        html_bytes=obs.html_bytes,
        truncated=bool(facts and facts.truncated)
        or obs.html_bytes > settings.CRAWL.parse_max_bytes,
        title=obs.title or None,
        meta_description=obs.meta_description or None,
        canonical_url=obs.effective_canonical,
        header_canonical_url=obs.normalized_header_canonical,
        robots_meta=obs.robots_meta,
        x_robots_tag=obs.x_robots_tag,
        is_indexable=obs.is_indexable,
        html_lang=None if facts is None else facts.html_lang,
        og_title=social.get("og:title"),
        og_description=social.get("og:description"),
        og_image=social.get("og:image"),
        h1_count=obs.h1_count,
        h2_count=counts[2],
        h3_count=counts[3],
        h4_count=counts[4],
        h5_count=counts[5],
        h6_count=counts[6],
        heading_order=headings,
        word_count=obs.word_count,
        content_hash=None if facts is None else facts.content_hash,
        images_total=0 if facts is None else facts.images_seen,
        images_missing_alt=0 if facts is None else sum(1 for i in facts.images if i.alt is None),
        internal_link_count=links.internal,
        external_link_count=links.external,
        # JSON-LD blocks, or Microdata/RDFa items (which have no blocks to count).
        has_structured_data=bool(facts and facts.json_ld.blocks) or bool(structured.types),
        hreflang=[] if facts is None else [h.lang for h in facts.hreflangs],
        crawl_depth=obs.crawl_depth,
        in_sitemap=obs.in_sitemap,
        structured_types=structured.types,
        eligible_features=structured.features,
        structured_findings=structured.findings,
        structured_errors=structured.errors,
        structured_warnings=structured.warnings,
        a11y_checked=obs.accessibility is not None,
        a11y_rendered=obs.accessibility is not None and obs.accessibility.rendered,
    )


def mirror_row(audit_id: str, obs: PageObservation) -> MirrorRow:
    page = crawled_page(obs)
    return {
        "url": page.url,
        "page_id": page_id(audit_id, obs.url),
        "status_code": page.status_code,
        "fetch_class": page.fetch_class.value,
        "final_url": obs.final_url,
        "redirect_url": page.redirect_url,
        "is_html": int(obs.is_html),
        "is_indexable": int(page.is_indexable),
        "canonical_url": page.canonical_url,
        "title": page.title,
        "meta_description": page.meta_description,
        "content_hash": page.content_hash,
        "word_count": page.word_count,
        "javascript_shell": int(page.javascript_shell),
        "depth": obs.crawl_depth,
        "in_sitemap": int(page.in_sitemap),
        "hreflang_json": json.dumps([{"lang": h.lang, "url": h.url} for h in page.hreflang]),
    }


def other_links(links: PageLinks, obs: PageObservation) -> None:
    """Judge what the page points at besides its `<a href>`s and other references (which
    stream in while it is parsed): its redirect (the same page, moved: it keeps the page's
    depth), its canonical and hreflang targets, crawled so the cross-page checks can judge
    them, and its share images, checked as resources."""
    if obs.redirect_url:
        target = normalise_url(obs.redirect_url)
        if target is not None:
            links.add_moved(target, obs.crawl_depth)
    facts = obs.facts
    if facts is None:
        return
    candidates = [obs.effective_canonical, *(h.href.url for h in facts.hreflangs)]
    for url in candidates:
        target = url and normalise_url(url)
        if target:
            links.add_candidate(target, links.child_depth)
    links.add_share_images(rules_social.share_images(obs))
