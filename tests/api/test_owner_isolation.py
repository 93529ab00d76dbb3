"""Two owners, every route, every method: another owner's audit or monitor is indistinguishable
from an unknown id (same status, same body but for the id itself), and lists never cross owners.

Each row sends the same request as owner A twice, once naming B's audit and once naming an id
that does not exist, and compares the two answers; then A's own audit shows the route works.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest

from api.routes import ROUTES
from api.routing import Access
from auditdb import repository
from auditdb.records import AuditOptions, AuditRecord, PageRecord
from local_platform.runtime import LocalPlatform
from service import keys
from service.monitors import CreateMonitor, create_monitor
from tests.api.client import AcceptingWorkflow, send

ADMIN_TOKEN = "admin-token-for-the-matrix-0123456789"
UNKNOWN = "00000000-0000-4000-8000-00000000beef"
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "PROPFIND"]
# What owner A gets on its own audit where that is not 200 (a completed one: cancel and resume are
# refused with 409); every other routed method answers 200, and an unrouted one 405.
OWN_NOT_200 = {
    ("DELETE", "/api/audits/{id}"): 204,
    ("POST", "/api/audits/{id}/cancel"): 409,
    ("POST", "/api/audits/{id}/resume"): 409,
    ("POST", "/api/audits/{id}/rerun"): 201,
}


def _on_one_audit(template: str) -> list[str]:
    """`template` with each of its audit ids in turn as `{id}`, the others the asking owner's own
    audit: both positions of a comparison are tried."""
    parts = re.split(r"\{\w+\}", template)  # literal, literal, ...: one more than the ids
    variants = []
    for position in range(len(parts) - 1):
        ids = ["{id}" if i == position else "alpha-audit" for i in range(len(parts) - 1)]
        variants.append(
            "".join(part + ident for part, ident in zip(parts, [*ids, ""], strict=True))
        )
    return variants


# Read from the route table, so a new route on one audit joins the matrix by itself.
OWN = {
    (route.method, variant): OWN_NOT_200.get((route.method, variant), 200)
    for route in ROUTES
    if route.access is Access.KEY and route.template.startswith("/api/audits/{")
    for variant in _on_one_audit(route.template)
}
AUDIT_ROUTES = sorted({route for _, route in OWN})
# The query a route requires, sent with every request to it (the page is one each audit crawled).
QUERIES = {
    "/api/audits/{id}/pages/links": "?"
    + urlencode({"url": "https://page.example/", "direction": "in"})
}


MONITOR_ROUTES = ["/api/monitors/{id}", "/api/monitors/{id}/runs", "/api/monitors/{id}/run"]
# Every monitor request carries a valid (empty) body, so PATCH reaches the owner check.
OWN_MONITOR = {
    ("GET", "/api/monitors/{id}"): 200,
    ("PATCH", "/api/monitors/{id}"): 200,
    ("DELETE", "/api/monitors/{id}"): 204,
    ("GET", "/api/monitors/{id}/runs"): 200,
    ("POST", "/api/monitors/{id}/run"): 202,
}


def _per_id(group: str) -> set[str]:
    return {
        re.sub(r"\{\w+\}", "{id}", route.template)
        for route in ROUTES
        if route.access is Access.KEY and group in route.parameters
    }


def test_the_matrix_covers_every_route_on_one_audit() -> None:
    assert _per_id("audit_id") == {route.replace("alpha-audit", "{id}") for route in AUDIT_ROUTES}
    assert "/api/audits/alpha-audit/compare/{id}" in AUDIT_ROUTES  # both positions are asked
    assert OWN_NOT_200.keys() <= OWN.keys()  # no exception names a route that is gone


def test_the_matrix_covers_every_route_on_one_monitor() -> None:
    assert _per_id("monitor_id") == set(MONITOR_ROUTES)


@pytest.fixture
async def owners(platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    env = platform.env
    monkeypatch.setattr(env, "ADMIN_TOKEN", ADMIN_TOKEN, raising=False)
    found: dict[str, Any] = {"env": env}
    for owner in ("alpha", "beta"):
        found[owner] = (await keys.create_key(env, owner)).secret
        audit = AuditRecord(
            id=f"{owner}-audit",
            owner=owner,
            start_url=f"https://{owner}.example/",
            created_at="2026-01-01T00:00:00.000Z",
            options=AuditOptions(),
        )
        await repository.insert_audit(env.DB, audit)
        page = PageRecord(f"{owner}-page", audit.id, "https://page.example/", audit.created_at)
        await repository.write_crawled_pages(env.DB, [page], [])
        await (
            env.DB.prepare("UPDATE audits SET status = 'completed' WHERE id = ?")
            .bind(audit.id)
            .run()
        )
        request = CreateMonitor(f"https://{owner}.example/")
        found[f"{owner}-monitor"] = (await create_monitor(env, owner, request)).monitor.id
    return found


def comparable(response: Any, audit_id: str) -> tuple[int, bytes, dict[str, str]]:
    return response.status, response.body.replace(audit_id.encode(), b"<id>"), response.headers


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("route", AUDIT_ROUTES)
async def test_another_owners_audit_answers_like_an_unknown_one(
    owners: dict[str, Any], route: str, method: str
) -> None:
    env, key = owners["env"], owners["alpha"]
    query = QUERIES.get(route, "")
    other = await send(env, method, route.format(id="beta-audit") + query, key)
    unknown = await send(env, method, route.format(id=UNKNOWN) + query, key)

    assert comparable(other, "beta-audit") == comparable(unknown, UNKNOWN)
    assert other.status in (404, 405)
    own = await send(env, method, route.format(id="alpha-audit") + query, key)
    assert own.status == OWN.get((method, route), 405)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("route", MONITOR_ROUTES)
async def test_another_owners_monitor_answers_like_an_unknown_one(
    owners: dict[str, Any], route: str, method: str
) -> None:
    env, key, beta = owners["env"], owners["alpha"], owners["beta-monitor"]
    other = await send(env, method, route.format(id=beta), key, b"{}")
    unknown = await send(env, method, route.format(id=UNKNOWN), key, b"{}")

    assert comparable(other, beta) == comparable(unknown, UNKNOWN)
    assert other.status in (404, 405)
    own = await send(env, method, route.format(id=owners["alpha-monitor"]), key, b"{}")
    assert own.status == OWN_MONITOR.get((method, route), 405)


@pytest.mark.parametrize("owner", ["alpha", "beta"])
async def test_an_owner_lists_only_its_own_monitors(owners: dict[str, Any], owner: str) -> None:
    listed = await send(owners["env"], "GET", "/api/monitors", owners[owner])

    assert [m["id"] for m in listed.json()["monitors"]] == [owners[f"{owner}-monitor"]]


@pytest.mark.parametrize("owner", ["alpha", "beta"])
async def test_an_owner_lists_only_its_own_audits(owners: dict[str, Any], owner: str) -> None:
    listed = await send(owners["env"], "GET", "/api/audits", owners[owner])

    assert [a["id"] for a in listed.json()["audits"]] == [f"{owner}-audit"]


async def test_an_audit_belongs_to_the_owner_of_the_key_that_started_it(
    owners: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    env = owners["env"]
    monkeypatch.setattr(env, "SITE_AUDIT_WORKFLOW", AcceptingWorkflow())
    body = b'{"url": "https://example.com/"}'
    started = (await send(env, "POST", "/api/audits", owners["beta"], body)).json()["audit"]

    assert started["owner"] == "beta"
    beta = await send(env, "GET", "/api/audits", owners["beta"])
    alpha = await send(env, "GET", "/api/audits", owners["alpha"])
    assert {a["id"] for a in beta.json()["audits"]} == {started["id"], "beta-audit"}
    assert [a["id"] for a in alpha.json()["audits"]] == ["alpha-audit"]


# The lists (GET) and creates (POST) of /api/audits and /api/monitors are tested above and in
# tests/api/test_monitors_http.py.
NO_ID = [
    (method, path)
    for path in ["/api/audits", "/api/monitors", "/api/nothing-here", "/api/audits/a/b"]
    for method in METHODS
    if (method, path)
    not in {
        ("GET", "/api/audits"),
        ("POST", "/api/audits"),
        ("GET", "/api/monitors"),
        ("POST", "/api/monitors"),
    }
]


@pytest.mark.parametrize(("method", "path"), NO_ID)
async def test_routes_without_an_id_answer_both_owners_alike(
    owners: dict[str, Any], method: str, path: str
) -> None:
    env = owners["env"]
    alpha = await send(env, method, path, owners["alpha"])
    beta = await send(env, method, path, owners["beta"])

    assert (alpha.status, alpha.body) == (beta.status, beta.body)
    assert alpha.status in (404, 405)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("path", ["/api/keys", "/api/keys/some-key"])
async def test_admin_routes_refuse_every_owners_key(
    owners: dict[str, Any], path: str, method: str
) -> None:
    for owner in ("alpha", "beta"):
        response = await send(owners["env"], method, path, owners[owner])
        assert (response.status, response.json()["error"]["code"]) == (401, "unauthorized")
