"""The badseo site as data: every fixture page, the issues an audit must report on it, and a server.

Theory of operation (original system §6.3, adapted to this project's catalogue)
-----------------------------------------------------------------------------------
* One defect per page. A fixture lists the issue types an audit must report *on its own URL*
  (`expected`), and nothing else may be reported there; an empty list means the page must be
  clean, not even info. A few defects come with an inherent companion (a 404 listed in the sitemap
  is also a broken page; a page canonicalized to an error page is also canonicalized); those list
  both.
* Cross-page issues land on the page that can fix them (the linking page, the chain head, the
  sitemap entry), so the fixture that owns such an issue is that page, and the pages it points at
  are fixtures of their own (usually `support`: waypoints that may carry info issues only).
* Discovery is part of the design. Every 2xx page is linked from some other page (the catalog, the
  chrome, a hub) or is a redirect target, except the orphan. URLs whose discovery would cause an
  issue elsewhere are reached through a hub that owns that issue: error pages through
  `/links/broken-internal-link`, redirects through `/links/link-to-redirect`. The catalog links
  only pages that keep it clean (2xx, blocked or rate-limited answers).
* The sitemap lists only fixtures with `in_sitemap` (plus their extra paths): redirects, errors,
  noindex pages and the deep chain stay out of it unless the sitemap entry is the defect. Pages
  seeded from the sitemap have no click depth, so the deep chain must never be listed.
* Depth: the start URL `/` is depth 0 and links `/structure/deep/1` directly, so the chain's
  fifth click, `/structure/deep/treasure`, is the first page at depth >= 5.
* `crawl-rate-limited` gets a two-page site of its own (`serve_rate_limit_stop`): a stopped crawl
  is incomplete, and an incomplete crawl reports no orphans.
* The four issue types that need an https site have a variant of their own (https_site.py): this
  site is plain http on a free port of 127.0.0.1.
* The accessibility category (a11y_pages.py) is one page per static rule fixture of
  tests/a11y/cases.py: its defect is its rule's failing elements, with their SEO companions
  (a missing title is also `a11y-document-title`). A fixture whose elements all pass is clean,
  but for what only the SEO checks fault (a hidden image without alt, an immediate refresh).
* Audits that must fail at their start URL (a closed port, a 500, a 404, a stylesheet) and the
  site that stops answering part-way are in failing_sites.py.
* robots.txt has a group for our product token `siteaudit` (RFC 9309: the `*` group then does not
  apply to us) that disallows one sitemap-listed URL; the `*` group disallows a page we link,
  which the audit must still crawl and find clean.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from enum import StrEnum
from html import escape
from types import MappingProxyType

from audit.catalogue import IssueType
from parse.tree_construction import MAX_ELEMENTS as TREE_MAX_ELEMENTS
from tests.badseo.a11y_pages import A11Y_PAGES
from tests.badseo.pages import (
    EXTERNAL_HOST,
    GENERATED_MARK,
    HTML_TYPE,
    SHARE_IMAGE,
    Generated,
    Handler,
    HeadRefused,
    Html,
    PageSpec,
    RateLimited,
    Redirect,
    Resource,
    SlowFirst,
    Status,
    origin_of,
)
from tests.support.site_server import Reply, Site, SiteRequest, StreamReply, serve_site

__all__ = [
    "CLEAN_PATHS",
    "DEAD_NAME_FIXTURES",
    "EXTERNAL_BUDGET_FIXTURES",
    "FIXTURES",
    "NO_DNS_FIXTURES",
    "RATE_LIMIT_STOP_FIXTURES",
    "ROBOTS_DISALLOWED",
    "SLOW_SITE_FIXTURES",
    "TEMPLATE_FIXTURES",
    "UNCOVERED",
    "BadSeoSite",
    "Category",
    "Fixture",
    "expected_issues",
    "fixture_for",
    "serve_badseo",
    "serve_dead_name",
    "serve_external_budget",
    "serve_fixtures",
    "serve_no_dns",
    "serve_rate_limit_stop",
    "serve_slow_site",
    "serve_template",
]

T = IssueType


class Category(StrEnum):
    SITE = "site"
    HEAD = "head"
    CONTENT = "content"
    INDEX = "index"
    CANONICAL = "canonical"
    STATUS = "status"
    LINKS = "links"
    REDIRECT = "redirect"
    PERF = "perf"
    STRUCTURE = "structure"
    SITEMAP = "sitemap"
    ROBOTS = "robots"
    I18N = "i18n"
    SOCIAL = "social"
    SECURITY = "security"
    ACCESSIBILITY = "accessibility"


@dataclass(frozen=True, slots=True)
class Fixture:
    path: str
    category: Category
    summary: str
    expected: tuple[IssueType, ...]  # issue types on this URL (and on each extra path)
    handler: Handler
    extra_paths: tuple[str, ...] = ()  # served by the same handler: byte-identical pages
    in_sitemap: bool = True
    linked_from_catalog: bool = True
    support: bool = False  # a waypoint other fixtures need; info-level issues only

    @property
    def paths(self) -> tuple[str, ...]:
        return (self.path, *self.extra_paths)


# ------------------------------------------------------------------------------- builders


def page(
    path: str,
    category: Category,
    summary: str,
    expected: tuple[IssueType, ...] = (),
    *,
    extra_paths: tuple[str, ...] = (),
    in_sitemap: bool = True,
    linked_from_catalog: bool = True,
    support: bool = False,
    delay_s: float = 0.0,
    **spec: object,
) -> Fixture:
    """An HTML fixture: a clean page whose `spec` changes carry the defect. The summary is the
    page's first paragraph unless `text` says otherwise."""
    spec.setdefault("text", summary)
    handler = Html(PageSpec(path, **spec), delay_s)  # type: ignore[arg-type]
    return Fixture(
        path,
        category,
        summary,
        expected,
        handler,
        extra_paths,
        in_sitemap,
        linked_from_catalog,
        support,
    )


def answer(
    path: str,
    category: Category,
    summary: str,
    expected: tuple[IssueType, ...],
    handler: Handler,
    *,
    in_sitemap: bool = False,
    linked_from_catalog: bool = False,
    support: bool = False,
) -> Fixture:
    """A non-page fixture (redirect, error, challenge, resource): out of the sitemap and the
    catalog unless listing it there is the point."""
    return Fixture(
        path, category, summary, expected, handler, (), in_sitemap, linked_from_catalog, support
    )


def _error_body(title: str, text: str) -> bytes:
    return f"<!doctype html><html lang=en><title>{title}</title><p>{text}</p></html>".encode()


def _links(paths: tuple[str, ...]) -> str:
    items = "".join(f'<li><a href="{p}">{escape(p)}</a></li>' for p in paths)
    return f"<ul>{items}</ul>"


# ------------------------------------------------------------------------------- texts

LONG_TITLE = (
    "A title that goes on and on about this badseo fixture page, far beyond what the search "
    "result can show in full"
)  # 110 characters
SHORT_TITLE = "Hi"
LONG_DESCRIPTION = (
    "This meta description is much longer than a search engine will show under the title of a "
    "result, because it keeps adding clauses about the page, its purpose, its history and its "
    "many tiny details, one after another."
)  # 215 characters
SHORT_DESCRIPTION = "A description that stops after a few words."  # 43 characters
SHARED_TITLE = "badseo: two pages share this exact title"
SHARED_DESCRIPTION = (
    "Two badseo fixture pages carry this same meta description, word for word, to be grouped."
)
SHARED_BODY = "These two pages have the same visible text, but different titles and descriptions."
JSON_LD_VALID = (
    '<script type="application/ld+json">'
    '{"@context": "https://schema.org", "@type": "WebSite", "name": "badseo"}</script>'
)
JSON_LD_BROKEN = (
    '<script type="application/ld+json">{"@context": "https://schema.org", "@type": </script>'
)
# A JSON-LD Article with every property Google's article rich result recommends, and a Product
# eligible for the product snippet with no warning (its offer and its rating: Google recommends a
# review or rating beside offers): each structured-data fixture changes one thing.
ARTICLE: Mapping[str, object] = MappingProxyType(
    {
        "@context": "https://schema.org",
        "@type": "Article",
        "headline": "A badseo article",
        "image": "https://example.org/article.png",
        "datePublished": "2026-01-02",
        "dateModified": "2026-01-03",
        "author": {"@type": "Person", "name": "Ada", "url": "https://example.org/ada"},
    }
)
PRODUCT: Mapping[str, object] = MappingProxyType(
    {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": "Fern",
        "image": "https://example.org/fern.png",
        "description": "A fern in a pot.",
        "offers": {
            "@type": "Offer",
            "price": "12.50",
            "priceCurrency": "EUR",
            "availability": "https://schema.org/InStock",
            "priceValidUntil": "2027-01-01",
        },
        "aggregateRating": {
            "@type": "AggregateRating",
            "ratingValue": "4.5",
            "ratingCount": "12",
            "bestRating": "5",
            "worstRating": "1",
        },
    }
)


def json_ld(item: Mapping[str, object], **changes: object) -> str:
    """A JSON-LD block of `item` with `changes` (a None value removes the property)."""
    data = {k: v for k, v in {**item, **changes}.items() if v is not None}
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


