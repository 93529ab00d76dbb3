"""The per-page rules' input: one crawled URL as the fetcher saw it (original system §2.2, §4.7).

`PageObservation` carries the response facts the fetcher knows (status, timing, the headers rules
read) and, for HTML pages that were analysed, the extractor's `PageFacts`. The derived properties
are the original's crawlPage derivations (§6.1): indexability, effective canonical, H1 count...
so every rule reads them one way.
"""

from __future__ import annotations

from dataclasses import dataclass

from a11y.result import PageAccessibility
from audit.text import js_trim
from common.fetch_class import FetchClass
from common.wire import JsonRecord
from parse.facts import PageFacts
from structured.page import PageStructuredData
from urls.normalise import normalise_url

__all__ = ["PageObservation"]


@dataclass(frozen=True, slots=True)
class PageObservation(JsonRecord):
    url: str  # the normalised requested URL (the page row's url)
    final_url: str
    status_code: int  # 0 = network error
    fetch_class: FetchClass
    response_time_ms: int | None  # request start to headers of the last attempt
    content_type: str | None
    is_html: bool
    html_bytes: int  # whole body length as received, counted beyond the read cap
    x_robots_tag: str | None = None
    header_canonical: str | None = None  # target of `Link: <...>; rel="canonical"`, as sent
    strict_transport_security: str | None = None
    content_security_policy: str | None = None
    x_content_type_options: str | None = None
    x_frame_options: str | None = None
    referrer_policy: str | None = None
    redirect_url: str | None = None  # normalised Location of a 3xx
    crawl_depth: int | None = None  # None = reached only through the sitemap
    in_sitemap: bool = False
    site_is_https: bool = False  # the audit's resolved start URL is https
    facts: PageFacts | None = None
    # The page's JSON-LD checked (structured.page); None when it has no block that parsed.
    structured_data: PageStructuredData | None = None
    # The static accessibility rules' failures (a11y.result), with axe-core's merged in on a page
    # it ran on, rendered (a11y.merge); None when the rules did not run (not an HTML page that was
    # analysed).
    accessibility: PageAccessibility | None = None

    def __post_init__(self) -> None:
        if self.status_code < 0 or self.html_bytes < 0:
            raise ValueError("status_code and html_bytes must not be negative")

    # ------------------------------------------------------------------ serialisation

    # ------------------------------------------------------------------ derived (original §6.1)

    @property
    def robots_meta(self) -> str | None:
        """All `<meta name=robots>` contents joined; search engines combine several tags."""
        if self.facts is None or not self.facts.meta_robots:
            return None
        return ", ".join(self.facts.meta_robots)

    @property
    def is_indexable(self) -> bool:
        """No "noindex" in robots meta nor X-Robots-Tag (case-insensitive substring), §1.2."""
        return not any(
            "noindex" in value.lower() for value in (self.robots_meta, self.x_robots_tag) if value
        )

    @property
    def html_canonical(self) -> str | None:
        """The first `<link rel=canonical>`, resolved by the extractor and normalised."""
        if self.facts is None or not self.facts.canonicals:
            return None
        first = self.facts.canonicals[0].url
        return None if first is None else normalise_url(first)

    @property
    def normalized_header_canonical(self) -> str | None:
        if not self.header_canonical:
            return None
        return normalise_url(self.header_canonical, self.url)

    @property
    def effective_canonical(self) -> str | None:
        """HTML canonical, else the Link-header canonical, both normalised against the page URL."""
        return self.html_canonical or self.normalized_header_canonical

    @property
    def title(self) -> str:
        """The first title, trimmed the JavaScript way; "" when absent."""
        return js_trim(self.facts.titles[0]) if self.facts and self.facts.titles else ""

    @property
    def meta_description(self) -> str:
        if self.facts is None or not self.facts.meta_descriptions:
            return ""
        return js_trim(self.facts.meta_descriptions[0])

    @property
    def heading_levels(self) -> list[int]:
        return [] if self.facts is None else list(self.facts.heading_levels)

    @property
    def h1_count(self) -> int:
        """H1s with non-empty text: an empty `<h1></h1>` counts as missing (§1.2 step 16)."""
        if self.facts is None:
            return 0
        return sum(1 for h in self.facts.headings if h.level == 1 and js_trim(h.text))

    @property
    def word_count(self) -> int:
        return 0 if self.facts is None else self.facts.word_count

    @property
    def is_https(self) -> bool:
        return self.url.lower().startswith("https:")

    @property
    def is_ok_2xx_html(self) -> bool:
        """A readable HTML page: what content and field checks need."""
        return self.fetch_class == FetchClass.OK and 200 <= self.status_code < 300 and self.is_html
