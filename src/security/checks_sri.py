"""The subresource-integrity test (mdn/mdn-http-observatory
`src/analyzer/tests/subresource-integrity.js`).

Scripts are judged by their `src` as written: relative (`/x.js`) is same-origin; `//host/x.js`
is protocol-relative and always foreign; a full URL is "same origin" when its registrable domain
(Public Suffix List) matches the scanned host's. Foreign scripts need `integrity` and https.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from security.html_scan import HTML_TYPES, HtmlFacts, ScriptTag
from security.observed import ObservedResponse
from security.results import SriResult, TestName, TestOutcome, outcome
from security.site_names import registrable_domain

# onlyIfWorse order, best first.
_ORDER = (
    SriResult.IMPLEMENTED_AND_ALL_SCRIPTS_LOADED_SECURELY,
    SriResult.IMPLEMENTED_AND_EXTERNAL_SCRIPTS_LOADED_SECURELY,
    SriResult.IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY,
    SriResult.NOT_IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_LOADED_SECURELY,
    SriResult.NOT_IMPLEMENTED_AND_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY,
    SriResult.NOT_IMPLEMENTED_RESPONSE_NOT_HTML,
)
_PASSING = frozenset(
    {
        SriResult.IMPLEMENTED_AND_ALL_SCRIPTS_LOADED_SECURELY,
        SriResult.IMPLEMENTED_AND_EXTERNAL_SCRIPTS_LOADED_SECURELY,
        SriResult.NOT_IMPLEMENTED_RESPONSE_NOT_HTML,
        SriResult.NOT_IMPLEMENTED_BUT_ALL_SCRIPTS_LOADED_FROM_SECURE_ORIGIN,
        SriResult.NOT_IMPLEMENTED_BUT_NO_SCRIPTS_LOADED,
    }
)
_PROTOCOL_RELATIVE = re.compile(r"^//[^/]")
_FULL_URL = re.compile(r"^https?://", re.IGNORECASE)


def subresource_integrity(
    response: ObservedResponse | None, html: HtmlFacts, site_host: str
) -> TestOutcome:
    name = TestName.SUBRESOURCE_INTEGRITY
    if response is None:
        return outcome(name, SriResult.NOT_IMPLEMENTED_BUT_NO_SCRIPTS_LOADED, True)
    mime = (response.first("content-type") or "").split(";")[0]
    if mime and mime not in HTML_TYPES:
        return outcome(name, SriResult.NOT_IMPLEMENTED_RESPONSE_NOT_HTML, True)
    if not html.scripts:
        return outcome(name, SriResult.NOT_IMPLEMENTED_BUT_NO_SCRIPTS_LOADED, True)
    https_page = response.url.lower().startswith("https:")
    result, foreign, data = _judge(html.scripts, site_host, https_page)
    if result is None:
        result = (
            SriResult.IMPLEMENTED_AND_EXTERNAL_SCRIPTS_LOADED_SECURELY
            if foreign
            else SriResult.NOT_IMPLEMENTED_BUT_ALL_SCRIPTS_LOADED_FROM_SECURE_ORIGIN
        )
    return outcome(name, result, result in _PASSING, {"scripts": data})


def _judge(
    scripts: list[ScriptTag], site_host: str, https_page: bool
) -> tuple[SriResult | None, bool, dict[str, dict[str, str | None]]]:
    result: SriResult | None = None
    foreign_seen = False
    data: dict[str, dict[str, str | None]] = {}
    site_domain = registrable_domain(site_host)
    for script in scripts:
        if not script.src:
            continue
        relative_protocol = bool(_PROTOCOL_RELATIVE.match(script.src))
        full = bool(_FULL_URL.match(script.src))
        relative_origin = not relative_protocol and not full
        same_domain = (
            relative_protocol
            or relative_origin
            or (registrable_domain(urlsplit(script.src).hostname or "") == site_domain)
        )
        secure_origin = relative_origin or (same_domain and not relative_protocol)
        scheme = urlsplit(script.src).scheme.lower() if full else None
        secure_scheme = scheme == "https" or (relative_origin and https_page)
        if secure_origin:
            # A bonus even for integrity on same-origin scripts.
            if script.integrity and secure_scheme and result is None:
                result = SriResult.IMPLEMENTED_AND_ALL_SCRIPTS_LOADED_SECURELY
            continue
        foreign_seen = True
        data[script.src] = {"crossorigin": script.crossorigin, "integrity": script.integrity}
        finding = _foreign(bool(script.integrity), secure_scheme)
        if finding is not None:
            result = _worse(finding, result)
    return result, foreign_seen, data


def _foreign(integrity: bool, secure_scheme: bool) -> SriResult | None:
    """What one foreign script adds; None for integrity over https (nothing to report)."""
    if integrity and not secure_scheme:
        return SriResult.IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY
    if not integrity and secure_scheme:
        return SriResult.NOT_IMPLEMENTED_BUT_EXTERNAL_SCRIPTS_LOADED_SECURELY
    if not integrity:
        return SriResult.NOT_IMPLEMENTED_AND_EXTERNAL_SCRIPTS_NOT_LOADED_SECURELY
    return None


def _worse(new: SriResult, old: SriResult | None) -> SriResult:
    if old is None or _ORDER.index(new) > _ORDER.index(old):
        return new
    return old
