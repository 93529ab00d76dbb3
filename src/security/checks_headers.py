"""The single-header tests: CORS, Referrer-Policy, X-Content-Type-Options, X-Frame-Options,
Cross-Origin-Resource-Policy, Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy.

Ports of mdn/mdn-http-observatory `src/analyzer/tests/cors.js`, `referrer-policy.js`,
`x-content-type-options.js`, `x-frame-options.js`, `cross-origin-resource-policy.js`,
`cross-origin-opener-policy.js` and `cross-origin-embedder-policy.js`.
"""

from __future__ import annotations

from common.js_string import js_trim
from common.wire import JsonValue
from security.checks_csp import CspVerdict
from security.html_scan import HtmlFacts
from security.observed import ObservedResponse, ObservedSite
from security.results import (
    CoepResult,
    CoopResult,
    CorpResult,
    CorsResult,
    ReferrerPolicyResult,
    TestName,
    TestOutcome,
    XContentTypeOptionsResult,
    XFrameOptionsResult,
    outcome,
)
from security.structured_field import token_of

_PRIVATE_POLICIES = (
    "no-referrer",
    "same-origin",
    "strict-origin",
    "strict-origin-when-cross-origin",
)
_UNSAFE_POLICIES = (
    "origin",
    "origin-when-cross-origin",
    "unsafe-url",
    "no-referrer-when-downgrade",
)


def cross_origin_resource_sharing(site: ObservedSite) -> TestOutcome:
    """Public (`*`), restricted, or universal: the probe's Origin echoed with credentials."""
    name = TestName.CROSS_ORIGIN_RESOURCE_SHARING
    acao = site.cors.first("access-control-allow-origin") if site.cors else None
    if site.cors is None or not acao:
        return outcome(name, CorsResult.NOT_IMPLEMENTED, True)
    credentials = (site.cors.first("access-control-allow-credentials") or "").strip().lower()
    data = {"allow_origin": acao[:256].strip().lower()}
    if data["allow_origin"] == "*":
        return outcome(name, CorsResult.PUBLIC_ACCESS, True, data)
    if acao == site.cors_origin and credentials == "true":
        return outcome(name, CorsResult.UNIVERSAL_ACCESS, False, data)
    return outcome(name, CorsResult.RESTRICTED_ACCESS, True, data)


def referrer_policy(response: ObservedResponse | None, html: HtmlFacts) -> TestOutcome:
    """The last recognised policy of the headers and `<meta name="referrer">` decides."""
    name = TestName.REFERRER_POLICY
    values = response.values("referrer-policy") if response else []
    meta = [html.referrer_meta] if html.referrer_meta is not None else []
    if not values and not meta:
        return outcome(name, ReferrerPolicyResult.NOT_IMPLEMENTED, True)
    data = ", ".join(values + meta)
    known = [p.strip().lower() for p in data.split(",")]
    known = [p for p in known if p in _PRIVATE_POLICIES or p in _UNSAFE_POLICIES]
    policy = known[-1] if known else ""
    details: dict[str, JsonValue] = {"value": data, "http": bool(values), "meta": bool(meta)}
    if policy in _PRIVATE_POLICIES:
        return outcome(name, ReferrerPolicyResult.PRIVATE, True, details)
    if policy in _UNSAFE_POLICIES:
        return outcome(name, ReferrerPolicyResult.UNSAFE, False, details)
    return outcome(name, ReferrerPolicyResult.HEADER_INVALID, False, details)


def x_content_type_options(response: ObservedResponse | None) -> TestOutcome:
    name = TestName.X_CONTENT_TYPE_OPTIONS
    header = response.first("x-content-type-options") if response else None
    if not header:
        return outcome(name, XContentTypeOptionsResult.NOT_IMPLEMENTED, False)
    if header[:256].strip().lower() == "nosniff":
        return outcome(name, XContentTypeOptionsResult.NOSNIFF, True, {"value": header})
    return outcome(name, XContentTypeOptionsResult.HEADER_INVALID, False, {"value": header})


