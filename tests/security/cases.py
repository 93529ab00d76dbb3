"""Building observed responses for the security tests' tables."""

from __future__ import annotations

from collections.abc import Mapping

from security.grade import SecurityGrade, grade_site
from security.observed import ObservedSite, response_from_input, site_of_response
from security.results import TestName, TestOutcome

HTTPS = "https://example.com/"
HTTP = "http://example.com/"
# Every header with a bonus, and a cookie that earns its own: the best grade short of preloading.
BEST_HEADERS: dict[str, str] = {
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'; form-action 'self'",
    "strict-transport-security": "max-age=63072000; includeSubDomains",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-resource-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
    "set-cookie": "__Host-session=1; Secure; HttpOnly; Path=/; SameSite=Strict",
}


def response(
    headers: Mapping[str, str | list[str]] | None = None,
    *,
    url: str = HTTPS,
    html: str | None = None,
    redirects: list[dict[str, object]] | None = None,
    tls_verified: bool = True,
) -> dict[str, object]:
    """The `security-check` input shape; redirects default to http -> https on the same host."""
    if redirects is None:
        redirects = [{"url": HTTP, "status": 301, "headers": {}}] if url == HTTPS else []
    return {
        "url": url,
        "status": 200,
        "headers": headers or {},
        "html": html,
        "redirects": redirects,
        "tls_verified": tls_verified,
    }


def site(raw: dict[str, object]) -> ObservedSite:
    return site_of_response(response_from_input(raw))


def graded(raw: dict[str, object]) -> SecurityGrade:
    return grade_site(site(raw))


def outcome_of(raw: dict[str, object], test: TestName) -> TestOutcome:
    return next(t for t in graded(raw).tests if t.test is test)
