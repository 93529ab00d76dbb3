"""Cross-page checks as pure Python: the executable specification of the finalize SQL.

The production checks run as SQL inside the crawl scratchpad (original system §3.4) over the page
mirror and the stored link edges. This module states the same semantics over plain records, so the
SQL can be tested against it row for row. Every function is pure: records in, `DetectedIssue`s out,
ordered deterministically.

Common ground rules (original system §1.3, §3.4):
* A target's status is used only when the target was *crawled* with fetch class `ok`: nothing is
  inferred from absence, and blocked/WAF answers say nothing about the page behind them.
* Issues land on the page that can fix them: the linking page, the canonicalizing page, the chain
  head, the sitemap entry.
* `pages` may repeat a URL (a retried fetch); the last record wins, as the upserts do.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from audit.catalogue import CLIENT_ERROR_STATUS, DUPLICATE_GROUP_SAMPLE, IssueType
from audit.issue_ids import page_id
from audit.issues import DetectedIssue
from audit.page import PageObservation
from audit.rules_head import is_javascript_shell
from audit.rules_social import SHARE_IMAGE_TAGS
from common.fetch_class import FetchClass
from common.wire import JsonMapping, JsonObject

__all__ = [
    "CrawledPage",
    "FragmentRef",
    "HreflangLink",
    "LinkEdge",
    "ResourceAnswer",
    "ResourceUse",
    "broken_fragments",
    "broken_internal_links",
    "broken_resources",
    "broken_share_images",
    "canonical_target_issues",
    "crawled_page",
    "duplicate_candidates",
    "duplicate_issues",
    "hreflang_return_link_issues",
    "links_to_redirects",
    "orphan_pages",
    "redirect_issues",
    "sitemap_issues",
]


@dataclass(frozen=True, slots=True)
class HreflangLink:
    lang: str
    url: str  # absolute, normalised against the declaring page


@dataclass(frozen=True, slots=True)
class CrawledPage:
    """The columns of one page row the cross-page checks read (original system §2.2, §3.1)."""

    url: str
    status_code: int
    fetch_class: FetchClass = FetchClass.OK
    redirect_url: str | None = None
    is_indexable: bool = True
    canonical_url: str | None = None  # effective canonical, normalised
    title: str = ""
    meta_description: str = ""
    content_hash: str | None = None
    word_count: int = 0
    javascript_shell: bool = False  # the page received javascript-rendering-suspected
    in_sitemap: bool = False
    hreflang: tuple[HreflangLink, ...] = ()

    @property
    def is_ok_2xx(self) -> bool:
        return self.fetch_class == FetchClass.OK and 200 <= self.status_code < 300

    @property
    def is_ok_redirect(self) -> bool:
        return self.fetch_class == FetchClass.OK and 300 <= self.status_code < 400

    @property
    def is_ok_error(self) -> bool:
        return self.fetch_class == FetchClass.OK and self.status_code >= 400


@dataclass(frozen=True, slots=True)
class LinkEdge:
    """An internal link from a crawled page to a normalised target URL."""

    source_url: str
    target_url: str


@dataclass(frozen=True, slots=True)
class FragmentRef:
    """An internal link's fragment (as the URL holds it) and its two lookup keys
    (urls.fragment: as written, and percent-decoded)."""

    source_url: str
    target_url: str
    fragment: str
    key: int
    decoded_key: int


@dataclass(frozen=True, slots=True)
class ResourceUse:
    """A page's reference to an internal resource: its first kind there, and a link's rel."""

    source_url: str
    resource_url: str
    kind: str
    rel: str | None = None


@dataclass(frozen=True, slots=True)
class ResourceAnswer:
    """A checked resource's answer (or the page row's, for a URL crawled as a page, whose
    content type is "text/html" when it was HTML, unknown otherwise)."""

    url: str
    status_code: int
    fetch_class: FetchClass
    content_type: str | None = None


def crawled_page(obs: PageObservation) -> CrawledPage:
    """The cross-page record of one observation, derived as the page row stores it (§2.2, §6.1):
    shells keep no content hash, so they never group as duplicate content."""
    facts = obs.facts
    shell = facts is not None and obs.is_ok_2xx_html and is_javascript_shell(facts)
    hreflang = tuple(
        HreflangLink(h.lang, h.href.url) for h in (facts.hreflangs if facts else ()) if h.href.url
    )
    return CrawledPage(
        url=obs.url,
        status_code=obs.status_code,
        fetch_class=obs.fetch_class,
        redirect_url=obs.redirect_url,
        is_indexable=obs.is_indexable,
        canonical_url=obs.effective_canonical,
        title=obs.title,
        meta_description=obs.meta_description,
        content_hash=None if shell or facts is None else facts.content_hash,
        word_count=obs.word_count,
        javascript_shell=shell,
        in_sitemap=obs.in_sitemap,
        hreflang=hreflang,
    )


def _by_url(pages: Iterable[CrawledPage]) -> dict[str, CrawledPage]:
    return {page.url: page for page in pages}


# --------------------------------------------------------------------------- duplicates


def duplicate_candidates(pages: Iterable[CrawledPage]) -> list[CrawledPage]:
    """Pages eligible for duplicate grouping (original system §1.3).

    Pages the owner already de-duplicated (noindex, or canonical to another URL) are excluded, and
    so are JavaScript shells, whose HTML says nothing about the rendered page.
    """
    return [
        page
        for page in _by_url(pages).values()
        if page.is_ok_2xx
        and page.is_indexable
        and page.canonical_url in (None, page.url)
        and not page.javascript_shell
    ]


def _group_issues(
    issue_type: IssueType,
    candidates: list[CrawledPage],
    key: Callable[[CrawledPage], str | None],
) -> list[DetectedIssue]:
    groups: dict[str, list[str]] = defaultdict(list)
    for page in candidates:
        value = key(page)
        if value:
            groups[value].append(page.url)
    issues = []
    for urls in groups.values():
        if len(urls) < 2:
            continue
        members = sorted(urls)
        for url in members:
            others = [other for other in members if other != url][:DUPLICATE_GROUP_SAMPLE]
            details: JsonObject = {"groupSize": len(members), "otherUrls": others}
            issues.append(DetectedIssue(issue_type, url, details))
    return sorted(issues, key=lambda issue: issue.page_url)


def _content_key(page: CrawledPage) -> str | None:
    # An empty body hashes alike on every page; the original requires words before grouping.
    return page.content_hash if page.word_count > 0 else None


def duplicate_issues(pages: Iterable[CrawledPage]) -> list[DetectedIssue]:
    """duplicate-title, duplicate-meta-description, duplicate-content (original system §1.3).

    Exact string / hash equality; empty values never group. Each member of a group of two or more
    gets one issue with `groupSize` and up to `DUPLICATE_GROUP_SAMPLE` `otherUrls` (sorted).
    """
    candidates = duplicate_candidates(pages)
    return [
        *_group_issues(IssueType.DUPLICATE_TITLE, candidates, lambda p: p.title),
        *_group_issues(
            IssueType.DUPLICATE_META_DESCRIPTION, candidates, lambda p: p.meta_description
        ),
        *_group_issues(IssueType.DUPLICATE_CONTENT, candidates, _content_key),
    ]


# --------------------------------------------------------------------------- redirects


def _redirect_map(pages: Iterable[CrawledPage]) -> dict[str, str]:
    return {
        page.url: page.redirect_url
        for page in _by_url(pages).values()
        if 300 <= page.status_code < 400 and page.redirect_url
    }


def _walk(start: str, redirects: Mapping[str, str]) -> tuple[list[str], bool]:
    """Hops from `start` following redirect rows; True when a URL repeats (the loop case)."""
    hops = [start]
    seen = {start}
    current = start
    while current in redirects:
        current = redirects[current]
        hops.append(current)
        if current in seen:
            return hops, True
        seen.add(current)
    return hops, False


def _head_issue(head: str, hops: list[str], looped: bool) -> DetectedIssue | None:
    if looped:
        return DetectedIssue(IssueType.REDIRECT_LOOP, head, {"hops": hops})
    if len(hops) > 2:  # more than one redirect before content
        return DetectedIssue(IssueType.REDIRECT_CHAIN, head, {"hops": hops, "finalUrl": hops[-1]})
    return None


def redirect_issues(pages: Iterable[CrawledPage]) -> list[DetectedIssue]:
    """redirect-chain and redirect-loop (original system §1.3).

    Walks start at chain heads (redirect rows no redirect row points to). A cycle reached from no
    head ("headless": a<->b, or a->a) yields one redirect-loop, reported on its smallest URL so the
    result does not depend on row order; hops = the cycle plus that URL again.
    """
    redirects = _redirect_map(pages)
    targets = set(redirects.values())
    visited: set[str] = set()
    issues: list[DetectedIssue] = []
    for head in sorted(url for url in redirects if url not in targets):
        hops, looped = _walk(head, redirects)
        visited.update(hops)
        issue = _head_issue(head, hops, looped)
        if issue is not None:
            issues.append(issue)
    # Every redirect row left unvisited lies on a headless cycle (out-degree is one).
    for url in sorted(redirects):
        if url not in visited:
            hops, _ = _walk(url, redirects)
            visited.update(hops)
            issues.append(DetectedIssue(IssueType.REDIRECT_LOOP, url, {"hops": hops}))
    return issues


# --------------------------------------------------------------------------- links


def _target_issues(
    audit_id: str,
    pages: Iterable[CrawledPage],
    edges: Iterable[LinkEdge],
    issue_type: IssueType,
    matches: Callable[[CrawledPage], bool],
) -> list[DetectedIssue]:
    """One issue per (source, matching crawled target), ordered by source page id then target."""
    by_url = _by_url(pages)
    hits = {
        (page_id(audit_id, edge.source_url), edge.source_url, edge.target_url)
        for edge in edges
        if edge.target_url in by_url and matches(by_url[edge.target_url])
    }
    issues = []
    for _, source, target in sorted(hits):
        details: JsonObject = {"targetUrl": target, "targetStatus": by_url[target].status_code}
        if by_url[target].is_ok_redirect:
            details["redirectUrl"] = by_url[target].redirect_url
        issues.append(DetectedIssue(issue_type, source, details, dedupe_key=target))
    return issues


def broken_internal_links(
    audit_id: str,
    pages: Iterable[CrawledPage],
    edges: Iterable[LinkEdge],
) -> list[DetectedIssue]:
    """broken-internal-link: target crawled, fetch ok, status >= 400 (original system §3.4).

    dedupeKey = target URL; one issue per referring page, every one (no cap: an issue's
    detail is one target, so each stays small), in (source page id, target URL) order, the
    order of the scratchpad's query.
    """
    return _target_issues(
        audit_id, pages, edges, IssueType.BROKEN_INTERNAL_LINK, lambda t: t.is_ok_error
    )


def links_to_redirects(
    audit_id: str,
    pages: Iterable[CrawledPage],
    edges: Iterable[LinkEdge],
) -> list[DetectedIssue]:
    """link-to-redirect: target crawled, fetch ok, 3xx (Semrush, Ahrefs). Same shape and order as
    broken links, plus the target's `redirectUrl`."""
    return _target_issues(
        audit_id, pages, edges, IssueType.LINK_TO_REDIRECT, lambda t: t.is_ok_redirect
    )


