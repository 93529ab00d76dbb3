"""The Observatory's test names, result identifiers and score modifiers (algorithm version 6).

Result identifiers and modifiers are those of mdn/mdn-http-observatory `src/types.js`
(`Expectation`) and `src/grader/charts.js` (`SCORE_TABLE`), with two later changes: pull request
332 (algorithm version 5) raised `x-frame-options-sameorigin-or-deny` from 0 to +5, and pull
request 498 (version 6) added the COOP and COEP tables (0 or +10, -5 for an invalid header).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from common.wire import JsonMapping, JsonRecord

ALGORITHM_VERSION = 6


class TestName(StrEnum):
    """The 12 tests, in the order of the Observatory's ALL_TESTS (src/constants.js) + v6."""

    __test__ = False  # not a pytest class

    CONTENT_SECURITY_POLICY = "content-security-policy"
    COOKIES = "cookies"
    CROSS_ORIGIN_RESOURCE_SHARING = "cross-origin-resource-sharing"
    REDIRECTION = "redirection"
    REFERRER_POLICY = "referrer-policy"
    STRICT_TRANSPORT_SECURITY = "strict-transport-security"
    SUBRESOURCE_INTEGRITY = "subresource-integrity"
    X_CONTENT_TYPE_OPTIONS = "x-content-type-options"
    X_FRAME_OPTIONS = "x-frame-options"
    CROSS_ORIGIN_RESOURCE_POLICY = "cross-origin-resource-policy"
    CROSS_ORIGIN_OPENER_POLICY = "cross-origin-opener-policy"
    CROSS_ORIGIN_EMBEDDER_POLICY = "cross-origin-embedder-policy"


class CspResult(StrEnum):
    NO_UNSAFE_DEFAULT_SRC_NONE = "csp-implemented-with-no-unsafe-default-src-none"
    NO_UNSAFE = "csp-implemented-with-no-unsafe"
    UNSAFE_INLINE_IN_STYLE_SRC_ONLY = "csp-implemented-with-unsafe-inline-in-style-src-only"
    INSECURE_SCHEME_IN_PASSIVE_CONTENT_ONLY = (
        "csp-implemented-with-insecure-scheme-in-passive-content-only"
    )
    UNSAFE_EVAL = "csp-implemented-with-unsafe-eval"
    UNSAFE_INLINE = "csp-implemented-with-unsafe-inline"
    INSECURE_SCHEME = "csp-implemented-with-insecure-scheme"
    DUPLICATE_DIRECTIVES = "csp-implemented-but-duplicate-directives"
    HEADER_INVALID = "csp-header-invalid"
    NOT_IMPLEMENTED = "csp-not-implemented"
    NOT_IMPLEMENTED_BUT_REPORTING_ENABLED = "csp-not-implemented-but-reporting-enabled"


class CookiesResult(StrEnum):
    SECURE_WITH_HTTPONLY_SESSIONS_AND_SAMESITE = (
        "cookies-secure-with-httponly-sessions-and-samesite"
    )
    SECURE_WITH_HTTPONLY_SESSIONS = "cookies-secure-with-httponly-sessions"
    NOT_FOUND = "cookies-not-found"
    WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS = "cookies-without-secure-flag-but-protected-by-hsts"
    SESSION_WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS = (
        "cookies-session-without-secure-flag-but-protected-by-hsts"
    )
    WITHOUT_SECURE_FLAG = "cookies-without-secure-flag"
    SAMESITE_FLAG_INVALID = "cookies-samesite-flag-invalid"
    ANTICSRF_WITHOUT_SAMESITE_FLAG = "cookies-anticsrf-without-samesite-flag"
    SESSION_WITHOUT_HTTPONLY_FLAG = "cookies-session-without-httponly-flag"
    SESSION_WITHOUT_SECURE_FLAG = "cookies-session-without-secure-flag"


class CorsResult(StrEnum):
    NOT_IMPLEMENTED = "cross-origin-resource-sharing-not-implemented"
    PUBLIC_ACCESS = "cross-origin-resource-sharing-implemented-with-public-access"
    RESTRICTED_ACCESS = "cross-origin-resource-sharing-implemented-with-restricted-access"
    UNIVERSAL_ACCESS = "cross-origin-resource-sharing-implemented-with-universal-access"


