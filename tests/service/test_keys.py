"""API keys through the service: shape, storage (hash only), revocation and the once-a-minute
`last_used_at`, on the local platform's D1 with a clock the tests move."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from auditdb import keys as key_table
from local_platform.clock import ManualClock
from local_platform.runtime import LocalEnv, LocalPlatform
from service import keys
from service.errors import InvalidKeyFields, KeyNotFound, NotAuthenticated


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def env(tmp_path: Path, clock: ManualClock) -> AsyncIterator[LocalEnv]:
    local = LocalPlatform(tmp_path / "state", clock=clock)
    try:
        yield local.env
    finally:
        await local.close()


async def rows(env: LocalEnv) -> list[dict[str, Any]]:
    return (await env.DB.prepare("SELECT * FROM api_keys").all())["results"]


async def test_a_key_is_32_random_bytes_shown_once_and_stored_as_its_hash(env: LocalEnv) -> None:
    created = await keys.create_key(env, "acme", "ci")

    secret = created.secret
    assert secret.startswith("sa_") and len(secret) == 3 + 43
    assert created.key.prefix == secret[:11] and created.key.owner == "acme"
    (row,) = await rows(env)
    assert row["key_hash"] == keys.hash_key(secret) and len(row["key_hash"]) == 64
    assert all(secret not in str(value) for value in row.values())
    assert secret != (await keys.create_key(env, "acme")).secret


@pytest.mark.parametrize(
    ("owner", "name"),
    [("", ""), ("has space", ""), ("-dash-first", ""), ("x" * 101, ""), ("ok", "n" * 101)],
)
async def test_owner_and_name_are_checked(env: LocalEnv, owner: str, name: str) -> None:
    with pytest.raises(InvalidKeyFields):
        await keys.create_key(env, owner, name)
    assert await rows(env) == []


async def test_authenticate_returns_the_live_key(env: LocalEnv) -> None:
    created = await keys.create_key(env, "acme")

    assert (await keys.authenticate(env, created.secret)).id == created.key.id


@pytest.mark.parametrize(
    "presented",
    ["", "sa_", "sa_short", "xx_" + "A" * 43, "sa_" + "A" * 42 + "!", "sa_" + "A" * 43],
)
async def test_malformed_or_unknown_keys_are_refused(env: LocalEnv, presented: str) -> None:
    await keys.create_key(env, "acme")
    with pytest.raises(NotAuthenticated):
        await keys.authenticate(env, presented)


async def test_a_revoked_key_is_refused_and_revoking_twice_keeps_the_first_date(
    env: LocalEnv, clock: ManualClock
) -> None:
    created = await keys.create_key(env, "acme")
    await keys.revoke_key(env, created.key.id)
    (first,) = await keys.list_keys(env)
    clock.advance(3600)
    await keys.revoke_key(env, created.key.id)

    with pytest.raises(NotAuthenticated):
        await keys.authenticate(env, created.secret)
    (again,) = await keys.list_keys(env)
    assert first.revoked and again.revoked_at == first.revoked_at


async def test_revoking_an_unknown_id_is_refused(env: LocalEnv) -> None:
    with pytest.raises(KeyNotFound, match="no API key with id key_x"):
        await keys.revoke_key(env, "key_x")


async def test_keys_are_listed_newest_first(env: LocalEnv, clock: ManualClock) -> None:
    old = await keys.create_key(env, "a")
    clock.advance(1)
    new = await keys.create_key(env, "b")

    assert [k.id for k in await keys.list_keys(env)] == [new.key.id, old.key.id]


async def test_last_used_at_is_written_at_most_once_a_minute(
    env: LocalEnv, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = await keys.create_key(env, "acme")
    writes: list[bool] = []
    touch = key_table.touch_key

    async def counted(*args: Any) -> bool:
        writes.append(await touch(*args))
        return writes[-1]

    monkeypatch.setattr(key_table, "touch_key", counted)
    used = []
    for step_s in (0, 30, 29, 2, 59, 2):  # at 0, 30, 59, 61, 120, 122 seconds
        clock.advance(step_s)
        await keys.authenticate(env, created.secret)
        (key,) = await keys.list_keys(env)
        used.append(key.last_used_at)

    assert writes == [True, True, True]  # at 0, 61 and 122 s: the reads skip the rest
    assert used[0] == used[1] == used[2] != used[3] == used[4] != used[5]


async def test_concurrent_first_uses_write_last_used_at_once(env: LocalEnv) -> None:
    created = await keys.create_key(env, "acme")
    stale_before = "2000-01-01T00:00:00.000Z"

    results = await asyncio.gather(
        *(
            key_table.touch_key(env.DB, created.key.id, f"2026-01-01T00:00:0{i}.000Z", stale_before)
            for i in range(5)
        )
    )
    # Every request read the key as never used; the guarded UPDATE lets only the first write.
    assert results.count(True) == 1
