"""Security-header checks on HTML pages, graded the way the MDN HTTP Observatory grades them
(docs/field.md §3.1). Only the decisions that cost points are reported, and only on https pages for
HSTS (browsers ignore HSTS received over http).

CSP is read from the response header only: PageFacts does not report `<meta http-equiv=
Content-Security-Policy>`, so a page relying on a meta CSP is reported as missing one.
"""

from __future__ import annotations

from audit.catalogue import HSTS_MIN_MAX_AGE_S, IssueType
from audit.issues import DetectedIssue
from audit.page import PageObservation

__all__ = [
    "content_type_options_missing",
    "csp_missing",
    "frame_protection_missing",
    "hsts_issues",
    "hsts_max_age",
]

# Observatory: DENY, SAMEORIGIN and ALLOW-FROM earn 0; anything else counts as invalid (-20).
_VALID_XFO = ("DENY", "SAMEORIGIN", "ALLOW-FROM")


def hsts_max_age(header: str | None) -> int | None:
    """`max-age` of a Strict-Transport-Security value (RFC 6797 §6.1); None if absent/invalid."""
    for directive in (header or "").split(";"):
        name, _, value = directive.partition("=")
        if name.strip().lower() == "max-age":
            digits = value.strip().strip('"')
            return int(digits) if digits.isascii() and digits.isdigit() else None
    return None


def hsts_issues(obs: PageObservation) -> list[DetectedIssue]:
    """Observatory HSTS: missing or invalid -20; max-age below 6 months -10."""
    if not obs.is_https:
        return []
    max_age = hsts_max_age(obs.strict_transport_security)
    if max_age is None:
        details = {"header": obs.strict_transport_security}
        return [DetectedIssue(IssueType.HSTS_MISSING, obs.url, details)]
    if max_age < HSTS_MIN_MAX_AGE_S:
        return [DetectedIssue(IssueType.HSTS_TOO_SHORT, obs.url, {"maxAge": max_age})]
    return []


def content_type_options_missing(obs: PageObservation) -> list[DetectedIssue]:
    """Observatory X-Content-Type-Options: anything but `nosniff` -5."""
    value = obs.x_content_type_options
    if value is not None and value.strip().lower() == "nosniff":
        return []
    return [DetectedIssue(IssueType.CONTENT_TYPE_OPTIONS_MISSING, obs.url, {"header": value})]


def csp_missing(obs: PageObservation) -> list[DetectedIssue]:
    """Observatory CSP: a missing policy -25 (only presence is judged here)."""
    if obs.content_security_policy and obs.content_security_policy.strip():
        return []
    return [DetectedIssue(IssueType.CSP_MISSING, obs.url)]


def _has_frame_ancestors(csp: str | None) -> bool:
    directives = (part.strip().split(None, 1) for part in (csp or "").split(";"))
    return any(tokens and tokens[0].lower() == "frame-ancestors" for tokens in directives)


def _valid_xfo(value: str | None) -> bool:
    return value is not None and value.strip().upper().startswith(_VALID_XFO)


def frame_protection_missing(obs: PageObservation) -> list[DetectedIssue]:
    """Observatory X-Frame-Options: neither a valid X-Frame-Options nor CSP frame-ancestors -20."""
    if _valid_xfo(obs.x_frame_options) or _has_frame_ancestors(obs.content_security_policy):
        return []
    details = {"header": obs.x_frame_options}
    return [DetectedIssue(IssueType.FRAME_PROTECTION_MISSING, obs.url, details)]
