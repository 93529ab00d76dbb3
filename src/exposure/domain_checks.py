"""DMARC, MTA-STS, CAA and DNSSEC judged from recorded DNS answers (pure functions).

* DMARC (RFC 7489): the TXT record at `_dmarc.<domain>` starting `v=DMARC1` (§6.4); when the
  domain has none, the record of its parent stands in for the organizational domain's (§6.6.3;
  without the Public Suffix List the parent is our approximation of it, and a two-label domain has
  no parent to try). More than one record means none applies (§6.6.3). Judged: the policy `p`
  (`none` only monitors; `quarantine` and `reject` protect), aggregate reports `rua`, and `pct`
  below 100 (the policy applies to part of the mail only).
* MTA-STS (RFC 8461 §3.1): a TXT record at `_mta-sts.<domain>` starting `v=STSv1` with an `id`.
* CAA (RFC 8659 §3): the CAA set of the host, else of its parent, and so on up to (not including)
  the top-level domain; the first non-empty set is the one CAs obey. `issue`/`issuewild` values
  name the CAs (`;` alone: none may issue).
* DNSSEC: the resolver's AD flag on the host's A answer: the resolver validated the chain of
  trust (RFC 4035 §3.2.3). A resolver that does not validate says nothing either way, so a
  missing AD is reported as "not validated", never as "insecure".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from common.wire import JsonRecord
from exposure.dns_records import Caa, DnsAnswer, RecordType, caa_of, txt_strings

__all__ = [
    "CaaResult",
    "DmarcPolicy",
    "DmarcProblem",
    "DmarcResult",
    "MtaStsResult",
    "caa_names",
    "dmarc_names",
    "evaluate_caa",
    "evaluate_dmarc",
    "evaluate_mta_sts",
    "mta_sts_name",
]


class DmarcPolicy(StrEnum):
    NONE = "none"
    QUARANTINE = "quarantine"
    REJECT = "reject"


class DmarcProblem(StrEnum):
    MISSING = "missing"
    MULTIPLE = "multiple"
    INVALID = "invalid"
    POLICY_NONE = "policy_none"
    NO_REPORTS = "no_reports"
    PARTIAL = "partial"
    UNRESOLVED = "unresolved"


@dataclass(frozen=True, slots=True)
class DmarcResult(JsonRecord):
    domain: str
    found_at: str | None  # the name whose record applies (`_dmarc.` + domain or its parent)
    record: str | None
    policy: DmarcPolicy | None
    rua: tuple[str, ...] = ()
    pct: int = 100
    problems: tuple[DmarcProblem, ...] = ()


def dmarc_names(domain: str) -> list[str]:
    labels = domain.split(".")
    names = [f"_dmarc.{domain}"]
    if len(labels) > 2:
        names.append(f"_dmarc.{'.'.join(labels[1:])}")
    return names


def _tags(record: str) -> dict[str, str]:
    tags: dict[str, str] = {}
    for part in record.split(";"):
        name, sep, value = part.partition("=")
        if sep:
            tags.setdefault(name.strip().lower(), value.strip())
    return tags


def _records(answer: DnsAnswer, version: str) -> list[str]:
    texts = (txt_strings(data) for data in answer.data_of(RecordType.TXT))
    return [text for text in texts if _tags(text).get("v", "").lower() == version.lower()]


def evaluate_dmarc(domain: str, answers: Mapping[str, DnsAnswer]) -> DmarcResult:
    for name in dmarc_names(domain):
        answer = answers.get(name)
        if answer is None or answer.failed:
            return DmarcResult(domain, None, None, None, problems=(DmarcProblem.UNRESOLVED,))
        records = _records(answer, "DMARC1")
        if len(records) > 1:
            return DmarcResult(domain, name, None, None, problems=(DmarcProblem.MULTIPLE,))
        if records:
            return _judge_dmarc(domain, name, records[0])
    return DmarcResult(domain, None, None, None, problems=(DmarcProblem.MISSING,))


def _judge_dmarc(domain: str, name: str, record: str) -> DmarcResult:
    tags = _tags(record)
    try:
        policy = DmarcPolicy(tags.get("p", "").lower())
    except ValueError:
        return DmarcResult(domain, name, record, None, problems=(DmarcProblem.INVALID,))
    rua = tuple(uri.strip() for uri in tags.get("rua", "").split(",") if uri.strip())
    pct_text = tags.get("pct", "100")
    pct = int(pct_text) if pct_text.isdigit() else 100
    problems = []
    if policy is DmarcPolicy.NONE:
        problems.append(DmarcProblem.POLICY_NONE)
    if not rua:
        problems.append(DmarcProblem.NO_REPORTS)
    if pct < 100:
        problems.append(DmarcProblem.PARTIAL)
    return DmarcResult(domain, name, record, policy, rua, pct, tuple(problems))


@dataclass(frozen=True, slots=True)
class MtaStsResult(JsonRecord):
    domain: str
    record: str | None
    policy_id: str | None
    present: bool
    unresolved: bool = False


def mta_sts_name(domain: str) -> str:
    return f"_mta-sts.{domain}"


def evaluate_mta_sts(domain: str, answers: Mapping[str, DnsAnswer]) -> MtaStsResult:
    answer = answers.get(mta_sts_name(domain))
    if answer is None or answer.failed:
        return MtaStsResult(domain, None, None, present=False, unresolved=True)
    records = _records(answer, "STSv1")
    if len(records) != 1:
        # RFC 8461 §3.1: more than one record (or none) means no MTA-STS policy.
        return MtaStsResult(domain, None, None, present=False)
    policy_id = _tags(records[0]).get("id") or None
    return MtaStsResult(domain, records[0], policy_id, present=policy_id is not None)


@dataclass(frozen=True, slots=True)
class CaaResult(JsonRecord):
    host: str
    found_at: str | None
    issuers: tuple[str, ...] = ()  # CA domains from `issue` ("" = none may issue)
    wildcard_issuers: tuple[str, ...] = ()  # from `issuewild`
    iodef: tuple[str, ...] = ()
    unresolved: bool = False

    @property
    def present(self) -> bool:
        return self.found_at is not None


def caa_names(host: str) -> list[str]:
    labels = host.split(".")
    return [".".join(labels[index:]) for index in range(max(len(labels) - 1, 1))]


def evaluate_caa(host: str, answers: Mapping[str, DnsAnswer]) -> CaaResult:
    for name in caa_names(host):
        answer = answers.get(name)
        if answer is None or answer.failed:
            return CaaResult(host, None, unresolved=True)
        records = [caa for data in answer.data_of(RecordType.CAA) if (caa := caa_of(data))]
        if records:
            return CaaResult(
                host,
                name,
                issuers=_issuers(records, "issue"),
                wildcard_issuers=_issuers(records, "issuewild"),
                iodef=tuple(r.value for r in records if r.tag == "iodef"),
            )
    return CaaResult(host, None)


def _issuers(records: Sequence[Caa], tag: str) -> tuple[str, ...]:
    # RFC 8659 §4.2: the issuer domain name comes before any `;` parameters.
    return tuple(
        dict.fromkeys(r.value.split(";", 1)[0].strip().lower() for r in records if r.tag == tag)
    )