_OFFER = (
    '<span itemprop="price" content="12.50">12,50 EUR</span>'
    '<meta itemprop="priceCurrency" content="EUR">'
    '<link itemprop="availability" href="https://schema.org/InStock">'
    '<meta itemprop="priceValidUntil" content="2027-01-01">'
)
_RATING = (
    '<span itemprop="ratingValue" content="4.5">4.5</span> of <meta itemprop="worstRating" '
    'content="1"><span itemprop="bestRating" content="5">5</span>, '
    '<span itemprop="ratingCount" content="12">12</span> ratings'
)


def microdata_product(
    extra: str = "", *, offer: bool = True, offer_by_itemref: bool = False
) -> str:
    """PRODUCT in Microdata (HTML §5.2): its offer nested, or (`offer_by_itemref`) in an element
    outside the item that its `itemref` names, or left out with its rating (`offer=False`: no
    offers, review or rating); `extra` markup inside the item."""
    offers = '<div itemprop="offers" itemscope itemtype="https://schema.org/Offer">' + _OFFER
    nested = offers + "</div>" if offer and not offer_by_itemref else ""
    rating = (
        '<div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">'
        f"{_RATING}</div>"
        if offer
        else ""
    )
    itemref = ' itemref="fern-offer"' if offer_by_itemref else ""
    item = (
        f'<div itemscope itemtype="https://schema.org/Product"{itemref}>'
        '<span itemprop="name">Fern</span>'
        '<link itemprop="image" href="https://example.org/fern.png">'
        f'<p itemprop="description">A fern in a pot.</p>{extra}{nested}{rating}</div>'
    )
    elsewhere = offers.replace("<div ", '<div id="fern-offer" ', 1) + "</div>"
    return item + ("<p>Price:</p>" + elsewhere if offer_by_itemref else "")


def rdfa_product(type_name: str) -> str:
    """PRODUCT in RDFa Lite 1.1 (`vocab`, `typeof`, `property`) as an item of `type_name`."""
    return (
        f'<div vocab="https://schema.org/" typeof="{type_name}">'
        '<span property="name">Fern</span>'
        '<link property="image" href="https://example.org/fern.png">'
        '<p property="description">A fern in a pot.</p>'
        f'<div property="offers" typeof="Offer">{_OFFER.replace("itemprop", "property")}</div>'
        '<div property="aggregateRating" typeof="AggregateRating">'
        f"{_RATING.replace('itemprop', 'property')}</div>"
        "</div>"
    )


PIXEL_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d4944415478da63f8ffff3f0005fe02fea7d6a4c90000000049454e44ae426082"
)
TINY_PDF = b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
OVERSIZED_PADDING = 2 * 1024 * 1024 + 256 * 1024  # comfortably above HTML_MAX_BYTES (2 MiB)
# A documentation-index-sized page, generated as it is sent: three times the old 2 MiB parse cap.
SIX_MEGABYTES = 6 * 1024 * 1024
# Distinct hrefs before the last, broken link of the link-heavy page: five times the old
# 1,000-link cap. All but one (a missing fragment) are spellings of /catalog
# (`/n<i>/../catalog`), so the page is link-heavy without adding a page to crawl.
MANY_LINKS = 4_999
TOC_ENTRIES = 1_500  # more bare #fragment links than a page's facts keep (LINKS_CAP)
SLOW_DELAY_S = 1.7  # above SLOW_RESPONSE_MS (1.5 s) with margin; the only page slow every time

# Hubs: the pages whose links reach URLs that would raise an issue on any other linking page.
BROKEN_LINK_TARGETS = (
    "/status/not-found",
    "/status/gone",
    "/status/server-error",
    "/status/unavailable",
)
REDIRECT_HEADS = (
    "/redirect/permanent",
    "/redirect/found",
    "/redirect/temporary",
    "/redirect/permanent-308",
    "/redirect/chain-1",
    "/redirect/loop-a",
    "/redirect/self",
    "/redirect/trailing-slash",
)
DEEP_CHAIN = ("/structure/deep/1", "/structure/deep/2", "/structure/deep/3", "/structure/deep/4")
DEEP_TREASURE = "/structure/deep/treasure"
ROBOTS_DISALLOWED = "/sitemap/blocked-by-robots"  # for siteaudit (and everyone)
ROBOTS_OTHERS_ONLY = "/robots/disallowed-for-other-bots"  # only for the `*` group
REDIRECT_LANDING = "/redirect/landing"

# ------------------------------------------------------------------------------- fixtures

# The start page of a plain-http site fails two of the security grade's tests (workflow's
# security-grade step, docs/security.md): its http entry point does not redirect to https, and
# there is no https to send HSTS over. The fixture server's default headers pass the others.
_PLAIN_HTTP_GRADE = (T.SECURITY_REDIRECTION, T.SECURITY_HSTS)

_HOME_BODY = (
    '<p><img src="/assets/pixel.png" alt="The badseo logo" width="1" height="1">'
    '<img src="/assets/pixel.png" alt="" width="1" height="1"></p>'
    '<p>Start with the <a href="/catalog">fixture catalog</a>, read the '
    '<a href="/privacy">privacy notice</a>, or follow the '
    f'<a href="{DEEP_CHAIN[0]}">long way down</a>.</p>'
)


def _meta(*tags: tuple[str, str]) -> str:
    """Sharing tags as written in a <head>: og:* as property, twitter:* as name."""
    return "".join(
        f'<meta {"property" if key.startswith("og:") else "name"}="{key}" content="{value}">'
        for key, value in tags
    )


def _og(path: str, **changes: str | None) -> str:
    """A page's Open Graph tags as pages.PageSpec writes them, with `changes` by the property's
    name after "og:" (None leaves one out): for fixtures that write their own."""
    tags = {
        "title": f"badseo fixture {path}",
        "type": "website",
        "image": "{origin}" + SHARE_IMAGE,
        "url": "{origin}" + path,
        "description": f"A badseo fixture page at {path} that shows exactly one audit finding.",
        **changes,
    }
    return _meta(*((f"og:{key}", value) for key, value in tags.items() if value is not None))


_SITE = [
    page(
        "/",
        Category.SITE,
        "The home page of badseo: clean for SEO; served over plain http, it fails the security "
        "grade's https tests (no redirect to https, no HSTS).",
        _PLAIN_HTTP_GRADE,
        linked_from_catalog=False,
        title="badseo: one SEO defect per page",
        description="badseo is a small website with one search engine optimisation defect per "
        "page, built to test site audits.",
        h1="badseo",
        body=_HOME_BODY,
        head=JSON_LD_VALID,
    ),
    page(
        "/privacy",
        Category.SITE,
        "The privacy notice; it must be clean.",
        linked_from_catalog=False,
        title="Privacy notice of badseo",
        description="badseo keeps no personal data: no accounts, no cookies, no analytics, and "
        "its server logs stay on the test machine.",
        h1="Privacy",
    ),
]

_HEAD = [
    page(
        "/head/missing-title",
        Category.HEAD,
        "No title element.",
        (
            T.MISSING_TITLE,
            T.A11Y_DOCUMENT_TITLE,
        ),
        title=None,
    ),
    page(
        "/head/title-too-long",
        Category.HEAD,
        "A 110-character title.",
        (T.TITLE_TOO_LONG,),
        title=LONG_TITLE,
    ),
    page(
        "/head/title-too-short",
        Category.HEAD,
        "A two-character title.",
        (T.TITLE_TOO_SHORT,),
        title=SHORT_TITLE,
    ),
    page(
        "/head/multiple-titles",
        Category.HEAD,
        "Two title elements; the first one is fine.",
        (T.MULTIPLE_TITLES,),
        head="<title>A second title element on the page</title>",
    ),
    page(
        "/head/missing-meta-description",
        Category.HEAD,
        "No meta description.",
        (T.MISSING_META_DESCRIPTION,),
        description=None,
    ),
    page(
        "/head/meta-description-too-long",
        Category.HEAD,
        "A 215-character description.",
        (T.META_DESCRIPTION_TOO_LONG,),
        description=LONG_DESCRIPTION,
    ),
    page(
        "/head/meta-description-too-short",
        Category.HEAD,
        "A 43-character description.",
        (T.META_DESCRIPTION_TOO_SHORT,),
        description=SHORT_DESCRIPTION,
    ),
    page(
        "/head/multiple-meta-descriptions",
        Category.HEAD,
        "Two meta descriptions.",
        (T.MULTIPLE_META_DESCRIPTIONS,),
        head='<meta name="description" content="A second description of the same page, which '
        'search engines may or may not use instead of the first.">',
    ),
    page(
        "/head/missing-h1",
        Category.HEAD,
        "No H1 at all.",
        (
            T.MISSING_H1,
            T.A11Y_PAGE_HAS_HEADING_ONE,
        ),
        h1=None,
    ),
    page(
        "/head/empty-h1",
        Category.HEAD,
        "An empty H1 element, which counts as missing.",
        (
            T.MISSING_H1,
            T.A11Y_EMPTY_HEADING,
        ),
        h1=None,
        body="<h1></h1>",
    ),
    page(
        "/head/multiple-h1",
        Category.HEAD,
        "Three H1 headings.",
        (T.MULTIPLE_H1,),
        body="<h1>A second main heading</h1><h1>A third main heading</h1>",
    ),
    page(
        "/head/heading-order-skip",
        Category.HEAD,
        "An H4 right after the H1.",
        (
            T.HEADING_ORDER_SKIP,
            T.A11Y_HEADING_ORDER,
        ),
        body="<h4>A heading four levels down</h4>",
    ),
    page(
        "/head/missing-html-lang",
        Category.HEAD,
        "The html element has no lang.",
        (
            T.MISSING_HTML_LANG,
            T.A11Y_HTML_HAS_LANG,
        ),
        lang=None,
    ),
    page(
        "/head/missing-viewport",
        Category.HEAD,
        "No viewport meta tag.",
        (T.MISSING_VIEWPORT,),
        viewport=False,
    ),
    page(
        "/head/meta-refresh",
        Category.HEAD,
        "A meta refresh to the home page after an hour.",
        (
            T.META_REFRESH,
            T.A11Y_META_REFRESH,
        ),
        head='<meta http-equiv="refresh" content="3600; url=/">',
    ),
    page(
        "/head/multiple-canonicals",
        Category.HEAD,
        "Two canonical tags naming different URLs; the first is the page itself.",
        (T.MULTIPLE_CANONICALS,),
        canonical="{origin}/head/multiple-canonicals",
        head='<link rel="canonical" href="{origin}/privacy">',
    ),
    page(
        "/head/relative-canonical",
        Category.HEAD,
        "A relative canonical naming the page.",
        (T.RELATIVE_CANONICAL,),
        canonical="/head/relative-canonical",
    ),
]

