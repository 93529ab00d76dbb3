"""The issue catalogue, as data.

Every issue the audit can report has one `IssueDescriptor`: its id, severity, scope, the texts the
UI, MCP tools and CSV export show, the trigger in one line, and the thresholds it uses together with
where each number comes from. Rules import the threshold constants defined here, so a number lives
in exactly one place and docs/issues.md is rendered from the same data
(`python -m audit.catalogue --markdown > docs/issues.md`).

Theory of operation
-------------------
* The first block reproduces the original's newest registry (docs/original-system.md §1.5) with
  its thresholds (§1.2) and severities, plus the branch-only invalid-structured-data check, which
  the JSON-LD summary of our extractor makes decidable.
* The second block adds other tools' crawl-decidable checks the original lacks (docs/field.md §1.3,
  §2.1, §3.1). Severity follows one policy, stated in each explanation:
  - critical: the page (or the link to it) cannot serve its purpose: blocked, erroring, untitled,
    or pointing readers and search engines at an error;
  - warning: a search engine or browser is likely to treat the page worse than its owner intends;
  - info: best practice, hygiene, or frequently intentional.
* Unknown ids resolve to no descriptor (`maybe_descriptor`), as in the original (§1.1), because
  stored audits may carry ids from older or newer catalogues.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from audit.a11y_catalogue import (
    AXE_VERSION,
    RENDERED_RULE_TEXTS,
    RULE_TEXTS,
    WCAG_CRITERIA,
    RuleText,
    understanding_url,
)
from audit.severity import Severity  # its own module, for the CLI's start-up; named here too

__all__ = [
    "CATALOGUE",
    "Category",
    "IssueDescriptor",
    "IssueType",
    "Scope",
    "Severity",
    "Threshold",
    "descriptor",
    "doc_url",
    "maybe_descriptor",
    "render_markdown",
    "severity_of",
]


class Scope(StrEnum):
    PAGE = "page"  # a pure function of one crawled page
    CROSS_PAGE = "cross-page"  # needs several pages of the audit (duplicates, links, redirects)
    SITE = "site"  # one extra request about the site (robots.txt, /llms.txt, ...)
    CRAWL = "crawl"  # about the crawl run itself
    LIGHTHOUSE = "lighthouse"  # a sampled page's Lighthouse runs (lighthouse.vitals)
    # axe-core on a page a browser rendered (a11y.axe): decided only on the pages it ran on, the
    # first workflow.render_step.AXE_PAGES rendered; a page not rendered was not checked
    RENDERED = "rendered"


class Category(StrEnum):
    """What part of the site an issue is about: the report groups findings and scores by it
    (docs/scoring.md)."""

    CRAWLABILITY = "crawlability"  # crawlability and links: can pages be reached and indexed
    ON_PAGE = "on-page"  # on-page SEO: titles, descriptions, headings, head tags
    CONTENT = "content"  # thin and duplicate content
    SECURITY = "security"  # transport, headers, the security grade, exposure
    PERFORMANCE = "performance"  # response times, page weight, Lighthouse and Core Web Vitals
    ACCESSIBILITY = "accessibility"  # the static rules and axe-core on rendered pages (issue 31)

    @property
    def label(self) -> str:
        """The category's name in reports."""
        return _CATEGORY_LABELS[self]


_CATEGORY_LABELS = {
    Category.CRAWLABILITY: "Crawlability and links",
    Category.ON_PAGE: "On-page SEO",
    Category.CONTENT: "Content",
    Category.SECURITY: "Security",
    Category.PERFORMANCE: "Performance",
    Category.ACCESSIBILITY: "Accessibility",
}


class IssueType(StrEnum):
    # --- original system, newest registry (docs/original-system.md §1.5) ---
    BLOCKED_PAGE = "blocked-page"
    RATE_LIMITED_PAGE = "rate-limited-page"
    SERVER_ERROR = "server-error"
    BROKEN_PAGE = "broken-page"
    SLOW_RESPONSE = "slow-response"
    NOINDEX_PAGE = "noindex-page"
    CANONICAL_CONFLICT = "canonical-conflict"
    CANONICALIZED_PAGE = "canonicalized-page"
    DEEP_PAGE = "deep-page"
    JAVASCRIPT_RENDERING_SUSPECTED = "javascript-rendering-suspected"
    MISSING_TITLE = "missing-title"
    TITLE_TOO_LONG = "title-too-long"
    TITLE_TOO_SHORT = "title-too-short"
    MISSING_META_DESCRIPTION = "missing-meta-description"
    META_DESCRIPTION_TOO_LONG = "meta-description-too-long"
    META_DESCRIPTION_TOO_SHORT = "meta-description-too-short"
    MISSING_H1 = "missing-h1"
    MULTIPLE_H1 = "multiple-h1"
    HEADING_ORDER_SKIP = "heading-order-skip"
    THIN_CONTENT = "thin-content"
    IMAGES_MISSING_ALT = "images-missing-alt"
    NO_OUTGOING_LINKS = "no-outgoing-links"
    DUPLICATE_TITLE = "duplicate-title"
    DUPLICATE_META_DESCRIPTION = "duplicate-meta-description"
    DUPLICATE_CONTENT = "duplicate-content"
    REDIRECT_CHAIN = "redirect-chain"
    REDIRECT_LOOP = "redirect-loop"
    BROKEN_INTERNAL_LINK = "broken-internal-link"
    ORPHAN_PAGE = "orphan-page"
    CRAWL_RATE_LIMITED = "crawl-rate-limited"
    SITE_STOPPED_RESPONDING = "site-stopped-responding"  # issue 24: the crawl's own verdict
    # --- original system, branch-only (§1.2), decidable from the extractor's JSON-LD summary.
    # jsonld-not-linked-graph is not: the summary has no top-level node count, @graph or @id
    # references, so it is left out rather than approximated. ---
    INVALID_STRUCTURED_DATA = "invalid-structured-data"
    # --- field checks: per page (docs/field.md §1.3, §2.1) ---
    HTTP_PAGE_ON_HTTPS_SITE = "http-page-on-https-site"
    HTML_TOO_LARGE = "html-too-large"
    MULTIPLE_TITLES = "multiple-titles"
    MULTIPLE_META_DESCRIPTIONS = "multiple-meta-descriptions"
    MULTIPLE_CANONICALS = "multiple-canonicals"
    RELATIVE_CANONICAL = "relative-canonical"
    META_REFRESH = "meta-refresh"
    MISSING_HTML_LANG = "missing-html-lang"
    MISSING_VIEWPORT = "missing-viewport"
    IMAGES_MISSING_DIMENSIONS = "images-missing-dimensions"
    INTERNAL_NOFOLLOW_LINKS = "internal-nofollow-links"
    MIXED_CONTENT = "mixed-content"
    INSECURE_FORM_ACTION = "insecure-form-action"
    # --- sharing tags: Open Graph and X cards, per page (issue 32, audit.rules_social) ---
    MISSING_OPEN_GRAPH = "missing-open-graph"
    EMPTY_SOCIAL_TAG = "empty-social-tag"
    RELATIVE_SOCIAL_URL = "relative-social-url"
    OG_URL_NOT_CANONICAL = "og-url-not-canonical"
    INVALID_TWITTER_CARD = "invalid-twitter-card"
    TWITTER_CARD_INCOMPLETE = "twitter-card-incomplete"
    # --- field checks: security headers on HTML pages (docs/field.md §3.1, Observatory) ---
    HSTS_MISSING = "hsts-missing"
    HSTS_TOO_SHORT = "hsts-too-short"
    CONTENT_TYPE_OPTIONS_MISSING = "content-type-options-missing"
    CSP_MISSING = "csp-missing"
    FRAME_PROTECTION_MISSING = "frame-protection-missing"
    # --- field checks: cross-page (docs/field.md §1.3, §2.1, §6) ---
    CANONICAL_TO_BROKEN = "canonical-to-broken"
    CANONICAL_TO_REDIRECT = "canonical-to-redirect"
    CANONICAL_TO_NOINDEX = "canonical-to-noindex"
    HREFLANG_MISSING_RETURN_LINK = "hreflang-missing-return-link"
    LINK_TO_REDIRECT = "link-to-redirect"
    BROKEN_FRAGMENT = "broken-fragment"
    BROKEN_RESOURCE = "broken-resource"
    BROKEN_SHARE_IMAGE = "broken-share-image"
    # --- external links, with the `check_external` option (docs/external-links.md) ---
    BROKEN_EXTERNAL_LINK = "broken-external-link"
    EXTERNAL_REDIRECT = "external-redirect"
    EXTERNAL_LINK_UNREACHABLE = "external-link-unreachable"
    EXTERNAL_LINKS_UNCHECKED = "external-links-unchecked"
    SITEMAP_URL_BROKEN = "sitemap-url-broken"
    SITEMAP_URL_REDIRECT = "sitemap-url-redirect"
    SITEMAP_URL_NOINDEX = "sitemap-url-noindex"
    SITEMAP_URL_BLOCKED = "sitemap-url-blocked"
    # --- response times measured again after the crawl (docs/timing.md) ---
    SLOW_SITE = "slow-site"
    # --- the start URL's security grade: one per HTTP Observatory test (docs/security.md) ---
    SECURITY_CSP = "security-csp"
    SECURITY_COOKIES = "security-cookies"
    SECURITY_CORS = "security-cors"
    SECURITY_REDIRECTION = "security-redirection"
    SECURITY_REFERRER_POLICY = "security-referrer-policy"
    SECURITY_HSTS = "security-hsts"
    SECURITY_SRI = "security-sri"
    SECURITY_CONTENT_TYPE_OPTIONS = "security-x-content-type-options"
    SECURITY_FRAME_OPTIONS = "security-x-frame-options"
    SECURITY_CORP = "security-corp"
    SECURITY_COOP = "security-coop"
    SECURITY_COEP = "security-coep"
    # --- the exposure checks beyond the Observatory (docs/exposure.md) ---
    EXPOSURE_VULNERABLE_JS_LIBRARY = "exposure-vulnerable-js-library"
    EXPOSURE_VERSION_DISCLOSED = "exposure-version-disclosed"
    EXPOSURE_SPF_MISSING = "exposure-spf-missing"
    EXPOSURE_SPF_INVALID = "exposure-spf-invalid"
    EXPOSURE_SPF_PERMISSIVE = "exposure-spf-permissive"
    EXPOSURE_DMARC_MISSING = "exposure-dmarc-missing"
    EXPOSURE_DMARC_POLICY_NONE = "exposure-dmarc-policy-none"
    EXPOSURE_DMARC_NO_REPORTS = "exposure-dmarc-no-reports"
    EXPOSURE_DMARC_PARTIAL = "exposure-dmarc-partial"
    EXPOSURE_MTA_STS_MISSING = "exposure-mta-sts-missing"
    EXPOSURE_CAA_MISSING = "exposure-caa-missing"
    EXPOSURE_DNSSEC_NOT_VALIDATED = "exposure-dnssec-not-validated"
    EXPOSURE_DNS_UNCHECKED = "exposure-dns-unchecked"
    # --- Lighthouse on the sampled pages: lab (the run) and field (CrUX), docs/lighthouse.md ---
    LIGHTHOUSE_POOR_PERFORMANCE = "lighthouse-poor-performance"
    LAB_POOR_LCP = "lab-poor-lcp"
    LAB_POOR_INP = "lab-poor-inp"
    LAB_POOR_CLS = "lab-poor-cls"
    FIELD_POOR_LCP = "field-poor-lcp"
    FIELD_POOR_INP = "field-poor-inp"
    FIELD_POOR_CLS = "field-poor-cls"
    # --- raw HTML against the rendered page (issue 30, audit.rendering_rules, docs/rendering.md) ---
    CONTENT_ONLY_AFTER_SCRIPT = "content-only-after-script"
    LINKS_ONLY_AFTER_SCRIPT = "links-only-after-script"
    TITLE_CHANGED_BY_SCRIPT = "title-changed-by-script"
    META_DESCRIPTION_CHANGED_BY_SCRIPT = "meta-description-changed-by-script"
    CANONICAL_ADDED_BY_SCRIPT = "canonical-added-by-script"
    CANONICAL_CHANGED_BY_SCRIPT = "canonical-changed-by-script"
    NOINDEX_ADDED_BY_SCRIPT = "noindex-added-by-script"
    NOINDEX_REMOVED_BY_SCRIPT = "noindex-removed-by-script"
    ROBOTS_CHANGED_BY_SCRIPT = "robots-changed-by-script"
    UNCAUGHT_EXCEPTION_DURING_LOAD = "uncaught-exception-during-load"
    CONSOLE_ERROR_DURING_LOAD = "console-error-during-load"
    RESOURCES_BLOCKED_BY_ROBOTS = "resources-blocked-by-robots"
    SOFT_404 = "soft-404"
    RENDERING_NOT_DONE = "rendering-not-done"
    # --- a page's JSON-LD, Microdata and RDFa against schema.org and Google's rich results (issue 32,
    # audit.rules_structured, docs/structured-data.md) ---
    STRUCTURED_DATA_UNKNOWN_TYPE = "structured-data-unknown-type"
    STRUCTURED_DATA_UNKNOWN_PROPERTY = "structured-data-unknown-property"
    STRUCTURED_DATA_WRONG_VOCABULARY = "structured-data-wrong-vocabulary"
    STRUCTURED_DATA_PROPERTY_NOT_ON_TYPE = "structured-data-property-not-on-type"
    STRUCTURED_DATA_INVALID_VALUE = "structured-data-invalid-value"
    STRUCTURED_DATA_TEXT_FOR_THING = "structured-data-text-for-thing"
    STRUCTURED_DATA_DEPRECATED_TERM = "structured-data-deprecated-term"
    RICH_RESULT_MISSING_REQUIRED = "rich-result-missing-required"
    RICH_RESULT_MISSING_RECOMMENDED = "rich-result-missing-recommended"
    STRUCTURED_DATA_UNCHECKED = "structured-data-unchecked"
    # --- the static accessibility rules, one per axe-core rule (issue 31, audit.rules_a11y,
    # audit.a11y_catalogue, docs/accessibility.md) ---
    A11Y_IMAGE_ALT = "a11y-image-alt"
    A11Y_INPUT_IMAGE_ALT = "a11y-input-image-alt"
    A11Y_AREA_ALT = "a11y-area-alt"
    A11Y_OBJECT_ALT = "a11y-object-alt"
    A11Y_SVG_IMG_ALT = "a11y-svg-img-alt"
    A11Y_ROLE_IMG_ALT = "a11y-role-img-alt"
    A11Y_BUTTON_NAME = "a11y-button-name"
    A11Y_INPUT_BUTTON_NAME = "a11y-input-button-name"
    A11Y_LINK_NAME = "a11y-link-name"
    A11Y_LABEL = "a11y-label"
    A11Y_SELECT_NAME = "a11y-select-name"
    A11Y_FORM_FIELD_MULTIPLE_LABELS = "a11y-form-field-multiple-labels"
    A11Y_FRAME_TITLE = "a11y-frame-title"
    A11Y_DOCUMENT_TITLE = "a11y-document-title"
    A11Y_HTML_HAS_LANG = "a11y-html-has-lang"
    A11Y_HTML_LANG_VALID = "a11y-html-lang-valid"
    A11Y_VALID_LANG = "a11y-valid-lang"
    A11Y_HTML_XML_LANG_MISMATCH = "a11y-html-xml-lang-mismatch"
    A11Y_DUPLICATE_ID_ARIA = "a11y-duplicate-id-aria"
    A11Y_ARIA_VALID_ATTR = "a11y-aria-valid-attr"
    A11Y_ARIA_VALID_ATTR_VALUE = "a11y-aria-valid-attr-value"
    A11Y_ARIA_ROLES = "a11y-aria-roles"
    A11Y_ARIA_ALLOWED_ATTR = "a11y-aria-allowed-attr"
    A11Y_ARIA_REQUIRED_ATTR = "a11y-aria-required-attr"
    A11Y_ARIA_REQUIRED_CHILDREN = "a11y-aria-required-children"
    A11Y_ARIA_REQUIRED_PARENT = "a11y-aria-required-parent"
    A11Y_ARIA_HIDDEN_BODY = "a11y-aria-hidden-body"
    A11Y_PRESENTATION_ROLE_CONFLICT = "a11y-presentation-role-conflict"
    A11Y_NESTED_INTERACTIVE = "a11y-nested-interactive"
    A11Y_META_REFRESH = "a11y-meta-refresh"
    A11Y_META_VIEWPORT = "a11y-meta-viewport"
    A11Y_LIST = "a11y-list"
    A11Y_LISTITEM = "a11y-listitem"
    A11Y_DEFINITION_LIST = "a11y-definition-list"
    A11Y_DLITEM = "a11y-dlitem"
    A11Y_TD_HEADERS_ATTR = "a11y-td-headers-attr"
    A11Y_TH_HAS_DATA_CELLS = "a11y-th-has-data-cells"
    A11Y_SCOPE_ATTR_VALID = "a11y-scope-attr-valid"
    A11Y_TABINDEX = "a11y-tabindex"
    A11Y_ACCESSKEYS = "a11y-accesskeys"
    A11Y_SERVER_SIDE_IMAGE_MAP = "a11y-server-side-image-map"
    A11Y_MARQUEE = "a11y-marquee"
    A11Y_BLINK = "a11y-blink"
    A11Y_EMPTY_HEADING = "a11y-empty-heading"
    A11Y_HEADING_ORDER = "a11y-heading-order"
    A11Y_PAGE_HAS_HEADING_ONE = "a11y-page-has-heading-one"
    A11Y_LANDMARK_ONE_MAIN = "a11y-landmark-one-main"
    A11Y_AUTOCOMPLETE_VALID = "a11y-autocomplete-valid"
    # --- the rules only axe-core decides, on a rendered page (issue 31 item 2; a11y.axe,
    # a11y.rule_ids.RenderedRuleId): decided on the pages axe-core ran on, no other ---
    A11Y_ARIA_BRAILLE_EQUIVALENT = "a11y-aria-braille-equivalent"
    A11Y_ARIA_COMMAND_NAME = "a11y-aria-command-name"
    A11Y_ARIA_CONDITIONAL_ATTR = "a11y-aria-conditional-attr"
    A11Y_ARIA_DEPRECATED_ROLE = "a11y-aria-deprecated-role"
    A11Y_ARIA_HIDDEN_FOCUS = "a11y-aria-hidden-focus"
    A11Y_ARIA_INPUT_FIELD_NAME = "a11y-aria-input-field-name"
    A11Y_ARIA_METER_NAME = "a11y-aria-meter-name"
    A11Y_ARIA_PROGRESSBAR_NAME = "a11y-aria-progressbar-name"
    A11Y_ARIA_PROHIBITED_ATTR = "a11y-aria-prohibited-attr"
    A11Y_ARIA_ROLEDESCRIPTION = "a11y-aria-roledescription"
    A11Y_ARIA_TAB_NAME = "a11y-aria-tab-name"
    A11Y_ARIA_TOGGLE_FIELD_NAME = "a11y-aria-toggle-field-name"
    A11Y_ARIA_TOOLTIP_NAME = "a11y-aria-tooltip-name"
    A11Y_AUDIO_CAPTION = "a11y-audio-caption"
    A11Y_AVOID_INLINE_SPACING = "a11y-avoid-inline-spacing"
    A11Y_BYPASS = "a11y-bypass"
    A11Y_COLOR_CONTRAST = "a11y-color-contrast"
    A11Y_CSS_ORIENTATION_LOCK = "a11y-css-orientation-lock"
    A11Y_FRAME_FOCUSABLE_CONTENT = "a11y-frame-focusable-content"
    A11Y_FRAME_TITLE_UNIQUE = "a11y-frame-title-unique"
    A11Y_LABEL_CONTENT_NAME_MISMATCH = "a11y-label-content-name-mismatch"
    A11Y_LINK_IN_TEXT_BLOCK = "a11y-link-in-text-block"
    A11Y_NO_AUTOPLAY_AUDIO = "a11y-no-autoplay-audio"
    A11Y_P_AS_HEADING = "a11y-p-as-heading"
    A11Y_SCROLLABLE_REGION_FOCUSABLE = "a11y-scrollable-region-focusable"
    A11Y_SUMMARY_NAME = "a11y-summary-name"
    A11Y_TABLE_FAKE_CAPTION = "a11y-table-fake-caption"
    A11Y_TD_HAS_HEADER = "a11y-td-has-header"
    A11Y_TARGET_SIZE = "a11y-target-size"
    A11Y_VIDEO_CAPTION = "a11y-video-caption"

    @property
    def severity(self) -> Severity:
        return CATALOGUE[self].severity

    @property
    def category(self) -> Category:
        return CATALOGUE[self].category