def broken_fragments(
    audit_id: str,
    targets: Mapping[str, frozenset[int]],
    refs: Iterable[FragmentRef],
) -> list[DetectedIssue]:
    """broken-fragment: the target page was crawled as 2xx HTML with a complete set of fragment
    targets (`targets`, its keys), and neither lookup of the link's fragment is in it (HTML
    spec, "select the indicated part"). Pages whose set is unknown are never judged.

    dedupeKey = target URL + "#" + fragment; every one, like broken links, in (source page id,
    target URL, fragment) order.
    """
    hits = {
        (page_id(audit_id, ref.source_url), ref.source_url, ref.target_url, ref.fragment)
        for ref in refs
        if ref.target_url in targets
        and ref.key not in targets[ref.target_url]
        and ref.decoded_key not in targets[ref.target_url]
    }
    return [
        DetectedIssue(
            IssueType.BROKEN_FRAGMENT,
            source,
            {"targetUrl": target, "fragment": fragment},
            dedupe_key=f"{target}#{fragment}",
        )
        for _, source, target, fragment in sorted(hits)
    ]


def broken_resources(
    audit_id: str,
    answers: Iterable[ResourceAnswer],
    uses: Iterable[ResourceUse],
) -> list[DetectedIssue]:
    """broken-resource: a resource a page references answered, fetch ok, status >= 400 (the
    broken-link rule); one issue per referring page, dedupeKey = resource URL, every one like broken
    links in (source page id, resource URL) order. Unchecked resources are never judged."""
    by_url = {answer.url: answer for answer in answers}
    hits = []
    for use in uses:
        answer = by_url.get(use.resource_url)
        if use.kind in SHARE_IMAGE_TAGS:
            continue  # broken_share_images judges them
        if answer is not None and answer.fetch_class == FetchClass.OK and answer.status_code >= 400:
            hits.append((page_id(audit_id, use.source_url), use.source_url, use.resource_url, use))
    issues = []
    for _, source, target, use in sorted(hits, key=lambda hit: hit[:3]):
        details: JsonObject = {
            "resourceUrl": target,
            "kind": use.kind,
            "rel": use.rel,
            "targetStatus": by_url[target].status_code,
        }
        issues.append(DetectedIssue(IssueType.BROKEN_RESOURCE, source, details, dedupe_key=target))
    return issues