_CONTENT = [
    page(
        "/content/thin-content",
        Category.CONTENT,
        "A page with only a handful of words.",
        (T.THIN_CONTENT,),
        filler=False,
    ),
    page(
        "/content/images-missing-alt",
        Category.CONTENT,
        "An image without an alt attribute.",
        (
            T.IMAGES_MISSING_ALT,
            T.A11Y_IMAGE_ALT,
        ),
        body='<p><img src="/assets/pixel.png" width="1" height="1"></p>',
    ),
    page(
        "/content/images-missing-dimensions",
        Category.CONTENT,
        "An image without width and height.",
        (T.IMAGES_MISSING_DIMENSIONS,),
        body='<p><img src="/assets/pixel.png" alt="A single pixel"></p>',
    ),
    page(
        "/content/invalid-structured-data",
        Category.CONTENT,
        "A JSON-LD block that is not JSON.",
        (T.INVALID_STRUCTURED_DATA,),
        head=JSON_LD_BROKEN,
    ),
    page(
        "/content/structured-data-valid-article",
        Category.CONTENT,
        "A JSON-LD Article with every property Google recommends: clean.",
        head=json_ld(ARTICLE),
    ),
    page(
        "/content/structured-data-valid-product",
        Category.CONTENT,
        "A JSON-LD Product eligible for the product snippet: clean.",
        head=json_ld(PRODUCT),
    ),
    page(
        "/content/structured-data-unknown-type",
        Category.CONTENT,
        "A JSON-LD item of type Prodcut, which schema.org does not define.",
        (T.STRUCTURED_DATA_UNKNOWN_TYPE,),
        head=json_ld(PRODUCT, **{"@type": "Prodcut"}),
    ),
    page(
        "/content/structured-data-unknown-property",
        Category.CONTENT,
        "A JSON-LD Article with a misspelt property, headlin.",
        (T.STRUCTURED_DATA_UNKNOWN_PROPERTY,),
        head=json_ld(ARTICLE, headlin="A typo"),
    ),
    page(
        "/content/structured-data-wrong-vocabulary",
        Category.CONTENT,
        "A JSON-LD Article whose context is www.schema.org, not schema.org.",
        (T.STRUCTURED_DATA_WRONG_VOCABULARY,),
        head=json_ld(ARTICLE, **{"@context": "http://www.schema.org"}),
    ),
    page(
        "/content/structured-data-property-not-on-type",
        Category.CONTENT,
        "A JSON-LD Article with a price, a property of offers, not of articles.",
        (T.STRUCTURED_DATA_PROPERTY_NOT_ON_TYPE,),
        head=json_ld(ARTICLE, price="3.00"),
    ),
    page(
        "/content/structured-data-invalid-value",
        Category.CONTENT,
        "A JSON-LD Article whose datePublished is not a date.",
        (T.STRUCTURED_DATA_INVALID_VALUE,),
        head=json_ld(ARTICLE, datePublished="yesterday"),
    ),
    page(
        "/content/structured-data-text-for-thing",
        Category.CONTENT,
        "A JSON-LD Article whose publisher is plain text, not an organization.",
        (T.STRUCTURED_DATA_TEXT_FOR_THING,),
        head=json_ld(ARTICLE, publisher="Acme"),
    ),
    page(
        "/content/structured-data-deprecated-term",
        Category.CONTENT,
        "A JSON-LD Article with isBasedOnUrl, which schema.org superseded by isBasedOn.",
        (T.STRUCTURED_DATA_DEPRECATED_TERM,),
        head=json_ld(ARTICLE, isBasedOnUrl="https://example.org/source"),
    ),
    page(
        "/content/rich-result-missing-required",
        Category.CONTENT,
        "A JSON-LD Product with no offers, review or rating: no product snippet.",
        # Google recommends offers, and a review or rating, as well.
        (T.RICH_RESULT_MISSING_REQUIRED, T.RICH_RESULT_MISSING_RECOMMENDED),
        head=json_ld(PRODUCT, offers=None, aggregateRating=None),
    ),
    page(
        "/content/rich-result-missing-recommended",
        Category.CONTENT,
        "A JSON-LD Article without the image Google recommends.",
        (T.RICH_RESULT_MISSING_RECOMMENDED,),
        head=json_ld(ARTICLE, image=None),
    ),
    # Microdata and RDFa Lite, read from the page's element tree and checked as JSON-LD is.
    page(
        "/content/microdata-product",
        Category.CONTENT,
        "A Microdata Product eligible for the product snippet: clean.",
        body=microdata_product(),
    ),
    page(
        "/content/microdata-itemref",
        Category.CONTENT,
        "A Microdata Product whose offer sits elsewhere on the page, named by itemref: clean.",
        body=microdata_product(offer_by_itemref=True),
    ),
    page(
        "/content/microdata-unknown-property",
        Category.CONTENT,
        "A Microdata Product with a misspelt property, descripton.",
        (T.STRUCTURED_DATA_UNKNOWN_PROPERTY,),
        body=microdata_product('<span itemprop="descripton">A typo</span>'),
    ),
    page(
        "/content/microdata-property-not-on-type",
        Category.CONTENT,
        "A Microdata Product with a headline, a property of creative works, not of products.",
        (T.STRUCTURED_DATA_PROPERTY_NOT_ON_TYPE,),
        body=microdata_product('<span itemprop="headline">Ferns</span>'),
    ),
    page(
        "/content/microdata-missing-required",
        Category.CONTENT,
        "A Microdata Product with no offers, review or rating: no product snippet.",
        (T.RICH_RESULT_MISSING_REQUIRED, T.RICH_RESULT_MISSING_RECOMMENDED),
        body=microdata_product(offer=False),
    ),
    page(
        "/content/microdata-unchecked",
        Category.CONTENT,
        "A Microdata Product after more elements than the audit's element tree holds: the audit "
        "says it did not check it.",
        (T.STRUCTURED_DATA_UNCHECKED,),
        body="<i></i>" * (TREE_MAX_ELEMENTS + 1) + microdata_product(),
    ),
    page(
        "/content/rdfa-product",
        Category.CONTENT,
        "An RDFa Lite Product (vocab, typeof, property) eligible for the product snippet: clean.",
        body=rdfa_product("Product"),
    ),
    page(
        "/content/rdfa-unknown-type",
        Category.CONTENT,
        "An RDFa Lite item of type Prodcut, which schema.org does not define.",
        (T.STRUCTURED_DATA_UNKNOWN_TYPE,),
        body=rdfa_product("Prodcut"),
    ),
    page(
        "/content/javascript-shell",
        Category.CONTENT,
        "An app shell: a script, three words, no headings, links or images; this audit does not "
        "render it (no renderer), and says so.",
        (T.JAVASCRIPT_RENDERING_SUSPECTED, T.RENDERING_NOT_DONE),
        text="Loading the application.",
        h1=None,
        filler=False,
        chrome=False,
        body='<div id="root"></div><script src="/assets/app.js"></script>',
    ),
    page(
        "/content/duplicate-a",
        Category.CONTENT,
        "Two byte-identical pages: same title, description and text.",
        (T.DUPLICATE_TITLE, T.DUPLICATE_META_DESCRIPTION, T.DUPLICATE_CONTENT),
        extra_paths=("/content/duplicate-b",),
    ),
    page(
        "/content/duplicate-title-a",
        Category.CONTENT,
        "Shares its title with -b.",
        (T.DUPLICATE_TITLE,),
        title=SHARED_TITLE,
    ),
    page(
        "/content/duplicate-title-b",
        Category.CONTENT,
        "Shares its title with -a.",
        (T.DUPLICATE_TITLE,),
        title=SHARED_TITLE,
    ),
    page(
        "/content/duplicate-meta-a",
        Category.CONTENT,
        "Shares its description with -b.",
        (T.DUPLICATE_META_DESCRIPTION,),
        description=SHARED_DESCRIPTION,
    ),
    page(
        "/content/duplicate-meta-b",
        Category.CONTENT,
        "Shares its description with -a.",
        (T.DUPLICATE_META_DESCRIPTION,),
        description=SHARED_DESCRIPTION,
    ),
    page(
        "/content/duplicate-body-a",
        Category.CONTENT,
        "Shares its visible text with -b.",
        (T.DUPLICATE_CONTENT,),
        text=SHARED_BODY,
        h1="Same text",
    ),
    page(
        "/content/duplicate-body-b",
        Category.CONTENT,
        "Shares its visible text with -a.",
        (T.DUPLICATE_CONTENT,),
        text=SHARED_BODY,
        h1="Same text",
    ),
    page(
        "/content/kitchen-sink",
        Category.CONTENT,
        "Several defects at once: long title, no description, two H1, H1 to H4, no alt.",
        (
            T.TITLE_TOO_LONG,
            T.MISSING_META_DESCRIPTION,
            T.MULTIPLE_H1,
            T.HEADING_ORDER_SKIP,
            T.IMAGES_MISSING_ALT,
            T.A11Y_HEADING_ORDER,
            T.A11Y_IMAGE_ALT,
        ),
        title="The kitchen sink: a page that gets many of the basics of SEO wrong at once",
        description=None,
        body='<h1>Another H1</h1><h4>Skipped</h4><img src="/assets/pixel.png" width=1 height=1>',
    ),
]

