"""One page's accessibility, as the audit keeps it: the static rules' failures on the page (and
axe-core's, on a rendered page), bounded, whether the rules saw the whole page, and whether
axe-core checked it.

This is what crosses from the crawl (which runs the rules where it observes a page) to the
audit's per-page rules (audit.rules_a11y) through the page's observation, so it is a frozen
record with a lossless `to_dict`/`from_dict`. A page with hundreds of unnamed links needs its
first ones fixed first: `findings` keeps at most `MAX_FINDINGS`, `findings_seen` counts them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from a11y.findings import Finding
from common.wire import JsonRecord

__all__ = ["MAX_FINDINGS", "PageAccessibility", "page_accessibility"]

MAX_FINDINGS: Final = 100


@dataclass(frozen=True, slots=True)
class PageAccessibility(JsonRecord):
    findings: tuple[
        Finding, ...
    ]  # failures, rule by rule in document order, the first MAX_FINDINGS
    findings_seen: int  # before the MAX_FINDINGS cut
    # False when the page was larger than the rules' bound and only its beginning was judged:
    # a rule that needs the whole page (page-has-heading-one, landmark-one-main...) then says
    # nothing rather than guess.
    complete: bool = True
    # Whether axe-core ran on the page a browser rendered and decided (a11y.merge): only then were
    # the rules only a rendered page decides (color-contrast, target-size...) checked on it.
    rendered: bool = False


def page_accessibility(
    findings: Sequence[Finding], *, complete: bool = True, seen: int | None = None
) -> PageAccessibility:
    """The record of a page's failures, cut to MAX_FINDINGS; `seen`: how many there were, where
    `findings` holds only the first of them (a11y.rules.first_failures)."""
    return PageAccessibility(
        findings=tuple(findings[:MAX_FINDINGS]),
        findings_seen=max(len(findings), seen or 0),
        complete=complete,
    )
