"""External links in the scratchpad: referrers stored, leases per step number within the audit's
budget, answers, resume, and the finalize sections against their specification
(`audit.external_links.external_link_issues`)."""

from __future__ import annotations

import itertools

import pytest

from audit.external_links import ExternalAnswer, ExternalStop, ExternalUse, external_link_issues
from audit.external_links import ExternalOutcome as O
from durable.client import Scratchpad
from durable.records import ExternalCheck, ExternalProgress, ExternalRef, RecordBatch
from local_platform.runtime import LocalPlatform

from .test_finalize import AUDIT, START, finalize_all, mirror_row, page, url

_names = itertools.count()
X = "https://other.test"


@pytest.fixture
def pad(platform: LocalPlatform) -> Scratchpad:
    return Scratchpad(platform.env.AUDIT_SCRATCHPAD.getByName(f"external-{next(_names)}"))


async def record(pad: Scratchpad, pages: list[str], *pairs: tuple[str, str]) -> None:
    rows = tuple(mirror_row(AUDIT, page(p)) for p in pages)
    refs = tuple(ExternalRef(url(source), f"{X}/{target}") for source, target in pairs)
    await pad.record_batch(RecordBatch(crawled=(), pages=rows, external=refs))


async def test_each_url_is_leased_once_and_a_retried_step_gets_its_own(pad: Scratchpad) -> None:
    await record(pad, ["a", "b"], ("a", "x"), ("b", "x"), ("a", "y"))
    await record(pad, [], ("b", "z"))

    first = await pad.claim_external(1, 2, budget=10)
    assert (first.urls, first.is_retry, first.pending) == ((f"{X}/x", f"{X}/y"), False, 1)
    retry = await pad.claim_external(1, 2, budget=10)
    assert (retry.urls, retry.is_retry) == (first.urls, True)

    await pad.record_external([ExternalCheck(f"{X}/x", "broken", 404, None, "HTTP 404")])
    await pad.release_external([f"{X}/y"])
    assert (await pad.claim_external(1, 5, budget=10)).urls == ()  # step 1 checked: done
    second = await pad.claim_external(2, 5, budget=10)
    assert (second.urls, second.pending, second.over_budget) == ((f"{X}/y", f"{X}/z"), 0, 0)


@pytest.mark.parametrize(
    ("limit", "budget", "leased", "pending", "over_budget"),
    [
        (10, 10, 3, 0, 0),
        (2, 10, 2, 1, 0),
        (10, 2, 2, 1, 1),
        (10, 3, 3, 0, 0),
        (10, 0, 0, 3, 3),
    ],
)
async def test_leases_stop_at_the_budget(
    pad: Scratchpad, limit: int, budget: int, leased: int, pending: int, over_budget: int
) -> None:
    await record(pad, ["a"], ("a", "x"), ("a", "y"), ("a", "z"))
    claim = await pad.claim_external(1, limit, budget)
    assert (len(claim.urls), claim.pending, claim.over_budget) == (leased, pending, over_budget)


async def test_resume_releases_leases_and_numbers_steps_from_one_again(pad: Scratchpad) -> None:
    await record(pad, ["a"], ("a", "x"), ("a", "y"))
    await pad.claim_external(1, 2, budget=10)
    await pad.record_external([ExternalCheck(f"{X}/x", "ok", 200)])
    await pad.prepare_resume()
    claim = await pad.claim_external(1, 5, budget=10)
    assert (claim.urls, claim.is_retry) == ((f"{X}/y",), False)


ANSWERS = [
    ExternalAnswer(f"{X}/gone", O.BROKEN, 404, None, "HTTP 404"),
    ExternalAnswer(f"{X}/moved", O.REDIRECT, 200, f"{X}/new"),
    ExternalAnswer(f"{X}/slow", O.TIMEOUT, 0, None, "timeout"),
    ExternalAnswer(f"{X}/wall", O.BLOCKED, 403, None, "blocked"),
    ExternalAnswer("http://10.0.0.1/", O.PRIVATE, 0, None, "not requested"),
    ExternalAnswer(f"{X}/fine", O.OK, 200),
    ExternalAnswer(f"{X}/hop-to-gone", O.BROKEN, 410, f"{X}/gone2", "HTTP 410"),
]