def is_broken_share_image(answer: ResourceAnswer) -> bool:
    """A share image that answered (fetch ok) an error, or 2xx with a type that is no image."""
    if answer.fetch_class != FetchClass.OK:
        return False
    if answer.status_code >= CLIENT_ERROR_STATUS:
        return True
    media = (answer.content_type or "").partition(";")[0].strip(" \t").lower()
    return 200 <= answer.status_code < 300 and bool(media) and not media.startswith("image/")


def broken_share_images(
    audit_id: str,
    answers: Iterable[ResourceAnswer],
    uses: Iterable[ResourceUse],
) -> list[DetectedIssue]:
    """broken-share-image: an og:image or twitter:image (audit.rules_social) checked with the
    resources that answered 4xx/5xx, or 2xx with a content type that is not image/*; one issue
    per referring page in (source page id, image URL) order, dedupeKey = image URL. A 2xx
    without a content type, redirects and unchecked images are not judged."""
    by_url = {answer.url: answer for answer in answers}
    hits = []
    for use in uses:
        answer = by_url.get(use.resource_url)
        if use.kind in SHARE_IMAGE_TAGS and answer is not None and is_broken_share_image(answer):
            hits.append((page_id(audit_id, use.source_url), use.source_url, use.resource_url, use))
    issues = []
    for _, source, target, use in sorted(hits, key=lambda hit: hit[:3]):
        answer = by_url[target]
        details: JsonObject = {
            "imageUrl": target,
            "tag": use.kind,
            "targetStatus": answer.status_code,
            "contentType": answer.content_type,
        }
        issues.append(
            DetectedIssue(IssueType.BROKEN_SHARE_IMAGE, source, details, dedupe_key=target)
        )
    return issues


