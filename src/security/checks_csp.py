"""The content-security-policy test (mdn/mdn-http-observatory `src/analyzer/tests/csp.js`).

The first failing check decides the result, in the Observatory's order: unsafe inline/broad
script or object sources, insecure active sources on an https page, `'unsafe-eval'`, insecure
passive sources, unsafe style sources, then `default-src 'none'` (+10) or no unsafe (+5). The
sets below are shared on purpose: `script-src` and `object-src` fall back to the very set of
`default-src`, and the nonce/hash and `'strict-dynamic'` clean-ups edit that set in place, as
the JavaScript's `Set.delete` on the parsed map does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from security.csp import ParsedCsp, parse_csp, parse_csp_meta, split_policies
from security.html_scan import HtmlFacts
from security.observed import ObservedResponse
from security.results import CspResult, TestName, TestOutcome, outcome

DANGEROUSLY_BROAD = frozenset(
    {"ftp:", "http:", "https:", "*", "http://*", "http://*.*", "https://*", "https://*.*"}
)
UNSAFE_INLINE = frozenset({"'unsafe-inline'", "data:"})
BROAD_OR_UNSAFE_INLINE = DANGEROUSLY_BROAD | UNSAFE_INLINE
PASSIVE_DIRECTIVES = ("img-src", "media-src")
NONCES_HASHES = ("'sha256-", "'sha384-", "'sha512-", "'nonce-")
_PASSING = frozenset(
    {
        CspResult.NO_UNSAFE,
        CspResult.NO_UNSAFE_DEFAULT_SRC_NONE,
        CspResult.UNSAFE_INLINE_IN_STYLE_SRC_ONLY,
        CspResult.INSECURE_SCHEME_IN_PASSIVE_CONTENT_ONLY,
    }
)


# The Observatory's Policy booleans that mirror a check: set when the check fires, even when an
# earlier check already decided the result.
_FLAG_OF_RESULT = {
    CspResult.UNSAFE_INLINE: "unsafe_inline",
    CspResult.INSECURE_SCHEME: "insecure_scheme_active",
    CspResult.UNSAFE_EVAL: "unsafe_eval",
    CspResult.INSECURE_SCHEME_IN_PASSIVE_CONTENT_ONLY: "insecure_scheme_passive",
    CspResult.UNSAFE_INLINE_IN_STYLE_SRC_ONLY: "unsafe_inline_style",
    CspResult.NO_UNSAFE_DEFAULT_SRC_NONE: "default_none",
}


@dataclass(frozen=True, slots=True)
class CspVerdict:
    """The CSP test's outcome and the effective policy (`data`, read by x-frame-options)."""

    outcome: TestOutcome
    data: dict[str, list[str]] | None = None
    flags: dict[str, bool] = field(default_factory=dict)


def content_security_policy(response: ObservedResponse | None, html: HtmlFacts) -> CspVerdict:
    if response is None:
        return CspVerdict(_result(CspResult.NOT_IMPLEMENTED))
    # Header fields combined with "," (RFC 9110 §5.3) are several policies (splitCspHeaders).
    headers = split_policies(response.values("content-security-policy"))
    metas = split_policies(html.csp_meta)
    counted: dict[str, object] = {"num_policies": len(headers) + len(metas)}
    combined = parse_csp(headers + metas)
    if combined.invalid is not None:
        return CspVerdict(
            _result(CspResult.HEADER_INVALID, {**counted, "reason": combined.invalid})
        )
    header_only = _or_empty(parse_csp(headers))
    meta_only = _or_empty(parse_csp_meta(metas))
    if not header_only.directives and not meta_only.directives:
        # Report-Only is a header only; it never enforces anything.
        if response.first("content-security-policy-report-only"):
            return CspVerdict(_result(CspResult.NOT_IMPLEMENTED_BUT_REPORTING_ENABLED, counted))
        return CspVerdict(_result(CspResult.NOT_IMPLEMENTED, counted))
    https = response.url.lower().startswith("https:")
    seen = {"http": bool(headers), "meta": bool(metas)}
    return _evaluate(combined, header_only, https, seen, counted)


def _or_empty(parsed: ParsedCsp) -> ParsedCsp:
    return ParsedCsp() if parsed.invalid is not None else parsed


