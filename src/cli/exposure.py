"""`siteaudit exposure URL`: the checks beyond the Observatory, on one URL, now.

    siteaudit exposure URL [--json] [--no-dns] [--resolver URL] [--allow-private-hosts]

Fetches the start page (redirects followed under the SSRF policy) and prints the JavaScript
libraries of its scripts (retire.js data: by URL, then same-site scripts by content), the
versions its headers and generator tags disclose, and the DNS and email authentication of its
host (SPF, DMARC, MTA-STS, CAA, DNSSEC through DNS over HTTPS), then the findings with their fix
advice. `--json` prints `ExposureReport.to_dict()` instead. Exit status 0 with a report, 1 when
the start page could not be fetched (the DNS part is still printed).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import TYPE_CHECKING, Any

from common import settings

if TYPE_CHECKING:
    from exposure.disclosure import Disclosure
    from exposure.dns_audit import DomainReport
    from exposure.libraries import LibraryFinding
    from exposure.site_check import ExposureReport

type Subcommands = argparse._SubParsersAction[Any]  # argparse's private class, as in cli.keys


def add_exposure_command(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "exposure",
        help="vulnerable JavaScript libraries, version disclosure, DNS and email authentication",
    )
    parser.add_argument("url")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--no-dns", action="store_true", help="skip the DNS and email checks")
    parser.add_argument(
        "--resolver",
        help=f"DNS-over-HTTPS JSON resolver (default: {settings.EXPOSURE.doh_resolver_url})",
    )
    parser.add_argument(
        "--allow-private-hosts",
        action="store_true",
        help="allow private, loopback and link-local hosts (local test sites)",
    )


async def run_exposure(args: argparse.Namespace) -> int:
    from exposure.site_check import check_site
    from local_platform import fetch, workers_sdk  # the platform's fetch, as `audit` uses it
    from urls.private_hosts import PrivateHosts
    from urls.start_url import StartUrlError, normalise_start_url

    workers_sdk.install()
    import entry  # noqa: F401  (configures the shell's HTTP client)

    private_hosts = PrivateHosts.ALLOW if args.allow_private_hosts else PrivateHosts.DENY
    try:
        url = normalise_start_url(args.url, private_hosts=private_hosts)
    except StartUrlError as exc:
        print(f"siteaudit: {exc}", file=sys.stderr)
        return 2
    if args.resolver:
        settings.EXPOSURE = dataclasses.replace(settings.EXPOSURE, doh_resolver_url=args.resolver)
    previous = fetch.restrict_addresses(private_hosts)
    try:
        report = await check_site(url, private_hosts=private_hosts, check_dns=not args.no_dns)
    finally:
        fetch.restrict_addresses(previous)
        await fetch.aclose_shared_client()
    print(json.dumps(report.to_dict(), indent=2) if args.json else format_exposure(report))
    return 1 if report.error else 0


def format_exposure(report: ExposureReport) -> str:
    lines = [f"{report.url} -> {report.final_url} (HTTP {report.status})"]
    if report.error:
        lines.append(f"  start page not checked: {report.error}")
    lines += _libraries(report)
    if report.disclosures:
        lines += ["Disclosure", *(_disclosure(d) for d in report.disclosures)]
    if report.domain is not None:
        lines += _domain(report.domain)
    lines.append(f"Findings ({len(report.findings)})")
    for finding in report.findings:
        lines.append(
            f"  [{finding.severity}] {finding.check}: {finding.subject} ({finding.detail})"
        )
        lines.append(f"      fix: {finding.advice}")
    return "\n".join(lines)


def _libraries(report: ExposureReport) -> list[str]:
    lines = [
        f"JavaScript libraries ({len(report.scripts)} scripts, "
        f"{report.content_bytes_read} bytes read for content)"
    ]
    listed: set[tuple[str, str]] = set()
    for found in report.libraries:
        lines.append(f"  {_library(found)}")
        if (found.library, found.version) in listed:
            continue  # the same version in another script: its vulnerabilities are listed above
        listed.add((found.library, found.version))
        for vulnerability in found.vulnerabilities:
            ids = " ".join((*vulnerability.cves, vulnerability.ghsa or "")).strip()
            summary = _cut(vulnerability.summary or "-", SUMMARY_CHARS)
            lines.append(f"      {vulnerability.severity}: {summary} {ids}".rstrip())
    return lines


SUMMARY_CHARS = 90


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _library(found: LibraryFinding) -> str:
    where = f"by {found.detection} in {found.script_url}"
    if found.severity is None:
        return f"{found.library} {found.version}: no known vulnerability ({where})"
    if found.safe_version:
        fix = f"upgrade to {found.safe_version}"
    elif found.fixed_in:
        fix = f"first fix {found.fixed_in}, no release fixes all"
    else:
        fix = "no fixed release in this line"
    return f"{found.library} {found.version}: {found.severity}, {fix} ({where})"


def _disclosure(disclosure: Disclosure) -> str:
    product = disclosure.product or "?"
    named = f"{product} {disclosure.version}" if disclosure.version else f"{product} (no version)"
    return f"  {disclosure.source}: {disclosure.value} -> {named}"


def _domain(domain: DomainReport) -> list[str]:
    heading = f"DNS and email ({domain.mail_domain}; host {domain.host})"
    if domain.unchecked is not None:
        return [heading, f"  not checked: {domain.unchecked}"]
    spf, dmarc, caa = domain.spf, domain.dmarc, domain.caa
    ending = f"{spf.all_qualifier}all" if spf.all_qualifier else "no all"
    return [
        heading,
        f"  SPF      {spf.record or '-'} [{ending}, {spf.lookups} lookups] {_problems(spf.problems)}",
        f"  DMARC    {dmarc.record or '-'} {_problems(dmarc.problems)}",
        f"  MTA-STS  {'present' if domain.mta_sts.present else 'absent'}",
        f"  CAA      {', '.join(caa.issuers) or '-'}{f' (at {caa.found_at})' if caa.found_at else ''}",
        f"  DNSSEC   {'validated' if domain.dnssec_validated else 'not validated'}",
        *(f"  resolver error: {error}" for error in domain.resolver_errors),
    ]


def _problems(problems: tuple[object, ...]) -> str:
    return f"problems: {', '.join(map(str, problems))}" if problems else "ok"