_INDEX = [
    page(
        "/index/noindex-meta",
        Category.INDEX,
        'A robots meta "noindex, follow".',
        (T.NOINDEX_PAGE,),
        in_sitemap=False,
        head='<meta name="robots" content="noindex, follow">',
    ),
    page(
        "/index/noindex-header",
        Category.INDEX,
        "An X-Robots-Tag: noindex header.",
        (T.NOINDEX_PAGE,),
        in_sitemap=False,
        headers={"x-robots-tag": "noindex"},
    ),
    page(
        "/index/canonicalized",
        Category.INDEX,
        "An HTML canonical naming the home page.",
        (T.CANONICALIZED_PAGE,),
        canonical="{origin}/",
    ),
    page(
        "/index/canonicalized-header",
        Category.INDEX,
        "A Link header canonical naming the home page.",
        (T.CANONICALIZED_PAGE,),
        headers={"link": '<{origin}/>; rel="canonical"'},
        open_graph=False,  # shared as its canonical, which only the header names
        head=_og("/index/canonicalized-header", url="{origin}/"),
    ),
    page(
        "/index/canonical-conflict",
        Category.INDEX,
        "The HTML canonical names the page itself, the Link header another URL.",
        (T.CANONICAL_CONFLICT,),
        canonical="{origin}/index/canonical-conflict",
        headers={"link": '<{origin}/index/canonical-conflict?via=header>; rel="canonical"'},
    ),
]

_CANONICAL = [
    page(
        "/canonical/to-broken",
        Category.CANONICAL,
        "Canonical names a 404 page.",
        (T.CANONICALIZED_PAGE, T.CANONICAL_TO_BROKEN),
        canonical="{origin}/status/not-found",
    ),
    page(
        "/canonical/to-redirect",
        Category.CANONICAL,
        "Canonical names a 301.",
        (T.CANONICALIZED_PAGE, T.CANONICAL_TO_REDIRECT),
        canonical="{origin}/redirect/permanent",
    ),
    page(
        "/canonical/to-noindex",
        Category.CANONICAL,
        "Canonical names a noindex page.",
        (T.CANONICALIZED_PAGE, T.CANONICAL_TO_NOINDEX),
        canonical="{origin}/index/noindex-meta",
    ),
]

_STATUS = [
    answer(
        "/status/not-found",
        Category.STATUS,
        "404 Not Found.",
        (T.BROKEN_PAGE,),
        Status(404, _error_body("Page not found", "Nothing here.")),
    ),
    answer(
        "/status/gone",
        Category.STATUS,
        "410 Gone.",
        (T.BROKEN_PAGE,),
        Status(410, _error_body("Page gone", "This page was removed for good.")),
    ),
    answer(
        "/status/server-error",
        Category.STATUS,
        "500 Internal Server Error.",
        (T.SERVER_ERROR,),
        Status(500, _error_body("Server error", "Something broke.")),
    ),
    answer(
        "/status/unavailable",
        Category.STATUS,
        "503 without challenge markers.",
        (T.SERVER_ERROR,),
        Status(503, _error_body("Maintenance", "Back soon.")),
    ),
    answer(
        "/status/forbidden",
        Category.STATUS,
        "403 Forbidden.",
        (T.BLOCKED_PAGE,),
        Status(403, _error_body("Forbidden", "Bots are not welcome.")),
        linked_from_catalog=True,
    ),
    answer(
        "/status/unauthorized",
        Category.STATUS,
        "401 with a Basic challenge.",
        (T.BLOCKED_PAGE,),
        Status(
            401,
            _error_body("Sign in", "Members only."),
            {"www-authenticate": 'Basic realm="badseo"'},
        ),
        linked_from_catalog=True,
    ),
    answer(
        "/status/challenge-202",
        Category.STATUS,
        "202 with an empty body (WAF challenge).",
        (T.BLOCKED_PAGE,),
        Status(202),
        linked_from_catalog=True,
    ),
    answer(
        "/status/challenge-page",
        Category.STATUS,
        'A 200 "Just a moment..." challenge page.',
        (T.BLOCKED_PAGE,),
        Status(200, _error_body("Just a moment...", "Checking your browser.")),
        linked_from_catalog=True,
    ),
    answer(
        "/status/challenge-503",
        Category.STATUS,
        "A 503 challenge page.",
        (T.BLOCKED_PAGE,),
        Status(503, _error_body("Attention", "Verifying you are human. challenge-platform")),
        linked_from_catalog=True,
    ),
    answer(
        "/status/rate-limited",
        Category.STATUS,
        "429 with Retry-After: 1 on the first request, then a clean page.",
        (),
        RateLimited(Html(PageSpec("/status/rate-limited", "Served after one 429.")), 1, "1"),
        linked_from_catalog=True,
    ),
    answer(
        "/status/rate-limited-always",
        Category.STATUS,
        "429 every time, no Retry-After.",
        (T.RATE_LIMITED_PAGE,),
        RateLimited(),
        linked_from_catalog=True,
    ),
]

_LINKS = [
    # External links (the `check_external` option, docs/external-links.md) to the other site on
    # 127.0.0.2 (EXTERNAL_ROUTES), each checked once, and one to a private address.
    page(
        "/links/external-broken",
        Category.LINKS,
        "Links to a page of another site that answers 404.",
        (T.BROKEN_EXTERNAL_LINK,),
        body='<p>See <a href="{external}/missing">the other site\'s missing page</a>.</p>',
    ),
    page(
        "/links/external-redirect",
        Category.LINKS,
        "Links to a page of another site that moved (301 to a page that answers 200).",
        (T.EXTERNAL_REDIRECT,),
        body='<p>See <a href="{external}/moved">the other site\'s moved page</a>.</p>',
    ),
    page(
        "/links/external-timeout",
        Category.LINKS,
        "Links to a page of another site that answers after the check's timeout.",
        (T.EXTERNAL_LINK_UNREACHABLE,),
        body='<p>See <a href="{external}/slow">the other site\'s slow page</a>.</p>',
    ),
    page(
        "/links/external-head-refused",
        Category.LINKS,
        "Links to a page of another site that refuses HEAD (405) and answers GET: it works.",
        body='<p>See <a href="{external}/head-refused">the other site\'s page</a>.</p>',
    ),
    page(
        "/links/external-private",
        Category.LINKS,
        "Links to a private address, which the audit must not request.",
        (T.EXTERNAL_LINK_UNREACHABLE,),
        body='<p>See <a href="http://10.11.12.13/intranet">the intranet</a>.</p>',
    ),
    page(
        "/links/five-thousand-links",
        Category.LINKS,
        "5,000 links (spellings of the catalog's URL); the 4,999th names a missing fragment and "
        "the last a missing page.",
        (T.BROKEN_INTERNAL_LINK, T.BROKEN_FRAGMENT),
        body="<ul>"
        + "".join(f'<li><a href="/n{i}/../catalog">catalog</a></li>' for i in range(MANY_LINKS - 1))
        + '<li><a href="/links/fragment-target#after-the-thousandth">no such section</a></li>'
        + '<li><a href="/links/missing-after-five-thousand">the last</a></li></ul>',
    ),
    page(
        "/links/long-table-of-contents",
        Category.LINKS,
        f"A contents list of {TOC_ENTRIES:,} same-page #fragment links; the last names no "
        "section of the page.",
        (T.BROKEN_FRAGMENT,),
        body="<ol>"
        + "".join(f'<li><a href="#s{i}">Section {i}</a></li>' for i in range(TOC_ENTRIES))
        + "</ol>"
        + "".join(f'<h2 id="s{i}">Section {i}</h2>' for i in range(TOC_ENTRIES - 1)),
    ),
    answer(
        "/links/missing-after-five-thousand",
        Category.LINKS,
        "404: linked only by the 5,000th link of /links/five-thousand-links.",
        (T.BROKEN_PAGE,),
        Status(404, _error_body("Page not found", "Only the 5,000th link leads here.")),
    ),
    page(
        "/links/broken-internal-link",
        Category.LINKS,
        "Links to the 404, 410, 500 and 503 fixtures.",
        (T.BROKEN_INTERNAL_LINK,),
        body=_links(BROKEN_LINK_TARGETS),
    ),
    page(
        "/links/link-to-redirect",
        Category.LINKS,
        "Links to every redirect fixture.",
        (T.LINK_TO_REDIRECT,),
        body=_links(REDIRECT_HEADS),
    ),
    page(
        "/links/internal-nofollow",
        Category.LINKS,
        "A nofollow link to a clean page.",
        (T.INTERNAL_NOFOLLOW_LINKS,),
        # Not /privacy: the chrome links it first, and links are deduplicated by target (first wins).
        body='<p>Read the <a href="/security/frame-ancestors-only" rel="nofollow">'
        "frame-ancestors page</a>.</p>",
    ),
    page(
        "/links/broken-fragment",
        Category.LINKS,
        "Links to fragments the target pages lack: a renamed section, a wrong case, this page.",
        (T.BROKEN_FRAGMENT,),
        # Working ones around them: an id, an <a name>, a percent-encoded id, #top, #, and an id
        # of this page. Broken: #missing-section, #Present (ids are case-sensitive), #nowhere.
        body='<h2 id="on-this-page">Fragments</h2><ul>'
        '<li><a href="/links/fragment-target#present">present</a></li>'
        '<li><a href="/links/fragment-target#named">named</a></li>'
        '<li><a href="/links/fragment-target#caf%C3%A9">encoded</a></li>'
        '<li><a href="/links/fragment-target#missing-section">missing</a></li>'
        '<li><a href="/links/fragment-target#Present">wrong case</a></li>'
        '<li><a href="#top">top</a> <a href="#">empty</a> <a href="#on-this-page">here</a> '
        '<a href="#nowhere">nowhere</a></li></ul>',
    ),
    page(
        "/links/fragment-target",
        Category.LINKS,
        "The target of fragment links: an id, an anchor name and a non-ASCII id.",
        body='<h2 id="present">Present section</h2><p><a name="named"></a>Named anchor.</p>'
        '<p id="caf\u00e9">Caf\u00e9 section.</p>',
        support=True,
    ),
]