def orphan_pages(
    pages: Iterable[CrawledPage],
    edges: Iterable[LinkEdge],
    start_url: str,
    *,
    crawl_completed: bool,
    link_graph_complete: bool,
) -> list[DetectedIssue]:
    """orphan-page (original system §1.3, §3.4).

    Only when the crawl exhausted its frontier and every link edge was stored: otherwise a missing
    inbound link may just be an uncrawled or unstored one. A 2xx `ok` page other than the start URL
    is an orphan when no *other* page links to it and no crawled row redirects to it.
    """
    if not (crawl_completed and link_graph_complete):
        return []
    page_list = list(_by_url(pages).values())
    inbound = {edge.target_url for edge in edges if edge.source_url != edge.target_url}
    inbound.update(page.redirect_url for page in page_list if page.redirect_url)
    return [
        DetectedIssue(IssueType.ORPHAN_PAGE, page.url)
        for page in sorted(page_list, key=lambda p: p.url)
        if page.is_ok_2xx and page.url != start_url and page.url not in inbound
    ]


# --------------------------------------------------------------------------- canonical, hreflang


def _unfit_target_type(target: CrawledPage, types: _UnfitTypes) -> IssueType | None:
    """Which of (error, redirect, noindex) makes a crawled URL unfit to be a canonical or a
    sitemap entry, as the issue type of the caller's family; None when it is fit or unjudged."""
    if target.is_ok_error:
        return types[0]
    if target.is_ok_redirect:
        return types[1]
    if target.is_ok_2xx and not target.is_indexable:
        return types[2]
    return None