# --- Threshold constants. Rules import these; descriptors below cite them. ---

_ORIG_PAGE = "original system §1.2"
_CWV = "web.dev Core Web Vitals"
_ORIG_CROSS = "original system §1.3"
_ORIG_ANALYZER = "original system §6.1"
_JS_SEO = "Google Search Central, JavaScript SEO basics"

TITLE_MAX_CHARS = 60
TITLE_MIN_CHARS = 10
META_DESCRIPTION_MAX_CHARS = 160
META_DESCRIPTION_MIN_CHARS = 70
THIN_CONTENT_WORDS = 150
SLOW_RESPONSE_MS = 1500
DEEP_PAGE_DEPTH = 5
SERVER_ERROR_STATUS = 500
CLIENT_ERROR_STATUS = 400
DUPLICATE_GROUP_SAMPLE = 3
REDIRECT_CHAIN_MIN_URLS = 3  # a hop list of > 2 URLs = two consecutive redirects before content
JS_SHELL_MAX_WORDS = 20
HEADING_MAX_STEP = 1
# Semrush flags "HTML larger than 2 MB". We read MB as MiB: Googlebot documents its fetch limits in
# binary units, and the difference (~5 %) never decides a real page.
HTML_MAX_BYTES = 2 * 1024 * 1024
# The Observatory's HSTS floor: 0 points at >= 6 months, -10 below (docs/field.md §3.1).
HSTS_MIN_MAX_AGE_S = 15_768_000
# Lighthouse colours a category score of 0-49 red ("poor"); Google's Core Web Vitals call a page
# "poor" beyond these, at the 75th percentile of visits (web.dev/articles/vitals). CLS is unitless:
# its threshold is kept in hundredths so every threshold stays an integer.
POOR_PERFORMANCE_SCORE = 50
POOR_LCP_MS = 4000
POOR_INP_MS = 500
POOR_CLS_HUNDREDTHS = 25
# A site that stops answering part-way (crawl.site_health). The breaker: this many page fetches in
# a row with no answer at all, none answered in between, stop the crawl. Twice the crawl window's
# starting size (10, crawl.window): a site that is down fails every fetch in flight at once, so a
# whole window fails together; two windows without one answer between them is no longer a few
# slow pages, and at the default 15 s timeout the crawl stops within about half a minute instead
# of spending max_pages timeouts. Past the breaker, more than half of the crawl's page fetches
# without an answer also make the finding: most of the site did not answer.
SITE_DOWN_STREAK = 20
SITE_DOWN_SHARE_PERCENT = 50
# Raw against rendered (audit.rendering_rules). Content only after script: the rendered page has
# at least JS_SHELL_MAX_WORDS words (fewer is little text either way) and the raw HTML at most this
# share of its word count, so at least four words in five appear only after script.
CONTENT_AFTER_SCRIPT_MAX_RAW_PERCENT = 20
# Links only after script: how many of them the finding lists, enough to recognise which part of
# the page script builds (a menu, a product list) without storing every link of a large page.
SCRIPT_LINK_SAMPLE = 5
# Structured data (audit.rules_structured): how many findings one issue lists, each with its
# property path; the detail also counts them all. Enough to show a template's faults.
STRUCTURED_FINDINGS_LISTED = 20
# Accessibility (audit.rules_a11y): how many failing elements one issue lists, each with its CSS
# selector and HTML snippet; the detail also counts them all. A template's fault repeats the same
# element on every page, and twenty show the pattern of a page's own faults.
A11Y_ELEMENTS_LISTED = 20


@dataclass(frozen=True, slots=True)
class Threshold:
    """One number a rule compares against, with its unit and where the number comes from."""

    name: str
    value: int
    unit: str
    source: str

    def render(self) -> str:
        return f"{self.name} = {self.value:,} {self.unit} ({self.source})"


@dataclass(frozen=True, slots=True)
class IssueDescriptor:
    """Everything the product says about one issue type."""

    id: IssueType
    severity: Severity
    scope: Scope
    title: str
    trigger: str
    explanation: str
    how_to_fix: str
    source: str
    thresholds: tuple[Threshold, ...] = ()
    category: Category = field(kw_only=True)

    def __post_init__(self) -> None:
        if not (self.title and self.trigger and self.explanation and self.how_to_fix):
            raise ValueError(f"{self.id}: descriptor texts must not be empty")


def _t(name: str, value: int, unit: str, source: str) -> Threshold:
    return Threshold(name, value, unit, source)


_TITLE_MAX = _t("TITLE_MAX_CHARS", TITLE_MAX_CHARS, "UTF-16 code units", _ORIG_PAGE)
_TITLE_MIN = _t("TITLE_MIN_CHARS", TITLE_MIN_CHARS, "UTF-16 code units", _ORIG_PAGE)
_DESC_MAX = _t(
    "META_DESCRIPTION_MAX_CHARS", META_DESCRIPTION_MAX_CHARS, "UTF-16 code units", _ORIG_PAGE
)
_DESC_MIN = _t(
    "META_DESCRIPTION_MIN_CHARS", META_DESCRIPTION_MIN_CHARS, "UTF-16 code units", _ORIG_PAGE
)
_SAMPLE = _t("DUPLICATE_GROUP_SAMPLE", DUPLICATE_GROUP_SAMPLE, "other URLs listed", _ORIG_CROSS)
_CLIENT_ERROR = _t("CLIENT_ERROR_STATUS", CLIENT_ERROR_STATUS, "HTTP status", "RFC 9110 §15.5")

_D = IssueDescriptor
_CRIT, _WARN, _INFO = Severity.CRITICAL, Severity.WARNING, Severity.INFO
_PAGE, _CROSS, _CRAWL, _SITE = Scope.PAGE, Scope.CROSS_PAGE, Scope.CRAWL, Scope.SITE
_LH = Scope.LIGHTHOUSE
_LINKS, _ONPAGE, _CONTENT = Category.CRAWLABILITY, Category.ON_PAGE, Category.CONTENT
_SEC, _PERF = Category.SECURITY, Category.PERFORMANCE
_SCHEMA_VALIDATOR = "Schema Markup Validator (https://validator.schema.org/)"
_RICH_RESULTS = "Google Search Central, structured data feature guides"
_FINDINGS_LISTED = _t(
    "STRUCTURED_FINDINGS_LISTED", STRUCTURED_FINDINGS_LISTED, "findings listed", "siteaudit"
)

