"""Headers every response carries, the 64 KiB body limit, and CORS for listed origins only."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from api.hardening import MAX_BODY_BYTES
from local_platform.http import BodyStream, Request
from local_platform.runtime import LocalEnv, LocalPlatform
from service import keys
from tests.api.client import send

LISTED = "https://dashboard.example"
PREFLIGHT = {"origin": LISTED, "access-control-request-method": "GET"}


@pytest.fixture
def env(platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch) -> LocalEnv:
    setting = f"{LISTED}, https://other.example/"
    monkeypatch.setattr(platform.env, "CORS_ORIGINS", setting, raising=False)
    return platform.env


@pytest.fixture
async def key(env: LocalEnv) -> str:
    return (await keys.create_key(env, "acme")).secret


@pytest.mark.parametrize(
    ("method", "path", "authorized", "status"),
    [
        ("GET", "/api/audits", True, 200),
        ("GET", "/api/audits", False, 401),
        ("GET", "/api/audits/none", True, 404),
        ("PUT", "/api/audits", True, 405),
        ("GET", "/elsewhere", False, 404),
    ],
)
async def test_every_response_says_nosniff_and_no_store(
    env: LocalEnv, key: str, method: str, path: str, authorized: bool, status: int
) -> None:
    response = await send(env, method, path, key if authorized else None)

    assert response.status == status
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("size", [MAX_BODY_BYTES + 1, 1_000_000])
async def test_a_body_over_64_kib_is_a_413_before_authentication(env: LocalEnv, size: int) -> None:
    response = await send(env, "POST", "/api/audits", body=b"x" * size)

    assert (response.status, response.json()["error"]["code"]) == (413, "payload_too_large")
    assert response.headers["cache-control"] == "no-store"


async def test_a_declared_length_over_the_limit_is_a_413(env: LocalEnv, key: str) -> None:
    declared = {"content-length": str(MAX_BODY_BYTES + 1)}
    response = await send(env, "POST", "/api/audits", key, b"{}", declared)

    assert response.status == 413


async def test_a_body_at_the_limit_is_read(env: LocalEnv, key: str) -> None:
    body = b"[" + b" " * (MAX_BODY_BYTES - 2) + b"]"
    response = await send(env, "POST", "/api/audits", key, body)

    assert (response.status, response.json()["error"]["code"]) == (400, "invalid_request")


async def test_a_listed_origins_preflight_is_answered_without_a_key(env: LocalEnv) -> None:
    response = await send(env, "OPTIONS", "/api/audits/x/issues", headers=PREFLIGHT)

    assert (response.status, response.body) == (204, b"")
    assert response.headers["access-control-allow-origin"] == LISTED
    assert "Authorization" in response.headers["access-control-allow-headers"]
    assert set(response.headers["access-control-allow-methods"].split(", ")) >= {
        "GET",
        "POST",
        "PATCH",
        "DELETE",
    }
    assert int(response.headers["access-control-max-age"]) > 0
    assert response.headers["vary"] == "Origin"


async def test_a_listed_origin_gets_cors_headers_on_every_response(env: LocalEnv, key: str) -> None:
    for token, status in [(key, 200), (None, 401)]:
        response = await send(env, "GET", "/api/audits", token, headers={"origin": LISTED})
        assert response.status == status
        assert response.headers["access-control-allow-origin"] == LISTED
        assert response.headers["vary"] == "Origin"


@pytest.mark.parametrize(
    "origin", ["https://evil.example", "https://dashboard.example.evil", "null"]
)
async def test_unlisted_origins_get_no_cors_headers(env: LocalEnv, key: str, origin: str) -> None:
    preflight = await send(env, "OPTIONS", "/api/audits", headers={**PREFLIGHT, "origin": origin})
    simple = await send(env, "GET", "/api/audits", key, headers={"origin": origin})

    assert preflight.status == 401  # not answered as a preflight: an unauthenticated request
    for response in (preflight, simple):
        assert not any(h.startswith("access-control-") for h in response.headers)
        assert "vary" not in response.headers


async def test_a_listed_origin_with_a_trailing_slash_in_the_setting_matches(
    env: LocalEnv, key: str
) -> None:
    origin = "https://other.example"
    response = await send(env, "GET", "/api/audits", key, headers={"origin": origin})

    assert response.headers["access-control-allow-origin"] == origin


async def test_no_setting_means_no_cors(
    env: LocalEnv, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(env, "CORS_ORIGINS", "")
    response = await send(env, "OPTIONS", "/api/audits", headers=PREFLIGHT)

    assert response.status == 401
    assert "access-control-allow-origin" not in response.headers


@pytest.mark.parametrize(
    ("path", "body", "named"),
    [
        ("/api/audits", b'{"url": "https://example.com", "bogus": 1}', "bogus"),
        (
            "/api/audits",
            b'{"url": "https://example.com", "max_pages": 5, "Max_Depth": 2}',
            "Max_Depth",
        ),
    ],
)
async def test_unknown_json_fields_are_refused_by_name(
    env: LocalEnv, key: str, path: str, body: bytes, named: str
) -> None:
    response = await send(env, "POST", path, key, body, {"content-type": "application/json"})
    error = response.json()["error"]
    assert (response.status, error["code"]) == (400, "invalid_request")
    assert f"{named}: Extra inputs are not permitted" in error["message"]


async def test_the_worker_reads_a_body_without_a_length_only_up_to_the_limit(
    platform: LocalPlatform,
) -> None:
    """A chunked body declares no length to check first: the Worker shell (entry.py) stops
    reading one byte past the limit, and the request is a 413."""
    pulled: list[int] = []

    async def chunks() -> AsyncIterator[bytes]:
        for index in range(100):  # 100 x 16 KiB: far over the limit
            pulled.append(index)
            yield b"x" * 16 * 1024

    request = Request("http://siteaudit.local/api/audits", method="POST", body=BodyStream(chunks()))
    response = await platform.fetch(request)

    assert response.status == 413
    assert len(pulled) <= MAX_BODY_BYTES // (16 * 1024) + 1


async def test_the_worker_does_not_read_a_body_declared_over_the_limit(
    platform: LocalPlatform,
) -> None:
    pulled: list[int] = []

    async def chunks() -> AsyncIterator[bytes]:
        pulled.append(0)
        yield b"{}"

    declared = {"content-length": str(MAX_BODY_BYTES + 1)}
    request = Request(
        "http://siteaudit.local/api/audits",
        method="POST",
        headers=declared,
        body=BodyStream(chunks()),
    )
    response = await platform.fetch(request)

    assert (response.status, pulled) == (413, [])
