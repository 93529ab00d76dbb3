"""GET /api/monitors/{id}/runs: a monitor's history, newest first, in keyset pages like every list."""

from __future__ import annotations

import json
from typing import Any

import pytest

from auditdb.listing import ListKind, encode_cursor
from auditdb.monitors import MonitorRunRecord, MonitorRunStatus
from common.failures import ErrorCode
from local_platform.runtime import LocalPlatform
from service import keys
from tests.api.client import send
from tests.support.monitor_runs import insert_runs


@pytest.fixture
async def key(platform: LocalPlatform) -> str:
    return (await keys.create_key(platform.env, "alpha")).secret


async def new_monitor(platform: LocalPlatform, key: str, url: str) -> str:
    body = json.dumps({"url": url}).encode()
    created = await send(platform.env, "POST", "/api/monitors", key, body)
    return str(created.json()["monitor"]["id"])


def run(monitor_id: str, n: int, *, started: str | None = None, **fields: Any) -> MonitorRunRecord:
    return MonitorRunRecord(
        id=f"{monitor_id}-run-{n}",
        monitor_id=monitor_id,
        due_at=f"2026-11-{n + 1:02}T06:00:00.000Z",
        started_at=started or f"2026-11-{n + 1:02}T06:00:05.000Z",
        **fields,
    )


async def test_runs_come_newest_first_in_pages_with_a_link(
    platform: LocalPlatform, key: str
) -> None:
    monitor = await new_monitor(platform, key, "https://a.example")
    await insert_runs(platform.env, [run(monitor, n) for n in range(5)])
    path = f"/api/monitors/{monitor}/runs"

    seen: list[str] = []
    links: list[str | None] = []
    page: str | None = f"{path}?limit=2"
    while page is not None:
        answer = await send(platform.env, "GET", page, key)
        assert answer.status == 200
        seen.extend(r["id"] for r in answer.json()["runs"])
        links.append(answer.headers.get("link"))
        cursor = answer.json()["next_cursor"]
        page = None if cursor is None else f"{path}?limit=2&cursor={cursor}"

    assert seen == [f"{monitor}-run-{n}" for n in (4, 3, 2, 1, 0)]
    assert links[0] is not None and links[0].startswith(f"<{path}?limit=2&cursor=")
    assert links[0].endswith('>; rel="next"')
    assert links[-1] is None  # the last page has no next


async def test_equal_start_times_are_ordered_by_id_and_split_exactly(
    platform: LocalPlatform, key: str
) -> None:
    monitor = await new_monitor(platform, key, "https://a.example")
    same = "2026-11-20T06:00:00.000Z"
    await insert_runs(platform.env, [run(monitor, n, started=same) for n in range(3)])

    first = (await send(platform.env, "GET", f"/api/monitors/{monitor}/runs?limit=1", key)).json()
    cursor = first["next_cursor"]
    rest = await send(platform.env, "GET", f"/api/monitors/{monitor}/runs?cursor={cursor}", key)

    ids = [r["id"] for r in first["runs"] + rest.json()["runs"]]
    assert ids == [f"{monitor}-run-{n}" for n in (2, 1, 0)]


async def test_a_run_shows_its_record_and_whether_a_report_was_stored(
    platform: LocalPlatform, key: str
) -> None:
    monitor = await new_monitor(platform, key, "https://a.example")
    stored = run(
        monitor,
        1,
        status=MonitorRunStatus.COMPLETED,
        audit_id="audit-1",
        finished_at="2026-11-02T06:09:00.000Z",
        health_score=87.5,
        critical_count=1,
        warning_count=4,
        info_count=9,
        new_issues=2,
        fixed_issues=3,
        r2_key="reports/alpha/audit-1.json.gz",
        report_bytes=2048,
    )
    unstored = run(monitor, 0, status=MonitorRunStatus.FAILED, error_detail="could not start")
    await insert_runs(platform.env, [stored, unstored])

    runs = (await send(platform.env, "GET", f"/api/monitors/{monitor}/runs", key)).json()["runs"]

    assert runs == [
        {**stored.to_dict(), "has_report": True, "reason": None},
        {**unstored.to_dict(), "has_report": False, "reason": "could not start"},
    ]


@pytest.mark.parametrize(
    ("code", "detail", "reason"),
    [
        (ErrorCode.SITE_TIMEOUT, "The site did not answer within 30 s.", "The site did not "
         "answer within 30 s."),
        (ErrorCode.OOM, "Worker exceeded memory limit.", "siteaudit ran out of memory during the "
         "audit. Nothing was learned about the site; the next run will try again."),
    ],
)  # fmt: skip
async def test_a_failed_run_carries_its_code_and_a_sentence_for_its_owner(
    platform: LocalPlatform, key: str, code: ErrorCode, detail: str, reason: str
) -> None:
    monitor = await new_monitor(platform, key, "https://a.example")
    failed = run(monitor, 0, status=MonitorRunStatus.FAILED, error_code=code, error_detail=detail)
    await insert_runs(platform.env, [failed])

    [shown] = (await send(platform.env, "GET", f"/api/monitors/{monitor}/runs", key)).json()["runs"]

    assert (shown["error_code"], shown["error_detail"], shown["reason"]) == (
        str(code),
        detail,
        reason,
    )


async def test_only_the_monitors_own_runs_are_listed(platform: LocalPlatform, key: str) -> None:
    mine, other = [await new_monitor(platform, key, f"https://{h}.example") for h in "ab"]
    await insert_runs(platform.env, [run(mine, 0), run(other, 1), run(other, 2)])

    answer = await send(platform.env, "GET", f"/api/monitors/{mine}/runs", key)

    assert [r["id"] for r in answer.json()["runs"]] == [f"{mine}-run-0"]
    assert answer.json()["next_cursor"] is None


async def test_a_monitor_without_runs_has_an_empty_history(
    platform: LocalPlatform, key: str
) -> None:
    monitor = await new_monitor(platform, key, "https://a.example")

    answer = await send(platform.env, "GET", f"/api/monitors/{monitor}/runs", key)

    assert (answer.status, answer.json()) == (200, {"runs": [], "next_cursor": None})


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("limit=0", "'limit'"),
        ("limit=1001", "'limit'"),
        ("status=completed", "status"),
        ("cursor=not-a-cursor", "'cursor'"),
        (f"cursor={encode_cursor(ListKind.MONITORS, ('2026-11-01', 'm1'))}", "'cursor'"),
    ],
)
async def test_bad_queries_are_refused(
    platform: LocalPlatform, key: str, query: str, detail: str
) -> None:
    monitor = await new_monitor(platform, key, "https://a.example")

    answer = await send(platform.env, "GET", f"/api/monitors/{monitor}/runs?{query}", key)

    assert (answer.status, answer.json()["error"]["code"]) == (400, "invalid_request")
    assert detail in answer.json()["error"]["message"]


async def test_an_unknown_monitor_is_not_found(platform: LocalPlatform, key: str) -> None:
    answer = await send(platform.env, "GET", "/api/monitors/nope/runs", key)

    assert (answer.status, answer.json()["error"]["code"]) == (404, "not_found")