class RedirectionResult(StrEnum):
    ALL_REDIRECTS_PRELOADED = "redirection-all-redirects-preloaded"
    TO_HTTPS = "redirection-to-https"
    NOT_NEEDED_NO_HTTP = "redirection-not-needed-no-http"
    OFF_HOST_FROM_HTTP = "redirection-off-host-from-http"
    NOT_TO_HTTPS_ON_INITIAL_REDIRECTION = "redirection-not-to-https-on-initial-redirection"
    NOT_TO_HTTPS = "redirection-not-to-https"
    MISSING = "redirection-missing"
    INVALID_CERT = "redirection-invalid-cert"


class ReferrerPolicyResult(StrEnum):
    PRIVATE = "referrer-policy-private"
    NOT_IMPLEMENTED = "referrer-policy-not-implemented"
    UNSAFE = "referrer-policy-unsafe"
    HEADER_INVALID = "referrer-policy-header-invalid"


class HstsResult(StrEnum):
    PRELOADED = "hsts-preloaded"
    MAX_AGE_AT_LEAST_SIX_MONTHS = "hsts-implemented-max-age-at-least-six-months"
    MAX_AGE_LESS_THAN_SIX_MONTHS = "hsts-implemented-max-age-less-than-six-months"
    NOT_IMPLEMENTED = "hsts-not-implemented"
    HEADER_INVALID = "hsts-header-invalid"
    NOT_IMPLEMENTED_NO_HTTPS = "hsts-not-implemented-no-https"
    INVALID_CERT = "hsts-invalid-cert"


class SriResult(StrEnum):
    IMPLEMENTED_AND_ALL_SCRIPTS_LOADED_SECURELY = "sri-implemented-and-all-scripts-loaded-securely"
    IMPLEMENTED_AND_EXTERNAL_SCRIPTS_LOADED_SECURELY = (
        "sri-implemented-and-external-scripts-loaded-securely"
    )
    NOT_IMPLEMENTED_RESPONSE_NOT_HTML = "sri-not-implemented-response-not-html"
    NOT_IMPLEMENTED_BUT_NO_SCRIPTS_LOADED = "sri-not-implemented-but-no-scripts-loaded"
    NOT_IMPLEMENTED_BUT_ALL_SCRIPTS_LOADED_FROM_SECURE_ORIGIN = (
        "sri-not-implemented-but-all-scripts-loaded-from-secure-origin"
    )
    NOT_IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_LOADED_SECURELY = (
        "sri-not-implemented-but-external-scripts-loaded-securely"
    )
    IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY = (
        "sri-implemented-but-external-scripts-not-loaded-securely"
    )
    NOT_IMPLEMENTED_AND_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY = (
        "sri-not-implemented-and-external-scripts-not-loaded-securely"
    )
    # The Observatory's generic result, given by this test when jsdom throws on the body. The
    # HTML parsing algorithm (and Python's html.parser) accepts any text, so this port never
    # gives it; it stays in the vocabulary and the score table for results read back.
    HTML_NOT_PARSEABLE = "html-not-parseable"


class XContentTypeOptionsResult(StrEnum):
    NOSNIFF = "x-content-type-options-nosniff"
    NOT_IMPLEMENTED = "x-content-type-options-not-implemented"
    HEADER_INVALID = "x-content-type-options-header-invalid"


class XFrameOptionsResult(StrEnum):
    IMPLEMENTED_VIA_CSP = "x-frame-options-implemented-via-csp"
    SAMEORIGIN_OR_DENY = "x-frame-options-sameorigin-or-deny"
    ALLOW_FROM_ORIGIN = "x-frame-options-allow-from-origin"
    NOT_IMPLEMENTED = "x-frame-options-not-implemented"
    HEADER_INVALID = "x-frame-options-header-invalid"


class CorpResult(StrEnum):
    NOT_IMPLEMENTED = "corp-not-implemented"
    SAME_ORIGIN = "corp-implemented-with-same-origin"
    SAME_SITE = "corp-implemented-with-same-site"
    CROSS_ORIGIN = "corp-implemented-with-cross-origin"
    HEADER_INVALID = "corp-header-invalid"