_IMG = 'alt="a picture" width="1" height="1"'


def _missing(
    path: str, summary: str, body: str = "", head: str = "", also: tuple[IssueType, ...] = ()
) -> Fixture:
    return page(path, Category.LINKS, summary, (T.BROKEN_RESOURCE, *also), body=body, head=head)


# One page per reference kind (crawl.references): resources are checked and reported on the
# page; page links (iframe, area, refresh, link next) are crawled like <a href>.
_REFERENCES = [
    _missing(
        "/refs/missing-image",
        "An img whose src is missing.",
        f'<p><img src="/assets/missing-image.png" {_IMG}></p>',
    ),
    _missing(
        "/refs/missing-srcset",
        "An img whose srcset names a missing 2x file.",
        f'<p><img src="/assets/pixel.png" srcset="/assets/missing-2x.png 2x" {_IMG}></p>',
    ),
    _missing(
        "/refs/missing-picture-source",
        "A picture source whose srcset is missing.",
        '<picture><source srcset="/assets/missing.webp" type="image/webp">'
        f'<img src="/assets/pixel.png" {_IMG}></picture>',
    ),
    _missing(
        "/refs/missing-script",
        "A script whose src is missing.",
        '<script src="/assets/missing.js"></script>',
    ),
    _missing(
        "/refs/missing-stylesheet",
        "A stylesheet link whose href is missing.",
        head='<link rel="stylesheet" href="/assets/missing.css">',
    ),
    _missing(
        "/refs/missing-icon",
        "An icon link whose href is missing.",
        head='<link rel="icon" href="/assets/missing.ico">',
    ),
    _missing(
        "/refs/missing-video",
        "A video whose src is missing.",
        '<video src="/assets/missing.mp4" poster="/assets/pixel.png"></video>',
    ),
    _missing(
        "/refs/missing-poster",
        "A video whose poster image is missing.",
        '<video src="/assets/clip.mp4" poster="/assets/missing-poster.png"></video>',
    ),
    _missing(
        "/refs/missing-audio",
        "An audio source that is missing.",
        '<audio controls><source src="/assets/missing.mp3" type="audio/mpeg"></audio>',
    ),
    _missing(
        "/refs/missing-embed",
        "An embed whose src is missing.",
        '<embed src="/assets/missing.svg" type="image/svg+xml">',
    ),
    _missing(
        "/refs/missing-object",
        "An object whose data is missing, and with no text alternative.",
        '<object data="/assets/missing.pdf" type="application/pdf"></object>',
        also=(T.A11Y_OBJECT_ALT,),
    ),
    page(
        "/refs/head-refused",
        Category.LINKS,
        "An image whose server refuses HEAD: the GET that follows finds it.",
        body=f'<p><img src="/assets/head-refused.png" {_IMG}></p>',
    ),
    _missing(
        "/refs/head-refused-gone",
        "An image whose server refuses HEAD, and whose GET answers 410.",
        f'<p><img src="/assets/head-refused-gone.png" {_IMG}></p>',
    ),
    page(
        "/refs/broken-iframe",
        Category.LINKS,
        "An iframe of a 404 page.",
        (T.BROKEN_INTERNAL_LINK,),
        body='<iframe src="/status/not-found" title="gone"></iframe>',
    ),
    page(
        "/refs/broken-area",
        Category.LINKS,
        "An image map area that links a 410 page.",
        (T.BROKEN_INTERNAL_LINK,),
        body=f'<map name="m"><area href="/status/gone" alt="gone" shape="default"></map>'
        f'<img src="/assets/pixel.png" usemap="#m" {_IMG}>',
    ),
    page(
        "/refs/broken-refresh",
        Category.LINKS,
        "A meta refresh to a 404 page.",
        (
            T.META_REFRESH,
            T.BROKEN_INTERNAL_LINK,
            T.A11Y_META_REFRESH,
        ),
        head='<meta http-equiv="refresh" content="3600; url=/status/not-found">',
    ),
    page(
        "/refs/broken-frame",
        Category.LINKS,
        "A frameset whose frame is a 404 page.",
        # A frameset document has no body: no H1, no text and no <a> links come with it.
        (
            T.BROKEN_INTERNAL_LINK,
            T.MISSING_H1,
            T.THIN_CONTENT,
            T.NO_OUTGOING_LINKS,
            T.A11Y_FRAME_TITLE,
            T.A11Y_LANDMARK_ONE_MAIN,
            T.A11Y_PAGE_HAS_HEADING_ONE,
        ),
        frameset='<frameset cols="100%"><frame src="/status/not-found"></frameset>',
    ),
    page(
        "/refs/broken-next",
        Category.LINKS,
        "A link rel=next to a 404 page.",
        (T.BROKEN_INTERNAL_LINK,),
        head='<link rel="next" href="/status/not-found">',
    ),
]

_REDIRECT = [
    answer(
        "/redirect/permanent",
        Category.REDIRECT,
        "301 to the landing page; one hop is fine.",
        (),
        Redirect(301, REDIRECT_LANDING),
    ),
    answer(
        "/redirect/found",
        Category.REDIRECT,
        "302 to the landing page.",
        (),
        Redirect(302, REDIRECT_LANDING),
    ),
    answer(
        "/redirect/temporary",
        Category.REDIRECT,
        "307 to the landing page.",
        (),
        Redirect(307, REDIRECT_LANDING),
    ),
    answer(
        "/redirect/permanent-308",
        Category.REDIRECT,
        "308 to the landing page.",
        (),
        Redirect(308, REDIRECT_LANDING),
    ),
    answer(
        "/redirect/chain-1",
        Category.REDIRECT,
        "301 to chain-2, which 301s to the landing.",
        (T.REDIRECT_CHAIN,),
        Redirect(301, "/redirect/chain-2"),
    ),
    answer(
        "/redirect/chain-2",
        Category.REDIRECT,
        "Second hop of the chain.",
        (),
        Redirect(301, REDIRECT_LANDING),
        support=True,
    ),
    answer(
        "/redirect/loop-a",
        Category.REDIRECT,
        "302 to loop-b, which 302s back (a headless cycle, reported on its smallest URL).",
        (T.REDIRECT_LOOP,),
        Redirect(302, "/redirect/loop-b"),
    ),
    answer(
        "/redirect/loop-b",
        Category.REDIRECT,
        "The other half of the loop.",
        (),
        Redirect(302, "/redirect/loop-a"),
        support=True,
    ),
    answer(
        "/redirect/self",
        Category.REDIRECT,
        "302 to itself.",
        (T.REDIRECT_LOOP,),
        Redirect(302, "/redirect/self"),
    ),
    answer(
        "/redirect/trailing-slash",
        Category.REDIRECT,
        "301 to the slash form, which is a 200 (regression trap for the original's PR #61).",
        (),
        Redirect(301, "/redirect/trailing-slash/"),
    ),
    page(
        "/redirect/trailing-slash/",
        Category.REDIRECT,
        "The slash form of the trap: a 200.",
        in_sitemap=False,
        linked_from_catalog=False,
        support=True,
    ),
    page(
        REDIRECT_LANDING,
        Category.REDIRECT,
        "Where the single redirects and the chain end.",
        in_sitemap=False,
        linked_from_catalog=False,
        support=True,
    ),
]

