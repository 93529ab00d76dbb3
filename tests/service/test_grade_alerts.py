"""A monitor's runs carry their audit's security grade, and a lower letter alerts (grade_drop).

A real local site is audited twice through the workflow; between the runs its start page stops
sending its Content-Security-Policy and X-Frame-Options, so the grade falls from C+ (plain http:
no redirect to https, no HSTS: 100 - 20 - 20) to F (also - 25 - 20).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from auditdb.alerts import get_alert
from service.monitors import CreateMonitor, create_monitor
from tests.service.run_helpers import OWNER, QUEUE, audit_of, manual_platform, run_row, start_run
from tests.support.manual_platform import ManualPlatform
from tests.support.site_server import Reply, html_page, serve_site

GOOD_HEADERS = {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": "default-src 'self'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
}
WORSE_HEADERS = {"content-type": "text/html; charset=utf-8", "x-content-type-options": "nosniff"}
SLOTS = ("2026-12-07T10:00:00.000Z", "2026-12-08T10:00:00.000Z")


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[ManualPlatform]:
    async for platform in manual_platform(tmp_path):
        yield platform


def home(headers: dict[str, str]) -> Reply:
    return Reply(body=html_page("Graded home", "<h1>Graded home</h1>"), headers=headers)


async def finished_run(local: ManualPlatform, monitor: Any, n: int) -> Any:
    run = await start_run(local, monitor, n, SLOTS[n - 1])
    await local.wait_for_workflow(audit_of(run), timeout_s=60)
    await local.drain_queue(QUEUE)
    return await run_row(local.env, run.id)


@pytest.mark.parametrize(
    ("grade_drop", "reasons"),
    [
        # The grade's failing tests lower the overall score too (docs/scoring.md): 60 -> 15 takes
        # 9 points of the security category's 20% weight, past the monitor's 5-point threshold.
        (True, ["score_drop", "new_critical_issues", "grade_drop"]),
        # the monitor's switch: the score and the critical issues still alert
        (False, ["score_drop", "new_critical_issues"]),
    ],
)
async def test_a_site_whose_headers_get_worse_alerts_with_the_grade_before_and_after(
    local: ManualPlatform, grade_drop: bool, reasons: list[str]
) -> None:
    with serve_site({"/": home(GOOD_HEADERS)}) as site:
        request = CreateMonitor(
            site.url("/"),
            hour=10,
            webhook_url="http://127.0.0.1:9/hook",
            alert_on_grade_drop=grade_drop,
        )
        monitor = (await create_monitor(local.env, OWNER, request)).monitor
        first = await finished_run(local, monitor, 1)
        site.server.routes["/"] = home(WORSE_HEADERS)
        second = await finished_run(local, monitor, 2)

    assert (first.grade, first.security_score) == ("C+", 60)
    assert (second.grade, second.security_score) == ("F", 15)
    assert await get_alert(local.env.DB, first.id) is None  # a first run never alerts
    alert = await get_alert(local.env.DB, second.id)
    assert alert is not None
    payload = json.loads(alert.payload)
    assert payload["reasons"] == reasons
    assert (payload["grade_before"], payload["grade_after"]) == ("C+", "F")
    assert {i["issue_type"] for i in payload["new_critical_issues"]} == {
        "security-csp",
        "security-x-frame-options",
    }
    # the run's full report in R2 carries the grade with its 12 results
    stored = await local.env.REPORTS.get(second.r2_key)
    security = json.loads(gzip.decompress(bytes(await stored.arrayBuffer())))["security"]
    assert (security["status"], security["grade"], security["score"]) == ("graded", "F", 15)
    assert len(security["tests"]) == 12
