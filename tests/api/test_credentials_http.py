"""Credentials over the API and MCP (issue 28): taken by POST /api/audits, the monitors and the
`run_site_audit` tool, refused with a 400 (or a tool error) that names the field and never quotes
a value, shown redacted by every read, and handed to every Workflow instance sealed: the first,
a resume's, a re-run's, and a monitor's runs. Editing a monitor without them keeps them; `null`
removes them; the redacted placeholder sent back is refused."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from auditdb import monitors, repository
from crawl.credentials import open_credentials
from durable.client import Scratchpad
from durable.records import CrawlConfig
from local_platform.runtime import LocalPlatform
from service import keys
from tests.api.client import AcceptingWorkflow, send
from tests.api.mcp.test_transport import tool
from urls.credentials import REDACTED, BasicAuth, Credentials

PASSWORD = "api-pa55-Wq9"
TOKEN = "api-token-Lr4"
GIVEN = {
    "basic_auth": {"user": "ci", "password": PASSWORD},
    "headers": {"X-Preview-Token": TOKEN},
    "origins": ["https://API.example:443/"],
}
SHOWN = {
    "basic_auth": {"user": "ci", "password": REDACTED},
    "headers": {"X-Preview-Token": REDACTED},
    "cookies": {},
    "origins": ["https://api.example"],
    "send_to_lighthouse": False,
    "send_to_external_links": False,
}
OPENED = Credentials(
    basic_auth=BasicAuth("ci", PASSWORD),
    headers={"X-Preview-Token": TOKEN},
    origins=["https://api.example"],
)
SEALED = re.compile(r"sa1\.[0-9a-f]{16}\.[A-Za-z0-9_-]+")


@pytest.fixture
async def key(platform: LocalPlatform) -> str:
    return (await keys.create_key(platform.env, "local")).secret


@pytest.fixture
def workflow(platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch) -> AcceptingWorkflow:
    accepting = AcceptingWorkflow()
    monkeypatch.setattr(platform.env, "SITE_AUDIT_WORKFLOW", accepting)
    return accepting


async def call(platform: LocalPlatform, key: str, method: str, path: str, body: Any = None) -> Any:
    raw = b"" if body is None else json.dumps(body).encode()
    return await send(platform.env, method, path, key, raw)


async def sealed_params(platform: LocalPlatform, params: dict[str, Any]) -> Credentials:
    sealed = params["credentials_sealed"]
    assert SEALED.fullmatch(sealed), sealed
    assert PASSWORD not in json.dumps(params) and TOKEN not in json.dumps(params)
    return await open_credentials(platform.env, sealed)


async def test_an_audit_keeps_them_sealed_for_every_instance_and_shows_them_redacted(
    platform: LocalPlatform, key: str, workflow: AcceptingWorkflow
) -> None:
    created = await call(
        platform, key, "POST", "/api/audits", {"url": "https://a.example/", "credentials": GIVEN}
    )
    assert created.status == 201, created.body
    audit = created.json()["audit"]
    assert audit["options"]["credentials"] == SHOWN
    read = await call(platform, key, "GET", f"/api/audits/{audit['id']}")
    assert read.json()["audit"]["options"]["credentials"] == SHOWN
    assert await sealed_params(platform, workflow.created[audit["id"]]) == OPENED

    rerun = await call(platform, key, "POST", f"/api/audits/{audit['id']}/rerun")
    rerun_id = rerun.json()["audit"]["id"]
    assert rerun.json()["audit"]["options"]["credentials"] == SHOWN
    assert await sealed_params(platform, workflow.created[rerun_id]) == OPENED

    await (
        platform.env.DB.prepare("UPDATE audits SET status = 'cancelled' WHERE id = ?")
        .bind(audit["id"])
        .run()
    )
    await Scratchpad.for_audit(platform.env, audit["id"]).save_crawl_config(
        CrawlConfig(final_url="https://a.example/")
    )
    resumed = await call(platform, key, "POST", f"/api/audits/{audit['id']}/resume")
    assert resumed.status == 202, resumed.body
    assert await sealed_params(platform, workflow.created[f"{audit['id']}-r1"]) == OPENED
    for answer in (created, read, rerun, resumed):
        assert PASSWORD not in answer.body.decode() and TOKEN not in answer.body.decode()


@pytest.mark.parametrize(
    ("credentials", "words"),
    [
        ({"headers": {"Host": TOKEN}}, "header Host is the connection's"),
        ({"headers": {"X-Token": TOKEN + "\r\nX-Evil: 1"}}, "is not an RFC 9110 field value"),
        ({"cookies": {"s": TOKEN + ";"}}, "cookie s: the value is not an RFC 6265 cookie-value"),
        ({"basic_auth": {"user": "c:i", "password": PASSWORD}}, "must not contain ':'"),
        ({"basic_auth": {"user": "ci", "password": REDACTED}}, "send the real value"),
        ({"cookies": {"s": TOKEN}, "origins": [f"https://a.example/{TOKEN}"]}, "without a path"),
        ({"origins": ["https://a.example"]}, "must hold basic_auth, headers or cookies"),
        ({"headers": {"X-Token": 7}}, "credentials.headers.X-Token"),
        ({"cookie": {"s": TOKEN}}, "credentials.cookie"),
    ],
)
async def test_bad_credentials_are_a_400_naming_the_field_never_the_value(
    platform: LocalPlatform, key: str, credentials: dict[str, Any], words: str
) -> None:
    answer = await call(
        platform,
        key,
        "POST",
        "/api/audits",
        {"url": "https://a.example/", "credentials": credentials},
    )
    error = answer.json()["error"]
    assert (answer.status, error["code"]) == (400, "invalid_request")
    assert words in error["message"]
    assert PASSWORD not in answer.body.decode()
    if "origins" not in credentials:  # an origin is shown back: it is no secret
        assert TOKEN not in answer.body.decode()


async def test_a_monitor_keeps_them_sealed_until_they_are_replaced_or_removed(
    platform: LocalPlatform, key: str, workflow: AcceptingWorkflow
) -> None:
    created = await call(
        platform, key, "POST", "/api/monitors", {"url": "https://a.example/", "credentials": GIVEN}
    )
    assert created.status == 201, created.body
    path = f"/api/monitors/{created.json()['monitor']['id']}"
    assert created.json()["monitor"]["credentials"] == SHOWN

    edited = await call(platform, key, "PATCH", path, {"frequency": "weekly"})
    assert edited.json()["monitor"]["credentials"] == SHOWN  # not sent: kept
    ran = await call(platform, key, "POST", f"{path}/run")
    assert await sealed_params(platform, workflow.created[ran.json()["audit_id"]]) == OPENED

    sent_back = await call(platform, key, "PATCH", path, {"credentials": SHOWN})
    assert sent_back.status == 400 and "send the real value" in sent_back.json()["error"]["message"]
    replaced = await call(
        platform, key, "PATCH", path, {"credentials": {"cookies": {"session": "n3w-c00kie"}}}
    )
    assert replaced.json()["monitor"]["credentials"]["cookies"] == {"session": REDACTED}
    assert replaced.json()["monitor"]["credentials"]["basic_auth"] is None
    removed = await call(platform, key, "PATCH", path, {"credentials": None})
    assert removed.json()["monitor"]["credentials"] is None
    read = await call(platform, key, "GET", path)
    assert read.json()["monitor"]["credentials"] is None
    monitor_id = read.json()["monitor"]["id"]
    assert await monitors.credentials_sealed(platform.env.DB, monitor_id) is None
    for answer in (created, edited, replaced, removed, read):
        body = answer.body.decode()
        assert PASSWORD not in body and TOKEN not in body and "n3w-c00kie" not in body


async def test_the_mcp_tool_takes_them_and_refuses_bad_ones_by_name(
    platform: LocalPlatform, workflow: AcceptingWorkflow
) -> None:
    started = await tool(platform, "run_site_audit", url="https://a.example/", credentials=GIVEN)
    assert not started["isError"], started
    audit = started["structuredContent"]["audit"]
    assert audit["options"]["credentials"] == SHOWN
    assert await sealed_params(platform, workflow.created[audit["id"]]) == OPENED
    assert PASSWORD not in json.dumps(started)

    refused = await tool(
        platform,
        "run_site_audit",
        url="https://a.example/",
        credentials={"headers": {"X-Token": TOKEN + "\n"}},
    )
    assert refused["isError"]
    text = refused["content"][0]["text"]
    assert text.startswith("credentials: header X-Token: the value is not")
    assert TOKEN not in text
    row = await repository.get_audit(platform.env.DB, audit["id"])
    assert row is not None and row.options.credentials is not None


@pytest.mark.parametrize("path", ["/api/audits", "/api/monitors"])
async def test_a_password_in_the_site_url_is_refused_and_never_repeated(
    platform: LocalPlatform, key: str, path: str
) -> None:
    answer = await call(platform, key, "POST", path, {"url": f"https://ci:{PASSWORD}@a.example/"})
    error = answer.json()["error"]
    assert (answer.status, error["code"]) == (400, "invalid_url")
    assert (
        "give them as credentials.basic_auth (the CLI's --auth USER:PASSWORD)" in error["message"]
    )
    assert PASSWORD not in answer.body.decode()
