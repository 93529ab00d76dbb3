"""How a fetch ended, from its status, headers and the start of its body (original system §4.7).

The newest original rules (`classify-fetch.ts`), in their order: the order matters because
Cloudflare's rate-limit rules also set `cf-mitigated`, so 429 is checked first. Only the first
4,000 characters of the body are inspected, as the original does: challenge pages announce
themselves in `<head>`, and a bounded scan keeps classification cheap on 1 MiB bodies.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum

from common import settings

__all__ = ["FetchClass", "classify_fetch"]


class FetchClass(StrEnum):
    """How the fetch ended (original system §4.7 classification, newest version)."""

    OK = "ok"
    BLOCKED = "blocked"  # 401/403/202, cf-mitigated, or a challenge body
    RATE_LIMITED = "rate_limited"  # 429 after the throttle's retries
    ERROR = "error"  # network error or timeout; status_code 0


# Cloudflare's interstitial ("Just a moment...") and block page ("Attention Required! |
# Cloudflare") titles, served with 2xx by some configurations.
_CHALLENGE_TITLE = re.compile(
    r"<title[^>]*>\s*(?:just a moment\.\.\.|attention required! \| cloudflare)\s*</title>",
    re.IGNORECASE,
)
# SiteGround's bot challenge redirects through this path from a 2xx page.
_SITEGROUND_CAPTCHA = "/.well-known/sgcaptcha/"
# Markers of challenge pages served as 503 (Cloudflare, and "verifying you are human" pages).
_CHALLENGE_503_MARKERS = (
    "just a moment...",
    "challenge-platform",
    "cf-browser-verification",
    "attention required! | cloudflare",
    "verifying you are human",
)


def classify_fetch(status: int, headers: Mapping[str, str], body_head: str) -> FetchClass:
    """ok | blocked | rate_limited | error. `status` 0 means the fetch itself failed."""
    if status == 0:
        return FetchClass.ERROR
    if status == 429:
        return FetchClass.RATE_LIMITED
    if any(name.lower() == "cf-mitigated" for name in headers):
        return FetchClass.BLOCKED
    # 202: SiteGround and AWS WAF answer bots with an empty "accepted" challenge.
    if status in (401, 403, 202):
        return FetchClass.BLOCKED
    head = body_head[: settings.CRAWL.body_head_chars]
    if 200 <= status < 300 and _is_2xx_challenge(head):
        return FetchClass.BLOCKED
    if status == 503 and _is_503_challenge(head):
        return FetchClass.BLOCKED
    return FetchClass.OK


def _is_2xx_challenge(head: str) -> bool:
    return _CHALLENGE_TITLE.search(head) is not None or _SITEGROUND_CAPTCHA in head


def _is_503_challenge(head: str) -> bool:
    lowered = head.lower()
    return any(marker in lowered for marker in _CHALLENGE_503_MARKERS)
