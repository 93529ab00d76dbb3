"""Alerts of runs that failed and of the run after: the decision table (`decide`, `outage_of`),
the payloads of `site_unreachable`, `audit_failed` and `site_recovered`, their sentences, and the
payloads as docs/alerts.md shows them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from auditdb.monitors import MonitorRunStatus
from common.failures import ErrorCode
from service.alerts import (
    AlertDecision,
    AlertPayload,
    AlertReason,
    AlertThresholds,
    Blame,
    EndedRun,
    Outage,
    RunFailure,
    RunScore,
    alert_payload,
    decide,
    delivery_id,
    failure_reason,
    outage_of,
    summarize,
)

COMPLETED, FAILED = MonitorRunStatus.COMPLETED, MonitorRunStatus.FAILED
CANCELLED = MonitorRunStatus.CANCELLED
UNREACHABLE, OURS = AlertReason.SITE_UNREACHABLE, AlertReason.AUDIT_FAILED
RECOVERED, DROP = AlertReason.SITE_RECOVERED, AlertReason.SCORE_DROP
DNS, REFUSED, HTTP = (
    ErrorCode.SITE_DNS_ERROR,
    ErrorCode.SITE_CONNECTION_FAILED,
    ErrorCode.SITE_HTTP_ERROR,
)
OOM, LOST = ErrorCode.OOM, ErrorCode.INSTANCE_LOST


def day(n: int) -> str:
    return f"2026-12-{n:02d}T10:00:00.000Z"


def ok(n: int) -> EndedRun:
    return EndedRun(COMPLETED, day(n))


def down(n: int, code: ErrorCode = REFUSED) -> EndedRun:
    return EndedRun(FAILED, day(n), code)


def ours(n: int, code: ErrorCode = OOM) -> EndedRun:
    return EndedRun(FAILED, day(n), code)


def cancelled(n: int) -> EndedRun:
    return EndedRun(CANCELLED, day(n))


DELETED = EndedRun(FAILED, day(9))  # failed without a code: its audit was deleted


@pytest.mark.parametrize(
    ("run", "reason"),
    [
        *[(down(1, code), UNREACHABLE) for code in ErrorCode if code.is_site_failure],
        *[(ours(1, code), OURS) for code in ErrorCode if not code.is_site_failure],
        (DELETED, None),
        (cancelled(1), None),
        (ok(1), None),
    ],
)
def test_a_failed_run_is_blamed_on_the_site_only_for_the_sites_own_codes(
    run: EndedRun, reason: AlertReason | None
) -> None:
    assert failure_reason(run) is reason


@pytest.mark.parametrize(
    ("runs", "outage"),
    [
        ([], None),
        ([ok(1)], None),
        ([ok(1), ours(2), cancelled(3)], None),  # our failures never make the site "down"
        ([ok(1), down(2)], Outage(day(2), 1, REFUSED)),
        ([down(1), down(2, DNS)], Outage(day(1), 2, DNS)),  # the latest code, the first time
        ([down(1), ok(2)], None),  # a completed run ends an outage
        ([down(1), ok(2), down(3)], Outage(day(3), 1, REFUSED)),
        # Our failures and cancelled runs inside an outage neither end it nor count in it.
        ([ok(1), down(2), ours(3), cancelled(4), down(5, HTTP)], Outage(day(2), 2, HTTP)),
        ([ok(1), down(2), DELETED], Outage(day(2), 1, REFUSED)),
    ],
)
def test_an_outage_is_the_sites_failures_since_the_last_completed_run(
    runs: list[EndedRun], outage: Outage | None
) -> None:
    assert outage_of(runs) == outage


def score(run_id: str, health: float | None) -> RunScore:
    return RunScore(run_id, f"audit-{run_id}", health)


BEFORE, SAME, WORSE = score("r1", 90.0), score("r9", 90.0), score("r9", 50.0)
NO_ALERT = AlertDecision()


@pytest.mark.parametrize(
    ("ending", "earlier", "previous", "current", "decision"),
    [
        # A failed run alerts once, with whose failure it was, whatever the comparison says.
        (down(9), [ok(1)], BEFORE, None, AlertDecision([UNREACHABLE], Blame.SITE,
                                                      Outage(day(9), 1, REFUSED))),
        (down(9), [], None, None, AlertDecision([UNREACHABLE], Blame.SITE,
                                                Outage(day(9), 1, REFUSED))),  # a first run
        (down(9, DNS), [ok(1), down(2), down(3)], BEFORE, None,
         AlertDecision([UNREACHABLE], Blame.SITE, Outage(day(2), 3, DNS))),  # still down
        (ours(9), [ok(1)], BEFORE, None, AlertDecision([OURS], Blame.SITEAUDIT)),
        (ours(9, LOST), [ok(1), down(2)], BEFORE, None, AlertDecision([OURS], Blame.SITEAUDIT)),
        # Runs the owner ended do not alert: cancelled, or failed because the audit was deleted.
        (cancelled(9), [ok(1)], BEFORE, None, NO_ALERT),
        (cancelled(9), [ok(1), down(2)], BEFORE, None, NO_ALERT),
        (DELETED, [ok(1), down(2)], BEFORE, None, NO_ALERT),
        # The first completed run after the site's failures recovers, once.
        (ok(9), [ok(1), down(2), down(3)], BEFORE, SAME,
         AlertDecision([RECOVERED], None, Outage(day(2), 2, REFUSED))),
        (ok(9), [ok(1), down(2), ours(3)], BEFORE, SAME,
         AlertDecision([RECOVERED], None, Outage(day(2), 1, REFUSED))),
        (ok(9), [down(2)], None, None,
         AlertDecision([RECOVERED], None, Outage(day(2), 1, REFUSED))),  # never completed before
        (ok(9), [ok(1), down(2)], BEFORE, WORSE,
         AlertDecision([RECOVERED, DROP], None, Outage(day(2), 1, REFUSED))),
        (ok(9), [ok(1), down(2), ok(3)], score("r3", 90.0), SAME, NO_ALERT),  # recovered before
        (ok(9), [ok(1), ours(2)], BEFORE, SAME, NO_ALERT),  # the site was never down
        (ok(9), [ok(1)], BEFORE, WORSE, AlertDecision([DROP])),
        (ok(9), [ok(1)], BEFORE, None, NO_ALERT),  # not compared: nothing to get worse than
    ],
)  # fmt: skip
def test_decide(
    ending: EndedRun,
    earlier: list[EndedRun],
    previous: RunScore | None,
    current: RunScore | None,
    decision: AlertDecision,
) -> None:
    assert decide(ending, earlier, previous, current, AlertThresholds(score_drop=5)) == decision


# -- the payloads and their sentences ------------------------------------------------------------

SITE = "https://example.com/"
REFUSED_SENTENCE = (
    "The site refused the connection to example.com port 443: nothing listens there. "
    "Check that the web server is running."
)


def failed_payload(decision: AlertDecision, failure: RunFailure) -> AlertPayload:
    current = RunScore("run-9", "audit-9", None)
    return alert_payload(
        "mon-1", SITE, BEFORE, current, decision, failure=failure, finished_at=failure.failed_at
    )


def test_a_site_unreachable_alert_says_what_happened_where_and_when() -> None:
    failure = RunFailure(REFUSED, REFUSED_SENTENCE, SITE, day(9))
    decision = AlertDecision([UNREACHABLE], Blame.SITE, Outage(day(7), 3, REFUSED))

    payload = failed_payload(decision, failure)

    assert payload.summary == (
        f"{SITE} could not be audited (2026-12-09 10:00 UTC). {REFUSED_SENTENCE} "
        "It has failed 3 runs since 2026-12-07 10:00 UTC."
    )
    assert (payload.blame, payload.failure, payload.outage) == (
        Blame.SITE,
        failure,
        decision.outage,
    )
    # Not compared: null, where 0 would say "no new critical issue".
    assert (payload.new_critical_total, payload.comparison, payload.score_after) == (None, "", None)
    assert (payload.previous_run_id, payload.score_before) == ("r1", 90.0)
    assert AlertPayload.from_dict(json.loads(payload.body())) == payload


def test_an_audit_failed_alert_blames_us_and_says_nothing_was_learned() -> None:
    sentence = "siteaudit ran out of memory during the audit. Nothing was learned about the site."
    failure = RunFailure(OOM, sentence, SITE, day(9))

    payload = failed_payload(AlertDecision([OURS], Blame.SITEAUDIT), failure)

    assert payload.summary == (
        f"The audit of {SITE} (2026-12-09 10:00 UTC) failed on siteaudit's side, not the site's. "
        f"{sentence}"
    )
    assert payload.blame is Blame.SITEAUDIT and payload.outage is None
    assert AlertPayload.from_dict(json.loads(payload.body())) == payload


@pytest.mark.parametrize(
    ("outage", "sentence"),
    [
        (Outage(day(7), 1, DNS), "It was unreachable from 2026-12-07 10:00 UTC; 1 run failed."),
        (Outage(day(5), 4, DNS), "It was unreachable from 2026-12-05 10:00 UTC; 4 runs failed."),
    ],
)
def test_a_recovery_notice_says_since_when_the_site_was_down(outage: Outage, sentence: str) -> None:
    decision = AlertDecision([RECOVERED], None, outage)

    payload = alert_payload(
        "mon-1", SITE, BEFORE, score("run-9", 88.0), decision, finished_at=day(9)
    )

    assert payload.summary == (
        f"{SITE} can be audited again: this run completed (2026-12-09 10:00 UTC). {sentence}"
    )
    assert payload.blame is None and payload.outage == outage
    assert AlertPayload.from_dict(json.loads(payload.body())) == payload


def test_the_summary_has_a_sentence_for_every_reason() -> None:
    payload = alert_payload(
        "mon-1", SITE, BEFORE, score("run-9", 88.0), AlertDecision(list(AlertReason))
    )

    assert summarize(payload).count(".") >= len(AlertReason)


def test_a_payload_stored_before_these_fields_existed_still_reads() -> None:
    old = {
        "audit_id": "a2", "comparison": "/api/audits/a1/compare/a2", "delivery_id": "alert_1",
        "monitor_id": "mon-1", "new_critical_issues": [], "new_critical_total": 0,
        "previous_audit_id": "a1", "previous_run_id": "run-1", "reasons": ["score_drop"],
        "run_id": "run-2", "score_after": 62.5, "score_before": 91.0, "site": SITE,
        "type": "monitor.alert", "grade_before": None, "grade_after": None,
    }  # fmt: skip

    payload = AlertPayload.from_dict(old)

    assert (payload.summary, payload.blame, payload.failure, payload.outage) == (
        "",
        None,
        None,
        None,
    )
    assert {k: v for k, v in payload.to_dict().items() if k in old} == old


# -- docs/alerts.md --------------------------------------------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "alerts.md"


def documented_payloads() -> list[dict[str, object]]:
    """The example payloads of docs/alerts.md (each a json block after an `example` comment)."""
    found = re.findall(r"<!-- example payload -->\n```json\n(.*?)```", DOC.read_text(), re.S)
    return [json.loads(body) for body in found]


@pytest.mark.parametrize("reason", list(AlertReason))
def test_docs_alerts_md_shows_a_payload_that_reads_for_every_reason(reason: AlertReason) -> None:
    payloads = [AlertPayload.from_dict(example) for example in documented_payloads()]

    shown = [payload for payload in payloads if reason in payload.reasons]
    assert shown, f"docs/alerts.md has no example payload with the reason {reason}"
    for payload in shown:
        assert payload.summary == summarize(payload)
        assert payload.delivery_id == delivery_id(payload.monitor_id, payload.run_id)
