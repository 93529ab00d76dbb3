"""Per-page rules, steps 18-20 of the original's evaluation order, and its branch-only JSON-LD
validity check: body content, images, outgoing links, structured data.

Source: original system §1.2 steps 18-20 and the branch checks (@4ff1019).
"""

from __future__ import annotations

from audit.catalogue import THIN_CONTENT_WORDS, IssueType
from audit.issues import DetectedIssue
from audit.page import PageObservation
from common.wire import JsonObject

__all__ = [
    "images_missing_alt",
    "invalid_structured_data",
    "no_outgoing_links",
    "thin_content",
]


def thin_content(obs: PageObservation) -> list[DetectedIssue]:
    """Step 18: an indexable page with fewer than 150 words (noindex pages chose not to rank)."""
    if not obs.is_indexable or obs.word_count >= THIN_CONTENT_WORDS:
        return []
    return [DetectedIssue(IssueType.THIN_CONTENT, obs.url, {"wordCount": obs.word_count})]


def images_missing_alt(obs: PageObservation) -> list[DetectedIssue]:
    """Step 19: images with *no* alt attribute; alt="" marks a decorative image correctly (HTML
    spec), so it does not count. Counts are over the extractor's capped image list, as the
    original's were."""
    images = obs.facts.images if obs.facts else ()
    missing = sum(1 for image in images if image.alt is None)
    if missing == 0:
        return []
    details = {"imagesMissingAlt": missing, "imagesTotal": len(images)}
    return [DetectedIssue(IssueType.IMAGES_MISSING_ALT, obs.url, details)]


def _has_outgoing_link(obs: PageObservation) -> bool:
    # The extractor already dropped javascript:, mailto:, tel: and #fragment hrefs; the original
    # also dropped hrefs that do not resolve to an http(s) URL.
    links = obs.facts.links if obs.facts else ()
    return any(
        link.href.url is not None and link.href.url.lower().startswith(("http:", "https:"))
        for link in links
    )


def no_outgoing_links(obs: PageObservation) -> list[DetectedIssue]:
    """Step 20: an indexable page without a single followable link (internal or external)."""
    if not obs.is_indexable or _has_outgoing_link(obs):
        return []
    return [DetectedIssue(IssueType.NO_OUTGOING_LINKS, obs.url)]


def invalid_structured_data(obs: PageObservation) -> list[DetectedIssue]:
    """Branch check: a JSON-LD block that is not valid JSON. Search engines drop such blocks."""
    json_ld = obs.facts.json_ld if obs.facts else None
    if json_ld is None or json_ld.parse_errors == 0:
        return []
    details: JsonObject = {
        "errorCount": json_ld.parse_errors,
        "blocks": json_ld.blocks,
        "types": list(json_ld.types),
    }
    return [DetectedIssue(IssueType.INVALID_STRUCTURED_DATA, obs.url, details)]