class CoopResult(StrEnum):
    NOT_IMPLEMENTED = "coop-not-implemented"
    SAME_ORIGIN = "coop-implemented-with-same-origin"
    SAME_ORIGIN_ALLOW_POPUPS = "coop-implemented-with-same-origin-allow-popups"
    NOOPENER_ALLOW_POPUPS = "coop-implemented-with-noopener-allow-popups"
    UNSAFE_NONE = "coop-implemented-with-unsafe-none"
    HEADER_INVALID = "coop-header-invalid"


class CoepResult(StrEnum):
    NOT_IMPLEMENTED = "coep-not-implemented"
    REQUIRE_CORP = "coep-implemented-with-require-corp"
    CREDENTIALLESS = "coep-implemented-with-credentialless"
    UNSAFE_NONE = "coep-implemented-with-unsafe-none"
    HEADER_INVALID = "coep-header-invalid"


type ResultId = (
    CspResult
    | CookiesResult
    | CorsResult
    | RedirectionResult
    | ReferrerPolicyResult
    | HstsResult
    | SriResult
    | XContentTypeOptionsResult
    | XFrameOptionsResult
    | CorpResult
    | CoopResult
    | CoepResult
)

RESULTS_OF: dict[TestName, type[StrEnum]] = {
    TestName.CONTENT_SECURITY_POLICY: CspResult,
    TestName.COOKIES: CookiesResult,
    TestName.CROSS_ORIGIN_RESOURCE_SHARING: CorsResult,
    TestName.REDIRECTION: RedirectionResult,
    TestName.REFERRER_POLICY: ReferrerPolicyResult,
    TestName.STRICT_TRANSPORT_SECURITY: HstsResult,
    TestName.SUBRESOURCE_INTEGRITY: SriResult,
    TestName.X_CONTENT_TYPE_OPTIONS: XContentTypeOptionsResult,
    TestName.X_FRAME_OPTIONS: XFrameOptionsResult,
    TestName.CROSS_ORIGIN_RESOURCE_POLICY: CorpResult,
    TestName.CROSS_ORIGIN_OPENER_POLICY: CoopResult,
    TestName.CROSS_ORIGIN_EMBEDDER_POLICY: CoepResult,
}