_PERF = [
    page(
        "/perf/slow-response",
        Category.PERF,
        "Headers only after 1.7 seconds.",
        (T.SLOW_RESPONSE,),
        delay_s=SLOW_DELAY_S,
    ),
    Fixture(
        "/perf/slow-once",
        Category.PERF,
        "Headers after 1.7 seconds for the first request only: measured again after the crawl, "
        "the page answers at once, so it is not slow (docs/timing.md).",
        (),
        SlowFirst(
            PageSpec(
                "/perf/slow-once",
                "Headers after 1.7 seconds for the first request only: measured again after the "
                "crawl, the page answers at once, so it is not slow.",
            ),
            SLOW_DELAY_S,
        ),
    ),
    page(
        "/perf/html-too-large",
        Category.PERF,
        "About 2.25 MiB of HTML (a large comment).",
        (T.HTML_TOO_LARGE,),
        padding_bytes=OVERSIZED_PADDING,
    ),
    Fixture(
        "/perf/six-megabytes",
        Category.PERF,
        "About 6 MiB of HTML, generated as it is sent; its tail links a missing page.",
        (T.HTML_TOO_LARGE, T.BROKEN_INTERNAL_LINK),
        Generated(
            PageSpec(
                "/perf/six-megabytes",
                "About 6 MiB of HTML, generated as it is sent; its tail links a missing page.",
                body=f'{GENERATED_MARK}<p>The tail: <a href="/perf/missing-after-six-megabytes">'
                "a page that does not exist</a>.</p>",
            ),
            SIX_MEGABYTES,
        ),
    ),
    answer(
        "/perf/missing-after-six-megabytes",
        Category.PERF,
        "404: linked only from the tail of /perf/six-megabytes.",
        (T.BROKEN_PAGE,),
        Status(404, _error_body("Page not found", "Only a 6 MiB page's tail leads here.")),
    ),
    answer(
        "/assets/whitepaper.pdf",
        Category.PERF,
        "A PDF: not HTML, so no content checks.",
        (),
        Resource("application/pdf", TINY_PDF),
        linked_from_catalog=True,
    ),
]


def _deep_step(index: int, path: str) -> Fixture:
    following = ((*DEEP_CHAIN, DEEP_TREASURE))[index + 1]
    return page(
        path,
        Category.STRUCTURE,
        f"Step {index + 1} of the way down to the deep page.",
        in_sitemap=False,
        linked_from_catalog=False,
        support=True,
        body=f'<p>Keep going: <a href="{following}">one level deeper</a>.</p>',
    )


_STRUCTURE = [
    page(
        "/structure/orphan",
        Category.STRUCTURE,
        "In the sitemap, linked from nowhere.",
        (T.ORPHAN_PAGE,),
        linked_from_catalog=False,
    ),
    page(
        "/structure/no-outgoing-links",
        Category.STRUCTURE,
        "No links at all, not even chrome.",
        (T.NO_OUTGOING_LINKS,),
        chrome=False,
    ),
    *(_deep_step(index, path) for index, path in enumerate(DEEP_CHAIN)),
    page(
        DEEP_TREASURE,
        Category.STRUCTURE,
        "Five clicks from the home page.",
        (T.DEEP_PAGE,),
        in_sitemap=False,
        linked_from_catalog=False,
    ),
]

_SITEMAP = [
    answer(
        "/sitemap/broken-url",
        Category.SITEMAP,
        "A 404 listed in the sitemap only.",
        (T.BROKEN_PAGE, T.SITEMAP_URL_BROKEN),
        Status(404, _error_body("Listed but missing", "The sitemap is out of date.")),
        in_sitemap=True,
    ),
    answer(
        "/sitemap/redirecting-url",
        Category.SITEMAP,
        "A 301 listed in the sitemap only.",
        (T.SITEMAP_URL_REDIRECT,),
        Redirect(301, REDIRECT_LANDING),
        in_sitemap=True,
    ),
    page(
        "/sitemap/noindex-url",
        Category.SITEMAP,
        "A noindex page listed in the sitemap.",
        (T.NOINDEX_PAGE, T.SITEMAP_URL_NOINDEX),
        head='<meta name="robots" content="noindex">',
    ),
    page(
        ROBOTS_DISALLOWED,
        Category.SITEMAP,
        "Listed in the sitemap, disallowed by robots.txt, so never fetched.",
        (T.SITEMAP_URL_BLOCKED,),
        linked_from_catalog=False,
    ),
]

_ROBOTS = [
    page(
        ROBOTS_OTHERS_ONLY,
        Category.ROBOTS,
        "Disallowed for the * group only: siteaudit has its own group and must crawl it.",
    ),
]

_I18N = [
    page(
        "/i18n/en",
        Category.I18N,
        "Lists /i18n/de as its German version; de does not answer.",
        (T.HREFLANG_MISSING_RETURN_LINK,),
        head='<link rel="alternate" hreflang="en" href="/i18n/en">'
        '<link rel="alternate" hreflang="de" href="/i18n/de">',
    ),
    page(
        "/i18n/de",
        Category.I18N,
        "The German page that lists no alternates.",
        lang="de",
        support=True,
    ),
    page(
        "/i18n/pair-en",
        Category.I18N,
        "An hreflang pair that confirms itself: English.",
        head='<link rel="alternate" hreflang="de" href="/i18n/pair-de">',
    ),
    page(
        "/i18n/pair-de",
        Category.I18N,
        "An hreflang pair that confirms itself: German.",
        lang="de",
        head='<link rel="alternate" hreflang="en" href="/i18n/pair-en">',
    ),
]

_SECURITY = [
    page(
        "/security/insecure-form",
        Category.SECURITY,
        "A form that posts to an http:// URL.",
        (T.INSECURE_FORM_ACTION,),
        body='<form action="http://newsletter.example/subscribe" method="post"><label>E-mail '
        '<input type="email" name="email"></label><button>Subscribe</button></form>',
    ),
    page(
        "/security/missing-nosniff",
        Category.SECURITY,
        "No X-Content-Type-Options header.",
        (T.CONTENT_TYPE_OPTIONS_MISSING,),
        headers={"x-content-type-options": None},
    ),
    page(
        "/security/missing-csp",
        Category.SECURITY,
        "No Content-Security-Policy header.",
        (T.CSP_MISSING,),
        headers={"content-security-policy": None},
    ),
    page(
        "/security/missing-frame-protection",
        Category.SECURITY,
        "Neither X-Frame-Options nor CSP frame-ancestors.",
        (T.FRAME_PROTECTION_MISSING,),
        headers={"x-frame-options": None},
    ),
    # The exposure checks (workflow.exposure_step): libraries by file name and by content, and a
    # version in a header. The script files are assets (not crawled): by-name costs no fetch.
    page(
        "/security/vulnerable-jquery-by-name",
        Category.SECURITY,
        "Loads jQuery 1.8.1, which retire.js knows as vulnerable, recognised by its file name.",
        (T.EXPOSURE_VULNERABLE_JS_LIBRARY,),
        body='<script src="/assets/jquery-1.8.1.min.js"></script>',
    ),
    page(
        "/security/vulnerable-jquery-by-content",
        Category.SECURITY,
        "Loads a neutrally named same-site script that is jQuery 1.12.4 by its banner.",
        (T.EXPOSURE_VULNERABLE_JS_LIBRARY,),
        body='<script src="/assets/vendor.js"></script>',
    ),
    page(
        "/security/version-disclosure",
        Category.SECURITY,
        "An X-Powered-By header naming the server software's version.",
        (T.EXPOSURE_VERSION_DISCLOSED,),
        headers={"x-powered-by": "PHP/7.4.3"},
    ),
    page(
        "/security/frame-ancestors-only",
        Category.SECURITY,
        "Clickjacking protection through CSP frame-ancestors alone, which is enough.",
        headers={
            "x-frame-options": None,
            "content-security-policy": "default-src 'self'; frame-ancestors 'self'",
        },
    ),
]


def _og_page(
    path: str, summary: str, expected: tuple[IssueType, ...], **changes: str | None
) -> Fixture:
    """A social fixture that writes its own Open Graph tags: the clean ones with `changes`."""
    return page(
        path, Category.SOCIAL, summary, expected, open_graph=False, head=_og(path, **changes)
    )


# Sharing tags (audit.rules_social, issue 32): Open Graph and X cards. Every other page shares
# itself completely (pages.PageSpec.open_graph); these write their own tags.
_SOCIAL = [
    page(
        "/social/no-open-graph",
        Category.SOCIAL,
        "No Open Graph tags at all: one finding lists the five missing tags.",
        (T.MISSING_OPEN_GRAPH,),
        open_graph=False,
    ),
    _og_page(
        "/social/open-graph-without-image",
        "Open Graph tags without og:image and og:description.",
        (T.MISSING_OPEN_GRAPH,),
        image=None,
        description=None,
    ),
    _og_page(
        "/social/empty-og-title",
        "An og:title whose content is empty.",
        (T.EMPTY_SOCIAL_TAG,),
        title="",
    ),
    _og_page(
        "/social/relative-og-image",
        "An og:image given as a path: the protocol requires an absolute URL.",
        (T.RELATIVE_SOCIAL_URL,),
        image=SHARE_IMAGE,
    ),
    page(
        "/social/og-url-not-canonical",
        Category.SOCIAL,
        "og:url names another page than the canonical link.",
        (T.OG_URL_NOT_CANONICAL,),
        open_graph=False,
        canonical="{origin}/social/og-url-not-canonical",
        head=_og("/social/og-url-not-canonical", url="{origin}/social/no-open-graph"),
    ),
    page(
        "/social/invalid-twitter-card",
        Category.SOCIAL,
        'A twitter:card of type "photo", which X no longer knows.',
        (T.INVALID_TWITTER_CARD,),
        head=_meta(("twitter:card", "photo")),
    ),
    page(
        "/social/twitter-player-incomplete",
        Category.SOCIAL,
        "A player card without the player's width and height.",
        (T.TWITTER_CARD_INCOMPLETE,),
        head=_meta(("twitter:card", "player"), ("twitter:player", "{origin}/assets/clip.mp4")),
    ),
    page(
        "/social/twitter-card-complete",
        Category.SOCIAL,
        "A large-image card whose title, description and image fall back to Open Graph: clean.",
        head=_meta(("twitter:card", "summary_large_image"), ("twitter:site", "@badseo")),
    ),
    _og_page(
        "/social/broken-og-image",
        "An og:image that answers 404.",
        (T.BROKEN_SHARE_IMAGE,),
        image="{origin}/assets/missing-share.png",
    ),
    page(
        "/social/twitter-image-not-an-image",
        Category.SOCIAL,
        "A twitter:image that answers 200 with an HTML page.",
        (T.BROKEN_SHARE_IMAGE,),
        head=_meta(
            ("twitter:card", "summary"), ("twitter:image", "{origin}/assets/share-page.png")
        ),
    ),
]

