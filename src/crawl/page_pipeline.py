"""From one fetched response to everything the crawl persists about it (sans-IO).

`process_response` parses the body with the streaming extractor, runs the per-page rules and
derives, in one pass: the `audit_pages` row, its issues, the scratchpad's mirror row, the internal
link edges kept for the cross-page checks, and the URLs to enqueue. It does no I/O, so the chunk
runner can call it between fetches and tests can call it on canned responses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from audit.cross_page import crawled_page
from audit.issue_ids import page_id
from audit.page import PageObservation
from audit.page_rules import run_page_rules
from auditdb.records import IssueRecord, PageRecord
from common import ports, settings
from common.fetch_class import FetchClass, classify_fetch
from crawl.fragments import fragment_links, fragment_targets
from crawl.references import page_link_urls, resource_urls
from crawl.site_facts import site_facts
from crawl.url_policy import Decision, UrlPolicy
from crawl.window import PageOutcome
from durable.records import (
    DiscoveredUrl,
    FragmentLink,
    FragmentTargets,
    LeasedUrl,
    LinkRow,
    MirrorRow,
    ResourceRef,
    SiteFact,
)
from parse.extractor import PageExtractor
from parse.facts import PageFacts
from urls.normalise import normalise_url, same_site

_HTML_TYPES = ("text/html", "application/xhtml+xml")


@dataclass(frozen=True, slots=True)
class CrawlScope:
    """What every page of one audit is judged against."""

    audit_id: str
    policy: UrlPolicy
    site_is_https: bool

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


def process_response(
    scope: CrawlScope,
    leased: LeasedUrl,
    result: ports.FetchResult,
    *,
    retried_after_429: bool = False,
) -> ProcessedPage:
    observation = observe(scope, leased, result)
    row_id = page_id(scope.audit_id, leased.url)
    issues = [
        IssueRecord.from_detected(scope.audit_id, issue, row_id)
        for issue in run_page_rules(observation)
    ]
    # area, iframe, frame, refresh, link next/prev: read once for the edges and discovery
    page_links = [] if observation.facts is None else page_link_urls(observation.facts)
    discovered, skipped = discover(scope, leased, observation, page_links)
    return ProcessedPage(
        record=page_record(scope.audit_id, observation),
        issues=issues,
        mirror=mirror_row(scope.audit_id, observation),
        links=link_edges(leased.url, observation.facts, page_links),
        discovered=discovered,
        outcome=PageOutcome(
            fetch_class=observation.fetch_class,
            status=result.status,
            response_time_ms=result.elapsed_ms,
            html_bytes=observation.html_bytes,
            truncated=result.truncated,
            retried_after_429=retried_after_429,
        ),
        skipped=skipped,
        facts=site_facts(leased.url, result, observation.facts, scope.site_host),
        fragment_targets=fragment_targets(
            leased.url, observation.facts, body_complete=not result.truncated
        ),
        fragment_links=fragment_links(leased.url, observation.facts),
        resources=resource_refs(scope, leased.url, observation.facts),
    )


def observe(scope: CrawlScope, leased: LeasedUrl, result: ports.FetchResult) -> PageObservation:
    headers = result.headers
    content_type = headers.get("content-type")
    fetch_class = FetchClass(
        classify_fetch(
            result.status, headers, result.body[: settings.CRAWL.body_head_chars].decode("latin-1")
        ).value
    )
    is_html = _is_html(content_type)
    facts = None
    if fetch_class is FetchClass.OK and 200 <= result.status < 300 and is_html:
        facts = extract(leased.url, content_type, result.body)
    return PageObservation(
        url=leased.url,
        final_url=result.url,
        status_code=result.status,
        fetch_class=fetch_class,
        response_time_ms=None if result.status == 0 else round(result.elapsed_ms),
        content_type=content_type,
        is_html=is_html,
        html_bytes=_body_size(result),
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
    )


def extract(url: str, content_type: str | None, body: bytes) -> PageFacts:
    extractor = PageExtractor(
        url, content_type=content_type, max_bytes=settings.CRAWL.parse_max_bytes
    )
    extractor.feed(body)
    return extractor.close()


def _is_html(content_type: str | None) -> bool:
    return content_type is not None and content_type.split(";")[0].strip().lower() in _HTML_TYPES


def _body_size(result: ports.FetchResult) -> int:
    """The whole body's size: Content-Length when the read stopped at the cap and it says more."""
    size = len(result.body)
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


