"""A key rotation (maintenance.reseal, cli.credentials_key): the previous key still opens what it
sealed, the re-sealing moves every stored value to the new key (audits and monitors), a second run
changes nothing, a value no key opens is counted and left; the daily trigger re-seals only while
CREDENTIALS_KEY_PREVIOUS is set; the local `credentials-key rotate` does it all on a state dir."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from auditdb import monitors, repository
from common.sealing import KeyUnknown, key_id
from crawl.credentials import open_credentials
from local_platform import cipher
from local_platform.runtime import LocalPlatform
from maintenance.reseal import ResealReport, reseal_credentials
from maintenance.scheduled import CLEANUP_CRON, run_scheduled
from tests.support.cli_process import siteaudit
from urls.credentials import BasicAuth, Credentials

OLD, NEW = bytes(range(32)), bytes(range(50, 82))
CREDENTIALS = {"basic_auth": {"user": "ci", "password": "rotate-me-pa55"}}
OPENED = Credentials(basic_auth=BasicAuth("ci", "rotate-me-pa55"))


def b64(key: bytes) -> str:
    return base64.b64encode(key).decode()


async def stored(platform: LocalPlatform) -> tuple[str, str]:
    """A monitor and a (failed, never run) audit, both holding credentials sealed under OLD."""
    platform.env.CREDENTIALS_KEY = b64(OLD)
    status, body = await platform.request(
        "POST", "/api/monitors", {"url": "https://a.example/", "credentials": CREDENTIALS}
    )
    assert status == 201, body
    monitor_id = body["monitor"]["id"]
    status, body = await platform.request(
        "POST", "/api/audits", {"url": "http://127.0.0.1:9/", "credentials": CREDENTIALS}
    )
    assert status == 201, body
    await platform.wait_for_workflow(body["audit"]["id"], timeout_s=30)
    return monitor_id, body["audit"]["id"]


async def sealed_values(platform: LocalPlatform, monitor_id: str, audit_id: str) -> list[str]:
    values = [
        await monitors.credentials_sealed(platform.env.DB, monitor_id),
        await repository.sealed_credentials(platform.env.DB, audit_id),
    ]
    assert all(value is not None for value in values)
    return [value for value in values if value is not None]


async def test_rotation_reseals_every_stored_value_once(platform: LocalPlatform) -> None:
    monitor_id, audit_id = await stored(platform)
    before = await sealed_values(platform, monitor_id, audit_id)
    assert {value.split(".")[1] for value in before} == {key_id(OLD)}

    platform.env.CREDENTIALS_KEY, platform.env.CREDENTIALS_KEY_PREVIOUS = b64(NEW), b64(OLD)
    # The previous key still opens them while the rotation runs.
    assert await open_credentials(platform.env, before[0]) == OPENED
    assert await reseal_credentials(platform.env) == ResealReport(resealed=2)
    assert await reseal_credentials(platform.env) == ResealReport(resealed=0)  # safe twice

    after = await sealed_values(platform, monitor_id, audit_id)
    assert {value.split(".")[1] for value in after} == {key_id(NEW)}
    platform.env.CREDENTIALS_KEY_PREVIOUS = None  # the rotation is over: the old key goes
    for value in after:
        assert await open_credentials(platform.env, value) == OPENED
    with pytest.raises(KeyUnknown, match="CREDENTIALS_KEY_PREVIOUS"):
        await open_credentials(platform.env, before[0])


async def test_a_value_no_key_opens_is_counted_and_left(platform: LocalPlatform) -> None:
    monitor_id, audit_id = await stored(platform)
    platform.env.CREDENTIALS_KEY = b64(NEW)  # OLD lost, not kept as the previous key
    assert await reseal_credentials(platform.env) == ResealReport(resealed=0, unopenable=2)
    assert {v.split(".")[1] for v in await sealed_values(platform, monitor_id, audit_id)} == {
        key_id(OLD)
    }


async def test_the_daily_trigger_reseals_only_while_a_previous_key_is_set(
    platform: LocalPlatform,
) -> None:
    await stored(platform)
    platform.env.CREDENTIALS_KEY = b64(NEW)
    idle = await run_scheduled(CLEANUP_CRON, platform.env)
    assert idle["credentials"] == {
        "resealed": 0,
        "unopenable": 0,
        "skipped": "no rotation under way (CREDENTIALS_KEY_PREVIOUS is not set)",
    }
    platform.env.CREDENTIALS_KEY_PREVIOUS = b64(OLD)
    rotating = await run_scheduled(CLEANUP_CRON, platform.env)
    assert rotating["credentials"] == {"resealed": 2, "unopenable": 0, "skipped": None}


def test_the_local_rotate_command_moves_every_value_to_a_new_key(tmp_path: Path) -> None:
    state = tmp_path / "state"
    added = siteaudit(
        "monitors", "add", "https://a.example/", "--auth", "ci:rotate-me-pa55", state_dir=state
    )
    assert added.returncode == 0, added.stderr
    first_key = (state / cipher.KEY_FILE).read_text().strip()
    assert (state / cipher.KEY_FILE).stat().st_mode & 0o777 == 0o600

    rotated = siteaudit("credentials-key", "rotate", state_dir=state)

    assert rotated.returncode == 0, rotated.stderr
    assert rotated.stdout == "1 stored credentials re-sealed under the current key\n"
    new_key = (state / cipher.KEY_FILE).read_text().strip()
    assert new_key != first_key and not (state / cipher.PREVIOUS_KEY_FILE).exists()
    again = siteaudit("credentials-key", "reseal", state_dir=state)
    assert again.stdout == "0 stored credentials re-sealed under the current key\n"
    listed = siteaudit("monitors", "list", state_dir=state)
    assert "rotate-me-pa55" not in listed.stdout + rotated.stdout + rotated.stderr


def test_rotate_refuses_while_a_rotation_is_unfinished(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / cipher.PREVIOUS_KEY_FILE).write_text(b64(OLD))
    refused = siteaudit("credentials-key", "rotate", state_dir=state)
    assert refused.returncode == 2
    assert "run `siteaudit credentials-key reseal` first" in refused.stderr
