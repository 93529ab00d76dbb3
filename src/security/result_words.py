"""The security grade's tests and results in words for the site's owner.

A grade test's row carries the Observatory's identifiers (security.results:
`hsts-not-implemented-no-https`, `redirection-missing`); a report that prints them with the
dashes taken out reads as a code ("hsts not implemented no https"). These say what was found,
in our own words, from what each result means in mdn/mdn-http-observatory
(`src/grader/charts.js`, the descriptions beside `SCORE_TABLE`) and in MDN's pages on the
headers. Every result id of `RESULTS_OF` has its words (tests/security/test_result_words.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from security.results import (
    CoepResult,
    CookiesResult,
    CoopResult,
    CorpResult,
    CorsResult,
    CspResult,
    HstsResult,
    RedirectionResult,
    ReferrerPolicyResult,
    SriResult,
    TestName,
    XContentTypeOptionsResult,
    XFrameOptionsResult,
)

__all__ = ["RESULT_WORDS", "TEST_WORDS", "grade_result_words", "grade_test_words"]

TEST_WORDS: Mapping[str, str] = {
    TestName.CONTENT_SECURITY_POLICY: "Content-Security-Policy",
    TestName.COOKIES: "cookies",
    TestName.CROSS_ORIGIN_RESOURCE_SHARING: "cross-origin resource sharing",
    TestName.REDIRECTION: "redirection to https",
    TestName.REFERRER_POLICY: "Referrer-Policy",
    TestName.STRICT_TRANSPORT_SECURITY: "Strict-Transport-Security",
    TestName.SUBRESOURCE_INTEGRITY: "Subresource Integrity",
    TestName.X_CONTENT_TYPE_OPTIONS: "X-Content-Type-Options",
    TestName.X_FRAME_OPTIONS: "X-Frame-Options",
    TestName.CROSS_ORIGIN_RESOURCE_POLICY: "Cross-Origin-Resource-Policy",
    TestName.CROSS_ORIGIN_OPENER_POLICY: "Cross-Origin-Opener-Policy",
    TestName.CROSS_ORIGIN_EMBEDDER_POLICY: "Cross-Origin-Embedder-Policy",
}

RESULT_WORDS: Mapping[str, str] = {
    # Content-Security-Policy
    CspResult.NO_UNSAFE_DEFAULT_SRC_NONE: "a policy without unsafe sources and with "
    "default-src 'none'",
    CspResult.NO_UNSAFE: "a policy without 'unsafe-inline' or 'unsafe-eval'",
    CspResult.UNSAFE_INLINE_IN_STYLE_SRC_ONLY: "a policy that allows 'unsafe-inline' for styles "
    "only",
    CspResult.INSECURE_SCHEME_IN_PASSIVE_CONTENT_ONLY: "a policy that lets images or media load "
    "over plain http",
    CspResult.UNSAFE_EVAL: "a policy that allows 'unsafe-eval'",
    CspResult.UNSAFE_INLINE: "a policy that allows 'unsafe-inline' scripts (or an equivalent), "
    "so it does not stop injected scripts",
    CspResult.INSECURE_SCHEME: "a policy that lets scripts or other active content load over "
    "plain http",
    CspResult.DUPLICATE_DIRECTIVES: "a policy that names a directive twice (browsers use the "
    "first)",
    CspResult.HEADER_INVALID: "a policy header that browsers cannot read",
    CspResult.NOT_IMPLEMENTED: "no Content-Security-Policy header",
    CspResult.NOT_IMPLEMENTED_BUT_REPORTING_ENABLED: "a report-only policy, which enforces nothing",
    # Cookies
    CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS_AND_SAMESITE: "every cookie Secure, session "
    "cookies HttpOnly, and SameSite set",
    CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS: "every cookie Secure and session cookies HttpOnly",
    CookiesResult.NOT_FOUND: "no cookies",
    CookiesResult.WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS: "cookies without the Secure flag "
    "(HSTS protects them)",
    CookiesResult.SESSION_WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS: "session cookies without "
    "the Secure flag (HSTS protects them)",
    CookiesResult.WITHOUT_SECURE_FLAG: "cookies without the Secure flag, which can travel over "
    "plain http",
    CookiesResult.SAMESITE_FLAG_INVALID: "a cookie with a SameSite value browsers do not know",
    CookiesResult.ANTICSRF_WITHOUT_SAMESITE_FLAG: "an anti-CSRF cookie without SameSite",
    CookiesResult.SESSION_WITHOUT_HTTPONLY_FLAG: "session cookies without HttpOnly, which "
    "scripts can read",
    CookiesResult.SESSION_WITHOUT_SECURE_FLAG: "session cookies without the Secure flag, which "
    "can travel over plain http",
    # Cross-origin resource sharing
    CorsResult.NOT_IMPLEMENTED: "no cross-origin access granted",
    CorsResult.PUBLIC_ACCESS: "public content shared with every origin, without credentials",
    CorsResult.RESTRICTED_ACCESS: "content shared with named origins only",
    CorsResult.UNIVERSAL_ACCESS: "content shared with every origin, with credentials",
    # Redirection
    RedirectionResult.ALL_REDIRECTS_PRELOADED: "every redirect on an HSTS-preloaded host",
    RedirectionResult.TO_HTTPS: "http redirects to https on the same host",
    RedirectionResult.NOT_NEEDED_NO_HTTP: "no plain-http site to redirect",
    RedirectionResult.OFF_HOST_FROM_HTTP: "http redirects to another host before https",
    RedirectionResult.NOT_TO_HTTPS_ON_INITIAL_REDIRECTION: "http's first redirect does not go "
    "to https",
    RedirectionResult.NOT_TO_HTTPS: "http redirects, but never to https",
    RedirectionResult.MISSING: "http does not redirect to https",
    RedirectionResult.INVALID_CERT: "https answers with a certificate browsers reject",
    # Referrer-Policy
    ReferrerPolicyResult.PRIVATE: "a policy that keeps full addresses from other sites",
    ReferrerPolicyResult.NOT_IMPLEMENTED: "no Referrer-Policy header (browsers' default applies)",
    ReferrerPolicyResult.UNSAFE: "a policy that sends full addresses to other sites, even "
    "from https to http",
    ReferrerPolicyResult.HEADER_INVALID: "a Referrer-Policy header browsers cannot read",
    # Strict-Transport-Security
    HstsResult.PRELOADED: "the host is on browsers' HSTS preload list",
    HstsResult.MAX_AGE_AT_LEAST_SIX_MONTHS: "HSTS for six months or more",
    HstsResult.MAX_AGE_LESS_THAN_SIX_MONTHS: "HSTS for less than six months",
    HstsResult.NOT_IMPLEMENTED: "no Strict-Transport-Security header",
    HstsResult.HEADER_INVALID: "a Strict-Transport-Security header browsers cannot read",
    HstsResult.NOT_IMPLEMENTED_NO_HTTPS: "no Strict-Transport-Security, because the site is not "
    "served over https",
    HstsResult.INVALID_CERT: "no usable HSTS, because the certificate is rejected",
    # Subresource Integrity
    SriResult.IMPLEMENTED_AND_ALL_SCRIPTS_LOADED_SECURELY: "every script from the site itself, "
    "with integrity checks",
    SriResult.IMPLEMENTED_AND_EXTERNAL_SCRIPTS_LOADED_SECURELY: "scripts from other origins "
    "with integrity checks, over https",
    SriResult.NOT_IMPLEMENTED_RESPONSE_NOT_HTML: "not an HTML page, so no scripts to check",
    SriResult.NOT_IMPLEMENTED_BUT_NO_SCRIPTS_LOADED: "no scripts loaded",
    SriResult.NOT_IMPLEMENTED_BUT_ALL_SCRIPTS_LOADED_FROM_SECURE_ORIGIN: "every script from the "
    "site itself",
    SriResult.NOT_IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_LOADED_SECURELY: "scripts from other origins "
    "over https, without integrity checks",
    SriResult.IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY: "integrity checks, but "
    "scripts from other origins over plain http",
    SriResult.NOT_IMPLEMENTED_AND_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY: "scripts from other "
    "origins over plain http, without integrity checks",
    SriResult.HTML_NOT_PARSEABLE: "a page that could not be parsed",
    # X-Content-Type-Options
    XContentTypeOptionsResult.NOSNIFF: "X-Content-Type-Options: nosniff",
    XContentTypeOptionsResult.NOT_IMPLEMENTED: "no X-Content-Type-Options header",
    XContentTypeOptionsResult.HEADER_INVALID: "an X-Content-Type-Options value other than nosniff",
    # X-Frame-Options
    XFrameOptionsResult.IMPLEMENTED_VIA_CSP: "framing limited by the policy's frame-ancestors",
    XFrameOptionsResult.SAMEORIGIN_OR_DENY: "X-Frame-Options DENY or SAMEORIGIN",
    XFrameOptionsResult.ALLOW_FROM_ORIGIN: "X-Frame-Options ALLOW-FROM, which browsers ignore",
    XFrameOptionsResult.NOT_IMPLEMENTED: "nothing stops other sites framing the page "
    "(clickjacking)",
    XFrameOptionsResult.HEADER_INVALID: "an X-Frame-Options header browsers cannot read",
    # Cross-Origin-Resource-Policy
    CorpResult.NOT_IMPLEMENTED: "no Cross-Origin-Resource-Policy header",
    CorpResult.SAME_ORIGIN: "resources loadable by the same origin only",
    CorpResult.SAME_SITE: "resources loadable by the same site only",
    CorpResult.CROSS_ORIGIN: "resources loadable by any origin",
    CorpResult.HEADER_INVALID: "a Cross-Origin-Resource-Policy header browsers cannot read",
    # Cross-Origin-Opener-Policy
    CoopResult.NOT_IMPLEMENTED: "no Cross-Origin-Opener-Policy header",
    CoopResult.SAME_ORIGIN: "windows isolated from other origins",
    CoopResult.SAME_ORIGIN_ALLOW_POPUPS: "windows isolated, popups kept",
    CoopResult.NOOPENER_ALLOW_POPUPS: "windows isolated, popups opened without a reference back",
    CoopResult.UNSAFE_NONE: "no window isolation (unsafe-none)",
    CoopResult.HEADER_INVALID: "a Cross-Origin-Opener-Policy header browsers cannot read",
    # Cross-Origin-Embedder-Policy
    CoepResult.NOT_IMPLEMENTED: "no Cross-Origin-Embedder-Policy header",
    CoepResult.REQUIRE_CORP: "only resources that allow it may be embedded (require-corp)",
    CoepResult.CREDENTIALLESS: "resources embedded without credentials (credentialless)",
    CoepResult.UNSAFE_NONE: "no embedding restriction (unsafe-none)",
    CoepResult.HEADER_INVALID: "a Cross-Origin-Embedder-Policy header browsers cannot read",
}


def grade_test_words(name: str) -> str:
    """A grade test's name for a reader; an unknown one with its dashes as spaces."""
    return TEST_WORDS.get(name) or name.replace("-", " ")


def grade_result_words(result: str) -> str:
    """What a grade test found, for a reader; an unknown id with its dashes as spaces."""
    return RESULT_WORDS.get(result) or result.replace("-", " ")