def page_record(audit_id: str, obs: PageObservation) -> PageRecord:
    facts = obs.facts
    headings = [] if facts is None else list(facts.heading_levels)
    counts = {level: headings.count(level) for level in range(2, 7)}
    social = {} if facts is None else {tag.key: tag.value for tag in reversed(facts.social)}
    links = [] if facts is None else [link.href.url for link in facts.links if link.href.url]
    internal = sum(1 for url in links if same_site(url, obs.url))
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
        internal_link_count=internal,
        external_link_count=len(links) - internal,
        has_structured_data=bool(facts and facts.json_ld.blocks),
        hreflang=[] if facts is None else [h.lang for h in facts.hreflangs],
        crawl_depth=obs.crawl_depth,
        in_sitemap=obs.in_sitemap,
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


def link_edges(
    source_url: str, facts: PageFacts | None, page_links: list[str | None]
) -> list[LinkRow]:
    """Internal link edges (normalised, deduplicated, first occurrence wins), capped per page.
    `page_links`: `crawl.references.page_link_urls(facts)`."""
    if facts is None:
        return []
    edges: dict[str, LinkRow] = {}
    anchors = [(link.href.url, link.nofollow, link.text or None) for link in facts.links]
    # area, iframe, frame, refresh, link next/prev: page links without anchor text
    others = [(url, False, None) for url in page_links]
    for url, nofollow, text in anchors + others:
        target = url and normalise_url(url)
        if target is None or target in edges or not same_site(target, source_url):
            continue
        edges[target] = LinkRow(source_url, target, nofollow, text)
        if len(edges) >= settings.CRAWL.max_stored_links_per_page:  # discovery sees all
            break
    return list(edges.values())


def resource_refs(scope: CrawlScope, source_url: str, facts: PageFacts | None) -> list[ResourceRef]:
    """The page's internal resources the URL policy lets us request (crawl.references)."""
    if facts is None:
        return []
    return [
        ResourceRef(source_url, url, ref.kind.value, ref.rel)
        for url, ref in resource_urls(facts).items()
        if scope.policy.decide(url, None) is Decision.ALLOWED
    ]


def discover(
    scope: CrawlScope, leased: LeasedUrl, obs: PageObservation, page_links: list[str | None]
) -> tuple[list[DiscoveredUrl], dict[str, int]]:
    """URLs to enqueue and why others were not: links (a, area, iframe, frame, meta refresh,
    link next/prev: `page_links`, crawl.references), canonical and hreflang targets, redirects.

    Followed links are one click deeper; a redirect target keeps the redirecting page's depth
    (it is the same page, moved). Canonical and hreflang targets are crawled too, so the
    cross-page checks can judge them.
    """
    child_depth = None if leased.depth is None else leased.depth + 1
    candidates: list[tuple[str | None, int | None]] = []
    if obs.redirect_url:
        candidates.append((obs.redirect_url, leased.depth))
    if obs.facts is not None:
        candidates.extend(
            (link.href.url, child_depth) for link in obs.facts.links if not link.nofollow
        )
        candidates.append((obs.effective_canonical, child_depth))
        candidates.extend((h.href.url, child_depth) for h in obs.facts.hreflangs)
        candidates.extend((url, child_depth) for url in page_links)
    found: dict[str, DiscoveredUrl] = {}
    skipped: dict[str, int] = {}
    refused: dict[tuple[str, int | None], Decision] = {}  # a page repeats its off-site links
    for raw, depth in candidates:
        url = raw and normalise_url(raw)
        if url is None or url in found or url == leased.url:
            continue
        decision = refused.get((url, depth)) or scope.policy.decide(url, depth)
        if decision is Decision.ALLOWED:
            found[url] = DiscoveredUrl(url, depth, leased.url)
        else:
            refused[url, depth] = decision
            skipped[decision.value] = skipped.get(decision.value, 0) + 1  # every occurrence
    return list(found.values()), skipped