_DESCRIPTORS: tuple[IssueDescriptor, ...] = (
    # ------------------------------------------------------------------ original: per page
    _D(
        IssueType.BLOCKED_PAGE,
        _CRIT,
        _PAGE,
        "Page blocked the crawler",
        "fetch classified blocked: 401/403/202, cf-mitigated header, or a challenge page",
        "The server answered with an access wall instead of the page. Search engines often meet "
        "the same wall, and nothing else about the page can be checked. Critical because the "
        "page is unreachable for the audit and possibly for search engines.",
        "Allow the audit's user agent (and search engine bots) through the firewall or bot "
        "protection, or add a crawler-access rule for this site.",
        "original system §1.2 step 1, §4.7",
        category=_LINKS,
    ),
    _D(
        IssueType.RATE_LIMITED_PAGE,
        _WARN,
        _PAGE,
        "Page rate-limited the crawler",
        "final status 429 after the crawler's retries",
        "The server kept answering 429 Too Many Requests. The page exists but could not be "
        "audited. Warning, not critical: the limit usually targets the crawl rate, not visitors.",
        "Raise the rate limit for the audit's user agent, or re-run the audit at a quieter time.",
        "original system §1.2 step 2",
        category=_LINKS,
    ),
    _D(
        IssueType.SERVER_ERROR,
        _CRIT,
        _PAGE,
        "Server error (5xx)",
        "status >= 500",
        "The server failed to produce the page. Visitors see an error and search engines slow "
        "their crawling and eventually drop the URL. Critical because the page is down.",
        "Check the server logs for this URL and fix the failing handler or upstream.",
        "original system §1.2 step 4",
        (_t("SERVER_ERROR_STATUS", SERVER_ERROR_STATUS, "HTTP status", "RFC 9110 §15.6"),),
        category=_LINKS,
    ),
    _D(
        IssueType.BROKEN_PAGE,
        _WARN,
        _PAGE,
        "Broken page (4xx)",
        "400 <= status < 500",
        "The URL answers with a client error such as 404 Not Found. Warning: a missing page is "
        "sometimes intended; what hurts is linking to it (see broken-internal-link).",
        "Restore the page, redirect the URL to its replacement, or remove links and sitemap "
        "entries that point at it.",
        "original system §1.2 step 5",
        (_CLIENT_ERROR,),
        category=_LINKS,
    ),
    _D(
        IssueType.SLOW_RESPONSE,
        _INFO,
        _CROSS,
        "Slow server response",
        "time to the response headers > 1500 ms in the crawl and again when measured after it "
        "with at most 2 requests in flight; on a site slow as a whole (slow-site), > 1500 ms "
        "beyond the site's median",
        "The server took long to start answering this page, measured twice: once while crawling "
        "and once more after the crawl, quietly, so the crawl's own load is not counted as the "
        "site's slowness (docs/timing.md). Slow responses reduce how much of the site search "
        "engines crawl and delay every visit. Info: measured from one location.",
        "Cache the page, speed up the database or backend work behind it, or use a CDN.",
        "original system §1.2 step 7; measured again: docs/timing.md",
        (_t("SLOW_RESPONSE_MS", SLOW_RESPONSE_MS, "ms", _ORIG_PAGE),),
        category=_PERF,
    ),
    _D(
        IssueType.SLOW_SITE,
        _WARN,
        _SITE,
        "Whole site responds slowly",
        "the median time to the response headers of the site's shallowest pages (up to 9), "
        "measured after the crawl with at most 2 requests in flight, > 1500 ms",
        "The server is slow to start answering on most pages, not on a few: one finding for the "
        "site instead of one per page (pages far slower still get slow-response). Warning: "
        "every visit and every crawl of the site waits.",
        "Look at what every page shares: hosting capacity, the application server, a database "
        "or a plugin on every request; add caching or a CDN in front of the site.",
        "original system §1.2 step 7 (its threshold); docs/timing.md",
        (_t("SLOW_RESPONSE_MS", SLOW_RESPONSE_MS, "ms", _ORIG_PAGE),),
        category=_PERF,
    ),
    _D(
        IssueType.NOINDEX_PAGE,
        _INFO,
        _PAGE,
        "Page is noindex",
        "'noindex' in the robots meta tag or the X-Robots-Tag header (case-insensitive)",
        "The page asks search engines not to index it. Info: usually deliberate (search "
        "results, carts, thank-you pages), but worth checking on pages that should rank.",
        "Remove the noindex directive if the page should appear in search results.",
        "original system §1.2 step 9",
        category=_LINKS,
    ),
    _D(
        IssueType.CANONICAL_CONFLICT,
        _WARN,
        _PAGE,
        "HTML and HTTP canonicals disagree",
        "<link rel=canonical> and the Link: rel=canonical header both present and different",
        "The page names two different canonical URLs. Search engines may ignore both. Warning "
        "because the owner's de-duplication intent is lost.",
        "Keep one canonical declaration, or make the HTML and header values identical.",
        "original system §1.2 step 10",
        category=_LINKS,
    ),
    _D(
        IssueType.CANONICALIZED_PAGE,
        _INFO,
        _PAGE,
        "Page is canonicalized elsewhere",
        "effective canonical (HTML, else header; resolved against the page URL) != page URL",
        "The page declares another URL as its canonical, so search engines index that one "
        "instead. Info: the normal way to consolidate variants.",
        "Nothing to do if intended; otherwise point the canonical at the page itself.",
        "original system §1.2 step 11",
        category=_LINKS,
    ),
    _D(
        IssueType.DEEP_PAGE,
        _INFO,
        _PAGE,
        "Page is deep in the site",
        "crawl depth (clicks from the start URL) >= 5",
        "Pages many clicks from the start page get less internal link weight and are crawled "
        "less often. Info: a structural hint, not an error.",
        "Link the page from a hub, category or navigation page closer to the start URL.",
        "original system §1.2 step 12",
        (_t("DEEP_PAGE_DEPTH", DEEP_PAGE_DEPTH, "clicks", _ORIG_PAGE),),
        category=_LINKS,
    ),
    _D(
        IssueType.JAVASCRIPT_RENDERING_SUSPECTED,
        _WARN,
        _PAGE,
        "Page needs JavaScript to show content",
        "executable script, < 20 words, no headings, links or images (the original's app-root "
        "test is not available from PageFacts)",
        "The HTML is an empty application shell; its content appears only after JavaScript "
        "runs. Content checks are skipped. Warning: crawlers that do not render see an empty page.",
        "Server-render or pre-render the page, or re-run the audit with JavaScript rendering.",
        "original system §1.2 step 13, §6.1",
        (_t("JS_SHELL_MAX_WORDS", JS_SHELL_MAX_WORDS, "words", _ORIG_ANALYZER),),
        category=_LINKS,
    ),
    _D(
        IssueType.MISSING_TITLE,
        _CRIT,
        _PAGE,
        "Missing title",
        "no <title>, or a title that is empty after trimming",
        "The title is the headline of the search result and the browser tab. Without one, "
        "search engines invent a title. Critical because every indexable page needs one.",
        "Add a unique, descriptive <title> to the page's <head>.",
        "original system §1.2 step 14",
        category=_ONPAGE,
    ),
    _D(
        IssueType.TITLE_TOO_LONG,
        _INFO,
        _PAGE,
        "Title too long",
        "trimmed title length > 60",
        "Search results truncate long titles. Info: truncation is cosmetic.",
        "Shorten the title to about 60 characters, key words first.",
        "original system §1.2 step 14",
        (_TITLE_MAX,),
        category=_ONPAGE,
    ),
    _D(
        IssueType.TITLE_TOO_SHORT,
        _INFO,
        _PAGE,
        "Title too short",
        "trimmed title length < 10",
        "A very short title says little about the page. Info: legitimate for brand pages.",
        "Write a title that describes the page's content.",
        "original system §1.2 step 14",
        (_TITLE_MIN,),
        category=_ONPAGE,
    ),
    _D(
        IssueType.MISSING_META_DESCRIPTION,
        _WARN,
        _PAGE,
        "Missing meta description",
        "no <meta name=description>, or empty content",
        "Search engines show a snippet picked from the page instead of a summary you wrote. "
        "Warning: it affects click-through, not indexing.",
        'Add a <meta name="description"> that summarises the page.',
        "original system §1.2 step 15",
        category=_ONPAGE,
    ),
    _D(
        IssueType.META_DESCRIPTION_TOO_LONG,
        _INFO,
        _PAGE,
        "Meta description too long",
        "trimmed description length > 160",
        "Search results truncate long descriptions. Info: truncation is cosmetic.",
        "Shorten the description to about 160 characters.",
        "original system §1.2 step 15",
        (_DESC_MAX,),
        category=_ONPAGE,
    ),
    _D(
        IssueType.META_DESCRIPTION_TOO_SHORT,
        _INFO,
        _PAGE,
        "Meta description too short",
        "trimmed description length < 70",
        "A short description wastes room in the search result. Info: cosmetic.",
        "Expand the description to summarise the page in 70-160 characters.",
        "original system §1.2 step 15",
        (_DESC_MIN,),
        category=_ONPAGE,
    ),
    _D(
        IssueType.MISSING_H1,
        _WARN,
        _PAGE,
        "Missing H1",
        "no <h1> with non-empty text (an empty <h1></h1> counts as missing)",
        "The H1 tells readers and search engines what the page is about. Warning: the page "
        "still works, but its main topic is less clear.",
        "Add one <h1> with the page's main heading.",
        "original system §1.2 step 16",
        category=_ONPAGE,
    ),
    _D(
        IssueType.MULTIPLE_H1,
        _WARN,
        _PAGE,
        "Multiple H1 headings",
        "more than one <h1> with non-empty text",
        "Several top-level headings blur the page's main topic. Warning, as in the original.",
        "Keep one <h1>; demote the others to <h2>.",
        "original system §1.2 step 16",
        category=_ONPAGE,
    ),
    _D(
        IssueType.HEADING_ORDER_SKIP,
        _INFO,
        _PAGE,
        "Heading levels skipped",
        "a heading more than one level deeper than the one before it (e.g. H2 -> H4)",
        "Skipped levels break the outline that screen readers and parsers build. Info: an "
        "accessibility and structure hint.",
        "Use consecutive heading levels when going deeper; going back up is fine.",
        "original system §1.2 step 17",
        (_t("HEADING_MAX_STEP", HEADING_MAX_STEP, "levels deeper", _ORIG_PAGE),),
        category=_ONPAGE,
    ),
    _D(
        IssueType.THIN_CONTENT,
        _WARN,
        _PAGE,
        "Thin content",
        "indexable page with fewer than 150 words of visible body text",
        "Pages with little text rarely rank and can be judged low quality. Warning because "
        "it concerns pages the owner wants indexed.",
        "Add useful content, merge the page into a related one, or noindex it.",
        "original system §1.2 step 18",
        (_t("THIN_CONTENT_WORDS", THIN_CONTENT_WORDS, "words", _ORIG_PAGE),),
        category=_CONTENT,
    ),
    _D(
        IssueType.IMAGES_MISSING_ALT,
        _WARN,
        _PAGE,
        "Images without alt attribute",
        'at least one <img> with no alt attribute at all (alt="" is correct for decoration)',
        "Screen readers and image search cannot describe these images. Warning: an "
        "accessibility failure (WCAG 1.1.1).",
        'Add alt text to meaningful images and alt="" to decorative ones.',
        "original system §1.2 step 19; HTML spec (img alt)",
        category=_ONPAGE,
    ),
    _D(
        IssueType.NO_OUTGOING_LINKS,
        _WARN,
        _PAGE,
        "Page has no outgoing links",
        "indexable page with zero <a href> links after dropping javascript:/mailto:/tel:/#",
        "A dead end: crawlers and visitors cannot continue from here. Warning because link "
        "weight and navigation stop at this page.",
        "Add links to related pages or the site navigation.",
        "original system §1.2 step 20",
        category=_LINKS,
    ),
    _D(
        IssueType.INVALID_STRUCTURED_DATA,
        _WARN,
        _PAGE,
        "Invalid JSON-LD",
        "at least one <script type=application/ld+json> block is not valid JSON",
        "Search engines discard structured data they cannot parse, so the page loses rich "
        "results it was built for. Warning: the owner's intent silently fails.",
        "Validate the JSON-LD (e.g. Google's Rich Results Test) and fix the syntax errors.",
        "original system §1.2 (branch @4ff1019); Semrush (invalid structured data)",
        category=_ONPAGE,
    ),
    # ------------------------------------------------------------------ original: cross-page
    _D(
        IssueType.DUPLICATE_TITLE,
        _WARN,
        _CROSS,
        "Duplicate title",
        "two or more duplicate candidates share the exact title",
        "Pages with the same title compete with each other in search. Candidates are 2xx, "
        "indexable, self-canonical pages that are not JavaScript shells. Warning.",
        "Give each page a unique title, or canonicalize the duplicates to one URL.",
        "original system §1.3",
        (_SAMPLE,),
        category=_ONPAGE,
    ),
    _D(
        IssueType.DUPLICATE_META_DESCRIPTION,
        _WARN,
        _CROSS,
        "Duplicate meta description",
        "two or more duplicate candidates share the exact meta description",
        "Identical descriptions make search results look alike and suggest duplicate pages. "
        "Warning.",
        "Write a distinct description for each page.",
        "original system §1.3",
        (_SAMPLE,),
        category=_ONPAGE,
    ),
    _D(
        IssueType.DUPLICATE_CONTENT,
        _WARN,
        _CROSS,
        "Duplicate content",
        "two or more duplicate candidates share the SHA-256 of their visible body text",
        "Identical pages split ranking signals; search engines pick one and ignore the rest. "
        "Warning.",
        "Keep one version and redirect or canonicalize the others to it.",
        "original system §1.3",
        (_SAMPLE,),
        category=_CONTENT,
    ),
    _D(
        IssueType.REDIRECT_CHAIN,
        _WARN,
        _CROSS,
        "Redirect chain",
        "two or more consecutive redirects before content (hop list of more than 2 URLs)",
        "Each extra hop costs a round trip and some crawlers stop following. Warning.",
        "Redirect the first URL straight to the final destination and update links to it.",
        "original system §1.3",
        (
            _t(
                "REDIRECT_CHAIN_MIN_URLS",
                REDIRECT_CHAIN_MIN_URLS,
                "URLs in the hop list",
                _ORIG_CROSS,
            ),
        ),
        category=_LINKS,
    ),
    _D(
        IssueType.REDIRECT_LOOP,
        _WARN,
        _CROSS,
        "Redirect loop",
        "following redirects revisits a URL (including headless cycles such as a -> a)",
        "The URL never resolves to content; browsers show an error. Warning, as in the original "
        "(the looping URLs themselves answer 3xx, not an error status).",
        "Break the cycle so that the redirects end at a page that answers 200.",
        "original system §1.3",
        category=_LINKS,
    ),
    _D(
        IssueType.BROKEN_INTERNAL_LINK,
        _CRIT,
        _CROSS,
        "Broken internal link",
        "a page links to an internal URL that was crawled (fetch ok) and answered status >= 400; "
        "reported on every linking page",
        "Visitors and crawlers following the link hit an error page. Critical because the "
        "site itself sends people to a dead end. Blocked targets are never counted.",
        "Update the link to a working URL, or restore/redirect the target.",
        "original system §1.3, §3.4",
        (_CLIENT_ERROR,),
        category=_LINKS,
    ),
    _D(
        IssueType.ORPHAN_PAGE,
        _WARN,
        _CROSS,
        "Orphan page",
        "2xx page (not the start URL) that no other crawled page links to and no crawled "
        "redirect points to; only when the crawl completed with a complete link graph",
        "Search engines find orphan pages only through sitemaps, and they receive no internal "
        "link weight. Warning (Ahrefs rates it an Error; the original a warning).",
        "Link the page from relevant pages, or remove it if it is obsolete.",
        "original system §1.3, §3.4",
        category=_LINKS,
    ),
    _D(
        IssueType.CRAWL_RATE_LIMITED,
        _WARN,
        _CRAWL,
        "Crawl stopped by rate limiting",
        "the site's requested cooldown exceeded the crawl's budget",
        "The site throttled the crawler so hard that the audit could not finish; results "
        "cover only part of the site. Warning about the audit, not the pages.",
        "Allow the audit's user agent a higher rate, then re-run the audit.",
        "original system §1.3",
        category=_LINKS,
    ),
    _D(
        IssueType.SITE_STOPPED_RESPONDING,
        _CRIT,
        _CRAWL,
        "Site stopped responding",
        "page fetches got no answer at all (refused, timed out, TLS or DNS failure): "
        "SITE_DOWN_STREAK of them in a row, which stops the crawl, or more than "
        "SITE_DOWN_SHARE_PERCENT % of the crawl's; once, on the start URL, with the counts, the "
        "kinds of failure and sample URLs",
        "The site answered the audit's first request, then stopped answering most of the "
        "others: it went down, or something between (a firewall, a rate limiter that drops "
        "connections) cut the audit off. Critical: the pages that got no answer could not be "
        "audited, and visitors meeting the same failure get no page at all.",
        "Check that the site is up and that its server, proxy or firewall does not drop "
        "connections from crawlers under load; then audit it again.",
        "siteaudit (crawl.site_health); redirection.io (a crawl with over 90 % errors stops)",
        (
            _t("SITE_DOWN_STREAK", SITE_DOWN_STREAK, "page fetches in a row", "crawl.window"),
            _t(
                "SITE_DOWN_SHARE_PERCENT", SITE_DOWN_SHARE_PERCENT, "% of page fetches", "siteaudit"
            ),
        ),
        category=_LINKS,
    ),
    # ------------------------------------------------------------------ field: per page
    _D(
        IssueType.HTTP_PAGE_ON_HTTPS_SITE,
        _WARN,
        _PAGE,
        "HTTP page on an HTTPS site",
        "the site's start URL is https, and this page answered 2xx HTML over plain http",
        "The page is reachable without encryption instead of redirecting to HTTPS, so it can be "
        "tampered with and duplicates its HTTPS twin. Warning (SEOnaut: critical; Semrush: "
        "warning) because the HTTPS version usually exists.",
        "Redirect every http:// URL to its https:// equivalent with a 301 and link to HTTPS.",
        "SEOnaut (page served over HTTP); Semrush",
        category=_SEC,
    ),
    _D(
        IssueType.HTML_TOO_LARGE,
        _WARN,
        _PAGE,
        "HTML too large",
        "HTML response body larger than 2 MiB",
        "Very large documents are slow to download and parse, and crawlers stop reading after a "
        "limit, so content at the end may never be seen. Warning (Semrush: error).",
        "Remove inlined data, base64 images and repeated markup; paginate very long lists.",
        "Semrush (HTML larger than 2 MB)",
        (_t("HTML_MAX_BYTES", HTML_MAX_BYTES, "bytes", "Semrush"),),
        category=_PERF,
    ),
    _D(
        IssueType.MULTIPLE_TITLES,
        _INFO,
        _PAGE,
        "Multiple title tags",
        "more than one <title> in the document (outside svg)",
        "Browsers use the first title, search engines may use another. Info: the first one "
        "usually wins, but templates that add a second title are worth cleaning up.",
        "Keep one <title> element.",
        "SEOnaut (multiple titles); HTML spec (one title per document)",
        category=_ONPAGE,
    ),
    _D(
        IssueType.MULTIPLE_META_DESCRIPTIONS,
        _INFO,
        _PAGE,
        "Multiple meta descriptions",
        "more than one <meta name=description>",
        "Only one description is used; which one is not guaranteed. Info: cosmetic risk.",
        'Keep one <meta name="description">.',
        "SEOnaut (multiple descriptions)",
        category=_ONPAGE,
    ),
    _D(
        IssueType.MULTIPLE_CANONICALS,
        _WARN,
        _PAGE,
        "Multiple canonical tags",
        "more than one <link rel=canonical> with different targets",
        "Google ignores all canonical hints when a page declares several conflicting ones. "
        "Warning (Semrush: error; SEOnaut: alert).",
        'Keep exactly one <link rel="canonical">.',
        "Google Search Central (consolidate duplicate URLs); Semrush; SEOnaut",
        category=_LINKS,
    ),
    _D(
        IssueType.RELATIVE_CANONICAL,
        _INFO,
        _PAGE,
        "Relative canonical URL",
        "the HTML canonical href is not an absolute URL",
        "Relative canonicals work but break easily when the page is served under another host "
        "or path. Info: Google recommends absolute URLs.",
        "Use an absolute URL (scheme and host) in rel=canonical.",
        "Google Search Central (use absolute canonical URLs); SEOnaut (relative canonical)",
        category=_LINKS,
    ),
    _D(
        IssueType.META_REFRESH,
        _WARN,
        _PAGE,
        "Meta refresh",
        "<meta http-equiv=refresh> present",
        "Meta refresh redirects are slow, break the back button and pass signals less "
        "reliably than HTTP redirects. Warning (Semrush: error).",
        "Replace the meta refresh with a 301 redirect on the server.",
        "Semrush (meta refresh); Google Search Central (redirects)",
        category=_LINKS,
    ),
    _D(
        IssueType.MISSING_HTML_LANG,
        _INFO,
        _PAGE,
        "Missing html lang",
        "<html> has no non-empty lang attribute",
        "Screen readers and translation tools need the page language. Info: search engines "
        "detect language themselves.",
        'Add lang="…" (a BCP 47 tag such as en or de-CH) to the <html> element.',
        "HTML spec (lang attribute); SEOnaut (missing lang); WCAG 3.1.1",
        category=_ONPAGE,
    ),
    _D(
        IssueType.MISSING_VIEWPORT,
        _WARN,
        _PAGE,
        "Missing viewport meta tag",
        "no <meta name=viewport>",
        "Without a viewport the page renders as a zoomed-out desktop page on phones, and "
        "Google indexes the mobile rendering. Warning (Semrush: error).",
        'Add <meta name="viewport" content="width=device-width, initial-scale=1">.',
        "Google Search Central (mobile-first indexing); Semrush; SEOnaut",
        category=_ONPAGE,
    ),
    _D(
        IssueType.IMAGES_MISSING_DIMENSIONS,
        _INFO,
        _PAGE,
        "Images without width and height",
        "at least one <img> lacking a width or a height attribute",
        "The browser cannot reserve space before the image loads, so the layout shifts "
        "(Core Web Vitals CLS). Info: a performance hint.",
        "Set width and height attributes on images (CSS can still scale them).",
        "SEOnaut (img without size); Lighthouse (unsized-images)",
        category=_PERF,
    ),
    _D(
        IssueType.INTERNAL_NOFOLLOW_LINKS,
        _INFO,
        _PAGE,
        "Internal nofollow links",
        "at least one internal link carries rel=nofollow",
        "nofollow on internal links stops link weight to your own pages. Info: often "
        "intentional (login, cart), so it is a prompt to check.",
        "Remove rel=nofollow from internal links to pages that should rank.",
        "Semrush (internal nofollow links); SEOnaut",
        category=_LINKS,
    ),
    _D(
        IssueType.MIXED_CONTENT,
        _WARN,
        _PAGE,
        "Mixed content",
        "an https page loads a subresource (script, stylesheet, image, media, iframe) over http",
        "Browsers block active mixed content and flag the page as not fully secure. Warning "
        "(Semrush: error): parts of the page may silently not load.",
        "Load every subresource over https.",
        "Semrush (mixed content); W3C Mixed Content spec",
        category=_SEC,
    ),
    _D(
        IssueType.INSECURE_FORM_ACTION,
        _WARN,
        _PAGE,
        "Form submits over HTTP",
        "a <form> whose action resolves to an http:// URL",
        "Form data, possibly passwords, is sent unencrypted. Warning (SEOnaut: alert); "
        "browsers warn users before submitting.",
        "Point form actions at https:// URLs.",
        "SEOnaut (form action on http); Semrush (password field on HTTP page)",
        category=_SEC,
    ),
    # ------------------------------------------------------------------ sharing tags (issue 32)
    _D(
        IssueType.MISSING_OPEN_GRAPH,
        _INFO,
        _PAGE,
        "Open Graph tags missing",
        "an indexable page lacks og:title, og:type, og:image or og:url (the protocol's basic "
        "metadata) or og:description (recommended); one finding per page, the missing tags in "
        "the detail",
        "When the page is shared on Facebook, LinkedIn, Slack and most chat apps, the preview is "
        "built from these tags; without them each platform guesses a title and picks any image, "
        "or shows a bare link. Info: search ranking does not read them. On most pages of a site "
        "it is one template to fix.",
        'Add the missing <meta property="og:…" content="…"> tags to the page\'s <head> '
        "(usually in the site's template): a title, the type (website, article…), an absolute "
        "image URL, the page's canonical URL and a description.",
        "The Open Graph protocol, ogp.me (Basic Metadata, Optional Metadata); Ahrefs (Open Graph "
        "tags missing or incomplete)",
        category=_ONPAGE,
    ),
    _D(
        IssueType.EMPTY_SOCIAL_TAG,
        _INFO,
        _PAGE,
        "Empty sharing tag",
        "an og:* or twitter:* meta tag whose content is empty; the tags in the detail",
        "Platforms read an empty tag as a missing one, and some stop at the first value of a "
        "tag, so an empty og:title or og:image can hide a filled one further down. Info.",
        "Fill the tag's content attribute (often a template variable that was empty for this "
        "page), or remove the tag.",
        "The Open Graph protocol, ogp.me; X developer documentation (Cards markup reference)",
        category=_ONPAGE,
    ),
    _D(
        IssueType.RELATIVE_SOCIAL_URL,
        _WARN,
        _PAGE,
        "Relative URL in a sharing tag",
        "og:url, og:image (and its :url and :secure_url), og:video, og:audio, twitter:image or "
        "twitter:player is not an absolute URL; the tags and values in the detail",
        "The Open Graph protocol defines URL values as http:// or https:// URLs, and scrapers "
        "do not resolve a relative one against the page: the share preview loses its image or "
        "links to the wrong address. Warning.",
        "Write the full URL, with scheme and host (https://www.example.com/images/share.jpg).",
        "The Open Graph protocol, ogp.me (Types: URL); X developer documentation (Cards markup "
        "reference: twitter:image is a URL)",
        category=_ONPAGE,
    ),
    _D(
        IssueType.OG_URL_NOT_CANONICAL,
        _WARN,
        _PAGE,
        "og:url differs from the canonical URL",
        "the page declares a canonical URL and its absolute og:url names another URL, both "
        "normalised the way the crawler normalises URLs; both in the detail",
        "og:url is the canonical address of the shared object: shares, likes and comments are "
        "counted against it, and a preview links there. Pointing it elsewhere than the canonical "
        "splits those counts and can send readers to the wrong page. Warning.",
        'Set og:url to the same URL as <link rel="canonical">.',
        "The Open Graph protocol, ogp.me (og:url: the canonical URL of your object); Ahrefs "
        "(Open Graph URL not matching canonical)",
        category=_ONPAGE,
    ),
    _D(
        IssueType.INVALID_TWITTER_CARD,
        _WARN,
        _PAGE,
        "Invalid X (Twitter) card type",
        "twitter:card names none of summary, summary_large_image, app, player (compared without "
        "case); the value in the detail",
        "X renders no card for an unknown type, so links to the page are shared as plain text. "
        "Warning.",
        'Set twitter:card to "summary" or "summary_large_image" (or "player", "app" for those '
        "cards).",
        "X developer documentation (Cards markup reference: twitter:card, the card types)",
        category=_ONPAGE,
    ),
    _D(
        IssueType.TWITTER_CARD_INCOMPLETE,
        _WARN,
        _PAGE,
        "Incomplete X (Twitter) card",
        "a page with twitter:* tags lacks twitter:card, or what its card type needs: a title and "
        "a description (twitter:title/description, or their og:title/og:description fallbacks) "
        "for summary, summary_large_image and player; twitter:player with its width and height "
        "and an image (twitter:image or og:image) for player; an app id (iphone, ipad or "
        "googleplay) for app; the missing tags in the detail",
        "X builds the card from these tags, falling back to the Open Graph ones; without them "
        "the card is not shown or shows without its title or text. Warning.",
        "Add the missing twitter:* tags (or the og:* tags X falls back to).",
        "X developer documentation (Cards markup reference: tags, Open Graph fallbacks; the "
        "summary, player and app card pages)",
        category=_ONPAGE,
    ),
    _D(
        IssueType.HSTS_MISSING,
        _INFO,
        _PAGE,
        "HSTS header missing",
        "https page without a parseable Strict-Transport-Security max-age",
        "Without HSTS the first visit can be downgraded to HTTP. Info: security hygiene, no "
        "direct search impact (Observatory: -20).",
        "Send Strict-Transport-Security: max-age=31536000 (add includeSubDomains when ready).",
        "MDN HTTP Observatory (HSTS); SEOnaut",
        category=_SEC,
    ),
    _D(
        IssueType.HSTS_TOO_SHORT,
        _INFO,
        _PAGE,
        "HSTS max-age too short",
        "Strict-Transport-Security max-age below 6 months (15,768,000 s)",
        "A short max-age lets the protection lapse between visits. Info (Observatory: -10).",
        "Raise max-age to at least 15768000, preferably 31536000.",
        "MDN HTTP Observatory (HSTS)",
        (_t("HSTS_MIN_MAX_AGE_S", HSTS_MIN_MAX_AGE_S, "seconds", "MDN HTTP Observatory"),),
        category=_SEC,
    ),
    _D(
        IssueType.CONTENT_TYPE_OPTIONS_MISSING,
        _INFO,
        _PAGE,
        "X-Content-Type-Options not nosniff",
        "X-Content-Type-Options header absent or not 'nosniff'",
        "Browsers may guess content types and execute uploads as scripts. Info (Observatory: -5).",
        "Send X-Content-Type-Options: nosniff.",
        "MDN HTTP Observatory (X-Content-Type-Options); SEOnaut",
        category=_SEC,
    ),
    _D(
        IssueType.CSP_MISSING,
        _INFO,
        _PAGE,
        "No Content-Security-Policy",
        "no Content-Security-Policy response header (a <meta> CSP is not seen)",
        "A CSP is the main defence against injected scripts (XSS). Info: security hygiene "
        "(Observatory: -25).",
        "Add a Content-Security-Policy, starting from default-src 'self' in report-only mode.",
        "MDN HTTP Observatory (CSP); SEOnaut",
        category=_SEC,
    ),
    _D(
        IssueType.FRAME_PROTECTION_MISSING,
        _INFO,
        _PAGE,
        "No clickjacking protection",
        "neither X-Frame-Options (DENY/SAMEORIGIN/ALLOW-FROM) nor CSP frame-ancestors",
        "Other sites can frame the page and trick users into clicks. Info (Observatory: -20).",
        "Send Content-Security-Policy: frame-ancestors 'self' (or X-Frame-Options: SAMEORIGIN).",
        "MDN HTTP Observatory (X-Frame-Options)",
        category=_SEC,
    ),
    # ------------------------------------------------------------------ field: cross-page
    _D(
        IssueType.CANONICAL_TO_BROKEN,
        _CRIT,
        _CROSS,
        "Canonical points to an error page",
        "the effective canonical is a crawled URL (fetch ok) that answered status >= 400",
        "The page asks search engines to index a URL that does not work. Critical, like a "
        "broken internal link (Semrush: error 'broken canonical').",
        "Point the canonical at a live URL, usually the page itself.",
        "Semrush (broken canonical); SEOnaut (defined, unregistered); Screaming Frog",
        (_CLIENT_ERROR,),
        category=_LINKS,
    ),
    _D(
        IssueType.CANONICAL_TO_REDIRECT,
        _WARN,
        _CROSS,
        "Canonical points to a redirect",
        "the effective canonical is a crawled URL that answered 3xx",
        "Canonical and redirect send mixed signals; search engines may ignore the canonical. "
        "Warning.",
        "Point the canonical at the redirect's final destination.",
        "Screaming Frog (canonicalised to non-indexable); SEOnaut (defined, unregistered)",
        category=_LINKS,
    ),
    _D(
        IssueType.CANONICAL_TO_NOINDEX,
        _WARN,
        _CROSS,
        "Canonical points to a noindex page",
        "the effective canonical is a crawled 2xx URL that is noindex",
        "The page hands its signals to a URL that refuses indexing, so neither may appear in "
        "search. Warning (SEOnaut: warning-level 'canonicalized page that is noindex').",
        "Make the canonical target indexable, or canonicalize to an indexable URL.",
        "SEOnaut (canonicalized to noindex); Screaming Frog",
        category=_LINKS,
    ),
    _D(
        IssueType.HREFLANG_MISSING_RETURN_LINK,
        _WARN,
        _CROSS,
        "hreflang without return link",
        "page A lists B as an hreflang alternate, B was crawled, and B does not list A",
        "Google ignores hreflang pairs that are not confirmed from both sides. Warning "
        "(SEOnaut: alert).",
        "Add the reciprocal <link rel=alternate hreflang> on the alternate page.",
        "Google Search Central (localized versions: bidirectional links); SEOnaut",
        category=_LINKS,
    ),
    _D(
        IssueType.LINK_TO_REDIRECT,
        _INFO,
        _CROSS,
        "Internal link to a redirect",
        "a page links to an internal URL that was crawled and answered 3xx; reported on every "
        "linking page",
        "Each visit through the link costs an extra round trip. Info (Ahrefs and Semrush: notice).",
        "Update the link to point at the redirect's destination.",
        "Semrush (permanent redirects); Ahrefs",
        (),
        category=_LINKS,
    ),
    _D(
        IssueType.BROKEN_RESOURCE,
        _CRIT,
        _CROSS,
        "Broken resource",
        "a page references an internal image, script, stylesheet, media file, embed, object or "
        "other <link> target that was checked (HEAD, or a capped GET where HEAD is refused) and "
        "answered status >= 400 (fetch ok); reported on every referring page, with the kind",
        "The page renders without the missing image, script or style: broken layout, missing "
        "features or blank media for every visitor, and search engines render it the same way. "
        "Critical, like a broken internal link: the site itself points at an error. Blocked, "
        "rate-limited and failed checks are never counted.",
        "Restore the file at that URL, or fix the reference (src, srcset, href, poster, data) "
        "to point at the file's real location.",
        "HTML Living Standard (URL-valued attributes of img, source, script, link, media, embed, "
        "object); RFC 9110 §9.3.2 (HEAD); linkchecker; Semrush (broken internal images, "
        "JavaScript and CSS files)",
        (_CLIENT_ERROR,),
        category=_LINKS,
    ),
    _D(
        IssueType.BROKEN_SHARE_IMAGE,
        _WARN,
        _CROSS,
        "Broken share image",
        "an og:image (or og:image:url, og:image:secure_url) or twitter:image on this site was "
        "checked with the other resources (one request per distinct URL per audit) and answered "
        "status >= 400, or 2xx with a Content-Type that is not image/* (an HTML page, say); "
        "reported on every page that names it, with the tag",
        "Facebook, LinkedIn, X and chat apps fetch this image for the link preview; an error "
        "or a page instead of an image leaves the preview without a picture, and shares of the "
        "page get fewer clicks. Warning. Images on other hosts are not checked, like other "
        "resources; a redirect is not judged.",
        "Point the tag at an image file that exists (JPG, PNG, WebP or GIF), with its full URL.",
        "The Open Graph protocol, ogp.me (og:image); X developer documentation (Cards markup "
        "reference: twitter:image formats); RFC 9110 §9.3.2 (HEAD)",
        (_CLIENT_ERROR,),
        category=_ONPAGE,
    ),
    _D(
        IssueType.BROKEN_EXTERNAL_LINK,
        _WARN,
        _CROSS,
        "Broken external link",
        "a page links to a URL on another site that was checked once per audit (HEAD, or a "
        "capped GET where HEAD is refused; redirects followed) and answered status >= 400 "
        "(fetch ok), or that redirects more than 10 times, or whose host name does not resolve "
        "while other external host names of the audit do (at least one in ten); reported on "
        "every referring page (check_external)",
        "Readers following the link land on an error page of another site: the page promises a "
        "reference it cannot deliver, and search engines read many dead outbound links as "
        "neglect. Warning rather than critical: the target is outside the site, and it may come "
        "back. Timeouts, refused connections, access walls (401/403/429) and private addresses "
        "are never counted here (external-link-unreachable), nor names that fail where DNS "
        "does not work at all (external-links-unchecked).",
        "Update the link to the page's new address (search the other site, or the Internet "
        "Archive for the old one), or remove the link.",
        "RFC 9110 §15.5, §15.6; linkchecker (external links); Semrush (broken external links); "
        "Ahrefs (external 4XX)",
        (_CLIENT_ERROR,),
        category=_LINKS,
    ),
    _D(
        IssueType.EXTERNAL_REDIRECT,
        _INFO,
        _CROSS,
        "External link redirects",
        "a page links to a URL on another site that answered with a redirect (3xx with a "
        "Location), followed hop by hop to a final answer that is not an error; the detail "
        "names the final target (check_external)",
        "Every visit through the link costs extra round trips, and a moved page often means "
        "the link's target changed (a new address, or a generic landing page). Info (Ahrefs: "
        "external 3XX redirect, a notice).",
        "Point the link at the final target, after checking it is still the page you meant.",
        "RFC 9110 §15.4; Ahrefs (external 3XX redirect)",
        (),
        category=_LINKS,
    ),
    _D(
        IssueType.EXTERNAL_LINK_UNREACHABLE,
        _INFO,
        _CROSS,
        "External link could not be checked",
        "a page links to a URL on another site whose check got no usable answer: a timeout, a "
        "refused connection, another network error, an access wall or rate limit for robots "
        "(401/403/429 or a challenge page), or a private address the audit may not request; "
        "the detail's outcome and reason say which (check_external)",
        "The link may work for people and fail only for the audit (bot protection, a slow "
        "server), or be down: the audit cannot tell, so it reports what happened instead of "
        "calling the link broken. Info.",
        "Open the link in a browser; if it fails there too, fix or remove it. A link to a "
        "private address (an intranet, localhost) does not work for the public at all.",
        "RFC 9110 §15.5.2, §15.5.4, §15.5.30 (401, 403, 429); linkchecker (external links)",
        (),
        category=_LINKS,
    ),
    _D(
        IssueType.EXTERNAL_LINKS_UNCHECKED,
        _INFO,
        _CRAWL,
        "External links left unchecked",
        "the audit checks external links (check_external) and some distinct external URLs got "
        "no verdict: DNS does not work where the audit ran (no external host name resolved, or "
        "fewer than one in ten), the audit's time budget for the checks (external_budget_s) "
        "ran out, the budget of external URLs (2,000) was reached, or the checks stopped; one "
        "note on the start URL, whose reason and detail say which, with the counts",
        "Broken external links among the unchecked ones are not reported. Info about the "
        "audit, not the pages: a machine without outside DNS says nothing about the site's "
        "links, so they are not called broken.",
        "Without DNS, run the audit where the Internet is reachable. Past a budget, raise "
        "external_budget_s (--external-budget), audit sections of the site separately "
        "(include patterns), or check the remaining links with a dedicated link checker.",
        "siteaudit (settings.EXTERNAL: budget_urls, default_budget_s; "
        "audit.external_links.DnsTally)",
        category=_LINKS,
    ),
    _D(
        IssueType.BROKEN_FRAGMENT,
        _WARN,
        _CROSS,
        "Link to a missing fragment",
        "a page links to an internal URL with a #fragment; the target was crawled as 2xx HTML "
        "and has no element with that id (nor an <a> with that name); the empty fragment and "
        "#top are never missing",
        "The browser finds no element to scroll to and shows the top of the page, so the reader "
        "lands far from the section the link promised (typically after a heading was renamed). "
        "Ids are case-sensitive; the fragment is looked up as written and percent-decoded. "
        "Warning: the page loads, but the link does not do what it says.",
        "Point the link at an id that exists on the target page, or restore the id (or "
        "<a name>) the link expects, e.g. on the renamed heading.",
        "HTML Living Standard (navigating to a fragment: select the indicated part, find a "
        "potential indicated element); linkchecker's anchor check",
        (),
        category=_LINKS,
    ),
    _D(
        IssueType.SITEMAP_URL_BROKEN,
        _WARN,
        _CROSS,
        "Sitemap lists an error URL",
        "a URL in the sitemap was crawled (fetch ok) and answered status >= 400",
        "Sitemaps should list only canonical, indexable 200 pages; error URLs waste crawl "
        "budget and erode trust in the sitemap. Warning (Semrush: error).",
        "Remove the URL from the sitemap or fix the page.",
        "Semrush (incorrect pages in sitemap); Google Search Central (sitemaps)",
        (_CLIENT_ERROR,),
        category=_LINKS,
    ),
    _D(
        IssueType.SITEMAP_URL_REDIRECT,
        _WARN,
        _CROSS,
        "Sitemap lists a redirecting URL",
        "a URL in the sitemap answered 3xx",
        "Sitemaps should list final URLs; redirects make search engines do extra work. Warning.",
        "List the redirect's destination in the sitemap instead.",
        "Semrush (incorrect pages in sitemap)",
        category=_LINKS,
    ),
    _D(
        IssueType.SITEMAP_URL_NOINDEX,
        _WARN,
        _CROSS,
        "Sitemap lists a noindex URL",
        "a URL in the sitemap answered 2xx and is noindex",
        "The sitemap asks for indexing, the page refuses it. Warning (SEOnaut: alert).",
        "Remove noindex pages from the sitemap, or make them indexable.",
        "SEOnaut (noindex page in sitemap); Semrush",
        category=_LINKS,
    ),
    _D(
        IssueType.SITEMAP_URL_BLOCKED,
        _WARN,
        _CROSS,
        "Sitemap lists a URL blocked by robots.txt",
        "a URL in the sitemap is disallowed for the crawler by robots.txt",
        "The sitemap asks search engines to crawl a URL that robots.txt forbids. Warning "
        "(SEOnaut: alert).",
        "Remove the URL from the sitemap or allow it in robots.txt.",
        "SEOnaut (sitemap URL blocked by robots); Screaming Frog",
        category=_LINKS,
    ),
    # ------------------------------------------------------------------ the security grade
    # Site scope: one row per failing Observatory test, on the start page
    # (workflow.security_step). The severity here is the worst a row of the type can get;
    # each row's follows its result's score modifier (audit.rules_grade.severity_for).
    _D(
        IssueType.SECURITY_CSP,
        _CRIT,
        _SITE,
        "Content Security Policy fails the grade",
        "the Observatory's content-security-policy test fails on the start URL (missing, invalid, "
        "or allowing unsafe-inline, unsafe-eval or insecure sources)",
        "Without a strict policy an injected script runs with the page's rights (XSS). The row's "
        "severity follows the result's score modifier (-25 missing or invalid: critical).",
        "Send a Content-Security-Policy without 'unsafe-inline'/'unsafe-eval' and http: sources; "
        "start from default-src 'self' and add object-src 'none', base-uri and form-action.",
        "MDN HTTP Observatory (content-security-policy)",
        category=_SEC,
    ),
    _D(
        IssueType.SECURITY_COOKIES,
        _CRIT,
        _SITE,
        "Cookies fail the grade",
        "the Observatory's cookies test fails: a cookie without Secure, a session cookie without "
        "HttpOnly, or an invalid SameSite",
        "Cookies sent without Secure travel over http; session cookies readable by scripts can be "
        "stolen through XSS. Severity by modifier (up to -40: critical).",
        "Set Secure on every cookie, HttpOnly on session cookies and SameSite=Lax or Strict.",
        "MDN HTTP Observatory (cookies)",
        category=_SEC,
    ),
    _D(
        IssueType.SECURITY_CORS,
        _CRIT,
        _SITE,
        "CORS allows any origin with credentials",
        "the Observatory's cross-origin-resource-sharing test fails: the start URL grants any "
        "origin access",
        "Any website can read the page's responses on behalf of its visitors (-50: critical).",
        "Allow only the origins that need access, and never reflect Origin with credentials.",
        "MDN HTTP Observatory (cross-origin-resource-sharing)",
        category=_SEC,
    ),
    _D(
        IssueType.SECURITY_REDIRECTION,
        _CRIT,
        _SITE,
        "http does not redirect to https",
        "the Observatory's redirection test fails: http is not redirected to https on the same "
        "host first",
        "Visitors who type the address reach an unencrypted page first. Severity by modifier (-20 "
        "no redirect: critical; -5 to -10: warning).",
        "Redirect every http URL to https on the same host, before any other redirect.",
        "MDN HTTP Observatory (redirection)",
        category=_SEC,
    ),
    _D(
        IssueType.SECURITY_REFERRER_POLICY,
        _WARN,
        _SITE,
        "Referrer-Policy unsafe or invalid",
        "the Observatory's referrer-policy test fails: an unsafe or invalid Referrer-Policy",
        "Full URLs, with their paths and query strings, leak to other sites (-5: warning).",
        "Send Referrer-Policy: strict-origin-when-cross-origin (or stricter).",
        "MDN HTTP Observatory (referrer-policy)",
        category=_SEC,
    ),
    _D(
        IssueType.SECURITY_HSTS,
        _CRIT,
        _SITE,
        "Strict-Transport-Security fails the grade",
        "the Observatory's strict-transport-security test fails: no https, no or an invalid "
        "header, or max-age below 6 months",
        "Without HSTS the first request can be downgraded to http. Severity by modifier (-20: "
        "critical; -10 short max-age: warning).",
        "Serve https and send Strict-Transport-Security: max-age=63072000; includeSubDomains.",
        "MDN HTTP Observatory (strict-transport-security)",
        category=_SEC,
    ),
    _D(
        IssueType.SECURITY_SRI,
        _CRIT,
        _SITE,
        "Scripts loaded without integrity or over http",
        "the Observatory's subresource-integrity test fails: external scripts without integrity, "
        "or scripts over http",
        "A compromised or intercepted third-party script runs with the page's rights. Severity by "
        "modifier (-50 insecure: critical; -5: warning).",
        "Load scripts over https and add integrity= and crossorigin= to third-party scripts.",
        "MDN HTTP Observatory (subresource-integrity)",
        category=_SEC,
    ),
    _D(
        IssueType.SECURITY_CONTENT_TYPE_OPTIONS,
        _WARN,
        _SITE,
        "X-Content-Type-Options missing from the grade",
        "the Observatory's x-content-type-options test fails: no X-Content-Type-Options: nosniff",
        "Browsers may sniff content types and run uploads as scripts (-5: warning).",
        "Send X-Content-Type-Options: nosniff.",
        "MDN HTTP Observatory (x-content-type-options)",
        category=_SEC,
    ),
    _D(
        IssueType.SECURITY_FRAME_OPTIONS,
        _CRIT,
        _SITE,
        "Clickjacking protection fails the grade",
        "the Observatory's x-frame-options test fails: neither X-Frame-Options nor CSP "
        "frame-ancestors",
        "Other sites can frame the start page and trick visitors into clicks (-20: critical).",
        "Send Content-Security-Policy: frame-ancestors 'self' (or X-Frame-Options: SAMEORIGIN).",
        "MDN HTTP Observatory (x-frame-options)",
        category=_SEC,
    ),
    _D(
        IssueType.SECURITY_CORP,
        _WARN,
        _SITE,
        "Cross-Origin-Resource-Policy invalid",
        "the Observatory's cross-origin-resource-policy test fails: an invalid header",
        "A misspelt header protects nothing (-5: warning).",
        "Send Cross-Origin-Resource-Policy: same-origin (or same-site).",
        "MDN HTTP Observatory (cross-origin-resource-policy)",
        category=_SEC,
    ),
    _D(
        IssueType.SECURITY_COOP,
        _WARN,
        _SITE,
        "Cross-Origin-Opener-Policy invalid",
        "the Observatory's cross-origin-opener-policy test fails: an invalid header",
        "A misspelt header leaves the window open to cross-origin openers (-5: warning).",
        "Send Cross-Origin-Opener-Policy: same-origin.",
        "MDN HTTP Observatory (cross-origin-opener-policy)",
        category=_SEC,
    ),
    _D(
        IssueType.SECURITY_COEP,
        _WARN,
        _SITE,
        "Cross-Origin-Embedder-Policy invalid",
        "the Observatory's cross-origin-embedder-policy test fails: an invalid header",
        "A misspelt header isolates nothing (-5: warning).",
        "Send Cross-Origin-Embedder-Policy: require-corp (or credentialless).",
        "MDN HTTP Observatory (cross-origin-embedder-policy)",
        category=_SEC,
    ),
    # ------------------------------------------------------------------ the exposure checks
    # Site scope: workflow.exposure_step, one row per finding (exposure.findings), on the page
    # where it was seen (a script's first page, the page sending the header) or, for DNS and
    # email authentication, the start page. A library row's severity is retire.js's rating.
    _D(
        IssueType.EXPOSURE_VULNERABLE_JS_LIBRARY,
        _CRIT,
        _SITE,
        "JavaScript library with known vulnerabilities",
        "a script, by its URL, file name or content, is a library version with known "
        "vulnerabilities in the retire.js repository",
        "Published vulnerabilities in a library the page loads are the first thing attackers "
        "try. The row's severity is retire.js's worst rating (critical or high: critical; "
        "medium: warning; low: info).",
        "Upgrade the library to the version named (or later) and redeploy; load it from "
        "a source you update, and remove it if nothing uses it any more.",
        "retire.js vulnerability repository (github.com/RetireJS/retire.js)",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_VERSION_DISCLOSED,
        _INFO,
        _SITE,
        "Software version disclosed",
        "a Server, X-Powered-By, X-AspNet-Version, X-AspNetMvc-Version or X-Generator header, or "
        "a generator meta tag, names a software version",
        "A version tells an attacker which published vulnerabilities to try.",
        "Remove the version from the header or generator tag (e.g. nginx "
        "`server_tokens off`, Apache `ServerTokens Prod`, PHP `expose_php = Off`, "
        "the CMS's generator setting) and keep the software updated.",
        "RFC 9110 §10.2.4; OWASP Secure Headers Project",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_SPF_MISSING,
        _WARN,
        _SITE,
        "No SPF record",
        "the site's mail domain publishes no `v=spf1` TXT record",
        "Mail claiming to come from the domain cannot be told apart from forgeries.",
        "Publish one TXT record `v=spf1 … -all` at the domain listing the servers that "
        "send its mail; a domain that sends none publishes `v=spf1 -all`.",
        "RFC 7208 §4.5",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_SPF_INVALID,
        _WARN,
        _SITE,
        "SPF record causes a permanent error",
        "several SPF records, more than 10 DNS-querying terms counted through includes, an "
        "include without SPF, or an include loop",
        "Receivers treat a permanent error like no SPF at all.",
        "Keep exactly one SPF record, at most 10 DNS-querying terms (include, a, mx, "
        "ptr, exists, redirect) counted through includes, and include only domains that "
        "publish SPF; flatten includes into ip4/ip6 ranges if needed.",
        "RFC 7208 §4.5, §4.6.4, §5.2",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_SPF_PERMISSIVE,
        _WARN,
        _SITE,
        "SPF record does not end in -all or ~all",
        "the SPF record's effective `all` is `+all`, `?all` or missing",
        "Mail from any server passes SPF, so the record protects nothing.",
        "End the record with `-all` (or `~all` while testing) so mail from other servers "
        "fails SPF.",
        "RFC 7208 §5.1, §4.7",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_DMARC_MISSING,
        _WARN,
        _SITE,
        "No valid DMARC record",
        "no single valid `v=DMARC1` record at `_dmarc.<domain>` or its organizational domain",
        "Receivers have no policy for mail that fails SPF and DKIM, so forgeries are delivered.",
        "Publish one TXT record at `_dmarc.<domain>`: `v=DMARC1; p=quarantine; "
        "rua=mailto:…`, and move to `p=reject` once reports look clean.",
        "RFC 7489 §6.4, §6.6.3",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_DMARC_POLICY_NONE,
        _WARN,
        _SITE,
        "DMARC policy only monitors (p=none)",
        "the DMARC record's policy is `p=none`",
        "Forged mail is reported but still delivered.",
        "Raise the policy to `p=quarantine`, then `p=reject`, after checking the "
        "aggregate reports for legitimate senders that fail.",
        "RFC 7489 §6.3",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_DMARC_NO_REPORTS,
        _INFO,
        _SITE,
        "DMARC record asks for no aggregate reports",
        "the DMARC record has no `rua` tag",
        "Without reports nobody learns who sends mail as the domain.",
        "Add `rua=mailto:<address>` to receive daily reports of who sends as the domain.",
        "RFC 7489 §6.3 (rua), §7.2",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_DMARC_PARTIAL,
        _INFO,
        _SITE,
        "DMARC policy applies to part of the mail (pct below 100)",
        "the DMARC record's `pct` is below 100",
        "The policy is applied to a sample only; the rest of the forged mail is delivered.",
        "Raise `pct` to 100 (or remove it) once the policy is known to be safe.",
        "RFC 7489 §6.3 (pct)",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_MTA_STS_MISSING,
        _INFO,
        _SITE,
        "No MTA-STS policy",
        "no `v=STSv1` TXT record with an id at `_mta-sts.<domain>`",
        "Mail to the domain can be downgraded to plain text by an attacker on the path.",
        "Publish `_mta-sts.<domain>` TXT `v=STSv1; id=…` and the policy file at "
        "https://mta-sts.<domain>/.well-known/mta-sts.txt so senders require TLS.",
        "RFC 8461 §3.1",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_CAA_MISSING,
        _INFO,
        _SITE,
        "No CAA record",
        "no CAA record on the host or any parent below the top-level domain",
        "Any certificate authority may issue certificates for the domain.",
        'Publish CAA records (`0 issue "<your CA>"`) naming the certificate '
        "authorities allowed to issue for the domain.",
        "RFC 8659 §3, §4",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_DNSSEC_NOT_VALIDATED,
        _INFO,
        _SITE,
        "DNS answers not validated with DNSSEC",
        "the DNS-over-HTTPS resolver did not set the AD flag on the host's A answer",
        "Unsigned answers can be forged on the path to a resolver.",
        "Sign the zone at the DNS provider and publish the DS record at the registrar.",
        "RFC 4033; RFC 4035 §3.2.3 (AD bit)",
        category=_SEC,
    ),
    _D(
        IssueType.EXPOSURE_DNS_UNCHECKED,
        _INFO,
        _SITE,
        "DNS and email checks not run",
        "the DNS-over-HTTPS resolver answered none of the first round's questions about the "
        "host (unreachable, refusing, or answering something else than DNS JSON), so SPF, "
        "DMARC, MTA-STS, CAA and DNSSEC were not checked; the detail says what failed",
        "A resolver the audit cannot reach says nothing about the site's DNS: no record is "
        "reported missing because of it. Info about the audit, not the site.",
        "Run the audit where the resolver is reachable, or name a reachable one "
        "(siteaudit exposure SITE_URL --resolver RESOLVER_URL; "
        "settings.EXPOSURE.doh_resolver_url).",
        "siteaudit (exposure.dns_audit)",
        category=_SEC,
    ),
    # ------------------------------------------------------------------ Lighthouse
    # Lighthouse scope: on the sampled pages only (lighthouse.vitals): one row per page and type, the
    # worse strategy's value first in `details`. Lab rows come from the Lighthouse run, field rows
    # from the Chrome UX Report (the URL's own data, else its origin's). Warnings: speed is a
    # ranking signal among many and never makes a page unusable, so the health score ignores them.
    _D(
        IssueType.LIGHTHOUSE_POOR_PERFORMANCE,
        _WARN,
        _LH,
        "Poor Lighthouse performance score",
        "a sampled page's Lighthouse performance score is below 50 (mobile or desktop)",
        "Lighthouse rates 0-49 as poor: the page loads and settles slowly in a lab run. Warning.",
        "Open the stored Lighthouse report and fix its top opportunities (render-blocking "
        "resources, large images, unused JavaScript).",
        "Lighthouse performance scoring (0-49 poor); PageSpeed Insights API v5",
        (_t("POOR_PERFORMANCE_SCORE", POOR_PERFORMANCE_SCORE, "points", "Lighthouse scoring"),),
        category=_PERF,
    ),
    _D(
        IssueType.LAB_POOR_LCP,
        _WARN,
        _LH,
        "Poor Largest Contentful Paint (lab)",
        "the Lighthouse run's LCP is over 4 s (mobile or desktop)",
        "The main content appears late in a lab run; Google calls an LCP above 4 s poor. Warning.",
        "Serve the LCP element sooner: preload its image, cut server time and render blocking.",
        "web.dev Core Web Vitals (LCP poor > 4 s); Lighthouse largest-contentful-paint",
        (_t("POOR_LCP_MS", POOR_LCP_MS, "ms", _CWV),),
        category=_PERF,
    ),
    _D(
        IssueType.LAB_POOR_INP,
        _WARN,
        _LH,
        "Poor Interaction to Next Paint (lab)",
        "the Lighthouse run reports an INP over 500 ms (rare: navigation runs usually have none)",
        "The page reacts slowly to input in a lab run; Google calls an INP above 500 ms poor. "
        "Warning.",
        "Break up long JavaScript tasks and defer work that is not needed for the first input.",
        "web.dev Core Web Vitals (INP poor > 500 ms); Lighthouse interaction-to-next-paint",
        (_t("POOR_INP_MS", POOR_INP_MS, "ms", _CWV),),
        category=_PERF,
    ),
    _D(
        IssueType.LAB_POOR_CLS,
        _WARN,
        _LH,
        "Poor Cumulative Layout Shift (lab)",
        "the Lighthouse run's CLS is over 0.25 (mobile or desktop)",
        "Content jumps while the page loads; Google calls a CLS above 0.25 poor. Warning.",
        "Give images, embeds and ads fixed dimensions and avoid inserting content above others.",
        "web.dev Core Web Vitals (CLS poor > 0.25); Lighthouse cumulative-layout-shift",
        (_t("POOR_CLS_HUNDREDTHS", POOR_CLS_HUNDREDTHS, "hundredths of CLS", _CWV),),
        category=_PERF,
    ),
    _D(
        IssueType.FIELD_POOR_LCP,
        _WARN,
        _LH,
        "Poor Largest Contentful Paint (real users)",
        "the Chrome UX Report's 75th-percentile LCP of the URL (else its origin) is over 4 s",
        "Real Chrome users waited over 4 s for the main content on a quarter of their visits; "
        "this is what Google's page experience assessment uses. Warning.",
        "Serve the LCP element sooner for real visitors (CDN, image sizes, server time).",
        "web.dev Core Web Vitals (LCP poor > 4 s, p75); PageSpeed Insights loadingExperience",
        (_t("POOR_LCP_MS", POOR_LCP_MS, "ms", _CWV),),
        category=_PERF,
    ),
    _D(
        IssueType.FIELD_POOR_INP,
        _WARN,
        _LH,
        "Poor Interaction to Next Paint (real users)",
        "the Chrome UX Report's 75th-percentile INP of the URL (else its origin) is over 500 ms",
        "Real Chrome users saw slow reactions to their input. Warning.",
        "Find the slow interactions (long tasks, heavy event handlers) and make them cheaper.",
        "web.dev Core Web Vitals (INP poor > 500 ms, p75); PageSpeed Insights loadingExperience",
        (_t("POOR_INP_MS", POOR_INP_MS, "ms", _CWV),),
        category=_PERF,
    ),
    _D(
        IssueType.FIELD_POOR_CLS,
        _WARN,
        _LH,
        "Poor Cumulative Layout Shift (real users)",
        "the Chrome UX Report's 75th-percentile CLS of the URL (else its origin) is over 0.25",
        "Real Chrome users saw content move under them. Warning.",
        "Reserve space for late content (images, ads, banners, web fonts).",
        "web.dev Core Web Vitals (CLS poor > 0.25, p75); PageSpeed Insights loadingExperience",
        (_t("POOR_CLS_HUNDREDTHS", POOR_CLS_HUNDREDTHS, "hundredths of CLS", _CWV),),
        category=_PERF,
    ),
    # ------------------------------------------------------------------ raw against rendered
    _D(
        IssueType.CONTENT_ONLY_AFTER_SCRIPT,
        _WARN,
        _PAGE,
        "Content appears only after JavaScript",
        "the rendered page has >= 20 words and the raw HTML at most 20 % as many",
        "Most of the page's text is not in the HTML the server sends; a browser builds it with "
        "JavaScript. Google renders pages before indexing them, but later than it crawls them, "
        "and crawlers that do not run JavaScript (link previews, many other search and AI "
        "crawlers) see an almost empty page. Warning.",
        "Render the page's main content on the server (server-side rendering, static "
        "generation or pre-rendering), so the HTML already holds it.",
        _JS_SEO,
        (
            _t("JS_SHELL_MAX_WORDS", JS_SHELL_MAX_WORDS, "words", _ORIG_ANALYZER),
            _t(
                "CONTENT_AFTER_SCRIPT_MAX_RAW_PERCENT",
                CONTENT_AFTER_SCRIPT_MAX_RAW_PERCENT,
                "% of the rendered word count",
                "siteaudit",
            ),
        ),
        category=_LINKS,
    ),
    _D(
        IssueType.LINKS_ONLY_AFTER_SCRIPT,
        _WARN,
        _PAGE,
        "Internal links appear only after JavaScript",
        "internal links in the rendered page that the raw HTML does not have (count and "
        "examples); silent when the raw page has more links than the extractor keeps",
        "These links to your own pages exist only once JavaScript has run. Google finds them "
        "when it renders the page, later than links in the HTML; crawlers that do not run "
        "JavaScript never find the pages behind them. Warning.",
        "Put the links in the server's HTML as <a href> elements (server-side rendering, or a "
        "plain navigation the script enhances).",
        _JS_SEO,
        (_t("SCRIPT_LINK_SAMPLE", SCRIPT_LINK_SAMPLE, "example links listed", "siteaudit"),),
        category=_LINKS,
    ),
    _D(
        IssueType.TITLE_CHANGED_BY_SCRIPT,
        _INFO,
        _PAGE,
        "Title set or changed by JavaScript",
        "the first <title> of the raw HTML and of the rendered page differ (trimmed)",
        "The page's title is set or changed by JavaScript, so the HTML carries another one (or "
        "none). Google uses the rendered title; link previews and crawlers that do not run "
        "JavaScript show the raw one. Info: Google supports it.",
        "Send the final title in the server's HTML.",
        _JS_SEO,
        category=_ONPAGE,
    ),
    _D(
        IssueType.META_DESCRIPTION_CHANGED_BY_SCRIPT,
        _INFO,
        _PAGE,
        "Meta description set or changed by JavaScript",
        "the first meta description of the raw HTML and of the rendered page differ (trimmed)",
        "The page's description is set or changed by JavaScript, so the HTML carries another one "
        "(or none). Google can use the rendered one; link previews and crawlers that do not run "
        "JavaScript show the raw one. Info: Google supports it.",
        "Send the final meta description in the server's HTML.",
        _JS_SEO,
        category=_ONPAGE,
    ),
    _D(
        IssueType.CANONICAL_ADDED_BY_SCRIPT,
        _INFO,
        _PAGE,
        "Canonical added by JavaScript",
        "no canonical in the raw HTML or the Link header; the rendered page has one",
        "The canonical URL exists only after JavaScript has run. Google picks it up when it "
        "renders the page, but recommends against it; crawlers that do not run JavaScript never "
        "see it. Info.",
        "Put the canonical link in the server's HTML, or leave it out entirely if script must "
        "decide it (then make sure the rendered page has exactly one).",
        _JS_SEO,
        category=_LINKS,
    ),
    _D(
        IssueType.CANONICAL_CHANGED_BY_SCRIPT,
        _WARN,
        _PAGE,
        "Canonical changed by JavaScript",
        "the raw HTML (or Link header) names a canonical and the rendered page names another, "
        "or none",
        "The canonical in the HTML differs from the one after JavaScript. Google reads the "
        "canonical when it crawls the HTML and again after rendering; two different values are "
        "conflicting signals, and Google may choose either URL. Warning: the page may be "
        "indexed under the URL you did not mean.",
        "Send the same canonical in the HTML as the script ends with; if script must decide it, "
        "leave the canonical out of the HTML.",
        _JS_SEO,
        category=_LINKS,
    ),
    _D(
        IssueType.NOINDEX_ADDED_BY_SCRIPT,
        _WARN,
        _PAGE,
        "noindex added by JavaScript",
        "no noindex in the raw HTML or X-Robots-Tag; the rendered page's robots or googlebot "
        "meta says noindex (or none)",
        "The page becomes noindex only after JavaScript runs. Google sees it only if it renders "
        "the page, so it may or may not keep the page out of its index; crawlers that do not run "
        "JavaScript index it. Warning: the page's indexing is left to chance.",
        "If the page must stay out of search results, send the noindex in the HTML or an "
        "X-Robots-Tag header; if it should be indexed, remove the script that adds it.",
        _JS_SEO,
        category=_LINKS,
    ),
    _D(
        IssueType.NOINDEX_REMOVED_BY_SCRIPT,
        _CRIT,
        _PAGE,
        "noindex in the HTML removed by JavaScript",
        "the raw HTML's robots or googlebot meta says noindex (or none); the rendered page's "
        "does not",
        "The HTML asks search engines not to index the page and JavaScript then removes the "
        "request. Google may skip rendering a page whose HTML says noindex, so the script's "
        "change does not count: the page stays out of Google's index. Critical: the script "
        "shows the page is meant to be indexed, and it will not be.",
        "Remove the noindex from the HTML the server sends; add it only to pages that must stay "
        "out of search results.",
        _JS_SEO,
        category=_LINKS,
    ),
    _D(
        IssueType.ROBOTS_CHANGED_BY_SCRIPT,
        _INFO,
        _PAGE,
        "Robots directives changed by JavaScript",
        "the robots and googlebot meta directives differ between the raw HTML and the rendered "
        "page, noindex unchanged (nofollow, nosnippet, max-snippet...)",
        "JavaScript changes the page's robots directives. Google applies the rendered ones only "
        "when it renders the page, and crawlers that do not run JavaScript apply the raw ones. "
        "Info.",
        "Send the directives the page needs in the server's HTML.",
        _JS_SEO,
        category=_LINKS,
    ),
    _D(
        IssueType.UNCAUGHT_EXCEPTION_DURING_LOAD,
        _WARN,
        _PAGE,
        "JavaScript error while the page loads",
        "the browser reported an uncaught exception while rendering the page (count and the "
        "first messages)",
        "A script on the page failed while it loaded. Part of the page may be missing or broken "
        "for visitors, and for search engines that render it. Warning.",
        "Open the page with the browser's developer tools, find the failing script in the "
        "console and fix it.",
        "Lighthouse (errors logged to the console); " + _JS_SEO,
        category=_LINKS,
    ),
    _D(
        IssueType.CONSOLE_ERROR_DURING_LOAD,
        _INFO,
        _PAGE,
        "Console errors while the page loads",
        "the browser's console logged errors while rendering the page (count and the first "
        "messages)",
        "Something logged an error while the page loaded: a failed request, a script's own "
        "error report. Often harmless, sometimes a sign of a missing part. Info.",
        "Read the messages in the browser's console and fix what they report.",
        "Lighthouse (errors logged to the console)",
        category=_LINKS,
    ),
    _D(
        IssueType.RESOURCES_BLOCKED_BY_ROBOTS,
        _WARN,
        _PAGE,
        "Resources the page needs are blocked by robots.txt",
        "the renderer refused requests of the page because robots.txt disallows them (count "
        "and examples)",
        "robots.txt stops search engines from loading scripts, styles or data this page loads. "
        "Google renders the page without them, so what it indexes may lack content or links "
        "visitors see. Warning.",
        "Allow the page's scripts, styles and the APIs it reads in robots.txt.",
        _JS_SEO,
        (_t("SCRIPT_LINK_SAMPLE", SCRIPT_LINK_SAMPLE, "example requests listed", "siteaudit"),),
        category=_LINKS,
    ),
    _D(
        IssueType.SOFT_404,
        _WARN,
        _PAGE,
        'Page shows "not found" but answers 200',
        'the document answered 2xx and the rendered page\'s title or first H1 says "not found" '
        "(a table of phrases in 12 languages), it has < 150 words and no noindex",
        'Visitors see a "not found" page while the server reports success. Search engines treat '
        "it as a soft 404: the URL wastes crawling and may be indexed as an empty page. Warning.",
        "Answer 404 for URLs that do not exist: in a single-page app, send the browser by "
        "script to a URL the server answers with 404, or add a noindex to the not-found view.",
        _JS_SEO,
        (_t("THIN_CONTENT_WORDS", THIN_CONTENT_WORDS, "words", _ORIG_PAGE),),
        category=_LINKS,
    ),
    _D(
        IssueType.RENDERING_NOT_DONE,
        _INFO,
        _PAGE,
        "Page needs JavaScript rendering, which this audit did not do",
        "the raw HTML looked like it needed rendering and the page was not rendered (rendering "
        "off, no renderer, or the render failed; the reason is in the details)",
        "The page's content, links or head tags are likely built by JavaScript, and this audit "
        "read the raw HTML only, so its checks may miss what visitors and Google see. Info: "
        "about the audit's reach, not a fault of the page.",
        "Audit the site again with rendering on, on a deployment that has a renderer "
        "(docs/rendering.md).",
        "siteaudit (issue 30)",
        category=_LINKS,
    ),
    # ------------------------------------------------------------------ structured data (issue 32)
    _D(
        IssueType.STRUCTURED_DATA_UNKNOWN_TYPE,
        _WARN,
        _PAGE,
        "Structured data uses a type schema.org does not define",
        "an item's type (JSON-LD @type, Microdata itemtype, RDFa typeof) is not a schema.org "
        "type (the details list each with its property path and the likely intended type)",
        "Search engines ignore an item of a type they do not know, with every property on it. "
        "Warning: the markup was written to be used and is not.",
        "Correct the type's spelling and case (e.g. Prodcut -> Product), as the details suggest.",
        _SCHEMA_VALIDATOR,
        (_FINDINGS_LISTED,),
        category=_CONTENT,
    ),
    _D(
        IssueType.STRUCTURED_DATA_UNKNOWN_PROPERTY,
        _WARN,
        _PAGE,
        "Structured data uses a property schema.org does not define",
        "a property (a JSON-LD key, Microdata itemprop, RDFa property) is not a schema.org "
        "property (the details list each with its path and the likely intended name)",
        "A misspelt property is dropped by search engines, so the value it carries is lost "
        "(a price, a date, an author). Warning.",
        "Rename the property as the details suggest (e.g. colour -> color, Name -> name).",
        _SCHEMA_VALIDATOR,
        (_FINDINGS_LISTED,),
        category=_CONTENT,
    ),
    _D(
        IssueType.STRUCTURED_DATA_WRONG_VOCABULARY,
        _WARN,
        _PAGE,
        "Structured data does not name the schema.org vocabulary correctly",
        "a JSON-LD item has no @context, or an item writes schema.org terms in another "
        "namespace (www.schema.org, schema.org/ without a scheme, an undeclared schema: prefix)",
        "Without the right vocabulary the item's terms mean nothing to a consumer, so the whole "
        "item can be ignored. Warning.",
        'Start each block with "@context": "https://schema.org" and write terms without a prefix.',
        _SCHEMA_VALIDATOR,
        (_FINDINGS_LISTED,),
        category=_CONTENT,
    ),
    _D(
        IssueType.STRUCTURED_DATA_PROPERTY_NOT_ON_TYPE,
        _WARN,
        _PAGE,
        "Structured data puts a property on a type that does not have it",
        "a schema.org property whose domain includes none of the item's types or their parents",
        "The property exists but not for this kind of thing (an offer's price on a Product), so "
        "consumers do not read it where it is. Warning.",
        "Move the property to the item it belongs to (the details give the path), or give the "
        "item the type that has it.",
        _SCHEMA_VALIDATOR,
        (_FINDINGS_LISTED,),
        category=_CONTENT,
    ),
    _D(
        IssueType.STRUCTURED_DATA_INVALID_VALUE,
        _WARN,
        _PAGE,
        "Structured data has a value of the wrong kind",
        "a value fits none of the property's expected types: a malformed date, number or "
        "boolean, a nested item of an unrelated type, or an unknown enumeration member",
        "A value consumers cannot read is dropped (a date that is not ISO 8601, "
        "https://schema.org/Instock for InStock). Warning.",
        "Write the value in the expected format or type, as the details say for each path.",
        _SCHEMA_VALIDATOR,
        (_FINDINGS_LISTED,),
        category=_CONTENT,
    ),
    _D(
        IssueType.STRUCTURED_DATA_TEXT_FOR_THING,
        _INFO,
        _PAGE,
        "Structured data gives text where an item is expected",
        "a property that expects a thing (an author, an address) has plain text",
        "schema.org's data model accepts text there, so the markup is valid, but a nested item "
        "says more (a Person with a name and url). Info.",
        "Replace the text with a nested item of the expected type where it matters.",
        "schema.org data model, Conformance (https://schema.org/docs/datamodel.html)",
        (_FINDINGS_LISTED,),
        category=_CONTENT,
    ),
    _D(
        IssueType.STRUCTURED_DATA_DEPRECATED_TERM,
        _INFO,
        _PAGE,
        "Structured data uses a superseded or retired schema.org term",
        "a type, property or member that schema.org superseded (supersededBy) or retired (attic)",
        "Old terms still parse, but consumers follow the current vocabulary and may stop "
        "reading them. Info.",
        "Use the replacement term the details name.",
        _SCHEMA_VALIDATOR,
        (_FINDINGS_LISTED,),
        category=_CONTENT,
    ),
    _D(
        IssueType.RICH_RESULT_MISSING_REQUIRED,
        _WARN,
        _PAGE,
        "Structured data misses a property a rich result requires",
        "an item of a Google rich-result feature's type lacks a required property, so the page "
        "is not eligible for that feature (the details name feature and path)",
        "Google shows the rich result (product snippet, breadcrumb, recipe...) only when every "
        "required property is there: the markup earns nothing. Warning.",
        "Add the missing properties the details list, as Google's page for the feature shows.",
        _RICH_RESULTS,
        (_FINDINGS_LISTED,),
        category=_CONTENT,
    ),
    _D(
        IssueType.RICH_RESULT_MISSING_RECOMMENDED,
        _INFO,
        _PAGE,
        "Structured data misses a property a rich result recommends",
        "an item of a Google rich-result feature's type lacks a recommended property",
        "The page stays eligible, but Google may show a plainer result. Info.",
        "Add the recommended properties the details list where the page has the data.",
        _RICH_RESULTS,
        (_FINDINGS_LISTED,),
        category=_CONTENT,
    ),
    _D(
        IssueType.STRUCTURED_DATA_UNCHECKED,
        _INFO,
        _PAGE,
        "Structured data not fully checked",
        "the page has Microdata or RDFa that the audit did not read, or not all of it: the page "
        "is larger than the element tree the audit builds, or reading the markup reached its "
        "bounds (the finding's term says which: no-tree, tree-cut, read-bound)",
        "Items past the cut were not validated, so mistakes in them go unreported here. Info "
        "about the audit, not the page.",
        "Check the page in the Schema Markup Validator or Google's Rich Results Test; a smaller "
        "page (or its structured data in JSON-LD near the top) is read whole.",
        "siteaudit (structured.page)",
        (_FINDINGS_LISTED,),
        category=_CONTENT,
    ),
)


