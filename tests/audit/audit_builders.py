"""Builders for rule inputs: a clean page by default, so each test states only its defect."""

from dataclasses import replace
from typing import Any

from audit.page import PageObservation
from common.fetch_class import FetchClass
from parse.facts import EncodingInfo, EncodingSource, Heading, Link, MetaTag, PageFacts, UrlRef

URL = "https://example.com/page"
SECURE_HEADERS: dict[str, Any] = {
    "strict_transport_security": "max-age=31536000; includeSubDomains",
    "content_security_policy": "default-src 'self'; frame-ancestors 'self'",
    "x_content_type_options": "nosniff",
    "x_frame_options": None,
    "referrer_policy": "strict-origin-when-cross-origin",
}


# The Open Graph tags a clean page shares itself with (ogp.me's basic metadata and description).
OPEN_GRAPH = (
    MetaTag("og:title", "A title of a clean test page"),
    MetaTag("og:type", "website"),
    MetaTag("og:image", "https://example.com/share.png"),
    MetaTag("og:url", URL),
    MetaTag("og:description", "d" * 100),
)


def link(url: str | None, *, raw: str | None = None, nofollow: bool = False) -> Link:
    return Link(UrlRef(raw if raw is not None else (url or ""), url), "text", nofollow)


def facts(**changes: Any) -> PageFacts:
    clean = PageFacts(
        page_url=URL,
        encoding=EncodingInfo("utf-8", EncodingSource.CONTENT_TYPE),
        html_bytes=1000,
        truncated=False,
        titles=("A title of a clean test page",),
        meta_descriptions=("d" * 100,),
        viewports=("width=device-width, initial-scale=1",),
        html_lang="en",
        headings=(Heading(1, "Main heading"), Heading(2, "Section")),
        heading_levels=(1, 2),
        links=(link("https://example.com/other"),),
        links_seen=1,
        word_count=300,
        content_hash="c" * 64,
        social=OPEN_GRAPH,
        social_seen=len(OPEN_GRAPH),
    )
    if "headings" in changes and "heading_levels" not in changes:
        # The extractor records every heading's level beside the (capped) texts.
        changes["heading_levels"] = tuple(h.level for h in changes["headings"])
    return replace(clean, **changes)


def observe(facts_changes: dict[str, Any] | None = None, **changes: Any) -> PageObservation:
    clean = PageObservation(
        url=URL,
        final_url=URL,
        status_code=200,
        fetch_class=FetchClass.OK,
        response_time_ms=120,
        content_type="text/html; charset=utf-8",
        is_html=True,
        html_bytes=1000,
        crawl_depth=1,
        in_sitemap=True,
        site_is_https=True,
        facts=facts(**(facts_changes or {})),
        **SECURE_HEADERS,
    )
    return replace(clean, **changes)
