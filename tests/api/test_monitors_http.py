"""/api/monitors over HTTP: bodies checked at the edge, the secret shown once, keyset pages."""

from __future__ import annotations

import json
from typing import Any

import pytest

from local_platform.runtime import LocalPlatform
from service import keys
from tests.api.client import AcceptingWorkflow, send


@pytest.fixture
async def key(platform: LocalPlatform) -> str:
    return (await keys.create_key(platform.env, "alpha")).secret


async def post(platform: LocalPlatform, key: str, body: object) -> Any:
    return await send(platform.env, "POST", "/api/monitors", key, json.dumps(body).encode())


async def test_create_shows_the_secret_once(platform: LocalPlatform, key: str) -> None:
    created = await post(
        platform, key, {"url": "example.com", "frequency": "weekly", "hour": 6, "max_pages": 20}
    )

    assert created.status == 201
    monitor = created.json()["monitor"]
    assert created.headers["location"] == f"/api/monitors/{monitor['id']}"
    assert monitor["webhook_secret"].startswith("whsec_")
    assert {k: monitor[k] for k in ("url", "frequency", "hour", "max_pages", "owner")} == {
        "url": "https://example.com/",
        "frequency": "weekly",
        "hour": 6,
        "max_pages": 20,
        "owner": "alpha",
    }
    read = await send(platform.env, "GET", f"/api/monitors/{monitor['id']}", key)
    assert read.status == 200
    assert "webhook_secret" not in read.json()["monitor"]
    assert "lock_until" not in read.json()["monitor"]
    assert monitor["webhook_secret"] not in read.body.decode()


@pytest.mark.parametrize(
    ("body", "status", "code", "detail"),
    [
        ({"url": "https://example.com", "colour": "red"}, 400, "invalid_request", "colour"),
        (
            {"url": "https://example.com", "frequency": "hourly"},
            400,
            "invalid_request",
            "frequency",
        ),
        ({"url": "https://example.com", "hour": 24}, 400, "invalid_request", "hour"),
        ({"url": "https://example.com", "include": ["blog"]}, 400, "invalid_request", "pattern"),
        ({"frequency": "daily"}, 400, "invalid_request", "url"),
        ({"url": "http://10.0.0.1/"}, 400, "target_blocked", "private"),
        (
            {"url": "https://example.com", "webhook_url": "http://169.254.169.254/"},
            400,
            "target_blocked",
            "webhook_url",
        ),
        (
            {"url": "https://example.com", "webhook_secret": "s3cret"},
            400,
            "invalid_request",
            "whsec_",
        ),
    ],
)
async def test_create_refuses_bad_bodies(
    platform: LocalPlatform, key: str, body: dict[str, Any], status: int, code: str, detail: str
) -> None:
    platform.env.ALLOW_PRIVATE_HOSTS = "false"
    response = await post(platform, key, body)

    assert (response.status, response.json()["error"]["code"]) == (status, code)
    assert detail in response.json()["error"]["message"]
    listed = await send(platform.env, "GET", "/api/monitors", key)
    assert listed.json()["monitors"] == []


async def test_patch_changes_the_given_fields_and_refuses_meaningless_nulls(
    platform: LocalPlatform, key: str
) -> None:
    monitor = (await post(platform, key, {"url": "https://example.com", "max_depth": 3})).json()
    path = f"/api/monitors/{monitor['monitor']['id']}"

    refused = [
        await send(platform.env, "PATCH", path, key, body)
        for body in (b'{"hour": null}', b'{"webhook_secret": null}', b'{"nope": 1}', b"[1]")
    ]
    changed = await send(platform.env, "PATCH", path, key, b'{"max_depth": null, "hour": 5}')

    assert [r.status for r in refused] == [400, 400, 400, 400]
    assert "hour must not be null" in refused[0].json()["error"]["message"]
    assert changed.status == 200
    assert (changed.json()["monitor"]["max_depth"], changed.json()["monitor"]["hour"]) == (None, 5)
    read = await send(platform.env, "GET", path, key)
    assert read.json() == changed.json()


async def test_the_list_pages_with_a_cursor_and_a_link(platform: LocalPlatform, key: str) -> None:
    ids = [(await post(platform, key, {"url": f"https://e{i}.example"})).json() for i in range(3)]
    first = await send(platform.env, "GET", "/api/monitors?limit=2", key)
    cursor = first.json()["next_cursor"]
    second = await send(platform.env, "GET", f"/api/monitors?limit=2&cursor={cursor}", key)

    assert first.headers["link"] == f'</api/monitors?limit=2&cursor={cursor}>; rel="next"'
    listed = [m["id"] for m in first.json()["monitors"] + second.json()["monitors"]]
    assert sorted(listed) == sorted(m["monitor"]["id"] for m in ids)
    assert second.json()["next_cursor"] is None
    bad = await send(platform.env, "GET", "/api/monitors?status=running", key)
    assert (bad.status, bad.json()["error"]["code"]) == (400, "invalid_request")
    foreign = await send(platform.env, "GET", "/api/audits?cursor=" + cursor, key)
    assert foreign.status == 400  # a monitors cursor is no audits cursor


async def test_delete_then_404(platform: LocalPlatform, key: str) -> None:
    monitor = (await post(platform, key, {"url": "https://example.com"})).json()["monitor"]
    path = f"/api/monitors/{monitor['id']}"

    assert (await send(platform.env, "DELETE", path, key)).status == 204
    for method in ("GET", "DELETE"):
        gone = await send(platform.env, method, path, key)
        assert (gone.status, gone.json()["error"]["code"]) == (404, "not_found")


async def test_past_the_owners_monitor_limit_is_a_conflict(
    platform: LocalPlatform, key: str
) -> None:
    platform.env.MAX_MONITORS_PER_OWNER = "1"
    assert (await post(platform, key, {"url": "https://a.example"})).status == 201

    refused = await post(platform, key, {"url": "https://b.example"})

    assert (refused.status, refused.json()["error"]["code"]) == (409, "conflict")


async def test_run_now_starts_a_run_of_an_active_monitor_and_refuses_a_paused_one(
    platform: LocalPlatform, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    workflow = AcceptingWorkflow()
    monkeypatch.setattr(platform.env, "SITE_AUDIT_WORKFLOW", workflow)
    monitor = (await post(platform, key, {"url": "https://example.com"})).json()["monitor"]
    path = f"/api/monitors/{monitor['id']}"

    ran = await send(platform.env, "POST", f"{path}/run", key)

    assert ran.status == 202
    result = ran.json()
    assert (result["monitor_id"], result["outcome"]) == (monitor["id"], "started")
    assert list(workflow.created) == [result["audit_id"]]
    runs = (await send(platform.env, "GET", f"{path}/runs", key)).json()["runs"]
    assert [run["audit_id"] for run in runs] == [result["audit_id"]]
    assert (await send(platform.env, "GET", path, key)).json()["monitor"]["last_run_at"]

    paused = await send(platform.env, "PATCH", path, key, b'{"is_active": false}')
    assert paused.json()["monitor"]["is_active"] is False
    refused = await send(platform.env, "POST", f"{path}/run", key)
    assert (refused.status, refused.json()["error"]["code"]) == (409, "conflict")
    assert "paused" in refused.json()["error"]["message"]
    assert len(workflow.created) == 1
