"""SPF (RFC 7208) judged from recorded TXT answers, without sending mail or resolving anything.

What is checked, each with its section:

* a domain has exactly one SPF record — a TXT string starting `v=spf1` followed by a space or
  nothing (§4.5); none means no policy, more than one is a permanent error;
* the policy ends in `-all` (fail) or `~all` (softfail); `?all`, `+all` or no `all` at all lets
  anyone send as the domain (§5.1, §4.7: the default result is neutral). Without an `all`, a
  `redirect=` modifier hands the decision to the target's record (§6.1), so its `all` counts;
* at most 10 terms that cause DNS queries — `include`, `a`, `mx`, `ptr`, `exists` and the
  `redirect` modifier — counted through every `include` and `redirect` target (§4.6.4); an
  `include` whose target publishes no SPF record is a permanent error (§5.2).

Evaluation is pure: `evaluate(domain, answers)` reads a mapping of domain → TXT `DnsAnswer`;
`missing(domain, answers)` names the domains the walk still needs, so a driver fetches those
and asks again until nothing is missing. A domain met again on its own include path is a loop
(counted once, not followed), and the walk stops after `MAX_DOMAINS` domains whatever happens.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from common.wire import JsonRecord
from exposure.dns_records import DnsAnswer, RecordType, txt_strings

__all__ = ["MAX_LOOKUPS", "SpfProblem", "SpfResult", "evaluate", "missing", "spf_records"]

MAX_LOOKUPS = 10  # RFC 7208 §4.6.4
MAX_DOMAINS = 40  # a bound on the walk's work, well above what 10 lookups can reach
_LOOKUP_MECHANISMS = frozenset({"include", "a", "mx", "ptr", "exists"})
_QUALIFIERS = "+-~?"


class SpfProblem(StrEnum):
    MISSING = "missing"
    MULTIPLE = "multiple"
    PERMISSIVE_ALL = "permissive_all"
    TOO_MANY_LOOKUPS = "too_many_lookups"
    INCLUDE_WITHOUT_RECORD = "include_without_record"
    LOOP = "loop"
    UNRESOLVED = "unresolved"


@dataclass(frozen=True, slots=True)
class SpfResult(JsonRecord):
    domain: str
    record: str | None  # the domain's own SPF record, when it has exactly one
    records_found: int
    all_qualifier: str | None  # "-", "~", "?", "+" of the effective `all`; None without one
    lookups: int  # DNS-querying terms counted through includes and redirects
    visited: tuple[str, ...] = ()  # include and redirect targets, in walk order
    problems: tuple[SpfProblem, ...] = ()


def spf_records(answer: DnsAnswer) -> list[str]:
    """The SPF records among a TXT answer's strings (§4.5: `v=spf1`, case-insensitive)."""
    texts = (txt_strings(data) for data in answer.data_of(RecordType.TXT))
    return [text for text in texts if _is_spf(text)]


def _is_spf(text: str) -> bool:
    head = text[:7].lower()
    return head == "v=spf1" or head == "v=spf1 "


@dataclass
class _Walk:
    answers: Mapping[str, DnsAnswer]
    lookups: int = 0
    visited: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    problems: set[SpfProblem] = field(default_factory=set)

    def record_of(self, domain: str) -> str | None:
        answer = self.answers.get(domain)
        if answer is None:
            self.missing.append(domain)
            return None
        if answer.failed:
            self.problems.add(SpfProblem.UNRESOLVED)
            return None
        records = spf_records(answer)
        if len(records) != 1:
            return None
        return records[0]

    def follow(self, domain: str, path: tuple[str, ...], *, required: bool) -> str | None:
        """Walk a target's record; returns the qualifier of its effective `all`."""
        if "%" in domain:
            return None  # a macro (§7) names a domain only at evaluation time
        if domain in path:
            self.problems.add(SpfProblem.LOOP)
            return None
        if len(self.visited) >= MAX_DOMAINS:
            return None
        self.visited.append(domain)
        record = self.record_of(domain)
        if record is None:
            answer = self.answers.get(domain)
            if required and answer is not None and not answer.failed:
                self.problems.add(SpfProblem.INCLUDE_WITHOUT_RECORD)
            return None
        return self.terms(record, (*path, domain))

    def terms(self, record: str, path: tuple[str, ...]) -> str | None:
        all_qualifier: str | None = None
        redirect: str | None = None
        for term in record.split()[1:]:
            name, _, value = term.partition("=")
            if value and ":" not in name and "/" not in name:
                if name.lower() == "redirect":
                    self.lookups += 1
                    redirect = value
                continue
            qualifier, mechanism, target = _mechanism(term)
            if mechanism in _LOOKUP_MECHANISMS:
                self.lookups += 1
            if mechanism == "include" and target:
                self.follow(target.lower().rstrip("."), path, required=True)
            elif mechanism == "all" and all_qualifier is None:
                all_qualifier = qualifier
        if all_qualifier is None and redirect is not None:
            return self.follow(redirect.lower().rstrip("."), path, required=True)
        return all_qualifier


def _mechanism(term: str) -> tuple[str, str, str]:
    qualifier = term[0] if term[0] in _QUALIFIERS else "+"
    body = term[1:] if term[0] in _QUALIFIERS else term
    name, _, target = body.partition(":")
    name = name.split("/", 1)[0].lower()
    return qualifier, name, target.split("/", 1)[0]


def missing(domain: str, answers: Mapping[str, DnsAnswer]) -> list[str]:
    """Domains whose TXT answer the evaluation of `domain` still needs."""
    walk = _Walk(answers)
    record = walk.record_of(domain)
    if record is not None:
        walk.terms(record, (domain,))
    return list(dict.fromkeys(walk.missing))


def evaluate(domain: str, answers: Mapping[str, DnsAnswer]) -> SpfResult:
    own = answers.get(domain)
    records = spf_records(own) if own is not None and not own.failed else []
    if own is None or own.failed:
        return SpfResult(domain, None, 0, None, 0, problems=(SpfProblem.UNRESOLVED,))
    if len(records) != 1:
        problem = SpfProblem.MISSING if not records else SpfProblem.MULTIPLE
        return SpfResult(domain, None, len(records), None, 0, problems=(problem,))
    walk = _Walk(answers)
    qualifier = walk.terms(records[0], (domain,))
    problems = set(walk.problems)
    if qualifier not in ("-", "~"):
        problems.add(SpfProblem.PERMISSIVE_ALL)
    if walk.lookups > MAX_LOOKUPS:
        problems.add(SpfProblem.TOO_MANY_LOOKUPS)
    if walk.missing:
        problems.add(SpfProblem.UNRESOLVED)
    return SpfResult(
        domain=domain,
        record=records[0],
        records_found=1,
        all_qualifier=qualifier,
        lookups=walk.lookups,
        visited=tuple(walk.visited),
        problems=tuple(sorted(problems)),
    )