# -- the static accessibility rules (issue 31): one type per axe-core rule, from its table ---------

_A11Y_LISTED = _t("A11Y_ELEMENTS_LISTED", A11Y_ELEMENTS_LISTED, "elements listed", "siteaudit")
_IMPACT_WORDS = {"critical": "Critical", "warning": "Warning", "info": "Info"}


def _a11y_descriptor(rule: str, text: RuleText, *, rendered: bool = False) -> IssueDescriptor:
    severity = Severity(text.severity)
    criteria = "; ".join(WCAG_CRITERIA[c].label for c in text.wcag) or "a best practice"
    sources = "; ".join(f"WCAG {WCAG_CRITERIA[c].label} {understanding_url(c)}" for c in text.wcag)
    trigger = (
        f"axe-core's rule {rule} fails on an element of a page a browser rendered (WCAG: "
        f"{criteria}), decided only there: axe-core runs on the first rendered pages, and a page "
        "not rendered was not checked for it; the details list the elements (CSS selector, HTML "
        "snippet)"
        if rendered
        else f"axe-core's rule {rule} fails on an element of the page, decided from the markup "
        f"(WCAG: {criteria}); the details list the elements (CSS selector, HTML snippet)"
    )
    return _D(
        IssueType(f"a11y-{rule}"),
        severity,
        Scope.RENDERED if rendered else _PAGE,
        text.title,
        trigger,
        f"{text.explanation} {_IMPACT_WORDS[severity]}: axe-core rates its impact {text.impact}.",
        text.how_to_fix,
        f"axe-core {AXE_VERSION} rule {rule}" + (f"; {sources}" if sources else " (best practice)"),
        (_A11Y_LISTED,),
        category=Category.ACCESSIBILITY,
    )


