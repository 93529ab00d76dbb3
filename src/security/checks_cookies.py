"""The cookies test (mdn/mdn-http-observatory `src/analyzer/tests/cookies.js`).

The Observatory stores every Set-Cookie of the scan in a tough-cookie jar and grades the jar:
a cookie whose name contains "login" or "sess" is a session cookie, one containing "csrf" an
anti-CSRF token; the worst finding wins (its `goodness` order). Like the jar (tough-cookie's
default `prefixSecurity: "silent"`), cookies that break the `__Secure-`/`__Host-` prefix rules
are dropped, a later cookie replaces an earlier one of the same name, domain and path, and an
unknown SameSite value counts as absent; the raw headers of the final response are also checked
for a malformed SameSite.
"""

from __future__ import annotations

from dataclasses import dataclass

from security.observed import ObservedResponse, ObservedSite
from security.results import CookiesResult, TestName, TestOutcome, outcome

# Worst last: onlyIfWorse keeps the result furthest down this list.
_ORDER = (
    CookiesResult.WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS,
    CookiesResult.WITHOUT_SECURE_FLAG,
    CookiesResult.SESSION_WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS,
    CookiesResult.SAMESITE_FLAG_INVALID,
    CookiesResult.ANTICSRF_WITHOUT_SAMESITE_FLAG,
    CookiesResult.SESSION_WITHOUT_HTTPONLY_FLAG,
    CookiesResult.SESSION_WITHOUT_SECURE_FLAG,
)
# mozilla/http-observatory issue 282: Heroku's affinity cookie is ignored.
_IGNORED = frozenset({"heroku-session-affinity"})
_SAMESITE = frozenset({"strict", "lax", "none"})


@dataclass(frozen=True, slots=True)
class Cookie:
    name: str
    secure: bool
    http_only: bool
    same_site: str | None  # "strict", "lax", "none", or None (absent or unknown)
    domain: str | None
    path: str | None


def parse_set_cookie(header: str) -> Cookie | None:
    """One Set-Cookie value as tough-cookie's strict parser reads it; None if it refuses it."""
    first, *attributes = header.split(";")
    if "=" not in first:
        return None
    name = first.split("=", 1)[0].strip()
    flags: dict[str, str] = {}
    for attribute in attributes:
        key, _, value = attribute.partition("=")
        flags[key.strip().lower()] = value.strip()
    same_site = flags.get("samesite", "").lower()
    cookie = Cookie(
        name,
        "secure" in flags,
        "httponly" in flags,
        same_site if same_site in _SAMESITE else None,
        flags.get("domain") or None,
        flags.get("path") or None,
    )
    return cookie if _prefix_allowed(cookie) else None


def _prefix_allowed(cookie: Cookie) -> bool:
    # RFC 6265bis §4.1.3: __Secure- needs Secure; __Host- also no Domain and Path=/.
    if cookie.name.startswith("__Secure-") and not cookie.secure:
        return False
    if cookie.name.startswith("__Host-"):
        return cookie.secure and cookie.domain is None and cookie.path == "/"
    return True


def malformed_same_site(header: str) -> bool:
    """A SameSite attribute without a value or with one other than Strict, Lax or None."""
    for part in header.strip().split(";"):
        key, *rest = part.strip().split("=")
        if key.strip().lower() == "samesite":
            value = rest[0] if rest else ""
            if not value or value.strip().lower() not in _SAMESITE:
                return True
    return False


def cookies(site: ObservedSite, hsts_passed: bool) -> TestOutcome:
    name = TestName.COOKIES
    worst = _raw_same_site(site.auto)
    jar = _jar(site.cookies())
    if not jar:
        return outcome(name, CookiesResult.NOT_FOUND, True)
    for cookie in jar:
        for finding in _findings(cookie, hsts_passed):
            worst = _worse(finding, worst)
    if worst is None:
        missing = any(cookie.same_site is None for cookie in jar)
        worst = (
            CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS
            if missing
            else CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS_AND_SAMESITE
        )
    passed = worst in (
        CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS,
        CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS_AND_SAMESITE,
    )
    details = {
        c.name: {"secure": c.secure, "httponly": c.http_only, "samesite": c.same_site} for c in jar
    }
    return outcome(name, worst, passed, details)


def _raw_same_site(response: ObservedResponse | None) -> CookiesResult | None:
    raw = response.values("set-cookie") if response else []
    return CookiesResult.SAMESITE_FLAG_INVALID if any(map(malformed_same_site, raw)) else None


def _jar(headers: list[str]) -> list[Cookie]:
    jar: dict[tuple[str, str | None, str | None], Cookie] = {}
    for header in headers:
        cookie = parse_set_cookie(header)
        if cookie is not None and cookie.name and cookie.name not in _IGNORED:
            jar[(cookie.name, cookie.domain, cookie.path)] = cookie
    return list(jar.values())


def _findings(cookie: Cookie, hsts: bool) -> list[CookiesResult]:
    lower = cookie.name.lower()
    session = "login" in lower or "sess" in lower
    found: list[CookiesResult] = []
    if not cookie.secure and cookie.same_site == "none":
        found.append(CookiesResult.SAMESITE_FLAG_INVALID)
    if not cookie.secure:
        found.append(
            CookiesResult.WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS
            if hsts
            else CookiesResult.WITHOUT_SECURE_FLAG
        )
    if "csrf" in lower and cookie.same_site is None:
        found.append(CookiesResult.ANTICSRF_WITHOUT_SAMESITE_FLAG)
    if session and not cookie.secure:
        found.append(
            CookiesResult.SESSION_WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS
            if hsts
            else CookiesResult.SESSION_WITHOUT_SECURE_FLAG
        )
    if session and not cookie.http_only:
        found.append(CookiesResult.SESSION_WITHOUT_HTTPONLY_FLAG)
    return found


def _worse(new: CookiesResult, old: CookiesResult | None) -> CookiesResult:
    if old is None or _ORDER.index(new) > _ORDER.index(old):
        return new
    return old