async def test_external_issues_match_the_specification_on_every_referrer(
    pad: Scratchpad,
) -> None:
    uses = [
        ("a", f"{X}/gone"),
        ("b", f"{X}/gone"),
        ("a", f"{X}/moved"),
        ("c", f"{X}/slow"),
        ("c", f"{X}/wall"),
        ("b", "http://10.0.0.1/"),
        ("a", f"{X}/fine"),
        ("c", f"{X}/hop-to-gone"),
        ("c", f"{X}/unchecked"),
    ]
    refs = tuple(ExternalRef(url(source), target) for source, target in uses)
    rows = tuple(mirror_row(AUDIT, page(p)) for p in ("a", "b", "c"))
    await pad.record_batch(RecordBatch(crawled=(), pages=rows, external=refs))
    claim = await pad.claim_external(1, 7, budget=7)
    assert claim.over_budget == 1
    checks = [
        ExternalCheck(a.url, a.outcome.value, a.status_code, a.final_url, a.reason) for a in ANSWERS
    ]
    await pad.record_external(checks)

    issues, _ = await finalize_all(pad.stub)
    external_types = {"broken-external-link", "external-redirect", "external-link-unreachable"}
    found = [i for i in issues if i["issue_type"] in external_types]
    spec = external_link_issues(AUDIT, ANSWERS, [ExternalUse(url(s), t) for s, t in uses])
    assert found == [issue.to_dict() for issue in spec]
    assert sorted((i["issue_type"], i["page_url"], i["details"]["outcome"]) for i in found) == [
        ("broken-external-link", url("a"), "broken"),
        ("broken-external-link", url("b"), "broken"),
        ("broken-external-link", url("c"), "broken"),
        ("external-link-unreachable", url("b"), "private"),
        ("external-link-unreachable", url("c"), "blocked"),
        ("external-link-unreachable", url("c"), "timeout"),
        ("external-redirect", url("a"), "redirect"),
    ]
    (unchecked,) = [i for i in issues if i["issue_type"] == "external-links-unchecked"]
    assert unchecked["page_url"] == START
    details = dict(unchecked["details"])
    assert details.pop("detail") == (
        "The external link checks stopped early: 1 external URL was not checked."
    )
    # The claim's budget of 7 is this test's; finalize knows the audit's, 2,000, so the one URL
    # left is not "past the budget": the checks stopped.
    assert details == {
        "reason": "stopped",
        "uncheckedUrls": 1,
        "checkedUrls": 7,
        "budget": 2000,
        "timeBudgetS": 60.0,
    }


def test_the_specification_lists_every_referrer_type_by_type() -> None:
    uses = [ExternalUse(url(f"p{n}"), f"{X}/gone") for n in range(2_500)]  # past the old cap
    uses += [ExternalUse(url("p0"), f"{X}/moved")]
    issues = external_link_issues(AUDIT, ANSWERS, uses)
    assert [i.issue_type.value for i in issues] == ["broken-external-link"] * 2_500 + [
        "external-redirect"
    ]


async def test_no_external_rows_no_external_issues(pad: Scratchpad) -> None:
    await record(pad, ["a"])
    issues, _ = await finalize_all(pad.stub)
    assert not [i for i in issues if "external" in i["issue_type"]]


# -- DNS where the audit runs ---------------------------------------------------------------------


def dns_check(url: str, reach: str, status: int = 0) -> ExternalCheck:
    host = url.split("/")[2]
    if reach == "unresolved":
        return ExternalCheck(
            url, "unresolved", 0, None, "the host name does not resolve (DNS)", host, reach
        )
    outcome = "broken" if status >= 400 else "ok"
    return ExternalCheck(
        url, outcome, status, None, f"HTTP {status}" if status >= 400 else None, host, reach
    )


