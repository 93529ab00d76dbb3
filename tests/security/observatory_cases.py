"""The Observatory's own test cases for CSP, COOP, COEP and CORP, as tables.

Source: Mozilla's HTTP Observatory, repository mdn/mdn-http-observatory (MPL-2.0). The cases are
facts about that program's behaviour (inputs and the results its tests assert), written here in
our own table form; no code is copied. Files and the stored commits read:

- `test/csp.test.js` at 2e0fe4f5968a2e87becb3a3c738cd3263a5a646d (the version with the two
  "multiple CSP headers combined per RFC 9110" cases, issue 463), its HTML fixtures
  `test/files/test_parse_http_equiv_headers_{csp1,csp2,csp_multiple_http_equiv1,not_allowed}.html`
  (their `<meta http-equiv>` tags are restated in HTTP_EQUIV below), and the test it exercises,
  `src/analyzer/tests/csp.js` at 048ff598c8690cdff2a0af60828cde2e845bc346 (splitCspHeaders);
- `test/csp-parser.test.js` at 0809949ababdaf2483499f32ddcf505e10196929 (the same cases as at
  d52f94793e0774c5e395d4e76d2d62e6a910e2d6, which spells the warnings key out);
- `test/cross-origin-opener-policy.test.js` and `test/cross-origin-embedder-policy.test.js` at
  2533908d611d437b89c1dd55e60980d3187592cf (structured-field parameters; `src/analyzer/utils.js`
  parseStructuredFieldToken at the same commit);
- `test/cross-origin-resource-policy.test.js` at 1adfe748c44015d22532a76b857d641cbbc3d1e4.

Each row keeps what upstream asserts and nothing more: a result only where the `it` asserts one,
`passed` where it asserts `pass`, and in `expect` the other fields it checks, under this port's
detail names (`numPolicies` -> `num_policies`, `policy.unsafeInline` -> `unsafe_inline`, `data`
-> `policy`, and so on). The score modifier is the one upstream's `src/grader/charts.js` gives
the asserted result (security/results.py SCORE_MODIFIERS), written out so a change to either
table shows. Upstream runs every case on `https://mozilla.org/` with `Content-Type: text/html`
(test/helpers.js emptyRequests).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from security.results import CoepResult, CoopResult, CorpResult, CspResult, TestName
from tests.security.cases import response

CSP_TEST = "test/csp.test.js"
PARSER_TEST = "test/csp-parser.test.js"
COOP_TEST = "test/cross-origin-opener-policy.test.js"
COEP_TEST = "test/cross-origin-embedder-policy.test.js"
CORP_TEST = "test/cross-origin-resource-policy.test.js"

# The fixtures' meta tags (http-equiv spelled as each file spells it).
HTTP_EQUIV: dict[str, str] = {
    "csp1": '<meta http-equiv="Content-Security-Policy" content="default-src \'none\';" />',
    "csp2": '<meta http-equiv="Content-Security-Policy" content="default-src https:" />',
    "csp_multiple_http_equiv1": (
        '<meta http-equiv="Content-Security-Policy"'
        " content=\"default-src 'none'; object-src 'none'; media-src 'none';\" />"
        '<meta http-equiv="Content-SECURITY-Policy"'
        " content=\"connect-src 'self'; font-src 'self'; child-src 'self'\" />"
        '<meta http-equiv=" Content-Security-Policy "'
        " content=\"img-src 'self'; style-src 'self' 'nonce-gAeQO8jI4VJCsrsXkcUVRCzQjiihKteQ\" />"
        '<meta http-equiv="Content-security-Policy"'
        " content=\"script-src 'self' 'unsafe-inline' 'nonce-gAeQO8jI4VJCsrsXkcUVRCzQjiihKteQ'\" />"
    ),
    "not_allowed": '<meta http-equiv="Content-Security-Policy" content="frame-ancestors \'none\'" />',
}


@dataclass(frozen=True, slots=True)
class CspCase:
    """One assertion group of test/csp.test.js: the response, then what upstream asserts."""

    it: str
    header: str | None  # the Content-Security-Policy value upstream sets, if any
    html: str | None = None  # a key of HTTP_EQUIV
    report_only: str | None = None
    result: CspResult | None = None
    passed: bool | None = None
    modifier: int | None = None
    not_result: CspResult | None = None  # assert.notEqual
    expect: dict[str, object] = field(default_factory=dict)


URL = "https://mozilla.org/"
HTML_TYPE: dict[str, str | list[str]] = {"content-type": "text/html"}


def csp_input(case: CspCase) -> dict[str, object]:
    """The `security-check` input of a case, as upstream's emptyRequests builds the response."""
    headers = dict(HTML_TYPE)
    if case.header is not None:
        headers["content-security-policy"] = case.header
    if case.report_only is not None:
        headers["content-security-policy-report-only"] = case.report_only
    html = (
        f"<!doctype html><html><head>{HTTP_EQUIV[case.html]}</head></html>" if case.html else None
    )
    return response(headers, url=URL, html=html, redirects=[])