def _unfit_target_issue(
    page_url: str, target: CrawledPage, types: _UnfitTypes, details: JsonMapping
) -> DetectedIssue | None:
    issue_type = _unfit_target_type(target, types)
    if issue_type is None:
        return None
    if target.is_ok_redirect:
        details = {**details, "redirectUrl": target.redirect_url}
    return DetectedIssue(issue_type, page_url, details)


_UnfitTypes = tuple[IssueType, IssueType, IssueType]
_CANONICAL_TYPES: _UnfitTypes = (
    IssueType.CANONICAL_TO_BROKEN,
    IssueType.CANONICAL_TO_REDIRECT,
    IssueType.CANONICAL_TO_NOINDEX,
)
_SITEMAP_TYPES: _UnfitTypes = (
    IssueType.SITEMAP_URL_BROKEN,
    IssueType.SITEMAP_URL_REDIRECT,
    IssueType.SITEMAP_URL_NOINDEX,
)


def canonical_target_issues(pages: Iterable[CrawledPage]) -> list[DetectedIssue]:
    """canonical-to-broken / -redirect / -noindex (Semrush, Screaming Frog; SEOnaut's
    unregistered checks, docs/field.md §2.1).

    For each 2xx `ok` page whose effective canonical names another crawled URL, judge that target.
    Uncrawled targets are not judged.
    """
    by_url = _by_url(pages)
    issues = []
    for page in sorted(by_url.values(), key=lambda p: p.url):
        canonical = page.canonical_url
        if not page.is_ok_2xx or not canonical or canonical == page.url or canonical not in by_url:
            continue
        target = by_url[canonical]
        details: JsonObject = {"canonicalUrl": target.url, "targetStatus": target.status_code}
        issue = _unfit_target_issue(page.url, target, _CANONICAL_TYPES, details)
        if issue is not None:
            issues.append(issue)
    return issues


def _missing_return_links(
    page: CrawledPage, by_url: Mapping[str, CrawledPage]
) -> list[DetectedIssue]:
    issues = []
    reported: set[str] = set()
    for link in page.hreflang:
        target = by_url.get(link.url)
        if link.url == page.url or link.url in reported or target is None or not target.is_ok_2xx:
            continue
        if page.url not in {back.url for back in target.hreflang}:
            reported.add(link.url)
            details = {"hreflang": link.lang, "targetUrl": link.url}
            issues.append(
                DetectedIssue(
                    IssueType.HREFLANG_MISSING_RETURN_LINK, page.url, details, dedupe_key=link.url
                )
            )
    return issues


def hreflang_return_link_issues(pages: Iterable[CrawledPage]) -> list[DetectedIssue]:
    """hreflang-missing-return-link (Google Search Central: hreflang links must be reciprocal).

    Page A lists B as an alternate, B was crawled and answered 2xx `ok`, and B's own hreflang
    links do not list A. One issue per (A, B), dedupeKey = B; self-references are not alternates.
    """
    by_url = _by_url(pages)
    issues = []
    for page in sorted(by_url.values(), key=lambda p: p.url):
        if page.is_ok_2xx:
            issues.extend(_missing_return_links(page, by_url))
    return issues


# --------------------------------------------------------------------------- sitemap


def sitemap_issues(
    pages: Iterable[CrawledPage], robots_blocked_sitemap_urls: Iterable[str] = ()
) -> list[DetectedIssue]:
    """sitemap-url-broken / -redirect / -noindex / -blocked (Semrush "incorrect pages in sitemap",
    SEOnaut; docs/field.md §1.3).

    A sitemap should list only indexable 2xx URLs the crawler may fetch. Robots-disallowed sitemap
    URLs are never fetched, so the caller passes them separately.
    """
    issues = []
    for page in sorted(_by_url(pages).values(), key=lambda p: p.url):
        details = {"statusCode": page.status_code}
        issue = _unfit_target_issue(page.url, page, _SITEMAP_TYPES, details)
        if page.in_sitemap and issue is not None:
            issues.append(issue)
    issues.extend(
        DetectedIssue(IssueType.SITEMAP_URL_BLOCKED, url)
        for url in sorted(set(robots_blocked_sitemap_urls))
    )
    return issues
