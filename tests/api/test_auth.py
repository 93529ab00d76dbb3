"""Who may call what: API keys on the audit routes, the admin token on /api/keys, 401s with an
RFC 6750 challenge for everything else."""

from __future__ import annotations

import json
from typing import Any

import pytest

from local_platform.runtime import LocalEnv, LocalPlatform
from service import keys
from tests.api.client import send

ADMIN_TOKEN = "admin-token-for-tests-0123456789"
CHALLENGE = 'Bearer realm="siteaudit"'
INVALID = 'Bearer realm="siteaudit", error="invalid_token"'


@pytest.fixture
def env(platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch) -> LocalEnv:
    monkeypatch.setattr(platform.env, "ADMIN_TOKEN", ADMIN_TOKEN, raising=False)
    return platform.env


@pytest.fixture
async def key(env: LocalEnv) -> str:
    return (await keys.create_key(env, "acme", "tests")).secret


def assert_401(response: Any, challenge: str) -> None:
    assert response.status == 401
    assert response.headers["www-authenticate"] == challenge
    assert response.json()["error"]["code"] == "unauthorized"


@pytest.mark.parametrize(
    ("authorization", "challenge"),
    [
        (None, CHALLENGE),  # no header
        ("Basic YWNtZTpzZWNyZXQ=", CHALLENGE),  # another scheme: no Bearer credentials
        ("Bearer", INVALID),  # the scheme and no token
        ("Bearer not-a-key", INVALID),  # malformed
        ("Bearer sa_" + "A" * 43, INVALID),  # well formed, unknown
    ],
)
async def test_audit_routes_refuse_requests_without_a_valid_key(
    env: LocalEnv, key: str, authorization: str | None, challenge: str
) -> None:
    headers = {} if authorization is None else {"authorization": authorization}
    for method, path in [("GET", "/api/audits"), ("GET", "/api/audits/x"), ("PUT", "/api/nope")]:
        assert_401(await send(env, method, path, headers=headers), challenge)


async def test_the_scheme_is_case_insensitive(env: LocalEnv, key: str) -> None:
    response = await send(env, "GET", "/api/audits", headers={"authorization": f"bearer {key}"})
    assert response.status == 200


async def test_a_revoked_key_is_refused(env: LocalEnv, key: str) -> None:
    assert (await send(env, "GET", "/api/audits", key)).status == 200
    (listed,) = await keys.list_keys(env)
    await keys.revoke_key(env, listed.id)

    assert_401(await send(env, "GET", "/api/audits", key), INVALID)


@pytest.mark.parametrize(("path", "status"), [("/", 200), ("/app.js", 200), ("/elsewhere", 404)])
async def test_paths_outside_the_api_need_no_key(env: LocalEnv, path: str, status: int) -> None:
    assert (await send(env, "GET", path)).status == status  # the web app, or nothing


async def test_the_admin_token_creates_lists_and_revokes_keys(env: LocalEnv) -> None:
    payload = json.dumps({"owner": "beta", "name": "deploy"}).encode()
    created = await send(env, "POST", "/api/keys", ADMIN_TOKEN, payload)
    assert created.status == 201
    made = created.json()["key"]
    assert created.headers["location"] == f"/api/keys/{made['id']}"
    assert (made["owner"], made["name"], made["revoked"]) == ("beta", "deploy", False)
    assert made["secret"].startswith(made["prefix"])

    assert (await send(env, "GET", "/api/audits", made["secret"])).status == 200
    listed = (await send(env, "GET", "/api/keys", ADMIN_TOKEN)).json()["keys"]
    assert [k["id"] for k in listed] == [made["id"]] and "secret" not in listed[0]

    revoked = await send(env, "DELETE", f"/api/keys/{made['id']}", ADMIN_TOKEN)
    assert (revoked.status, revoked.body) == (204, b"")
    assert (await send(env, "GET", "/api/audits", made["secret"])).status == 401
    again = await send(env, "DELETE", f"/api/keys/{made['id']}", ADMIN_TOKEN)
    assert again.status == 204  # revoking is idempotent
    unknown = await send(env, "DELETE", "/api/keys/key_nope", ADMIN_TOKEN)
    assert (unknown.status, unknown.json()["error"]["code"]) == (404, "not_found")


async def test_a_revoke_goes_through_the_worker_shell_as_a_204(
    platform: LocalPlatform, env: LocalEnv
) -> None:
    made = await keys.create_key(env, "beta")
    status, body = await platform.request("DELETE", f"/api/keys/{made.key.id}", key=ADMIN_TOKEN)

    assert (status, body) == (204, None)


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({}, "owner"),
        ({"owner": "a b"}, "owner must be"),
        ({"owner": "ok", "extra": 1}, "extra"),
        ({"owner": "ok", "name": "n" * 101}, "name"),
    ],
)
async def test_a_bad_key_request_is_a_400(env: LocalEnv, body: dict[str, Any], detail: str) -> None:
    response = await send(env, "POST", "/api/keys", ADMIN_TOKEN, json.dumps(body).encode())
    assert (response.status, response.json()["error"]["code"]) == (400, "invalid_request")
    assert detail in response.json()["error"]["message"]


async def test_keys_and_the_admin_token_do_not_stand_in_for_each_other(
    env: LocalEnv, key: str
) -> None:
    for method, path in [("GET", "/api/keys"), ("POST", "/api/keys"), ("DELETE", "/api/keys/k")]:
        assert_401(await send(env, method, path, key), INVALID)
        assert_401(await send(env, method, path), CHALLENGE)
    assert_401(await send(env, "GET", "/api/audits", ADMIN_TOKEN), INVALID)


async def test_without_an_admin_token_the_admin_routes_do_not_exist(
    env: LocalEnv, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(env, "ADMIN_TOKEN", "")
    unknown = await send(env, "GET", "/api/nothing-here", key)
    for method, path in [("GET", "/api/keys"), ("POST", "/api/keys"), ("DELETE", "/api/keys/k")]:
        response = await send(env, method, path, key)
        assert response.status == 404
        assert response.json()["error"]["code"] == unknown.json()["error"]["code"]
        assert_401(await send(env, method, path, ""), INVALID)


async def test_an_admin_route_answers_405_for_other_methods(env: LocalEnv) -> None:
    response = await send(env, "PUT", "/api/keys", ADMIN_TOKEN)
    assert (response.status, response.headers["allow"]) == (405, "GET, POST")


@pytest.mark.parametrize("method", ["PROPFIND", "QUERY", "MKCOL"])
async def test_a_method_the_sdk_enum_cannot_name_is_a_405_through_the_worker_shell(
    platform: LocalPlatform, env: LocalEnv, key: str, method: str
) -> None:
    # Found by schemathesis: the shell read `request.method`, the SDK's HTTPMethod, which raises
    # KeyError for these, so the Worker failed instead of answering.
    status, body = await platform.request(method, "/api/audits", key=key)

    assert (status, body["error"]["code"]) == (405, "method_not_allowed")
