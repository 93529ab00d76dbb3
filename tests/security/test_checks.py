"""Each test as a table: inputs -> result id, pass, score modifier.

The CSP rows start with the Observatory's own cases (mdn/mdn-http-observatory `test/csp.test.js`,
ported in observatory_cases.py); the others follow `test/*.test.js` of the same repository and the
tests' sources. A meta-test
checks that every result id of every test appears in these tables.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from cli.security import run_security_check
from security.grade import grade_for_score, total_score
from security.results import (
    RESULTS_OF,
    SCORE_MODIFIERS,
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
from tests.security.cases import HTTP, outcome_of, response
from tests.security.observatory_cases import CSP_CASES, csp_input

type Row = tuple[dict[str, object], str, bool, int]
HTML: dict[str, str | list[str]] = {"content-type": "text/html; charset=utf-8"}


def csp(value: str | list[str], **kw: object) -> dict[str, object]:
    return response({"content-security-policy": value}, **kw)  # type: ignore[arg-type]


# Upstream's own test/csp.test.js cases that assert a result and a pass (observatory_cases.py),
# then cases of ours: each also goes through `security-check` below.
CSP: list[Row] = [
    *[(csp_input(c), c.result, c.passed, c.modifier) for c in CSP_CASES
      if c.result is not None and c.passed is not None and c.modifier is not None],
    (csp("\r\n"), CspResult.HEADER_INVALID, False, -25),  # an older csp.test.js's case
    (csp(["default-src http:", "default-src https:"]),  # two header policies agreeing on nothing
     CspResult.NO_UNSAFE_DEFAULT_SRC_NONE, True, 10),
    # meta tags count only in a response declared as HTML
    (response(html="<meta http-equiv=content-security-policy content=\"default-src 'none'\">"),
     CspResult.NOT_IMPLEMENTED, False, -25),
    # http: sources are insecure only on an https page
    (csp("default-src 'none'; img-src http:", url=HTTP, redirects=[]), CspResult.NO_UNSAFE_DEFAULT_SRC_NONE, True, 10),
    (response({"content-security-policy-report-only": "default-src 'none'; report-to /_/csp"}),
     CspResult.NOT_IMPLEMENTED_BUT_REPORTING_ENABLED, False, -25),
    (csp("default-src 'none'; report-uri /a; report-uri /b"), CspResult.DUPLICATE_DIRECTIVES, True, 0),
    # Header fields combined with "," (RFC 9110 §5.3) are several policies, each enforced
    # (issue 26): the header and the meta path alike; the restrictions of all apply.
    (csp("default-src 'none'; script-src 'self', default-src 'none'; script-src 'self'"),
     CspResult.NO_UNSAFE_DEFAULT_SRC_NONE, True, 10),
    (csp("default-src 'none'; style-src 'self' 'unsafe-inline', default-src 'none'; style-src 'self'"),
     CspResult.NO_UNSAFE_DEFAULT_SRC_NONE, True, 10),
    (response(HTML, html="<meta http-equiv=content-security-policy "
                         "content=\"default-src 'none'; script-src 'self', default-src 'none'; script-src 'self'\">"),
     CspResult.NO_UNSAFE_DEFAULT_SRC_NONE, True, 10),
    (csp("default-src 'none',"), CspResult.HEADER_INVALID, False, -25),  # an empty policy
]  # fmt: skip


def cookie(*values: str, hsts: bool = False, **kw: object) -> dict[str, object]:
    headers: dict[str, str | list[str]] = {"set-cookie": list(values)}
    if hsts:
        headers["strict-transport-security"] = "max-age=31536000"
    return response(headers, **kw)  # type: ignore[arg-type]


COOKIES: list[Row] = [
    (response(), CookiesResult.NOT_FOUND, True, 0),
    (cookie("heroku-session-affinity=x"), CookiesResult.NOT_FOUND, True, 0),
    (cookie("noequals"), CookiesResult.NOT_FOUND, True, 0),  # refused by the jar
    (cookie("__Secure-id=1"), CookiesResult.NOT_FOUND, True, 0),  # prefix without Secure: dropped
    (cookie("__Host-id=1; Secure; Path=/; Domain=example.com"), CookiesResult.NOT_FOUND, True, 0),
    (cookie("SESSIONID=1; Secure; HttpOnly; SameSite=Lax", "pref=1; Secure; SameSite=Strict"),
     CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS_AND_SAMESITE, True, 5),
    (cookie("__Host-sess=1; Secure; HttpOnly; Path=/; SameSite=Strict"),
     CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS_AND_SAMESITE, True, 5),
    (cookie("SESSIONID=1; Secure; HttpOnly"), CookiesResult.SECURE_WITH_HTTPONLY_SESSIONS, True, 0),
    (cookie("pref=1; SameSite=Lax", hsts=True), CookiesResult.WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS, False, -5),
    (cookie("sessionid=1; HttpOnly; SameSite=Lax", hsts=True),
     CookiesResult.SESSION_WITHOUT_SECURE_FLAG_BUT_PROTECTED_BY_HSTS, False, -10),
    (cookie("pref=1; SameSite=Lax"), CookiesResult.WITHOUT_SECURE_FLAG, False, -20),
    (cookie("pref=1; Secure; SameSite=Sometimes"), CookiesResult.SAMESITE_FLAG_INVALID, False, -20),
    (cookie("pref=1; Secure; SameSite"), CookiesResult.SAMESITE_FLAG_INVALID, False, -20),
    (cookie("pref=1; SameSite=None", hsts=True), CookiesResult.SAMESITE_FLAG_INVALID, False, -20),
    (cookie("csrftoken=1; Secure"), CookiesResult.ANTICSRF_WITHOUT_SAMESITE_FLAG, False, -20),
    (cookie("login=1; Secure; SameSite=Lax"), CookiesResult.SESSION_WITHOUT_HTTPONLY_FLAG, False, -30),
    (cookie("sessionid=1; HttpOnly; SameSite=Lax"), CookiesResult.SESSION_WITHOUT_SECURE_FLAG, False, -40),
    # cookies set on the way (the http hop) are in the jar too
    (response(redirects=[{"url": HTTP, "status": 301, "headers": {"set-cookie": "sessionid=1"}}]),
     CookiesResult.SESSION_WITHOUT_SECURE_FLAG, False, -40),
]  # fmt: skip


def cors(headers: dict[str, str]) -> dict[str, object]:
    return response(headers)


PROBE = "https://http-observatory.security.mozilla.org"
CORS: list[Row] = [
    (response(), CorsResult.NOT_IMPLEMENTED, True, 0),
    (cors({"access-control-allow-origin": "*"}), CorsResult.PUBLIC_ACCESS, True, 0),
    (cors({"access-control-allow-origin": "https://mozilla.org"}), CorsResult.RESTRICTED_ACCESS, True, 0),
    (cors({"access-control-allow-origin": PROBE}), CorsResult.RESTRICTED_ACCESS, True, 0),
    (cors({"access-control-allow-origin": PROBE, "access-control-allow-credentials": "true"}),
     CorsResult.UNIVERSAL_ACCESS, False, -50),
]  # fmt: skip


def hops(*urls: str) -> list[dict[str, object]]:
    return [{"url": url, "status": 301, "headers": {}} for url in urls]


REDIRECTION: list[Row] = [
    (response(redirects=[]), RedirectionResult.NOT_NEEDED_NO_HTTP, True, 0),  # no http observed
    (response(), RedirectionResult.TO_HTTPS, True, 0),
    (response(url="https://www.example.com/", redirects=hops(HTTP, "https://example.com/")),
     RedirectionResult.TO_HTTPS, True, 0),
    (response(url="https://github.com/", redirects=hops("http://github.com/")),
     RedirectionResult.ALL_REDIRECTS_PRELOADED, True, 0),
    (response(url="https://www.example.com/", redirects=hops(HTTP)), RedirectionResult.OFF_HOST_FROM_HTTP, False, -5),
    (response(redirects=hops(HTTP, "http://www.example.com/")),
     RedirectionResult.NOT_TO_HTTPS_ON_INITIAL_REDIRECTION, False, -10),
    (response(url="http://www.example.com/", redirects=hops(HTTP)), RedirectionResult.NOT_TO_HTTPS, False, -20),
    (response(url=HTTP), RedirectionResult.MISSING, False, -20),
    (response(redirects=[{"url": HTTP, "status": 301, "headers": {}, "tls_verified": False}]),
     RedirectionResult.INVALID_CERT, False, -20),
]  # fmt: skip


def hsts(value: str, **kw: object) -> dict[str, object]:
    return response({"strict-transport-security": value}, **kw)  # type: ignore[arg-type]


HSTS: list[Row] = [
    (response(url="https://github.com/", redirects=[]), HstsResult.PRELOADED, True, 5),
    (hsts("max-age=15552000"), HstsResult.MAX_AGE_AT_LEAST_SIX_MONTHS, True, 0),  # the white lie
    (hsts("max-age=63072000; includeSubDomains; preload"), HstsResult.MAX_AGE_AT_LEAST_SIX_MONTHS, True, 0),
    (hsts("max-age=abc"), HstsResult.MAX_AGE_AT_LEAST_SIX_MONTHS, True, 0),  # parseInt: NaN < x is false
    (hsts("max-age=15551999"), HstsResult.MAX_AGE_LESS_THAN_SIX_MONTHS, False, -10),
    (hsts("max-age=0"), HstsResult.MAX_AGE_LESS_THAN_SIX_MONTHS, False, -10),
    (response(), HstsResult.NOT_IMPLEMENTED, False, -20),
    (hsts("includeSubDomains"), HstsResult.HEADER_INVALID, False, -20),
    (hsts("max-age=31536000, max-age=31536000"), HstsResult.HEADER_INVALID, False, -20),
    (hsts("max-age=31536000", url=HTTP, redirects=[]), HstsResult.NOT_IMPLEMENTED_NO_HTTPS, False, -20),
    (hsts("max-age=31536000", tls_verified=False), HstsResult.INVALID_CERT, False, -20),
]  # fmt: skip


def page(
    html: str, content_type: str = "text/html; charset=utf-8", **kw: object
) -> dict[str, object]:
    return response({"content-type": content_type}, html=html, **kw)  # type: ignore[arg-type]


SRI: list[Row] = [
    (page("<script src='/a.js' integrity='sha384-x'></script>"),
     SriResult.IMPLEMENTED_AND_ALL_SCRIPTS_LOADED_SECURELY, True, 5),
    (page("<script src='https://cdn.other.org/a.js' integrity='sha384-x' crossorigin></script>"),
     SriResult.IMPLEMENTED_AND_EXTERNAL_SCRIPTS_LOADED_SECURELY, True, 5),
    (page("{}", content_type="application/json"), SriResult.NOT_IMPLEMENTED_RESPONSE_NOT_HTML, True, 0),
    (page("<p>no scripts</p>"), SriResult.NOT_IMPLEMENTED_BUT_NO_SCRIPTS_LOADED, True, 0),
    (page("<script src='/a.js'></script><script>inline()</script>"),
     SriResult.NOT_IMPLEMENTED_BUT_ALL_SCRIPTS_LOADED_FROM_SECURE_ORIGIN, True, 0),
    (page("<script src='https://static.example.com/a.js'></script>"),  # same registrable domain
     SriResult.NOT_IMPLEMENTED_BUT_ALL_SCRIPTS_LOADED_FROM_SECURE_ORIGIN, True, 0),
    (page("<script src='https://cdn.other.org/a.js'></script>"),
     SriResult.NOT_IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_LOADED_SECURELY, False, -5),
    (page("<script src='http://cdn.other.org/a.js' integrity='sha384-x'></script>"),
     SriResult.IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY, False, -20),
    (page("<script src='//cdn.other.org/a.js' integrity='sha384-x'></script>"),
     SriResult.IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY, False, -20),
    (page("<script src='http://cdn.other.org/a.js'></script>"),
     SriResult.NOT_IMPLEMENTED_AND_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY, False, -50),
    (page("<script src='//example.com/a.js'></script>"),  # protocol-relative: never "secure"
     SriResult.NOT_IMPLEMENTED_AND_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY, False, -50),
]  # fmt: skip


def header(name: str, value: str | list[str], **kw: object) -> dict[str, object]:
    return response({name: value}, **kw)  # type: ignore[arg-type]


REFERRER: list[Row] = [
    (header("referrer-policy", "no-referrer"), ReferrerPolicyResult.PRIVATE, True, 5),
    (header("referrer-policy", "unsafe-url, strict-origin-when-cross-origin"), ReferrerPolicyResult.PRIVATE, True, 5),
    (header("referrer-policy", "same-origin, nonsense"), ReferrerPolicyResult.PRIVATE, True, 5),
    (response(HTML, html="<meta name='referrer' content='strict-origin'>"), ReferrerPolicyResult.PRIVATE, True, 5),
    (response(), ReferrerPolicyResult.NOT_IMPLEMENTED, True, 0),
    (header("referrer-policy", "no-referrer-when-downgrade"), ReferrerPolicyResult.UNSAFE, False, -5),
    (response({**HTML, "referrer-policy": "no-referrer"}, html="<meta name=referrer content=unsafe-url>"),
     ReferrerPolicyResult.UNSAFE, False, -5),  # the meta tag comes last and wins
    (header("referrer-policy", "whatever"), ReferrerPolicyResult.HEADER_INVALID, False, -5),
]  # fmt: skip

XCTO: list[Row] = [
    (header("x-content-type-options", "nosniff"), XContentTypeOptionsResult.NOSNIFF, True, 0),
    (header("x-content-type-options", " NoSniff "), XContentTypeOptionsResult.NOSNIFF, True, 0),
    (response(), XContentTypeOptionsResult.NOT_IMPLEMENTED, False, -5),
    (header("x-content-type-options", "nosniff, nosniff"), XContentTypeOptionsResult.HEADER_INVALID, False, -5),
]  # fmt: skip

XFO: list[Row] = [
    (csp("frame-ancestors 'none'"), XFrameOptionsResult.IMPLEMENTED_VIA_CSP, True, 5),
    (response({"x-frame-options": "garbage", "content-security-policy": "frame-ancestors 'self'"}),
     XFrameOptionsResult.IMPLEMENTED_VIA_CSP, True, 5),
    (header("x-frame-options", "DENY"), XFrameOptionsResult.SAMEORIGIN_OR_DENY, True, 5),
    (header("x-frame-options", "sameorigin"), XFrameOptionsResult.SAMEORIGIN_OR_DENY, True, 5),
    (header("x-frame-options", "ALLOW-FROM https://mozilla.org"), XFrameOptionsResult.ALLOW_FROM_ORIGIN, True, 0),
    (response(), XFrameOptionsResult.NOT_IMPLEMENTED, False, -20),
    (response(HTML, html="<meta http-equiv=x-frame-options content=DENY>"),
     XFrameOptionsResult.NOT_IMPLEMENTED, False, -20),
    (header("x-frame-options", "DENY, DENY"), XFrameOptionsResult.HEADER_INVALID, False, -20),
]  # fmt: skip

CORP: list[Row] = [
    (response(), CorpResult.NOT_IMPLEMENTED, True, 0),
    (header("cross-origin-resource-policy", "same-origin"), CorpResult.SAME_ORIGIN, True, 10),
    (header("cross-origin-resource-policy", "Same-Site"), CorpResult.SAME_SITE, True, 10),
    (header("cross-origin-resource-policy", "cross-origin"), CorpResult.CROSS_ORIGIN, True, 0),
    (header("cross-origin-resource-policy", "same-origin-please"), CorpResult.HEADER_INVALID, False, -5),
    # CORP is compared whole, not parsed as a structured field: any parameter is invalid.
    (header("cross-origin-resource-policy", "same-origin; report-to=corp endpoint"),
     CorpResult.HEADER_INVALID, False, -5),
    (header("cross-origin-resource-policy", "same-origin; report-to"), CorpResult.HEADER_INVALID, False, -5),
    (header("cross-origin-resource-policy", "  "), CorpResult.NOT_IMPLEMENTED, True, 0),  # blank once trimmed
]  # fmt: skip

# test/cross-origin-opener-policy.test.js: one structured-field Item (RFC 8941) whose bare item is
# a token; parameters are ignored, but a malformed one makes the whole value invalid.
COOP: list[Row] = [
    (response(), CoopResult.NOT_IMPLEMENTED, True, 0),
    (header("cross-origin-opener-policy", "same-origin"), CoopResult.SAME_ORIGIN, True, 10),
    (header("cross-origin-opener-policy", 'same-origin; report-to="coop"'), CoopResult.SAME_ORIGIN, True, 10),
    (header("cross-origin-opener-policy", "same-origin; report-to"), CoopResult.SAME_ORIGIN, True, 10),
    (header("cross-origin-opener-policy", "same-origin-allow-popups"), CoopResult.SAME_ORIGIN_ALLOW_POPUPS, True, 10),
    (header("cross-origin-opener-policy", "noopener-allow-popups"), CoopResult.NOOPENER_ALLOW_POPUPS, True, 10),
    (header("cross-origin-opener-policy", "unsafe-none"), CoopResult.UNSAFE_NONE, True, 0),
    (header("cross-origin-opener-policy", "same-site"), CoopResult.HEADER_INVALID, False, -5),
    (header("cross-origin-opener-policy", "same-origin; report-to=coop endpoint"),
     CoopResult.HEADER_INVALID, False, -5),
    (header("cross-origin-opener-policy", "same-origin;Report-To"), CoopResult.HEADER_INVALID, False, -5),
    (header("cross-origin-opener-policy", '"same-origin"'), CoopResult.HEADER_INVALID, False, -5),
    (header("cross-origin-opener-policy", ["same-origin", "unsafe-none"]), CoopResult.HEADER_INVALID, False, -5),
]  # fmt: skip

COEP: list[Row] = [
    (response(), CoepResult.NOT_IMPLEMENTED, True, 0),
    (header("cross-origin-embedder-policy", "require-corp"), CoepResult.REQUIRE_CORP, True, 10),
    (header("cross-origin-embedder-policy", 'require-corp; report-to="e"'), CoepResult.REQUIRE_CORP, True, 10),
    (header("cross-origin-embedder-policy", "credentialless"), CoepResult.CREDENTIALLESS, True, 10),
    (header("cross-origin-embedder-policy", "unsafe-none"), CoepResult.UNSAFE_NONE, True, 0),
    (header("cross-origin-embedder-policy", "require-cors"), CoepResult.HEADER_INVALID, False, -5),
    (header("cross-origin-embedder-policy", "require-corp; report-to=coep endpoint"),
     CoepResult.HEADER_INVALID, False, -5),
    (header("cross-origin-embedder-policy", "require-corp ;report-to"), CoepResult.HEADER_INVALID, False, -5),
    (header("cross-origin-embedder-policy", ["require-corp", "credentialless"]), CoepResult.HEADER_INVALID, False, -5),
]  # fmt: skip

TABLES: dict[TestName, list[Row]] = {
    TestName.CONTENT_SECURITY_POLICY: CSP,
    TestName.COOKIES: COOKIES,
    TestName.CROSS_ORIGIN_RESOURCE_SHARING: CORS,
    TestName.REDIRECTION: REDIRECTION,
    TestName.REFERRER_POLICY: REFERRER,
    TestName.STRICT_TRANSPORT_SECURITY: HSTS,
    TestName.SUBRESOURCE_INTEGRITY: SRI,
    TestName.X_CONTENT_TYPE_OPTIONS: XCTO,
    TestName.X_FRAME_OPTIONS: XFO,
    TestName.CROSS_ORIGIN_RESOURCE_POLICY: CORP,
    TestName.CROSS_ORIGIN_OPENER_POLICY: COOP,
    TestName.CROSS_ORIGIN_EMBEDDER_POLICY: COEP,
}
ROWS = [(test, *row) for test, rows in TABLES.items() for row in rows]


@pytest.mark.parametrize(("test", "raw", "result", "passed", "modifier"), ROWS)
def test_result_pass_and_modifier(
    test: TestName, raw: dict[str, object], result: str, passed: bool, modifier: int
) -> None:
    outcome = outcome_of(raw, test)
    assert (outcome.result, outcome.passed, outcome.score_modifier) == (result, passed, modifier)


# The Observatory gives html-not-parseable only when jsdom throws; no HTML text makes a
# conforming parser fail, so no input reaches it (results.SriResult says so).
UNREACHABLE = {SriResult.HTML_NOT_PARSEABLE}


@pytest.mark.parametrize("test", list(TestName))
def test_every_result_id_has_a_case(test: TestName) -> None:
    covered = {row[1] for row in TABLES[test]}
    assert set(RESULTS_OF[test]) - UNREACHABLE <= covered


def test_every_result_id_has_a_modifier() -> None:
    ids = {result for results in RESULTS_OF.values() for result in results}
    assert ids == set(SCORE_MODIFIERS)
    assert len(RESULTS_OF) == 12


@pytest.mark.parametrize(("test", "raw", "result", "passed", "modifier"), ROWS)
def test_security_check_prints_each_case_like_the_observatory(
    test: TestName,
    raw: dict[str, object],
    result: str,
    passed: bool,
    modifier: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every row above, fed to `siteaudit security-check` as its JSON input: the command prints
    the row's result, pass and modifier, and the score and letter of the whole response."""
    path = tmp_path / "response.json"
    path.write_text(json.dumps(raw))

    assert run_security_check(argparse.Namespace(response=str(path))) == 0

    printed = json.loads(capsys.readouterr().out)
    expected = {"result": result, "pass": passed, "score_modifier": modifier}
    assert printed["tests"][test] == expected
    assert len(printed["tests"]) == len(TestName)
    score = total_score([t["score_modifier"] for t in printed["tests"].values()])
    assert (printed["score"], printed["grade"]) == (score, grade_for_score(score))


def test_every_result_id_reaches_security_check() -> None:
    """The meta-test over what the command was fed: each result id of results.py, except the
    one no input can reach, is some row's expected result (and so printed by the test above)."""
    fed = {row[2] for row in ROWS}
    every = {result for results in RESULTS_OF.values() for result in results}
    assert every - UNREACHABLE <= fed
    assert len(every) == len(SCORE_MODIFIERS)
