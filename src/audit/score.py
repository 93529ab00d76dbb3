"""Which pages an audit reaches a verdict on: the pages the scores are computed over.

Which pages are scored (decided here; docs/field.md §1.1 and §6; docs/scoring.md):
* Ahrefs divides internal URLs without Error-level issues by all internal URLs, and its users
  complain that asset URLs inflate the score. We count HTML pages only, so assets cannot move it.
* Pages with a verdict are scored: 2xx HTML pages, 4xx/5xx responses (a server error *is* a bad
  page, so it must lower the score), and blocked pages (critical `blocked-page`).
* Pages without a verdict are not: redirects (hops, judged as chains/loops on their head),
  network errors and rate-limited fetches (we learned nothing about the page), non-HTML 2xx.
* No scored page -> no score (None), rather than a misleading 0 or 100.

The scores themselves (categories, overall, what each finding costs) are audit.verdict's; D1 adds
up the same pages in SQL (auditdb.repository.SCORED_PAGE mirrors `is_scored`).
"""

from __future__ import annotations

from typing import Protocol

from common.fetch_class import FetchClass

__all__ = ["ScoredPage", "is_scored"]


class ScoredPage(Protocol):
    """What scoring needs of a page row (PageObservation and stored rows both fit)."""

    @property
    def url(self) -> str: ...
    @property
    def status_code(self) -> int: ...
    @property
    def fetch_class(self) -> str: ...
    @property
    def is_html(self) -> bool: ...


def is_scored(page: ScoredPage) -> bool:
    """True for pages the audit reached a verdict on (see the module docstring)."""
    if page.fetch_class == FetchClass.BLOCKED:
        return True
    if page.fetch_class != FetchClass.OK:
        return False
    if 300 <= page.status_code < 400:
        return False
    return page.status_code >= 400 or page.is_html
