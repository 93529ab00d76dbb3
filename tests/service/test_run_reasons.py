"""The sentence a failed run shows: the site's own words for the site's failures, ours (and
"nothing was learned") for our failures, never the platform's error text."""

from __future__ import annotations

import pytest

from auditdb.monitors import MonitorRunRecord, MonitorRunStatus
from common.failures import ErrorCode
from service.run_reasons import CODE_SENTENCES, NOTHING_LEARNED, UNNAMED, run_reason

SLOT = "2026-12-07T10:00:00.000Z"
SENTENCE = "The host name shop.example does not resolve. Check the domain's DNS records."
PLATFORM_TEXT = "Failed query: INSERT INTO audit_pages ... D1_ERROR"


def run(status: MonitorRunStatus, code: ErrorCode | None, detail: str | None) -> MonitorRunRecord:
    return MonitorRunRecord(
        "r1", "m1", SLOT, SLOT, status=status, error_code=code, error_detail=detail
    )


FAILED = MonitorRunStatus.FAILED


@pytest.mark.parametrize(
    ("recorded", "reason"),
    [
        (run(FAILED, ErrorCode.SITE_DNS_ERROR, SENTENCE), SENTENCE),
        # A site failure without the audit's sentence falls back to its code's.
        (run(FAILED, ErrorCode.SITE_DNS_ERROR, None), "The site's host name does not resolve."),
        (
            run(FAILED, ErrorCode.DB_ERROR, PLATFORM_TEXT),
            f"siteaudit's database failed during the audit. {NOTHING_LEARNED}",
        ),
        (
            run(FAILED, ErrorCode.INSTANCE_LOST, "instance not found"),
            f"siteaudit lost the audit's worker before the audit finished. {NOTHING_LEARNED}",
        ),
        # No code: the audit was deleted or never started, and the row's detail says why.
        (run(FAILED, None, "The run's audit was deleted before it ended."),
         "The run's audit was deleted before it ended."),
        (run(FAILED, None, None), UNNAMED),
        (run(MonitorRunStatus.COMPLETED, None, None), None),
        (run(MonitorRunStatus.CANCELLED, None, None), None),
        (run(MonitorRunStatus.RUNNING, None, None), None),
    ],
)  # fmt: skip
def test_a_failed_runs_reason(recorded: MonitorRunRecord, reason: str | None) -> None:
    assert run_reason(recorded) == reason


@pytest.mark.parametrize("code", list(ErrorCode))
def test_every_code_has_a_sentence_and_ours_never_show_the_platforms_text(
    code: ErrorCode,
) -> None:
    shown = run_reason(run(FAILED, code, PLATFORM_TEXT))

    assert CODE_SENTENCES[code].endswith(".")
    assert shown is not None
    assert (PLATFORM_TEXT in shown) is code.is_site_failure