DEAD = [f"https://dead{n}.invalid/" for n in range(3)]


@pytest.mark.parametrize(
    ("live", "broken", "note"),
    [
        # A name resolved (and answered 200): the three dead names are broken links.
        (["https://up.test/"], DEAD, None),
        # An IP literal answered 404: it needs no DNS, so it says nothing of it. The 404 is an
        # answer from its server (broken); the dead names are not run, in one note.
        (["http://192.0.2.7/"], ["http://192.0.2.7/"], "dns-unavailable"),
        # Nothing but dead names: not run.
        ([], [], "dns-unavailable"),
    ],
)
async def test_dead_names_are_broken_only_while_other_names_resolve(
    pad: Scratchpad, live: list[str], broken: list[str], note: str | None
) -> None:
    urls = [*live, *DEAD]
    refs = tuple(ExternalRef(url("a"), target) for target in urls)
    await pad.record_batch(RecordBatch(pages=(mirror_row(AUDIT, page("a")),), external=refs))
    claim = await pad.claim_external(1, 10, budget=10)
    assert claim.started_ms > 0 and claim.unresolved_hosts == ()
    checks = [dns_check(u, "unresolved") for u in DEAD]
    checks += [dns_check(u, "answered", 404 if "192.0.2.7" in u else 200) for u in live]
    await pad.record_external(checks)
    again = await pad.claim_external(2, 10, budget=10)
    assert again.unresolved_hosts == tuple(u.split("/")[2] for u in DEAD)
    assert again.resolved_hosts == (("up.test",) if "https://up.test/" in live else ())

    issues, _ = await finalize_all(pad.stub)
    found = sorted(
        i["details"]["targetUrl"] for i in issues if i["issue_type"] == "broken-external-link"
    )
    assert found == sorted(broken)
    notes = [i for i in issues if i["issue_type"] == "external-links-unchecked"]
    assert [n["details"]["reason"] for n in notes] == ([note] if note else [])
    if note:
        assert notes[0]["details"]["uncheckedUrls"] == len(DEAD)
        assert "says nothing about the links" in notes[0]["details"]["detail"]


async def test_a_step_notes_why_it_stopped_and_the_feed_shows_it(pad: Scratchpad) -> None:
    refs = tuple(ExternalRef(url("a"), f"{X}/{n}") for n in range(3))
    await pad.record_batch(RecordBatch(pages=(mirror_row(AUDIT, page("a")),), external=refs))
    assert (await pad.recent_pages()).external == ExternalProgress(3, 0, 0)
    await pad.claim_external(1, 1, budget=10)
    await pad.record_external(
        [ExternalCheck(f"{X}/0", "timeout", 0, None, "t", "other.test", "silent")]
    )
    await pad.stop_external(ExternalStop.TIME_BUDGET)
    await pad.stop_external(ExternalStop.DNS_UNAVAILABLE)  # the first reason stays
    assert (await pad.recent_pages()).external == ExternalProgress(3, 1, 1, "time-budget")
    issues, _ = await finalize_all(pad.stub)
    (note,) = [i for i in issues if i["issue_type"] == "external-links-unchecked"]
    assert (note["details"]["reason"], note["details"]["uncheckedUrls"]) == ("time-budget", 2)


async def test_the_first_claim_starts_the_clock_and_a_resume_starts_it_again(
    pad: Scratchpad, ports_clock: list[float]
) -> None:
    await record(pad, ["a"], ("a", "x"), ("a", "y"))
    assert (await pad.claim_external(1, 1, budget=10)).started_ms == 1_000
    ports_clock[0] = 4_000.0
    assert (await pad.claim_external(2, 1, budget=10)).started_ms == 1_000
    await pad.stop_external(ExternalStop.TIME_BUDGET)
    await pad.prepare_resume()
    assert (await pad.recent_pages()).external == ExternalProgress(2, 0, 0)
    assert (await pad.claim_external(1, 1, budget=10)).started_ms == 4_000