def header_input(case: HeaderCase) -> dict[str, object]:
    headers = dict(HTML_TYPE)
    if case.value is not None:
        headers[case.test.value] = case.value
    return response(headers, url=URL, redirects=[])


def _csp(it: str, values: list[str], result: CspResult, passed: bool, modifier: int,
         **expect: object) -> list[CspCase]:  # fmt: skip
    return [CspCase(it, v, result=result, passed=passed, modifier=modifier, expect=expect)
            for v in values]  # fmt: skip


def _flag(it: str, values: list[str], **expect: object) -> list[CspCase]:
    return [CspCase(it, v, expect=expect) for v in values]


_SHA_A = "'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBA='"
_SHA_B = "'sha256-hqBEA/HXB3aJU2FgOnYN8rkAgEVgyfi3Vs1j2/XMPBB='"
_NONE = CspResult.NO_UNSAFE_DEFAULT_SRC_NONE

CSP_CASES: list[CspCase] = [
    CspCase("missing", None, result=CspResult.NOT_IMPLEMENTED, passed=False, modifier=-25,
            expect={"num_policies": 0}),
    *_csp("header invalid", [
        "  ", "", "default-src 'none'; default-src 'none'",
        "default-src 'none'; img-src 'self'; default-src 'none'",
        "default-src 'none'; script-src 'strict-dynamic'", "defa",
    ], CspResult.HEADER_INVALID, False, -25, num_policies=1),
    *_csp("insecure scheme broad and unsafe", [
        "default-src 'none'; script-src https://*", "default-src 'none'; script-src 'unsafe-inline'",
    ], CspResult.UNSAFE_INLINE, False, -20, unsafe_inline=True),
    *_csp("insecure scheme", [
        "default-src http://mozilla.org", "default-src 'none'; script-src http://mozilla.org",
        "default-src 'none'; script-src http://mozilla.org",
        "default-src 'none'; script-src ftp://mozilla.org",
    ], CspResult.INSECURE_SCHEME, False, -20, insecure_scheme_active=True),
    *_csp("insecure scheme in passive content only", [
        "default-src 'none'; img-src http://mozilla.org", "default-src 'self'; img-src ftp:",
        "default-src 'self'; img-src http:",
        "default-src 'none'; img-src https:; media-src http://mozilla.org",
        "default-src 'none'; img-src http: https:; script-src 'self'; style-src 'self'",
        "default-src 'none'; img-src 'none'; media-src http:; script-src 'self'; style-src 'self'",
        "default-src 'none'; img-src 'none'; media-src http:; script-src 'self'; style-src 'unsafe-inline'",
    ], CspResult.INSECURE_SCHEME_IN_PASSIVE_CONTENT_ONLY, True, -10, insecure_scheme_passive=True),
    *_csp("unsafe inline", [
        "script-src 'unsafe-inline'", "script-src data:", "script-src http:", "script-src ftp:",
        "default-src 'unsafe-inline'", "default-src 'UNSAFE-INLINE'", "upgrade-insecure-requests",
        "script-src 'none'", "script-src https:", "script-src https://mozilla.org https:",
        "default-src https://mozilla.org https:", "default-src 'none'; script-src *",
        "default-src *; script-src *; object-src 'none'",
        "default-src 'none'; script-src 'none'; object-src *",
        "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'",
        "default-src 'none'; script-src 'unsafe-inline' http:", "object-src https:; script-src 'none'",
    ], CspResult.UNSAFE_INLINE, False, -20, unsafe_inline=True),
    CspCase("unsafe eval", "default-src 'none'; script-src 'unsafe-eval'",
            result=CspResult.UNSAFE_EVAL, passed=False, modifier=-10,
            expect={"unsafe_eval": True, "policy": {"default-src": ["'none'"],
                                                    "script-src": ["'unsafe-eval'"]}}),
    *_csp("unsafe inline in style src only", [
        "object-src 'none'; script-src 'none'; style-src 'unsafe-inline'",
        "default-src 'none'; script-src https://mozilla.org; style-src 'unsafe-inline'",
        "default-src 'unsafe-inline'; script-src https://mozilla.org",
        "default-src 'none';;; ;;;style-src 'self' 'unsafe-inline'",
        "default-src 'none'; style-src data:", "default-src 'none'; style-src *",
        "default-src 'none'; style-src https:",
        f"default-src 'none'; style-src 'unsafe-inline'; script-src {_SHA_B} 'unsafe-inline'",
    ], CspResult.UNSAFE_INLINE_IN_STYLE_SRC_ONLY, True, 0, unsafe_inline_style=True),
    *_csp("no unsafe", [
        "default-src https://mozilla.org", "default-src https://mozilla.org;;; ;;;script-src 'none'",
        "object-src 'none'; script-src https://mozilla.org; style-src https://mozilla.org; upgrade-insecure-requests;",
        "object-src 'none'; script-src 'strict-dynamic' 'nonce-abc' 'unsafe-inline'; style-src 'none'",
        f"object-src 'none'; style-src 'self';script-src {_SHA_A}",
        f"object-src 'none'; style-src 'self'; script-src 'unsafe-inline' {_SHA_A}{_SHA_B}",
        "object-src 'none'; script-src 'unsafe-inline' 'nonce-abc123' 'unsafe-inline'; style-src 'none'",
        "default-src https://mozilla.org; style-src 'unsafe-inline' 'nonce-abc123' 'unsafe-inline'",
        f"default-src https://mozilla.org; style-src 'unsafe-inline' {_SHA_B} 'unsafe-inline'",
    ], CspResult.NO_UNSAFE, True, 5),
    CspCase("no unsafe default src none", "default-src http:", html="csp2", result=_NONE,
            passed=True, modifier=10, expect={"num_policies": 2, "http": True, "meta": True}),
    *_csp("no unsafe default src none", [
        "default-src",
        "default-src 'none'; script-src 'strict-dynamic' 'nonce-abc123' 'unsafe-inline'",
        "default-src 'none'; script-src https://mozilla.org; style-src https://mozilla.org; upgrade-insecure-requests;",
        "default-src 'none'; object-src https://mozilla.org",
    ], _NONE, True, 10, num_policies=1, http=True, meta=False, default_none=True),
    CspCase("no unsafe default src none", None, html="csp1", result=_NONE, passed=True,
            modifier=10, expect={"num_policies": 1, "http": False, "meta": True}),
    CspCase("no unsafe default src none", None, html="csp_multiple_http_equiv1", result=_NONE,
            passed=True, modifier=10, expect={"num_policies": 4, "http": False, "meta": True}),
    *[CspCase("no unsafe default src none", header, html=html, result=_NONE, passed=True,
         modifier=10, expect={"num_policies": 2, "http": True, "meta": True})
      for header, html in (("default-src 'none'", "csp1"), ("default-src 'none'", "csp2"),
                           ("img-src 'none'", "csp1"))],
    *_csp("strict dynamic", [
        "default-src 'none'; script-src 'strict-dynamic' 'nonce-abc123'",
        "default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123'",
        "default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123' https://*",
        "default-src 'none'; script-src 'strict-dynamic' 'sha256-abc123' 'unsafe-inline'",
    ], _NONE, True, 10, strict_dynamic=True),
    *_flag("policy analysis", [
        "default-src 'none'", "frame-ancestors *", "frame-ancestors http:", "frame-ancestors https:",
    ], anti_clickjacking=False),
    *_flag("policy analysis", ["default-src *; frame-ancestors 'none'"], anti_clickjacking=True),
    *_flag("policy analysis", [
        "default-src 'none'; base-uri *; object-src *",
        "default-src 'none'; base-uri https:; object-src https:", "default-src *",
    ], insecure_base_uri=True, unsafe_objects=True),
    *_flag("policy analysis", [
        "default-src *; base-uri 'none'", "default-src 'none'; base-uri 'self'",
        "default-src 'none'; base-uri https://mozilla.org",
    ], insecure_base_uri=False),
    *_flag("policy analysis", [
        "default-src * http: https: data: 'unsafe-inline' 'unsafe-eval'",
        "default-src 'none'; img-src http:",
        "default-src 'none' https://mozilla.org; img-src http://mozilla.org",
        "default-src https:; media-src http://mozilla.org; script-src http:",
    ], insecure_scheme_passive=True),
    *_flag("policy analysis", [
        "default-src *; form-action 'none'", "default-src *; form-action 'self'",
        "default-src 'none'; form-action 'self' https://mozilla.org",
        "form-action 'self' https://mozilla.org",
    ], insecure_form_action=False),
    *_flag("policy analysis", ["default-src *", "default-src 'none'", "form-action https:"],
           insecure_form_action=True),
    CspCase("report only", None, report_only="default-src 'none'; report-to /_/csp-reports",
            result=CspResult.NOT_IMPLEMENTED_BUT_REPORTING_ENABLED, modifier=-25),
    CspCase("multiple CSP headers combined per RFC 9110 are not treated as invalid",
            "default-src 'none'; script-src 'self', default-src 'none'; script-src 'self'",
            passed=True, not_result=CspResult.HEADER_INVALID,
            expect={"num_policies": 2,
                    "policy": {"default-src": ["'none'"], "script-src": ["'self'"]}}),
    CspCase("multiple CSP headers with differing policies produce correct intersection",
            "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline', "
            "default-src 'none'; style-src 'self', "
            "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'",
            passed=True, not_result=CspResult.HEADER_INVALID,
            expect={"num_policies": 3, "unsafe_inline_style": False,
                    "policy": {"default-src": ["'none'"], "script-src": ["'self'"],
                               "style-src": ["'self'"]}}),
    CspCase("ignore frame-anchestors in http-equiv", None, html="not_allowed",
            result=CspResult.NOT_IMPLEMENTED, passed=False, modifier=-25),
    CspCase("ignore frame-anchestors in http-equiv", "frame-anchestors 'none'", html="not_allowed",
            result=CspResult.UNSAFE_INLINE, passed=False, modifier=-20),
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class ParserCase:
    """One parseCsp call of test/csp-parser.test.js; `directives` None: only "it parses"."""

    it: str
    policies: list[str]
    directives: dict[str, set[str]] | None = None
    invalid: bool = False
    duplicates: frozenset[str] = frozenset()


def _parsed(policies: list[str], directives: dict[str, set[str]]) -> ParserCase:
    return ParserCase("should parse policy correctly", policies, directives)


_MOZ4 = "https://mozilla.org https://mozilla.net https://mozilla.com https://mozilla.io"
_SCRIPT = "default-src 'none'; script-src 'self' https://mozilla.org"
_SELF_AND_MOZ = {"default-src": {"'none'"}, "script-src": {"'self'", "https://mozilla.org"}}
_NET_AND_ORG = {"default-src": {"https://mozilla.net", "https://mozilla.org"}}
_DEFAULT_NONE = {"default-src": {"'none'"}}
_CNN = (
    "default-src 'self' blob: https://*.cnn.com:* http://*.cnn.com:* *.cnn.io:* *.cnn.net:* "
    "*.turner.com:* *.turner.io:* *.ugdturner.com:* courageousstudio.com *.vgtf.net:*; "
    "script-src 'unsafe-eval' 'unsafe-inline' 'self' *; style-src 'unsafe-inline' 'self' blob: *; "
    "child-src 'self' blob: *; frame-src 'self' *; object-src 'self' *; "
    "img-src 'self' data: blob: *; media-src 'self' data: blob: *; font-src 'self' data: *; "
    "connect-src 'self' data: *; frame-ancestors 'self' https://*.cnn.com:* http://*.cnn.com "
    "https://*.cnn.io:* http://*.cnn.io:* *.turner.com:* courageousstudio.com;"
)

PARSER_CASES: list[ParserCase] = [
    _parsed(["default-src 'none'"], _DEFAULT_NONE),
    _parsed([_SCRIPT], _SELF_AND_MOZ),
    _parsed([_SCRIPT, _SCRIPT], _SELF_AND_MOZ),
    _parsed([_SCRIPT, f"{_SCRIPT} https://example.com"], _SELF_AND_MOZ),
    _parsed([_SCRIPT, "default-src 'none'; script-src https://example.com 'self' https://mozilla.org"],
            _SELF_AND_MOZ),
    _parsed(["default-src https://mozilla.org", "default-src https://mozilla.com"], _DEFAULT_NONE),
    _parsed(["default-src https://mozilla.org https://mozilla.net",
             "default-src https://mozilla.com https://mozilla.io"], _DEFAULT_NONE),
    _parsed([f"default-src {_MOZ4}",
             "default-src https://mozilla.pizza https://mozilla.ninja https://mozilla.net https://mozilla.org"],
            _NET_AND_ORG),
    _parsed([f"default-src {_MOZ4}",
             "default-src https://mozilla.pizza https://mozilla.ninja https://mozilla.net https://mozilla.org",
             "default-src https://mozilla.net https://mozilla.fox https://mozilla.fire https://mozilla.org",
             "default-src https://mozilla.browser https://mozilla.web https://mozilla.net https://mozilla.org"],
            _NET_AND_ORG),
    _parsed(["default-src https://mozilla.org/fire", "default-src https://mozilla.org/firefox/"],
            _DEFAULT_NONE),
    _parsed(["default-src https://mozilla.org/firefox/",
             "default-src https://mozilla.org/firefox/download/"],
            {"default-src": {"https://mozilla.org/firefox/download/"}}),
    _parsed(["default-src https://mozilla.org/firefox/download/",
             "default-src https://mozilla.org/firefox/"],
            {"default-src": {"https://mozilla.org/firefox/download/"}}),
    _parsed(["default-src http:", "default-src https:"], _DEFAULT_NONE),
    _parsed(["default-src http: http:", "default-src https: https:"], _DEFAULT_NONE),
    *[ParserCase("should throw error for invalid policies", [policy], invalid=True) for policy in (
        "  ", "\r\n", "\r\n\r\n\r\n\r\n\r\n\r\n", "", "default-src 'none'; default-src 'none'",
        "default-src 'none'; img-src 'self'; default-src 'none'", "defa",
    )],
    ParserCase("should parse this example header correctly", [_CNN]),
    ParserCase("should parse a policy with duplicate report-uri entries and report those duplicates",
               ["report-uri https://www.dropbox.com/csp_log?policy_name=metaserver-whitelist ; "
                "report-uri https://www.dropbox.com/csp_log?policy_name=metaserver-dynamic"],
               duplicates=frozenset({"report-uri"})),
    ParserCase("should parse a policy with duplicate report-to entries and report those duplicates",
               ["report-to some_name ; report-to some_other_name"],
               duplicates=frozenset({"report-to"})),
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class HeaderCase:
    """One `it` of the COOP, COEP and CORP test files: a header value (None: unset)."""

    source: str
    it: str
    test: TestName
    value: str | list[str] | None
    result: str
    passed: bool
    modifier: int


type _Row = tuple[str, str | list[str] | None, str, bool, int]


def _header_cases(source: str, test: TestName, rows: list[_Row]) -> list[HeaderCase]:
    return [HeaderCase(source, it, test, value, result, passed, modifier)
            for it, value, result, passed, modifier in rows]  # fmt: skip


HEADER_CASES: list[HeaderCase] = [
    *_header_cases(COOP_TEST, TestName.CROSS_ORIGIN_OPENER_POLICY, [
        ("checks for missing", None, CoopResult.NOT_IMPLEMENTED, True, 0),
        ("checks header validity", "whimsy", CoopResult.HEADER_INVALID, False, -5),
        ("checks for same-origin", "same-origin", CoopResult.SAME_ORIGIN, True, 10),
        ("checks for same-origin-allow-popups", "same-origin-allow-popups",
         CoopResult.SAME_ORIGIN_ALLOW_POPUPS, True, 10),
        ("checks for noopener-allow-popups", "noopener-allow-popups",
         CoopResult.NOOPENER_ALLOW_POPUPS, True, 10),
        ("checks for unsafe-none", "unsafe-none", CoopResult.UNSAFE_NONE, True, 0),
        ("checks for same-origin with report-to directive", 'same-origin; report-to="coop-endpoint"',
         CoopResult.SAME_ORIGIN, True, 10),
        ("checks for same-origin-allow-popups with report-to directive",
         'same-origin-allow-popups; report-to="coop-endpoint"',
         CoopResult.SAME_ORIGIN_ALLOW_POPUPS, True, 10),
        ("checks for same-origin with a value-less report-to parameter", "same-origin; report-to",
         CoopResult.SAME_ORIGIN, True, 10),
        ("checks for a malformed structured field", "same-origin; report-to=coop endpoint",
         CoopResult.HEADER_INVALID, False, -5),
        ("checks that a quoted string is not a valid token", '"same-origin"',
         CoopResult.HEADER_INVALID, False, -5),
        ("checks for multiple headers", ["same-origin", "unsafe-none"],
         CoopResult.HEADER_INVALID, False, -5),
    ]),
    *_header_cases(COEP_TEST, TestName.CROSS_ORIGIN_EMBEDDER_POLICY, [
        ("checks for missing", None, CoepResult.NOT_IMPLEMENTED, True, 0),
        ("checks header validity", "whimsy", CoepResult.HEADER_INVALID, False, -5),
        ("checks for require-corp", "require-corp", CoepResult.REQUIRE_CORP, True, 10),
        ("checks for credentialless", "credentialless", CoepResult.CREDENTIALLESS, True, 10),
        ("checks for unsafe-none", "unsafe-none", CoepResult.UNSAFE_NONE, True, 0),
        ("checks for require-corp with report-to directive", 'require-corp; report-to="coep-endpoint"',
         CoepResult.REQUIRE_CORP, True, 10),
        ("checks for credentialless with report-to directive",
         'credentialless; report-to="coep-endpoint"', CoepResult.CREDENTIALLESS, True, 10),
        ("checks for require-corp with a value-less report-to parameter", "require-corp; report-to",
         CoepResult.REQUIRE_CORP, True, 10),
        ("checks for a malformed structured field", "require-corp; report-to=coep endpoint",
         CoepResult.HEADER_INVALID, False, -5),
        ("checks that a quoted string is not a valid token", '"require-corp"',
         CoepResult.HEADER_INVALID, False, -5),
        ("checks for multiple headers", ["require-corp", "unsafe-none"],
         CoepResult.HEADER_INVALID, False, -5),
    ]),
    *_header_cases(CORP_TEST, TestName.CROSS_ORIGIN_RESOURCE_POLICY, [
        ("checks for missing", None, CorpResult.NOT_IMPLEMENTED, True, 0),
        ("checks header validity", "whimsy", CorpResult.HEADER_INVALID, False, -5),
        ("checks for same-site", "same-site", CorpResult.SAME_SITE, True, 10),
        ("checks for same-origin", "same-origin", CorpResult.SAME_ORIGIN, True, 10),
        ("checks for cross-origin", "cross-origin", CorpResult.CROSS_ORIGIN, True, 0),
    ]),
]  # fmt: skip