# One page per static accessibility rule fixture (a11y_pages.py), each in the sitemap and the catalog.
_ACCESSIBILITY = [
    Fixture(p.path, Category.ACCESSIBILITY, p.summary, p.expected, p.handler) for p in A11Y_PAGES
]

_PAGES = [
    *_SITE,
    *_HEAD,
    *_CONTENT,
    *_INDEX,
    *_CANONICAL,
    *_STATUS,
    *_LINKS,
    *_REFERENCES,
    *_REDIRECT,
    *_PERF,
    *_STRUCTURE,
    *_SITEMAP,
    *_ROBOTS,
    *_I18N,
    *_SECURITY,
    *_SOCIAL,
    *_ACCESSIBILITY,
]


def _catalog_body(fixtures: list[Fixture]) -> str:
    items = "".join(
        f'<li><a href="{path}">{escape(path)}</a>: {escape(f.summary)}</li>'
        for f in fixtures
        if f.linked_from_catalog
        for path in f.paths
    )
    return f"<ul>{items}</ul>"


CATALOG = page(
    "/catalog",
    Category.SITE,
    "Every fixture the crawl reaches through the catalog.",
    linked_from_catalog=False,
    title="badseo fixture catalog",
    h1="Fixture catalog",
    body=_catalog_body(_PAGES),
)

FIXTURES: tuple[Fixture, ...] = (*_PAGES, CATALOG)

# ------------------------------------------------------------------------------- derived data

# A second, two-page site for the one crawl-level issue: a stopped crawl is incomplete, which
# turns off orphan detection, so it cannot share a crawl with the main site. Its only other page
# asks for an hour's cooldown, beyond the crawl's 30-minute budget (original system §4.6), so the
# crawl stops at once instead of waiting. Whether the stopping URL gets a row of its own is the
# throttle's choice; the original leaves it unrecorded, hence no expected issue on it.
COOLDOWN_PATH = "/status/cooldown"
RATE_LIMIT_STOP_FIXTURES: tuple[Fixture, ...] = (
    page(
        "/",
        Category.SITE,
        "The start page of the rate-limit site: one link, to the cooldown.",
        (T.CRAWL_RATE_LIMITED, *_PLAIN_HTTP_GRADE),
        linked_from_catalog=False,
        chrome=False,
        title="badseo: the rate-limited variant",
        h1="Rate-limited site",
        description="The start page of the rate-limited badseo variant; its only link leads to a "
        "page that asks crawlers to wait an hour.",
        body=f'<p>The only other page: <a href="{COOLDOWN_PATH}">the cooldown</a>.</p>',
    ),
    answer(
        COOLDOWN_PATH,
        Category.STATUS,
        "429 with Retry-After: 3600 (an hour).",
        (),
        RateLimited(retry_after="3600"),
    ),
)

# A third site for the external link budget (settings.EXTERNAL.budget_urls): its audit runs with
# a budget of EXTERNAL_BUDGET_URLS, and its start page links one more working external URL.
EXTERNAL_BUDGET_URLS = 2
EXTERNAL_BUDGET_FIXTURES: tuple[Fixture, ...] = (
    page(
        "/",
        Category.SITE,
        "The start page of the external-budget site: three working external links, one past "
        "the audit's budget of two.",
        (T.EXTERNAL_LINKS_UNCHECKED, *_PLAIN_HTTP_GRADE),
        linked_from_catalog=False,
        chrome=False,
        title="badseo: the external link budget",
        h1="External link budget",
        description="The start page of the external-budget badseo variant; it links three "
        "working pages of another site, one more than its audit may check.",
        body='<p><a href="{external}/landing">one</a>, <a href="{external}/landing?2">two</a>, '
        '<a href="{external}/landing?3">three</a>.</p>',
    ),
)

# Two sites for DNS (docs/external-links.md, "Our network is never the site's defect"). Their
# links to names that do not resolve are under `.invalid`, which tests/conftest.py answers as
# the platform answers an unknown name, so no DNS query leaves the machine; they cannot be on
# the main site, which the Pyodide tier audits with the real fetch.
#
# The no-DNS site is the README's first command on a machine without outside DNS: its pages
# link many host names, none resolves, and the audit must say once that the external checks
# could not run, stop them early, and call no link broken.
NO_DNS_NAMES = 24  # distinct host names the site links, more than one wave of checks
NO_DNS_LINKS_PER_NAME = 3
NO_DNS_PAGES = 2


def _no_dns_links(page: int) -> str:
    return "".join(
        f'<li><a href="https://site{n}.invalid/page{page}-{k}">site {n}, link {k}</a></li>'
        for n in range(NO_DNS_NAMES)
        for k in range(NO_DNS_LINKS_PER_NAME)
    )


NO_DNS_FIXTURES: tuple[Fixture, ...] = (
    page(
        "/",
        Category.SITE,
        "The start page of the no-DNS site: links to many other sites, none of whose names "
        "resolves here; the checks stop early and one note says why.",
        (T.EXTERNAL_LINKS_UNCHECKED, *_PLAIN_HTTP_GRADE),
        linked_from_catalog=False,
        chrome=False,
        title="badseo: external links without DNS",
        h1="External links without DNS",
        description="The start page of the no-DNS badseo variant; it links many pages of other "
        "sites whose names do not resolve where the audit runs.",
        body=f'<p><a href="/more-links">More links</a>.</p><ul>{_no_dns_links(0)}</ul>',
    ),
    page(
        "/more-links",
        Category.LINKS,
        "More links to other sites whose names do not resolve: no issue on this page.",
        linked_from_catalog=False,
        chrome=False,
        body=f"<ul>{_no_dns_links(1)}</ul>",
    ),
)

# The dead-name site: one name resolves (`localhost`, the site itself), so the name that does not
# resolve is the site's broken link.
DEAD_NAME_FIXTURES: tuple[Fixture, ...] = (
    page(
        "/",
        Category.SITE,
        "The start page of the dead-name site: one link to a name that resolves, one to a name "
        "that does not, which is broken.",
        (T.BROKEN_EXTERNAL_LINK, *_PLAIN_HTTP_GRADE),
        linked_from_catalog=False,
        chrome=False,
        title="badseo: a dead host name",
        h1="A dead host name",
        description="The start page of the dead-name badseo variant; one of its two external "
        "links names a host that does not exist.",
        body='<p>This site <a href="{named}/">by name</a>, and '
        '<a href="https://gone.invalid/">a site that is gone</a>.</p>',
    ),
)

# The template site (docs/scoring.md, "Findings: one per fix"): six pages from one template that
# forgets the viewport, served without a Content-Security-Policy or clickjacking protection. Its
# verdict must hold each fault as one finding, however many pages show it: the viewport as one
# site-wide finding of six pages, each missing header as the grade's test with the six pages' rows
# (counted once), and the headline must say why a good overall score sits beside grade F.
TEMPLATE_PAGES = 6
_TEMPLATE_HEADERS: Mapping[str, str | None] = {
    "content-security-policy": None,
    "x-frame-options": None,
}
_TEMPLATE_FAULTS = (
    T.MISSING_VIEWPORT,
    T.MISSING_OPEN_GRAPH,
    T.CSP_MISSING,
    T.FRAME_PROTECTION_MISSING,
)


def _template_page(n: int) -> Fixture:
    path = "/" if n == 0 else f"/article-{n}"
    nav = "".join(f'<a href="/article-{k}">article {k}</a> ' for k in range(1, TEMPLATE_PAGES))
    grade = (T.SECURITY_CSP, T.SECURITY_FRAME_OPTIONS, *_PLAIN_HTTP_GRADE) if n == 0 else ()
    return page(
        path,
        Category.SITE if n == 0 else Category.HEAD,
        "A page of the template site: its template has no viewport and no Open Graph tags, and "
        "the server sends no Content-Security-Policy and no clickjacking protection.",
        (*_TEMPLATE_FAULTS, *grade),
        linked_from_catalog=False,
        chrome=False,
        viewport=False,
        open_graph=False,
        headers=_TEMPLATE_HEADERS,
        title=f"badseo: the template site, page {n}",
        h1=f"The template site, page {n}",
        description=f"Page {n} of the template badseo variant, whose six pages share one template "
        "and one server configuration, and so their faults.",
        body=f'<p>{nav}<a href="/">home</a></p>',
    )


