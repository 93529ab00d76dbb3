"""The crawl rate a run uses (workflow.pace.crawl_rate): a user's rate only lowers the pace
below robots.txt's Crawl-delay, unless the owner's proof of the host was found again before the
run (workflow.robots_step), and then at most VERIFIED_MAX_RATE (issue 28, item 2: a verified
owner may raise the crawl rate)."""

from __future__ import annotations

import pytest

from auditdb.records import AuditOptions
from auditdb.scope import ScopeOptions
from auditdb.verifications import VERIFIED_MAX_RATE, RobotsDecision, VerificationMethod
from crawl.robots import RobotsRules
from workflow.pace import crawl_rate
from workflow.params import AuditParams
from workflow.robots_step import needs_proof

SITE = "https://shop.example/"
PROOF = RobotsDecision(False, "", "shop.example", VerificationMethod.FILE, "2026-12-05", True)
GONE = RobotsDecision(False, "", "shop.example")
ELSEWHERE = RobotsDecision(False, "", "other.example", VerificationMethod.FILE, "2026-12-05", True)


def _params(rate: float | None) -> AuditParams:
    return AuditParams("a1", SITE, AuditOptions(scope=ScopeOptions(rate_per_s=rate)))


def _robots(delay: float | None) -> RobotsRules:
    text = "User-agent: *\nDisallow:\n" + (f"Crawl-delay: {delay}\n" if delay else "")
    return RobotsRules.from_text(text)


@pytest.mark.parametrize(
    ("rate", "delay", "decision", "expected"),
    [
        (None, None, None, None),  # no rate of its own: the fetch window paces
        (None, 2, None, 0.5),  # the Crawl-delay holds
        (5.0, None, None, 5.0),  # a rate with no Crawl-delay stands
        (0.2, 2, None, 0.2),  # a lower rate than the Crawl-delay's stands
        (5.0, 2, None, 0.5),  # unverified: never above the Crawl-delay
        (5.0, 2, GONE, 0.5),  # the proof was not found again
        (5.0, 2, ELSEWHERE, 0.5),  # a proof of another host lends nothing
        (5.0, 2, PROOF, 5.0),  # verified: the owner's rate stands above it
        (80.0, 2, PROOF, VERIFIED_MAX_RATE),  # ... at most the verified ceiling
        (80.0, None, PROOF, 80.0),  # no Crawl-delay to raise: the ceiling does not apply
    ],
)
def test_the_crawl_rate_a_run_uses(
    rate: float | None,
    delay: float | None,
    decision: RobotsDecision | None,
    expected: float | None,
) -> None:
    assert crawl_rate(_params(rate), _robots(delay), decision, SITE) == expected


@pytest.mark.parametrize(
    ("options", "checks"),
    [
        (AuditOptions(), False),
        (AuditOptions(ignore_robots=True), True),
        (AuditOptions(scope=ScopeOptions(rate_per_s=3.0)), True),
    ],
)
def test_the_proof_is_checked_before_a_run_that_needs_it(
    options: AuditOptions, checks: bool
) -> None:
    assert needs_proof(options) is checks
