"""The per-page rules' input: one crawled URL as the fetcher saw it (original system §2.2, §4.7)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["FetchClass"]


class FetchClass(StrEnum):
    """How the fetch ended (original system §4.7 classification, newest version)."""

    OK = "ok"
    BLOCKED = "blocked"  # 401/403/202, cf-mitigated, or a challenge body
    RATE_LIMITED = "rate_limited"  # 429 after the throttle's retries
    ERROR = "error"  # network error or timeout; status_code 0
