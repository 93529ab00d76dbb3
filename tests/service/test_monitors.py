"""The monitor service called directly: checks shared with audits, the secret, the owner scope."""

from __future__ import annotations

import base64
import dataclasses

import pytest

from auditdb import monitors as table
from auditdb.frequency import Frequency
from lighthouse.records import LighthouseMode
from local_platform.runtime import LocalPlatform
from render.records import RenderMode
from service.errors import (
    InvalidOptions,
    InvalidTarget,
    MonitorLimitReached,
    MonitorNotFound,
    ServiceError,
    TargetProblem,
)
from service.lists import Paging
from service.monitors import (
    CreateMonitor,
    UpdateMonitor,
    audit_request,
    create_monitor,
    delete_monitor,
    get_monitor,
    list_monitors,
    update_monitor,
)

OWNER = "alpha"
SECRET = "whsec_" + base64.b64encode(bytes(range(32))).decode()


@pytest.mark.parametrize(
    ("request_", "error", "detail"),
    [
        (CreateMonitor("gopher://example.com"), InvalidTarget, "only http and https"),
        (CreateMonitor("http://10.0.0.1/"), InvalidTarget, "private"),
        (
            CreateMonitor("https://example.com", webhook_url="http://169.254.169.254/hook"),
            InvalidTarget,
            "webhook_url: 169.254.169.254",
        ),
        (
            CreateMonitor("https://example.com", webhook_url="ftp://hooks.example/"),
            InvalidTarget,
            "webhook_url: only http and https",
        ),
        (CreateMonitor("https://example.com", max_pages=0), InvalidOptions, "max_pages"),
        (CreateMonitor("https://example.com", max_depth=-1), InvalidOptions, "max_depth"),
        (CreateMonitor("https://example.com", hour=24), InvalidOptions, "hour"),
        (CreateMonitor("https://example.com", alert_score_drop=101), InvalidOptions, "score"),
        (CreateMonitor("https://example.com", webhook_secret="hunter2"), InvalidOptions, "whsec_"),
        (
            CreateMonitor("https://example.com", webhook_secret="whsec_c2hvcnQ="),
            InvalidOptions,
            "24",
        ),
        (CreateMonitor("https://example.com", webhook_secret="whsec_!!"), InvalidOptions, "base64"),
    ],
)
async def test_create_refuses_before_writing_anything(
    platform: LocalPlatform, request_: CreateMonitor, error: type[ServiceError], detail: str
) -> None:
    env = platform.env
    env.ALLOW_PRIVATE_HOSTS = "false"
    with pytest.raises(error, match=detail):
        await create_monitor(env, OWNER, request_)

    assert await table.count_owned(env.DB, OWNER) == 0


async def test_a_blocked_webhook_is_a_blocked_target(platform: LocalPlatform) -> None:
    platform.env.ALLOW_PRIVATE_HOSTS = "false"
    request = CreateMonitor("https://example.com", webhook_url="http://127.0.0.1:9/")
    with pytest.raises(InvalidTarget) as caught:
        await create_monitor(platform.env, OWNER, request)
    assert caught.value.problem is TargetProblem.BLOCKED


