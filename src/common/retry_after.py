"""Retry-After (RFC 9110 §10.2.3): how long a server asked us to wait, as seconds."""

from __future__ import annotations

import email.utils

__all__ = ["parse_retry_after"]


def parse_retry_after(value: str | None, now_s: float) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP-date), or None."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - now_s)
