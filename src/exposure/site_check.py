"""All exposure checks for one URL: its start page, that page's scripts, and its host's DNS.

The start page is fetched like the crawler fetches it (our user agent; redirects followed hop by
hop, at most `MAX_REDIRECTS`, each hop's host checked against the SSRF policy); its headers and
generator tags are checked for disclosures, its `<script src>` URLs for libraries (by URL, then
same-site scripts by content within the per-audit budget), and the final host's DNS for email
authentication, CAA and DNSSEC.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from common import ports, settings
from common.wire import JsonRecord
from exposure import scripts
from exposure.disclosure import (
    Disclosure,
    generator_disclosures,
    header_disclosures,
    meta_generators,
)
from exposure.dns_audit import DomainReport, check_domain
from exposure.findings import Finding, disclosure_findings, domain_findings, library_findings
from exposure.libraries import LibraryFinding
from parse.extractor import PageExtractor
from urls.private_hosts import PrivateHosts, host_refused
from urls.resolve import resolve

__all__ = ["MAX_REDIRECTS", "ExposureReport", "check_site"]

MAX_REDIRECTS = 5
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


@dataclass(frozen=True, slots=True)
class ExposureReport(JsonRecord):
    url: str
    final_url: str
    status: int
    error: str | None = None
    scripts: tuple[str, ...] = ()
    libraries: tuple[LibraryFinding, ...] = ()
    content_bytes_read: int = 0
    disclosures: tuple[Disclosure, ...] = ()
    domain: DomainReport | None = None
    findings: tuple[Finding, ...] = ()
    # Whether the host's DNS and email checks ran, and why not when the resolver answered
    # nothing (then `findings` holds one dns_unchecked note instead).
    dns_checked: bool = False
    dns_error: str | None = None


@dataclass(frozen=True, slots=True)
class _Page:
    url: str
    result: ports.FetchResult | None
    error: str | None


async def check_site(
    url: str, *, private_hosts: PrivateHosts = PrivateHosts.DENY, check_dns: bool = True
) -> ExposureReport:
    page = await _start_page(url, private_hosts)
    host = urlsplit(page.url).hostname or ""
    domain = await check_domain(host) if check_dns and host else None
    if page.result is None or page.result.status != 200:
        status = page.result.status if page.result else 0
        error = page.error or f"HTTP {status}"
        findings = tuple(domain_findings(domain) if domain else [])
        report = ExposureReport(url, page.url, status, error, domain=domain, findings=findings)
    else:
        report = await _report(url, page.url, page.result, domain, private_hosts)
    unchecked = None if domain is None else domain.unchecked
    return replace(
        report, dns_checked=domain is not None and unchecked is None, dns_error=unchecked
    )


async def _report(
    url: str,
    final_url: str,
    result: ports.FetchResult,
    domain: DomainReport | None,
    private_hosts: PrivateHosts,
) -> ExposureReport:
    script_urls = _script_urls(final_url, result)
    by_url = scripts.scan_urls(script_urls)
    by_content = await scripts.scan_contents(
        script_urls,
        final_url,
        budget_bytes=settings.EXPOSURE.script_budget_bytes,
        private_hosts=private_hosts,
    )
    libraries = (*by_url, *by_content.findings)
    html = result.body.decode("utf-8", "replace")
    disclosures = (
        *header_disclosures(result.headers),
        *generator_disclosures(meta_generators(html)),
    )
    findings = [
        *library_findings(libraries),
        *disclosure_findings(disclosures, final_url),
        *(domain_findings(domain) if domain else []),
    ]
    return ExposureReport(
        url=url,
        final_url=final_url,
        status=result.status,
        scripts=tuple(script_urls),
        libraries=libraries,
        content_bytes_read=by_content.bytes_read,
        disclosures=disclosures,
        domain=domain,
        findings=tuple(findings),
    )


def _script_urls(page_url: str, result: ports.FetchResult) -> list[str]:
    extractor = PageExtractor(page_url, content_type=result.header("content-type"))
    extractor.feed(result.body)
    facts = extractor.close()
    urls = (script.src.url for script in facts.scripts if script.src and script.src.url)
    return list(dict.fromkeys(u for u in urls if u.startswith(("http://", "https://"))))


async def _start_page(url: str, private_hosts: PrivateHosts) -> _Page:
    for _ in range(MAX_REDIRECTS + 1):
        if host_refused(urlsplit(url).hostname or "", private_hosts):
            return _Page(url, None, "host refused by the private-host policy")
        request = ports.FetchRequest(
            url=url,
            timeout_s=settings.CRAWL.start_probe_timeout_s,
            max_bytes=settings.CRAWL.whole_body_max_bytes,
            headers=settings.CRAWL.request_headers,
        )
        result = await ports.http_client().fetch(request)
        location = result.header("location")
        target = resolve(location, url) if location and result.status in _REDIRECTS else None
        if target is None:
            return _Page(url, result, result.error)
        url = target
    return _Page(url, None, f"more than {MAX_REDIRECTS} redirects")
