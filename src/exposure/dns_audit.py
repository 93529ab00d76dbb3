"""The DNS and email-authentication checks of one host: ask the resolver, then judge.

Which questions, for host `www.example.com`: the mail domain is the host without a leading
`www.` (`example.com`: mail is sent as the bare domain, and sites are served on either); TXT at
the mail domain and at each SPF `include`/`redirect` target (asked round by round, as the pure
walk in `spf.missing` names them, for at most `MAX_SPF_ROUNDS` rounds), TXT at `_dmarc.` of the
domain and its parent, TXT at `_mta-sts.`, CAA at the host and each parent, and A at the host for
the resolver's DNSSEC (AD) verdict. All judging is in `spf` and `domain_checks`.

Our resolver failing is not the site's DNS failing: when none of the first round's questions got
an answer from the resolver (every answer has `error`: unreachable, a non-200 status, a body that
is not DNS JSON), nothing more is asked and the report says the checks were not run
(`DomainReport.unchecked`), which `findings.domain_findings` turns into one note instead of
records reported missing. A resolver that answers some questions and not others is reported as
today: the checks that lack an answer make no finding, and `resolver_errors` lists them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from common import settings
from common.net_failure import NetFailure, classify_net_failure
from common.wire import JsonRecord
from exposure import doh, spf
from exposure.dns_records import DnsAnswer, RecordType
from exposure.domain_checks import (
    CaaResult,
    DmarcResult,
    MtaStsResult,
    caa_names,
    dmarc_names,
    evaluate_caa,
    evaluate_dmarc,
    evaluate_mta_sts,
    mta_sts_name,
)
from urls.private_hosts import parse_ip

__all__ = [
    "DomainReport",
    "check_domain",
    "dns_skip_reason",
    "judge",
    "mail_domain",
    "resolver_down",
]

# Each round follows one more level of includes; 10 lookups cannot need more than 11 levels.
MAX_SPF_ROUNDS = spf.MAX_LOOKUPS + 1


@dataclass(frozen=True, slots=True)
class DomainReport(JsonRecord):
    host: str
    mail_domain: str
    spf: spf.SpfResult
    dmarc: DmarcResult
    mta_sts: MtaStsResult
    caa: CaaResult
    dnssec_validated: bool
    resolver_errors: tuple[str, ...] = ()
    # Why none of the checks ran: the resolver answered no question (None: it answered).
    unchecked: str | None = None


def dns_skip_reason(host: str) -> str | None:
    """Why `host` has no public DNS to check (an address, localhost, one label), or None."""
    host = host.lower().rstrip(".")
    if parse_ip(host) is not None:
        return f"{host} is an IP address: no DNS records to check"
    if host == "localhost" or host.endswith(".localhost"):
        return f"{host} is a loopback name, not in the public DNS"
    if "." not in host:
        return f"{host} is not a domain name"
    return None


def mail_domain(host: str) -> str:
    host = host.lower().rstrip(".")
    return host[4:] if host.startswith("www.") and host.count(".") >= 2 else host


async def check_domain(host: str) -> DomainReport:
    host = host.lower().rstrip(".")
    domain = mail_domain(host)
    txt = await doh.query_all([domain, *dmarc_names(domain), mta_sts_name(domain)], RecordType.TXT)
    if resolver_down(txt.values()) is not None:
        return judge(host, txt, {}, None)  # the resolver answers nothing: ask no more
    for _ in range(MAX_SPF_ROUNDS):
        needed = spf.missing(domain, txt)
        if not needed:
            break
        txt.update(await doh.query_all(needed, RecordType.TXT))
    caa = await doh.query_all(caa_names(host), RecordType.CAA)
    address = await doh.query(host, RecordType.A)
    return judge(host, txt, caa, address)


def resolver_down(answers: Iterable[DnsAnswer]) -> str | None:
    """Why the resolver answered none of `answers`' questions, in a sentence; None when it
    answered at least one (or was asked none)."""
    asked = list(answers)
    errors = [answer.error for answer in asked if answer.error is not None]
    if not asked or len(errors) < len(asked):
        return None
    kind = classify_net_failure(errors[0])
    why = errors[0] if kind is NetFailure.OTHER else f"{kind.description}: {errors[0]}"
    return (
        f"the DNS-over-HTTPS resolver {settings.EXPOSURE.doh_resolver_url} answered none of "
        f"{len(asked)} questions ({why}), so the DNS and email checks were not run"
    )


def judge(
    host: str,
    txt: dict[str, DnsAnswer],
    caa: dict[str, DnsAnswer],
    address: DnsAnswer | None,
) -> DomainReport:
    """The report from recorded answers (pure: the tables in tests call this directly);
    `address` None: not asked, because the resolver answered nothing before."""
    domain = mail_domain(host)
    answers = [*txt.values(), *caa.values(), *([] if address is None else [address])]
    return DomainReport(
        host=host,
        mail_domain=domain,
        spf=spf.evaluate(domain, txt),
        dmarc=evaluate_dmarc(domain, txt),
        mta_sts=evaluate_mta_sts(domain, txt),
        caa=evaluate_caa(host, caa),
        dnssec_validated=address is not None and address.authenticated and not address.failed,
        resolver_errors=tuple(dict.fromkeys(a.error for a in answers if a.error)),
        unchecked=resolver_down(answers),
    )