_A11Y_DESCRIPTORS = tuple(_a11y_descriptor(rule.value, text) for rule, text in RULE_TEXTS.items())
_A11Y_DESCRIPTORS += tuple(
    _a11y_descriptor(rule.value, text, rendered=True) for rule, text in RENDERED_RULE_TEXTS.items()
)
_DESCRIPTORS += _A11Y_DESCRIPTORS

CATALOGUE: Mapping[IssueType, IssueDescriptor] = MappingProxyType({d.id: d for d in _DESCRIPTORS})


def descriptor(issue_type: IssueType) -> IssueDescriptor:
    """The descriptor of a known issue type."""
    return CATALOGUE[issue_type]


def maybe_descriptor(issue_type: str) -> IssueDescriptor | None:
    """The descriptor for an id read from storage; None for ids this catalogue does not know."""
    try:
        return CATALOGUE[IssueType(issue_type)]
    except ValueError:
        return None


def severity_of(issue_type: IssueType) -> Severity:
    return CATALOGUE[issue_type].severity


# The project's home (as in the crawler's user agent, common.settings) and this catalogue's page
# there: reports link each issue type to its row, whose anchor `render_markdown` writes.
PROJECT_URL = "https://github.com/siteaudit/siteaudit"
ISSUES_DOC_URL = f"{PROJECT_URL}/blob/main/docs/issues.md"


