"""Rate limits: per-key requests per minute and audits per hour, running audits per owner; 429
with Retry-After; the daily cleanup keeps the counters table bounded."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from auditdb import repository
from auditdb.records import AuditRecord, AuditStatus
from local_platform.clock import ManualClock
from local_platform.runtime import LocalPlatform
from maintenance.scheduled import CLEANUP_CRON, run_scheduled
from service import keys
from tests.api.client import send

# 2026-01-01T00:00:00Z plus 10 s: windows are aligned to the minute and the hour.
START_MS = 1_767_225_600_000.0 + 10_000


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[LocalPlatform]:
    platform = LocalPlatform(
        tmp_path / "state",
        clock=ManualClock(START_MS),
        var_overrides={
            "ALLOW_PRIVATE_HOSTS": "loopback",
            "RATE_LIMIT_REQUESTS_PER_MINUTE": "3",
            "RATE_LIMIT_AUDITS_PER_HOUR": "2",
            "MAX_RUNNING_AUDITS_PER_OWNER": "0",
        },
    )
    try:
        yield platform
    finally:
        await platform.close()


async def new_key(local: LocalPlatform, owner: str = "alpha") -> str:
    return (await keys.create_key(local.env, owner)).secret


def clock(local: LocalPlatform) -> ManualClock:
    assert isinstance(local.clock, ManualClock)
    return local.clock


async def test_requests_per_minute_per_key(local: LocalPlatform) -> None:
    first, second = await new_key(local), await new_key(local)
    statuses = [(await send(local.env, "GET", "/api/audits", first)).status for _ in range(3)]
    refused = await send(local.env, "GET", "/api/audits", first)

    assert statuses == [200, 200, 200]
    assert refused.status == 429
    assert json.loads(refused.body)["error"]["code"] == "rate_limited"
    assert refused.headers["retry-after"] == "50"  # the minute's window ends in 50 s
    assert (await send(local.env, "GET", "/api/audits", second)).status == 200  # per key
    clock(local).advance(50)
    assert (await send(local.env, "GET", "/api/audits", first)).status == 200  # a new window


def create(url: str) -> bytes:
    return json.dumps({"url": url, "max_pages": 1}).encode()


async def test_audits_per_hour_count_only_valid_requests(local: LocalPlatform) -> None:
    local.env.RATE_LIMIT_REQUESTS_PER_MINUTE = "0"
    key = await new_key(local)
    bad = await send(local.env, "POST", "/api/audits", key, create("gopher://x"))
    assert bad.status == 400  # refused before the quota: it spends nothing
    made = [
        await send(local.env, "POST", "/api/audits", key, create(u)) for u in ("a.test", "b.test")
    ]
    third = await send(local.env, "POST", "/api/audits", key, create("c.test"))

    assert [r.status for r in made] == [201, 201]
    assert third.status == 429
    assert int(third.headers["retry-after"]) == 3590  # the hour started 10 s ago
    assert "2 audits per hour" in json.loads(third.body)["error"]["message"]


async def test_running_audits_per_owner(local: LocalPlatform) -> None:
    env: Any = local.env
    env.RATE_LIMIT_REQUESTS_PER_MINUTE = "0"
    env.RATE_LIMIT_AUDITS_PER_HOUR = "0"
    env.MAX_RUNNING_AUDITS_PER_OWNER = "1"
    running = AuditRecord("r-1", "https://a.test/", "2026-01-01T00:00:00.000Z", owner="alpha")
    await repository.insert_audit(env.DB, running)
    refused = await send(env, "POST", "/api/audits", await new_key(local), create("b.test"))
    other_owner = await send(
        env, "POST", "/api/audits", await new_key(local, "beta"), create("b.test")
    )

    assert refused.status == 429 and refused.headers["retry-after"] == "60"
    assert other_owner.status == 201
    await (
        env.DB.prepare("UPDATE audits SET status = ? WHERE id = 'r-1'")
        .bind(AuditStatus.COMPLETED.value)
        .run()
    )
    again = await send(env, "POST", "/api/audits", await new_key(local), create("c.test"))
    assert again.status == 201


async def count_windows(local: LocalPlatform) -> int:
    row = await local.env.DB.prepare("SELECT COUNT(*) AS n FROM rate_limits").first()
    assert row is not None
    return int(row["n"])


async def test_the_daily_cleanup_keeps_the_counters_bounded(local: LocalPlatform) -> None:
    key = await new_key(local)
    for _day in range(3):
        for _minute in range(20):  # a request a minute for 20 minutes: 20 windows a day
            await send(local.env, "GET", "/api/audits", key)
            clock(local).advance(60)
        clock(local).advance(24 * 3600)
        result = await run_scheduled(CLEANUP_CRON, local.env)
        assert result["rate_limit_windows_deleted"] == 20
        assert await count_windows(local) == 0
    await send(local.env, "GET", "/api/audits", key)
    await run_scheduled(CLEANUP_CRON, local.env)
    assert await count_windows(local) == 1  # the live window is kept


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO rate_limits (bucket, window_start_ms, hits, expires_at_ms) VALUES (?, ?, 1, ?) "
        "ON CONFLICT (bucket, window_start_ms) DO UPDATE SET hits = hits + 1 RETURNING hits",
        "DELETE FROM rate_limits WHERE (bucket, window_start_ms) IN (SELECT bucket, "
        "window_start_ms FROM rate_limits WHERE expires_at_ms < ? ORDER BY expires_at_ms LIMIT ?)",
        "SELECT COUNT(*) AS n FROM audits WHERE owner = ? AND status = 'running'",
    ],
)
async def test_every_rate_limit_statement_uses_an_index(local: LocalPlatform, sql: str) -> None:
    plan = (
        await local.env.DB.prepare(f"EXPLAIN QUERY PLAN {sql}")
        .bind(*(["x", 1, 2][: sql.count("?")]))
        .all()
    )
    details = [str(row["detail"]) for row in plan["results"]]
    assert not any(d.startswith("SCAN") and "INDEX" not in d for d in details), details