# SCORE_TABLE of src/grader/charts.js, by result id (+ PR 332 for XFO, PR 498 for COOP/COEP).
SCORE_MODIFIERS: dict[str, int] = {
    CspResult.NO_UNSAFE_DEFAULT_SRC_NONE: 10,
    CspResult.NO_UNSAFE: 5,
    CspResult.UNSAFE_INLINE_IN_STYLE_SRC_ONLY: 0,
    CspResult.INSECURE_SCHEME_IN_PASSIVE_CONTENT_ONLY: -10,
    CspResult.UNSAFE_EVAL: -10,
    CspResult.UNSAFE_INLINE: -20,
    CspResult.INSECURE_SCHEME: -20,
    CspResult.DUPLICATE_DIRECTIVES: 0,
    CspResult.HEADER_INVALID: -25,
    CspResult.NOT_IMPLEMENTED: -25,
    CspResult.NOT_IMPLEMENTED_BUT_REPORTING_ENABLED: -25,
    CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS_AND_SAMESITE: 5,
    CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS: 0,
    CookiesResult.NOT_FOUND: 0,
    CookiesResult.WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS: -5,
    CookiesResult.SESSION_WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS: -10,
    CookiesResult.WITHOUT_SECURE_FLAG: -20,
    CookiesResult.SAMESITE_FLAG_INVALID: -20,
    CookiesResult.ANTICSRF_WITHOUT_SAMESITE_FLAG: -20,
    CookiesResult.SESSION_WITHOUT_HTTPONLY_FLAG: -30,
    CookiesResult.SESSION_WITHOUT_SECURE_FLAG: -40,
    CorsResult.NOT_IMPLEMENTED: 0,
    CorsResult.PUBLIC_ACCESS: 0,
    CorsResult.RESTRICTED_ACCESS: 0,
    CorsResult.UNIVERSAL_ACCESS: -50,
    RedirectionResult.ALL_REDIRECTS_PRELOADED: 0,
    RedirectionResult.TO_HTTPS: 0,
    RedirectionResult.NOT_NEEDED_NO_HTTP: 0,
    RedirectionResult.OFF_HOST_FROM_HTTP: -5,
    RedirectionResult.NOT_TO_HTTPS_ON_INITIAL_REDIRECTION: -10,
    RedirectionResult.NOT_TO_HTTPS: -20,
    RedirectionResult.MISSING: -20,
    RedirectionResult.INVALID_CERT: -20,
    ReferrerPolicyResult.PRIVATE: 5,
    ReferrerPolicyResult.NOT_IMPLEMENTED: 0,
    ReferrerPolicyResult.UNSAFE: -5,
    ReferrerPolicyResult.HEADER_INVALID: -5,
    HstsResult.PRELOADED: 5,
    HstsResult.MAX_AGE_AT_LEAST_SIX_MONTHS: 0,
    HstsResult.MAX_AGE_LESS_THAN_SIX_MONTHS: -10,
    HstsResult.NOT_IMPLEMENTED: -20,
    HstsResult.HEADER_INVALID: -20,
    HstsResult.NOT_IMPLEMENTED_NO_HTTPS: -20,
    HstsResult.INVALID_CERT: -20,
    SriResult.IMPLEMENTED_AND_ALL_SCRIPTS_LOADED_SECURELY: 5,
    SriResult.IMPLEMENTED_AND_EXTERNAL_SCRIPTS_LOADED_SECURELY: 5,
    SriResult.NOT_IMPLEMENTED_RESPONSE_NOT_HTML: 0,
    SriResult.NOT_IMPLEMENTED_BUT_NO_SCRIPTS_LOADED: 0,
    SriResult.NOT_IMPLEMENTED_BUT_ALL_SCRIPTS_LOADED_FROM_SECURE_ORIGIN: 0,
    SriResult.NOT_IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_LOADED_SECURELY: -5,
    SriResult.IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY: -20,
    SriResult.NOT_IMPLEMENTED_AND_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY: -50,
    SriResult.HTML_NOT_PARSEABLE: -20,
    XContentTypeOptionsResult.NOSNIFF: 0,
    XContentTypeOptionsResult.NOT_IMPLEMENTED: -5,
    XContentTypeOptionsResult.HEADER_INVALID: -5,
    XFrameOptionsResult.IMPLEMENTED_VIA_CSP: 5,
    XFrameOptionsResult.SAMEORIGIN_OR_DENY: 5,  # 0 before PR 332 (algorithm version 5)
    XFrameOptionsResult.ALLOW_FROM_ORIGIN: 0,
    XFrameOptionsResult.NOT_IMPLEMENTED: -20,
    XFrameOptionsResult.HEADER_INVALID: -20,
    CorpResult.NOT_IMPLEMENTED: 0,
    CorpResult.SAME_ORIGIN: 10,
    CorpResult.SAME_SITE: 10,
    CorpResult.CROSS_ORIGIN: 0,
    CorpResult.HEADER_INVALID: -5,
    CoopResult.NOT_IMPLEMENTED: 0,
    CoopResult.SAME_ORIGIN: 10,
    CoopResult.SAME_ORIGIN_ALLOW_POPUPS: 10,
    CoopResult.NOOPENER_ALLOW_POPUPS: 10,
    CoopResult.UNSAFE_NONE: 0,
    CoopResult.HEADER_INVALID: -5,
    CoepResult.NOT_IMPLEMENTED: 0,
    CoepResult.REQUIRE_CORP: 10,
    CoepResult.CREDENTIALLESS: 10,
    CoepResult.UNSAFE_NONE: 0,
    CoepResult.HEADER_INVALID: -5,
}


@dataclass(frozen=True, slots=True)
class TestOutcome(JsonRecord):
    """One test's verdict: its result id, whether it passed, its modifier and what it saw."""

    __test__ = False  # not a pytest class

    test: TestName
    result: str
    passed: bool
    score_modifier: int
    details: JsonMapping = field(default_factory=dict)


def outcome(
    test: TestName, result: ResultId, passed: bool, details: JsonMapping | None = None
) -> TestOutcome:
    """The outcome of `test`, its modifier looked up in the score table."""
    return TestOutcome(test, str(result), passed, SCORE_MODIFIERS[result], details or {})