def doc_url(issue_type: IssueType) -> str:
    """The issue type's row in docs/issues.md on the project's site."""
    return f"{ISSUES_DOC_URL}#{issue_type.value}"


def _cell(text: str) -> str:
    # Tag names such as <title> would be swallowed as HTML by Markdown renderers.
    return text.replace("|", "\\|").replace("<", "&lt;").replace("\n", " ")


def _markdown_row(d: IssueDescriptor) -> str:
    thresholds = "<br>".join(t.render() for t in d.thresholds) or "—"
    cells = (d.severity, d.category, d.scope, d.title, d.trigger, thresholds, d.source)
    # The anchor `doc_url` links to (GitHub keeps an <a id> in Markdown and scrolls to it).
    anchor = f'<a id="{d.id.value}"></a>`{d.id}`'
    return "| " + " | ".join([anchor, *(_cell(str(c)) for c in cells)]) + " |"


def render_markdown() -> str:
    """docs/issues.md: the catalogue as a table, critical first, then catalogue order."""
    ordered = sorted(_DESCRIPTORS, key=lambda d: d.severity.order)
    counts = {s: sum(d.severity is s for d in _DESCRIPTORS) for s in Severity}
    lines = [
        "# Issue catalogue",
        "",
        (
            "Generated by `uv run python -m audit.catalogue --markdown > docs/issues.md` from "
            "`src/audit/catalogue.py`; do not edit by hand."
        ),
        "",
        f"{len(_DESCRIPTORS)} issue types: "
        + ", ".join(f"{counts[s]} {s}" for s in Severity)
        + ". Lengths are UTF-16 code units of trimmed text, as in the original system. "
        'A source "original system §N" is §N of [original-system.md](original-system.md).',
        "",
        "| id | severity | category | scope | title | trigger | threshold (source) | source |",
        "|---|---|---|---|---|---|---|---|",
        *(_markdown_row(d) for d in ordered),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if argv != ["--markdown"]:
        print("usage: python -m audit.catalogue --markdown", file=sys.stderr)
        return 2
    sys.stdout.write(render_markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