TEMPLATE_FIXTURES: tuple[Fixture, ...] = tuple(_template_page(n) for n in range(TEMPLATE_PAGES))

# A fourth site, slow as a whole: both pages wait SLOW_SITE_DELAY_S before their headers, so the
# site's median is over the threshold (one slow-site finding on the start page), and neither page
# exceeds the median by the threshold again (no slow-response).
SLOW_SITE_DELAY_S = 1.55  # over SLOW_RESPONSE_MS (1.5 s): a measurement never takes less
SLOW_SITE_FIXTURES: tuple[Fixture, ...] = (
    page(
        "/",
        Category.PERF,
        "The start page of the slow site: headers after 1.55 s, like its other page.",
        (T.SLOW_SITE, *_PLAIN_HTTP_GRADE),
        linked_from_catalog=False,
        chrome=False,
        title="badseo: the slow variant",
        h1="Slow site",
        description="The start page of the slow badseo variant; it and its only other page wait "
        "over a second and a half before answering.",
        body='<p>The only other page: <a href="/also-slow">as slow as this one</a>.</p>',
        delay_s=SLOW_SITE_DELAY_S,
    ),
    page(
        "/also-slow",
        Category.PERF,
        "The slow site's other page: headers after 1.55 s, as slow as the site, not slower.",
        linked_from_catalog=False,
        chrome=False,
        body='<p>Back to <a href="/">the start page</a>.</p>',
        delay_s=SLOW_SITE_DELAY_S,
    ),
)

# Issue types the catalogue has that no badseo site produces, and why. The four that need an
# https site (http-page-on-https-site, mixed-content, hsts-missing, hsts-too-short) are covered by
# the https variant (https_site.py, golden_https.json), so none is left.
UNCOVERED: Mapping[IssueType, str] = MappingProxyType({})

CLEAN_PATHS: frozenset[str] = frozenset(p for f in FIXTURES if not f.expected for p in f.paths)

_BY_PATH: Mapping[str, Fixture] = MappingProxyType({p: f for f in FIXTURES for p in f.paths})


def fixture_for(path: str) -> Fixture:
    return _BY_PATH[path]


def expected_issues(origin: str, fixtures: Sequence[Fixture] = FIXTURES) -> set[tuple[str, str]]:
    """(issue type, absolute page URL) for every issue the audit of the site must report."""
    return {
        (issue_type.value, origin + path)
        for fixture in fixtures
        for path in fixture.paths
        for issue_type in fixture.expected
    }


def sitemap_paths(fixtures: Sequence[Fixture] = FIXTURES) -> list[str]:
    return [p for f in fixtures if f.in_sitemap for p in f.paths]


# ------------------------------------------------------------------------------- server

Route = Callable[[SiteRequest], Reply | StreamReply]

ROBOTS_TXT = (
    "# badseo: siteaudit has its own group, so the * group does not apply to it (RFC 9309).\n"
    "User-agent: siteaudit\n"
    f"Disallow: {ROBOTS_DISALLOWED}\n"
    "\n"
    "User-agent: *\n"
    f"Disallow: {ROBOTS_DISALLOWED}\n"
    f"Disallow: {ROBOTS_OTHERS_ONLY}\n"
    "\n"
    "Sitemap: {origin}/sitemap.xml\n"
)


def _robots(request: SiteRequest) -> Reply:
    body = ROBOTS_TXT.replace("{origin}", origin_of(request)).encode()
    return Reply(200, body, {"content-type": "text/plain; charset=utf-8"})


def _sitemap(paths: list[str]) -> Route:
    def serve(request: SiteRequest) -> Reply:
        origin = origin_of(request)
        urls = "".join(f"<url><loc>{escape(origin + p)}</loc></url>" for p in paths)
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'
        ).encode()
        return Reply(200, body, {"content-type": "application/xml"})

    return serve


VENDOR_JS = (
    b"/*! jQuery v1.12.4 | (c) jQuery Foundation | jquery.org/license */\n"
    b"!function(a,b){'use strict';a.ready=!!b}(window,document);\n"
)
# Sub-resources pages refer to: checked once each (HEAD, GET where HEAD is refused), never
# crawled, so they are not fixtures. /assets/missing-* are not served at all (404).
ASSETS: Mapping[str, Handler] = MappingProxyType(
    {
        "/assets/pixel.png": Resource("image/png", PIXEL_PNG),
        "/assets/app.js": Resource("text/javascript", b"document.title = 'app';\n"),
        # jQuery 1.12.4's license banner (what retire.js's content patterns read), then filler:
        # a neutral name, so only the content tells (docs/exposure.md).
        "/assets/vendor.js": Resource("text/javascript", VENDOR_JS),
        # Served so the resource check finds it; the exposure check reads only its file name.
        "/assets/jquery-1.8.1.min.js": Resource("text/javascript", b"/* a stand-in */\n"),
        "/assets/clip.mp4": Resource("video/mp4", b"\x00\x00\x00\x18ftypmp42"),
        # Referenced by no page: the start URL of an audit that must fail as not HTML
        # (failing_sites.py).
        "/assets/style.css": Resource("text/css", b"body { margin: 0 }\n"),
        "/assets/head-refused.png": HeadRefused("image/png", PIXEL_PNG),
        "/assets/head-refused-gone.png": HeadRefused("text/html", b"<title>Gone</title>", 410),
        # A share image that is a page: 200, but text/html (broken-share-image).
        "/assets/share-page.png": Resource(HTML_TYPE, b"<title>Not an image</title>"),
    }
)


# The other site's check time limit in tests (settings.EXTERNAL.timeout_s), and how long its slow
# page takes: past the limit, so its link is reported unreachable, not broken.
EXTERNAL_TIMEOUT_S = 1.0
EXTERNAL_SLOW_DELAY_S = 2.5
EXTERNAL_LANDING = "/landing"


def _slow(delay_s: float) -> Route:
    def serve(request: SiteRequest) -> Reply:
        time.sleep(delay_s)
        return Reply(200, b"<title>Slow</title>")

    return serve


def external_routes(slow_delay_s: float = EXTERNAL_SLOW_DELAY_S) -> dict[str, Route]:
    """The other site: /missing is not served (404)."""
    return {
        "/moved": Redirect(301, EXTERNAL_LANDING),
        EXTERNAL_LANDING: Resource(HTML_TYPE, b"<title>Landing</title>"),
        "/slow": _slow(slow_delay_s),
        "/head-refused": HeadRefused(HTML_TYPE, b"<title>Works with GET</title>"),
    }


def routes(fixtures: Sequence[Fixture] = FIXTURES) -> dict[str, Route]:
    """A fresh route table: stateful handlers (the 429 counters) start over for every server."""
    table: dict[str, Route] = {
        "/robots.txt": _robots,
        "/sitemap.xml": _sitemap(sitemap_paths(fixtures)),
    }
    table.update(ASSETS)
    for fixture in fixtures:
        handler = fixture.handler.fresh()
        table.update(dict.fromkeys(fixture.paths, handler))
    return table


@dataclass(frozen=True, slots=True)
class BadSeoSite:
    site: Site
    external: Site  # the other site external links point at

    @property
    def origin(self) -> str:
        return self.site.origin

    def url(self, path: str) -> str:
        return self.site.url(path)

    @property
    def start_url(self) -> str:
        return self.url("/")

    def requested_paths(self) -> list[str]:
        return [request.path for request in self.site.requests]


@contextmanager
def serve_fixtures(fixtures: Sequence[Fixture]) -> Iterator[BadSeoSite]:
    """`fixtures` on 127.0.0.1 at a free port: threaded, HTTP/1.1 keep-alive, TCP_NODELAY; the
    other site (`external_routes`) on 127.0.0.2 at the same port."""
    with serve_site(dict(routes(fixtures))) as site:
        port = site.server.server_address[1]
        with serve_site(external_routes(), EXTERNAL_HOST, port) as external:
            yield BadSeoSite(site, external)


def serve_badseo() -> AbstractContextManager[BadSeoSite]:
    """The badseo site; its audit must report exactly `expected_issues(origin)` (golden.json)."""
    return serve_fixtures(FIXTURES)


def serve_external_budget() -> AbstractContextManager[BadSeoSite]:
    """The one-page site whose audit, at a budget of two external URLs, leaves one unchecked."""
    return serve_fixtures(EXTERNAL_BUDGET_FIXTURES)


def serve_no_dns() -> AbstractContextManager[BadSeoSite]:
    """The two-page site whose links all name hosts that do not resolve."""
    return serve_fixtures(NO_DNS_FIXTURES)


def serve_template() -> AbstractContextManager[BadSeoSite]:
    """The six-page site whose template and server configuration share their faults."""
    return serve_fixtures(TEMPLATE_FIXTURES)


def serve_dead_name() -> AbstractContextManager[BadSeoSite]:
    """The one-page site linking a name that resolves and one that does not."""
    return serve_fixtures(DEAD_NAME_FIXTURES)


def serve_slow_site() -> AbstractContextManager[BadSeoSite]:
    """The two-page site slow as a whole: one slow-site finding on its start page."""
    return serve_fixtures(SLOW_SITE_FIXTURES)


def serve_rate_limit_stop() -> AbstractContextManager[BadSeoSite]:
    """The two-page site whose crawl must stop with crawl-rate-limited on its start URL."""
    return serve_fixtures(RATE_LIMIT_STOP_FIXTURES)