def _result(result: CspResult, details: dict[str, object] | None = None) -> TestOutcome:
    passed = result in _PASSING or result is CspResult.DUPLICATE_DIRECTIVES
    return outcome(TestName.CONTENT_SECURITY_POLICY, result, passed, details)  # type: ignore[arg-type]


def _has_nonce_or_hash(sources: set[str]) -> bool:
    return any(source.startswith(NONCES_HASHES) for source in sources)


def _evaluate(
    parsed: ParsedCsp,
    header_only: ParsedCsp,
    https: bool,
    seen: dict[str, bool],
    counted: dict[str, object],
) -> CspVerdict:
    csp = parsed.directives
    default = csp.get("default-src")
    frame_ancestors = header_only.directives.get("frame-ancestors") or {"*"}
    base_uri = csp.get("base-uri") or {"*"}
    form_action = csp.get("form-action") or {"*"}
    object_src = csp.get("object-src") or default or {"*"}
    script_src = csp.get("script-src") or default or {"*"}
    style_src = csp.get("style-src") or default or {"*"}
    for sources in (script_src, style_src):
        if _has_nonce_or_hash(sources):
            sources.discard("'unsafe-inline'")
    results: list[CspResult] = []
    strict_dynamic = _strict_dynamic(script_src, results)
    _checks(csp, script_src, object_src, style_src, https, results)
    if default == {"'none'"}:
        results.append(CspResult.NO_UNSAFE_DEFAULT_SRC_NONE)
    results.append(CspResult.NO_UNSAFE)
    result = results[0]
    if result in _PASSING and parsed.duplicates:
        result = CspResult.DUPLICATE_DIRECTIVES
    flags = {
        **seen,
        **{flag: found in results for found, flag in _FLAG_OF_RESULT.items()},
        "strict_dynamic": strict_dynamic,
        "anti_clickjacking": not (frame_ancestors & DANGEROUSLY_BROAD),
        "insecure_base_uri": bool(base_uri & BROAD_OR_UNSAFE_INLINE),
        "insecure_form_action": bool(form_action & DANGEROUSLY_BROAD),
        "unsafe_objects": bool(object_src & DANGEROUSLY_BROAD),
    }
    data = {directive: sorted(sources) for directive, sources in csp.items()}
    details = {"policy": data, **counted, **flags}
    return CspVerdict(_result(result, details), data, flags)


def _strict_dynamic(script_src: set[str], results: list[CspResult]) -> bool:
    """`'strict-dynamic'` with a nonce or hash drops schemes, 'self' and 'unsafe-inline'."""
    if "'strict-dynamic'" not in script_src:
        return False
    if not _has_nonce_or_hash(script_src):
        results.append(CspResult.HEADER_INVALID)  # strict-dynamic without a nonce or hash
        return False
    for source in list(script_src):
        broad = any(source.startswith(prefix) for prefix in DANGEROUSLY_BROAD)
        if broad or source in ("'self'", "'unsafe-inline'"):
            script_src.discard(source)
    return True


def _checks(
    csp: dict[str, set[str]],
    script_src: set[str],
    object_src: set[str],
    style_src: set[str],
    https: bool,
    results: list[CspResult],
) -> None:
    active = [
        s for d, v in csp.items() if d not in PASSIVE_DIRECTIVES and d != "script-src" for s in v
    ]
    active += list(script_src)
    passive = [
        s for d in PASSIVE_DIRECTIVES for s in (csp.get(d) or csp.get("default-src") or set())
    ]
    if script_src & BROAD_OR_UNSAFE_INLINE or object_src & DANGEROUSLY_BROAD:
        results.append(CspResult.UNSAFE_INLINE)
    if https and any(s.startswith(("http:", "ftp:")) for s in active):
        results.append(CspResult.INSECURE_SCHEME)
    if "'unsafe-eval'" in script_src | style_src:
        results.append(CspResult.UNSAFE_EVAL)
    if https and any(s.startswith(("http:", "ftp:")) for s in passive):
        results.append(CspResult.INSECURE_SCHEME_IN_PASSIVE_CONTENT_ONLY)
    if style_src & BROAD_OR_UNSAFE_INLINE:
        results.append(CspResult.UNSAFE_INLINE_IN_STYLE_SRC_ONLY)