def x_frame_options(response: ObservedResponse | None, csp: CspVerdict) -> TestOutcome:
    """XFO DENY/SAMEORIGIN, ALLOW-FROM, or (overriding both) CSP `frame-ancestors`."""
    name = TestName.X_FRAME_OPTIONS
    if response is None:
        return outcome(name, XFrameOptionsResult.NOT_IMPLEMENTED, False)
    header = response.first("x-frame-options")
    xfo = header[:1024].strip().lower() if header else None
    result = XFrameOptionsResult.NOT_IMPLEMENTED
    if xfo in ("deny", "sameorigin"):
        result = XFrameOptionsResult.SAMEORIGIN_OR_DENY
    elif xfo is not None and xfo.startswith("allow-from"):
        result = XFrameOptionsResult.ALLOW_FROM_ORIGIN
    elif header:
        result = XFrameOptionsResult.HEADER_INVALID
    if csp.data is not None and csp.data.get("frame-ancestors"):
        result = XFrameOptionsResult.IMPLEMENTED_VIA_CSP
    passed = result not in (XFrameOptionsResult.NOT_IMPLEMENTED, XFrameOptionsResult.HEADER_INVALID)
    return outcome(name, result, passed, {"value": header} if header else None)


_CORP = {
    "same-site": CorpResult.SAME_SITE,
    "same-origin": CorpResult.SAME_ORIGIN,
    "cross-origin": CorpResult.CROSS_ORIGIN,
}


def cross_origin_resource_policy(response: ObservedResponse | None) -> TestOutcome:
    name = TestName.CROSS_ORIGIN_RESOURCE_POLICY
    header = response.first("cross-origin-resource-policy") if response else None
    value = js_trim(header[:256]).lower() if header else ""
    if not value:  # a blank header is falsy once trimmed: not set
        return outcome(name, CorpResult.NOT_IMPLEMENTED, True)
    result = _CORP.get(value, CorpResult.HEADER_INVALID)
    return outcome(name, result, result is not CorpResult.HEADER_INVALID, {"value": value})


_COOP = {
    "same-origin": CoopResult.SAME_ORIGIN,
    "same-origin-allow-popups": CoopResult.SAME_ORIGIN_ALLOW_POPUPS,
    "noopener-allow-popups": CoopResult.NOOPENER_ALLOW_POPUPS,
    "unsafe-none": CoopResult.UNSAFE_NONE,
}
_COEP = {
    "require-corp": CoepResult.REQUIRE_CORP,
    "credentialless": CoepResult.CREDENTIALLESS,
    "unsafe-none": CoepResult.UNSAFE_NONE,
}


def cross_origin_opener_policy(response: ObservedResponse | None) -> TestOutcome:
    return _isolation_header(
        response, TestName.CROSS_ORIGIN_OPENER_POLICY, _COOP,
        CoopResult.NOT_IMPLEMENTED, CoopResult.HEADER_INVALID,
    )  # fmt: skip


def cross_origin_embedder_policy(response: ObservedResponse | None) -> TestOutcome:
    return _isolation_header(
        response, TestName.CROSS_ORIGIN_EMBEDDER_POLICY, _COEP,
        CoepResult.NOT_IMPLEMENTED, CoepResult.HEADER_INVALID,
    )  # fmt: skip


def _isolation_header[R: (CoopResult, CoepResult)](
    response: ObservedResponse | None, name: TestName, table: dict[str, R], missing: R, invalid: R
) -> TestOutcome:
    """COOP and COEP: more than one header is invalid; a known token maps to its result.

    The value (trimmed as JavaScript trims) must be one structured-field Item whose bare item
    is a Token (security.structured_field): parameters are allowed and ignored, a malformed one
    makes the whole value invalid, as does a quoted string (parseStructuredFieldToken).
    """
    values = response.values(name.value) if response else []
    if not values or values == [""]:  # an empty header is falsy in the JavaScript: not set
        return outcome(name, missing, True)
    if len(values) > 1:
        return outcome(name, invalid, False, {"values": values})
    value = js_trim(values[0][:1024])
    result = table.get(token_of(value) or "", invalid)
    return outcome(name, result, result is not invalid, {"value": value})