async def test_create_normalises_generates_a_secret_and_is_due_at_once(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    request = CreateMonitor(
        "Example.COM/shop", Frequency.WEEKLY, 6, webhook_url="hooks.example/in", max_pages=30
    )
    created = await create_monitor(env, OWNER, request)
    monitor = created.monitor

    assert (monitor.url, monitor.webhook_url) == (
        "https://example.com/shop",
        "https://hooks.example/in",
    )
    assert (monitor.frequency, monitor.hour, monitor.max_pages) == (Frequency.WEEKLY, 6, 30)
    assert monitor.next_due_at == monitor.created_at  # the baseline run comes first
    assert created.webhook_secret.startswith("whsec_")
    assert len(base64.b64decode(created.webhook_secret[6:])) == 24
    assert await table.webhook_secret(env.DB, monitor.id) == created.webhook_secret
    assert "secret" not in str(monitor.to_dict())
    assert await get_monitor(env, OWNER, monitor.id) == monitor


async def test_a_given_secret_is_kept(platform: LocalPlatform) -> None:
    created = await create_monitor(
        platform.env, OWNER, CreateMonitor("https://example.com", webhook_secret=SECRET)
    )
    assert created.webhook_secret == SECRET


async def test_another_owner_sees_nothing(platform: LocalPlatform) -> None:
    env = platform.env
    monitor = (await create_monitor(env, OWNER, CreateMonitor("https://example.com"))).monitor

    for call in (
        get_monitor(env, "beta", monitor.id),
        update_monitor(env, "beta", monitor.id, UpdateMonitor(hour=3)),
        delete_monitor(env, "beta", monitor.id),
    ):
        with pytest.raises(MonitorNotFound):
            await call
    assert (await list_monitors(env, "beta", Paging())).items == []
    assert await get_monitor(env, OWNER, monitor.id) == monitor


async def test_list_pages_newest_first(platform: LocalPlatform) -> None:
    env = platform.env
    ids = [
        (await create_monitor(env, OWNER, CreateMonitor(f"https://e{i}.example"))).monitor.id
        for i in range(5)
    ]
    seen: list[str] = []
    paging = Paging(limit=2)
    while True:
        page = await list_monitors(env, OWNER, paging)
        seen.extend(m.id for m in page.items)
        if page.next_after is None:
            break
        paging = Paging(page.next_after, 2)

    assert sorted(seen) == sorted(ids) and len(seen) == 5
    created = [(await get_monitor(env, OWNER, i)).created_at for i in seen]
    assert created == sorted(created, reverse=True)


async def test_an_owner_keeps_at_most_the_configured_number(platform: LocalPlatform) -> None:
    env = platform.env
    env.MAX_MONITORS_PER_OWNER = "2"
    for i in range(2):
        await create_monitor(env, OWNER, CreateMonitor(f"https://e{i}.example"))

    with pytest.raises(MonitorLimitReached, match="at most 2"):
        await create_monitor(env, OWNER, CreateMonitor("https://e3.example"))
    await create_monitor(env, "beta", CreateMonitor("https://e3.example"))  # per owner


async def test_update_changes_only_the_given_fields_and_checks_them(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    env.ALLOW_PRIVATE_HOSTS = "false"
    created = await create_monitor(
        env, OWNER, CreateMonitor("https://example.com", webhook_url="https://hooks.example/")
    )
    monitor = created.monitor

    with pytest.raises(InvalidTarget, match="webhook_url"):
        await update_monitor(env, OWNER, monitor.id, UpdateMonitor(webhook_url="http://10.0.0.9/"))
    changed = await update_monitor(
        env, OWNER, monitor.id, UpdateMonitor(max_depth=None, webhook_url=None, is_active=False)
    )

    assert changed == dataclasses.replace(monitor, webhook_url=None, is_active=False)
    assert await get_monitor(env, OWNER, monitor.id) == changed
    assert await table.webhook_secret(env.DB, monitor.id) == created.webhook_secret


async def test_a_new_secret_replaces_the_old_one(platform: LocalPlatform) -> None:
    env = platform.env
    monitor = (await create_monitor(env, OWNER, CreateMonitor("https://example.com"))).monitor

    await update_monitor(env, OWNER, monitor.id, UpdateMonitor(webhook_secret=SECRET))

    assert await table.webhook_secret(env.DB, monitor.id) == SECRET


async def test_delete_then_delete_again(platform: LocalPlatform) -> None:
    env = platform.env
    monitor = (await create_monitor(env, OWNER, CreateMonitor("https://example.com"))).monitor

    await delete_monitor(env, OWNER, monitor.id)

    with pytest.raises(MonitorNotFound):
        await delete_monitor(env, OWNER, monitor.id)


async def test_the_lighthouse_option_is_stored_updated_and_given_to_each_run(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    env.ALLOW_PRIVATE_HOSTS = "false"
    created = await create_monitor(
        env, OWNER, CreateMonitor("https://example.com", lighthouse=LighthouseMode.NONE)
    )
    stored = await get_monitor(env, OWNER, created.monitor.id)
    assert stored.lighthouse is LighthouseMode.NONE
    assert audit_request(stored).lighthouse is LighthouseMode.NONE

    changed = await update_monitor(
        env, OWNER, stored.id, UpdateMonitor(lighthouse=LighthouseMode.AUTO)
    )
    assert await get_monitor(env, OWNER, stored.id) == changed
    assert audit_request(changed).lighthouse is LighthouseMode.AUTO
    default = await create_monitor(env, OWNER, CreateMonitor("https://example.org"))
    assert default.monitor.lighthouse is LighthouseMode.AUTO


async def test_the_check_external_option_is_stored_updated_and_given_to_each_run(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    env.ALLOW_PRIVATE_HOSTS = "false"
    default = await create_monitor(env, OWNER, CreateMonitor("https://example.org"))
    assert default.monitor.check_external is False
    assert audit_request(default.monitor).check_external is False
    created = await create_monitor(
        env, OWNER, CreateMonitor("https://example.com", check_external=True)
    )
    stored = await get_monitor(env, OWNER, created.monitor.id)
    assert stored.check_external is True
    assert audit_request(stored).check_external is True

    changed = await update_monitor(env, OWNER, stored.id, UpdateMonitor(check_external=False))
    assert await get_monitor(env, OWNER, stored.id) == changed
    assert audit_request(changed).check_external is False


async def test_the_render_option_is_stored_updated_and_given_to_each_run(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    env.ALLOW_PRIVATE_HOSTS = "false"
    default = await create_monitor(env, OWNER, CreateMonitor("https://example.org"))
    assert audit_request(default.monitor).render is RenderMode.AUTO
    created = await create_monitor(
        env, OWNER, CreateMonitor("https://example.com", render=RenderMode.NEVER)
    )
    stored = await get_monitor(env, OWNER, created.monitor.id)
    assert (stored.render, audit_request(stored).render) == (RenderMode.NEVER,) * 2
    changed = await update_monitor(env, OWNER, stored.id, UpdateMonitor(render=RenderMode.ALWAYS))
    assert await get_monitor(env, OWNER, stored.id) == changed
    assert audit_request(changed).render is RenderMode.ALWAYS


async def test_the_external_time_budget_is_stored_updated_and_given_to_each_run(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    env.ALLOW_PRIVATE_HOSTS = "false"
    default = await create_monitor(env, OWNER, CreateMonitor("https://example.org"))
    assert audit_request(default.monitor).external_budget_s == 60.0
    created = await create_monitor(
        env, OWNER, CreateMonitor("https://example.com", check_external=True, external_budget_s=300)
    )
    stored = await get_monitor(env, OWNER, created.monitor.id)
    assert audit_request(stored).external_budget_s == 300
    changed = await update_monitor(env, OWNER, stored.id, UpdateMonitor(external_budget_s=12.5))
    assert (await get_monitor(env, OWNER, stored.id)).external_budget_s == 12.5
    assert audit_request(changed).external_budget_s == 12.5
    with pytest.raises(InvalidOptions, match="external_budget_s"):
        await update_monitor(env, OWNER, stored.id, UpdateMonitor(external_budget_s=0.1))
