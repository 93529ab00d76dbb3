"""The API refuses targets that embed a private IPv4 address in an IPv6 one (issue 26, item 1).

Each URL here reaches a private address by some route: `64:ff9b::a9fe:a9fe` is the metadata
address behind a NAT64 gateway (RFC 6052), `::127.0.0.1` an IPv4-compatible loopback (RFC 4291
§2.5.5.1, stored as `[::7f00:1]`), `::ffff:0:7f00:1` an IPv4-translated loopback (RFC 6145). The
deployment allows no private hosts, so each must answer 400 `target_blocked` and store nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from local_platform.runtime import LocalPlatform
from service import keys
from tests.api.client import send

EMBEDDED_PRIVATE_URLS = [
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[::127.0.0.1]/",
    "http://[::ffff:0:7f00:1]/",
    "http://[::7f00:1]:9555/hook",
]


@pytest.fixture
async def key(platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(platform.env, "ALLOW_PRIVATE_HOSTS", "false")
    return (await keys.create_key(platform.env, "alpha")).secret


async def post(platform: LocalPlatform, key: str, path: str, body: dict[str, Any]) -> Any:
    return await send(platform.env, "POST", path, key, json.dumps(body).encode())


def assert_blocked(response: Any, detail: str) -> None:
    assert (response.status, response.json()["error"]["code"]) == (400, "target_blocked")
    assert detail in response.json()["error"]["message"]


@pytest.mark.parametrize("url", EMBEDDED_PRIVATE_URLS)
@pytest.mark.parametrize("resource", ["audits", "monitors"])
async def test_an_audit_or_monitor_of_an_embedded_private_address_is_refused(
    platform: LocalPlatform, key: str, resource: str, url: str
) -> None:
    assert_blocked(await post(platform, key, f"/api/{resource}", {"url": url}), "private")
    listed = await send(platform.env, "GET", f"/api/{resource}", key)
    assert listed.json()[resource] == []


@pytest.mark.parametrize("webhook_url", EMBEDDED_PRIVATE_URLS)
async def test_a_webhook_to_an_embedded_private_address_is_refused(
    platform: LocalPlatform, key: str, webhook_url: str
) -> None:
    body = {"url": "https://example.com/", "webhook_url": webhook_url}
    assert_blocked(await post(platform, key, "/api/monitors", body), "webhook_url")
    listed = await send(platform.env, "GET", "/api/monitors", key)
    assert listed.json()["monitors"] == []


async def test_a_public_address_behind_the_nat64_prefix_is_accepted(
    platform: LocalPlatform, key: str
) -> None:
    # 93.184.216.34 in the well-known prefix: a public IPv4 reached through NAT64 is public.
    response = await post(platform, key, "/api/monitors", {"url": "http://[64:ff9b::5db8:d822]/"})
    assert response.status == 201
    assert response.json()["monitor"]["url"] == "http://[64:ff9b::5db8:d822]/"
