"""Per-page field checks: what other auditors report and the original did not (docs/field.md §1.3,
§2.1). They run after the original's steps, on readable 2xx HTML pages, each citing its source.

Evidence lists in `details` are samples of `EVIDENCE_SAMPLE` items plus a count, so one template
defect on a page does not become a large JSON document (the original samples 3 `otherUrls`).
"""

from __future__ import annotations

from audit.catalogue import DUPLICATE_GROUP_SAMPLE, HTML_MAX_BYTES, IssueType
from audit.issues import DetectedIssue
from audit.page import PageObservation
from audit.text import is_absolute_url, js_trim
from common.wire import JsonValue
from urls.normalise import same_site

__all__ = [
    "EVIDENCE_SAMPLE",
    "html_too_large",
    "http_page_on_https_site",
    "images_missing_dimensions",
    "insecure_form_action",
    "internal_nofollow_links",
    "meta_refresh",
    "missing_html_lang",
    "missing_viewport",
    "mixed_content",
    "multiple_canonicals",
    "multiple_meta_descriptions",
    "multiple_titles",
    "relative_canonical",
]

EVIDENCE_SAMPLE = DUPLICATE_GROUP_SAMPLE


def _issue(
    issue_type: IssueType, obs: PageObservation, **details: JsonValue
) -> list[DetectedIssue]:
    return [DetectedIssue(issue_type, obs.url, dict(details))]


def _sampled(issue_type: IssueType, obs: PageObservation, urls: list[str]) -> list[DetectedIssue]:
    if not urls:
        return []
    return _issue(issue_type, obs, count=len(urls), sampleUrls=urls[:EVIDENCE_SAMPLE])


def http_page_on_https_site(obs: PageObservation) -> list[DetectedIssue]:
    """SEOnaut "page served over HTTP", Semrush: content served over http while the site is https
    (an http URL that redirects to https is fine and never reaches this rule)."""
    if not obs.site_is_https or obs.is_https:
        return []
    return _issue(IssueType.HTTP_PAGE_ON_HTTPS_SITE, obs)


def html_too_large(obs: PageObservation) -> list[DetectedIssue]:
    """Semrush: HTML larger than 2 MB (read as MiB, see catalogue.HTML_MAX_BYTES)."""
    if obs.html_bytes <= HTML_MAX_BYTES:
        return []
    return _issue(IssueType.HTML_TOO_LARGE, obs, htmlBytes=obs.html_bytes)


def multiple_titles(obs: PageObservation) -> list[DetectedIssue]:
    """SEOnaut: more than one `<title>`; HTML spec: a document has at most one."""
    count = len(obs.facts.titles) if obs.facts else 0
    return _issue(IssueType.MULTIPLE_TITLES, obs, titleCount=count) if count > 1 else []


def multiple_meta_descriptions(obs: PageObservation) -> list[DetectedIssue]:
    """SEOnaut: more than one `<meta name=description>`."""
    count = len(obs.facts.meta_descriptions) if obs.facts else 0
    if count <= 1:
        return []
    return _issue(IssueType.MULTIPLE_META_DESCRIPTIONS, obs, descriptionCount=count)


def multiple_canonicals(obs: PageObservation) -> list[DetectedIssue]:
    """Google Search Central, Semrush, SEOnaut: several canonical tags naming *different* URLs
    (Google then ignores them all); repeating one URL is harmless."""
    refs = obs.facts.canonicals if obs.facts else ()
    targets = list(dict.fromkeys(ref.url or ref.raw for ref in refs))
    if len(targets) <= 1:
        return []
    return _issue(IssueType.MULTIPLE_CANONICALS, obs, canonicalUrls=targets[:EVIDENCE_SAMPLE])


def relative_canonical(obs: PageObservation) -> list[DetectedIssue]:
    """Google Search Central, SEOnaut: the (first) HTML canonical href is not absolute."""
    refs = obs.facts.canonicals if obs.facts else ()
    if not refs or not js_trim(refs[0].raw) or is_absolute_url(refs[0].raw):
        return []
    return _issue(IssueType.RELATIVE_CANONICAL, obs, canonicalHref=refs[0].raw)


def meta_refresh(obs: PageObservation) -> list[DetectedIssue]:
    """Semrush, Google Search Central: `<meta http-equiv=refresh>` instead of an HTTP redirect."""
    refreshes = obs.facts.refreshes if obs.facts else ()
    return _issue(IssueType.META_REFRESH, obs, content=refreshes[0]) if refreshes else []


def missing_html_lang(obs: PageObservation) -> list[DetectedIssue]:
    """HTML spec, WCAG 3.1.1, SEOnaut: `<html>` without a non-empty lang attribute."""
    if obs.facts is None or js_trim(obs.facts.html_lang or ""):
        return []
    return _issue(IssueType.MISSING_HTML_LANG, obs)


def missing_viewport(obs: PageObservation) -> list[DetectedIssue]:
    """Google Search Central (mobile-first indexing), Semrush, SEOnaut: no viewport meta."""
    if obs.facts is None or obs.facts.viewports:
        return []
    return _issue(IssueType.MISSING_VIEWPORT, obs)


def images_missing_dimensions(obs: PageObservation) -> list[DetectedIssue]:
    """SEOnaut, Lighthouse unsized-images: an `<img>` lacking width or height reserves no space."""
    images = obs.facts.images if obs.facts else ()
    unsized = [image for image in images if image.width is None or image.height is None]
    if not unsized:
        return []
    sample = [image.src.url or image.src.raw for image in unsized if image.src][:EVIDENCE_SAMPLE]
    return _issue(
        IssueType.IMAGES_MISSING_DIMENSIONS,
        obs,
        imagesMissingDimensions=len(unsized),
        imagesTotal=len(images),
        sampleUrls=sample,
    )


def internal_nofollow_links(obs: PageObservation) -> list[DetectedIssue]:
    """Semrush, SEOnaut: internal links carrying rel=nofollow (internal = the original's
    same-origin test, original system §4.7)."""
    links = obs.facts.links if obs.facts else ()
    urls = [
        link.href.url
        for link in links
        if link.nofollow and link.href.url and same_site(obs.url, link.href.url)
    ]
    return _sampled(IssueType.INTERNAL_NOFOLLOW_LINKS, obs, urls)


def mixed_content(obs: PageObservation) -> list[DetectedIssue]:
    """Semrush, W3C Mixed Content: an https page requests sub-resources over http (the extractor
    records them only for https pages)."""
    if obs.facts is None or not obs.facts.mixed_content:
        return []
    sample = [{"tag": m.tag, "url": m.url} for m in obs.facts.mixed_content[:EVIDENCE_SAMPLE]]
    return _issue(IssueType.MIXED_CONTENT, obs, count=obs.facts.mixed_content_seen, sample=sample)


def insecure_form_action(obs: PageObservation) -> list[DetectedIssue]:
    """SEOnaut "form action on http", Semrush: a form that submits over plain http."""
    forms = obs.facts.forms if obs.facts else ()
    urls = [form.url for form in forms if form.url and form.url.lower().startswith("http:")]
    return _sampled(IssueType.INSECURE_FORM_ACTION, obs, urls)
