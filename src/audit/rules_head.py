"""Per-page rules, steps 9-17 of the original's evaluation order: indexability, canonical, depth,
JavaScript shells, title, meta description, H1 and heading order.

Source: original system §1.2 steps 9-17, §6.1. Lengths are JavaScript string lengths (UTF-16 code
units) of the trimmed text, as the original measured them.
"""

from __future__ import annotations

from itertools import pairwise

from audit.catalogue import (
    DEEP_PAGE_DEPTH,
    HEADING_MAX_STEP,
    JS_SHELL_MAX_WORDS,
    META_DESCRIPTION_MAX_CHARS,
    META_DESCRIPTION_MIN_CHARS,
    TITLE_MAX_CHARS,
    TITLE_MIN_CHARS,
    IssueType,
)
from audit.issues import DetectedIssue
from audit.page import PageObservation
from audit.text import js_length
from parse.facts import PageFacts

__all__ = [
    "canonical_conflict",
    "canonicalized_page",
    "deep_page",
    "h1_issues",
    "has_executable_script",
    "heading_order_skip",
    "is_javascript_shell",
    "javascript_shell",
    "meta_description_issues",
    "noindex_page",
    "title_issues",
]

# Script types a browser executes (HTML spec "classic" and "module" scripts).
_EXECUTABLE_SCRIPT_TYPES = frozenset({"", "module", "text/javascript", "application/javascript"})


def noindex_page(obs: PageObservation) -> list[DetectedIssue]:
    """Step 9: noindex in the robots meta or X-Robots-Tag."""
    if obs.is_indexable:
        return []
    details = {"robotsMeta": obs.robots_meta, "xRobotsTag": obs.x_robots_tag}
    return [DetectedIssue(IssueType.NOINDEX_PAGE, obs.url, details)]


def canonical_conflict(obs: PageObservation) -> list[DetectedIssue]:
    """Step 10: HTML and Link-header canonicals both present and different (after normalising)."""
    html, header = obs.html_canonical, obs.normalized_header_canonical
    if not html or not header or html == header:
        return []
    details = {"htmlCanonical": html, "headerCanonical": header}
    return [DetectedIssue(IssueType.CANONICAL_CONFLICT, obs.url, details)]


def canonicalized_page(obs: PageObservation) -> list[DetectedIssue]:
    """Step 11: the effective canonical names another URL."""
    canonical = obs.effective_canonical
    if not canonical or canonical == obs.url:
        return []
    return [DetectedIssue(IssueType.CANONICALIZED_PAGE, obs.url, {"canonicalUrl": canonical})]


def deep_page(obs: PageObservation) -> list[DetectedIssue]:
    """Step 12: crawl depth >= 5 (sitemap-only pages have no depth and never fire)."""
    depth = obs.crawl_depth
    if depth is None or depth < DEEP_PAGE_DEPTH:
        return []
    return [DetectedIssue(IssueType.DEEP_PAGE, obs.url, {"crawlDepth": depth})]


def has_executable_script(facts: PageFacts) -> bool:
    return any(
        (script.type or "").strip().lower() in _EXECUTABLE_SCRIPT_TYPES for script in facts.scripts
    )


def is_javascript_shell(facts: PageFacts) -> bool:
    """The original's app-shell heuristic (§6.1) minus its app-root test, which PageFacts does not
    report: an executable script, fewer than 20 words, and no headings, links or images."""
    return (
        has_executable_script(facts)
        and facts.word_count < JS_SHELL_MAX_WORDS
        and not facts.headings
        and facts.links_seen == 0
        and facts.images_seen == 0
    )


def javascript_shell(obs: PageObservation) -> list[DetectedIssue]:
    """Step 13: an unrendered app shell; the caller stops after it."""
    if obs.facts is None or not is_javascript_shell(obs.facts):
        return []
    details = {"wordCount": obs.word_count}
    return [DetectedIssue(IssueType.JAVASCRIPT_RENDERING_SUSPECTED, obs.url, details)]


def _length_issue(
    obs: PageObservation,
    text: str,
    missing: IssueType,
    too_long: tuple[IssueType, int],
    too_short: tuple[IssueType, int],
) -> list[DetectedIssue]:
    if not text:
        return [DetectedIssue(missing, obs.url)]
    length = js_length(text)
    if length > too_long[1]:
        return [DetectedIssue(too_long[0], obs.url, {"length": length})]
    if length < too_short[1]:
        return [DetectedIssue(too_short[0], obs.url, {"length": length})]
    return []


def title_issues(obs: PageObservation) -> list[DetectedIssue]:
    """Step 14: missing-title, else title-too-long (> 60), else title-too-short (< 10)."""
    return _length_issue(
        obs,
        obs.title,
        IssueType.MISSING_TITLE,
        (IssueType.TITLE_TOO_LONG, TITLE_MAX_CHARS),
        (IssueType.TITLE_TOO_SHORT, TITLE_MIN_CHARS),
    )


def meta_description_issues(obs: PageObservation) -> list[DetectedIssue]:
    """Step 15: missing-meta-description, else too long (> 160), else too short (< 70)."""
    return _length_issue(
        obs,
        obs.meta_description,
        IssueType.MISSING_META_DESCRIPTION,
        (IssueType.META_DESCRIPTION_TOO_LONG, META_DESCRIPTION_MAX_CHARS),
        (IssueType.META_DESCRIPTION_TOO_SHORT, META_DESCRIPTION_MIN_CHARS),
    )


def h1_issues(obs: PageObservation) -> list[DetectedIssue]:
    """Step 16: no non-empty H1 -> missing-h1; more than one -> multiple-h1."""
    count = obs.h1_count
    if count == 0:
        return [DetectedIssue(IssueType.MISSING_H1, obs.url)]
    if count > 1:
        return [DetectedIssue(IssueType.MULTIPLE_H1, obs.url, {"h1Count": count})]
    return []


def heading_order_skip(obs: PageObservation) -> list[DetectedIssue]:
    """Step 17: a heading more than one level deeper than the heading before it. Going back up any
    amount is fine, and the first heading may have any level."""
    levels = obs.heading_levels
    skips = [(a, b) for a, b in pairwise(levels) if b - a > HEADING_MAX_STEP]
    if not skips:
        return []
    first_from, first_to = skips[0]
    details = {"from": first_from, "to": first_to}
    return [DetectedIssue(IssueType.HEADING_ORDER_SKIP, obs.url, details)]
