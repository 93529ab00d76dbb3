"""The export routes over HTTP, as `siteaudit serve` runs them: the Worker's `Default.fetch` behind
the local HTTP server, read by httpx.

A CSV export parses back (Python's csv module) to exactly the rows the JSON list returns, each
cell as text with the formula guard; an NDJSON export's lines are the JSON list's records; both
honour the list's filters. Refusals (401, 404, 400) are JSON errors sent before any row; a client
that stops reading early cancels the export and leaves the server serving.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from api.http import ApiResponse, stream_response
from audit.catalogue import IssueType
from auditdb import repository
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from local_platform.runtime import LocalPlatform
from service import exports, keys
from service.audits import LOCAL_OWNER
from tests.api.client import served

AUDIT = "export-1"
PAGES = 1_100  # more than two keyset pages of 500 rows
TYPES = [IssueType.MISSING_TITLE, IssueType.THIN_CONTENT, IssueType.BROKEN_INTERNAL_LINK]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
LISTED_ORIGIN = "https://dashboard.example"


def page(n: int) -> PageRecord:
    titles = ['=HYPERLINK("http://evil")', "+1", "plain, with a comma", 'a "quote"', "two\nlines"]
    return PageRecord(
        f"p{n:05d}",
        AUDIT,
        f"https://a.test/{n:05d}",
        "2026-12-01T00:00:00.000Z",
        status_code=404 if n % 7 == 0 else 200,
        title=titles[n % len(titles)],
        is_indexable=n % 3 != 0,
        heading_order=[1, 2, 2],
    )


@pytest.fixture
async def api(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[httpx.AsyncClient]:
    env = platform.env
    monkeypatch.setattr(env, "CORS_ORIGINS", LISTED_ORIGIN, raising=False)
    await repository.insert_audit(
        env.DB, AuditRecord(AUDIT, "https://a.test/", "2026-12-01T00:00:00.000Z", owner=LOCAL_OWNER)
    )
    for start in range(0, PAGES, 500):  # one D1 batch per 500 pages
        pages = [page(n) for n in range(start, min(start + 500, PAGES))]
        issues = [
            IssueRecord(
                f"i{p.id}-{t}", AUDIT, p.url, str(t), "critical" if n % 2 else "warning", p.id
            )
            for n, p in enumerate(pages, start)
            for t in TYPES[: 1 + n % 3]
        ]
        await repository.write_crawled_pages(env.DB, pages, issues)
    async with served(platform) as client:
        yield client


async def whole_list(client: httpx.AsyncClient, path: str, kind: str) -> list[dict[str, Any]]:
    """Every record of a JSON list, following next_cursor."""
    items: list[dict[str, Any]] = []
    url = f"{path}{'&' if '?' in path else '?'}limit=1000"
    while True:
        body = (await client.get(url)).json()
        items += body[kind]
        if body["next_cursor"] is None:
            return items
        url = f"{path}{'&' if '?' in path else '?'}{urlencode({'limit': 1000, 'cursor': body['next_cursor']})}"


def as_text(value: object) -> str:
    """A value as its CSV cell reads back: the spec the exports follow (service/exports.py)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


EXPORTS = [
    ("pages", ""),
    ("pages", "?status=4xx"),
    ("pages", "?indexable=false&url=0"),
    ("issues", ""),
    ("issues", "?type=thin-content&severity=critical"),
    ("issues", "?page_url=https://a.test/001"),
]


@pytest.mark.parametrize(("kind", "query"), EXPORTS)
async def test_csv_and_ndjson_exports_read_back_as_the_json_list(
    api: httpx.AsyncClient, kind: str, query: str
) -> None:
    listed = await whole_list(api, f"/api/audits/{AUDIT}/{kind}{query}", kind)
    as_csv = await api.get(f"/api/audits/{AUDIT}/{kind}.csv{query}")
    as_ndjson = await api.get(f"/api/audits/{AUDIT}/{kind}.ndjson{query}")

    assert listed  # every example selects rows
    assert (as_csv.status_code, as_ndjson.status_code) == (200, 200)
    rows = list(csv.DictReader(io.StringIO(as_csv.text, newline="")))
    assert rows == [{name: as_text(value) for name, value in item.items()} for item in listed]
    assert as_ndjson.text.endswith("\n")
    assert [json.loads(line) for line in as_ndjson.text.splitlines()] == listed


async def test_formula_cells_are_neutralised_and_spreadsheet_text_survives(
    api: httpx.AsyncClient,
) -> None:
    response = await api.get(f"/api/audits/{AUDIT}/pages.csv")

    titles = [row["title"] for row in csv.DictReader(io.StringIO(response.text, newline=""))][:5]
    assert titles == [
        '\'=HYPERLINK("http://evil")',
        "'+1",
        "plain, with a comma",
        'a "quote"',
        "two\nlines",
    ]
    assert response.text.startswith("id,audit_id,url,crawled_at,status_code,")
    assert ',"\'=HYPERLINK(""http://evil"")",' in response.text  # RFC 4180 quoting
    assert response.text.count("\r\n") == PAGES + 1  # CRLF ends records; "two\nlines" is quoted


@pytest.mark.parametrize(
    ("path", "media_type", "name"),
    [
        ("pages.csv", "text/csv; charset=utf-8; header=present", f"siteaudit-{AUDIT}-pages.csv"),
        ("pages.ndjson", "application/x-ndjson", f"siteaudit-{AUDIT}-pages.ndjson"),
        ("issues.csv", "text/csv; charset=utf-8; header=present", f"siteaudit-{AUDIT}-issues.csv"),
        ("issues.ndjson", "application/x-ndjson", f"siteaudit-{AUDIT}-issues.ndjson"),
    ],
)
async def test_an_export_is_a_streamed_download_with_every_hardening_header(
    api: httpx.AsyncClient, path: str, media_type: str, name: str
) -> None:
    response = await api.get(f"/api/audits/{AUDIT}/{path}", headers={"origin": LISTED_ORIGIN})

    assert response.headers["content-type"] == media_type
    assert response.headers["content-disposition"] == f'attachment; filename="{name}"'
    assert response.headers["transfer-encoding"] == "chunked"  # sent as produced, not held
    assert "content-length" not in response.headers
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["access-control-allow-origin"] == LISTED_ORIGIN


async def stranger(api: httpx.AsyncClient, platform: LocalPlatform) -> dict[str, str]:
    return {"authorization": f"Bearer {(await keys.create_key(platform.env, 'stranger')).secret}"}


@pytest.mark.parametrize("path", ["pages.csv", "issues.ndjson"])
async def test_refusals_are_json_errors_before_any_row(
    api: httpx.AsyncClient, platform: LocalPlatform, path: str
) -> None:
    other = await stranger(api, platform)
    cases = [
        (f"/api/audits/{AUDIT}/{path}", {"authorization": ""}, 401, "unauthorized"),
        (f"/api/audits/{AUDIT}/{path}", other, 404, "not_found"),
        (f"/api/audits/no-such-audit/{path}", {}, 404, "not_found"),
        (f"/api/audits/{AUDIT}/{path}?severity=fatal", {}, 400, "invalid_request"),
        (f"/api/audits/{AUDIT}/{path}?status=2xx&type=x", {}, 400, "invalid_request"),
        (f"/api/audits/{AUDIT}/{path}?limit=10", {}, 400, "invalid_request"),
        (f"/api/audits/{AUDIT}/{path}?cursor=abc", {}, 400, "invalid_request"),
    ]
    for url, headers, status, code in cases:
        response = await api.get(url, headers=headers)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), url
        assert response.headers["content-type"] == "application/json; charset=utf-8"
        assert "content-disposition" not in response.headers


async def test_a_client_that_stops_reading_cancels_the_export_and_the_server_keeps_serving(
    api: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    finished: list[str] = []
    closed = asyncio.Event()
    original = exports.export_rows

    async def watched(*args: Any) -> AsyncIterator[bytes]:
        try:
            async for chunk in original(*args):
                yield chunk
        finally:
            finished.append("closed")
            closed.set()

    monkeypatch.setattr(exports, "export_rows", watched)
    async with api.stream("GET", f"/api/audits/{AUDIT}/issues.ndjson") as response:
        assert response.status_code == 200
        first = await anext(response.aiter_raw())
        assert first.startswith(b"{")
    # The connection is gone; the server notices on its next write and closes the export. (The
    # limit only ends a broken test: the export closing is the event waited for.)
    await asyncio.wait_for(closed.wait(), timeout=60)
    assert finished == ["closed"]
    again = await api.get(f"/api/audits/{AUDIT}/pages?limit=1")
    assert again.status_code == 200 and len(again.json()["pages"]) == 1


async def test_a_response_has_a_body_or_a_stream_never_both() -> None:
    async def chunks() -> AsyncGenerator[bytes]:
        yield b"x"

    stream = chunks()
    streamed = stream_response(stream, "text/csv", "a.csv")
    assert (streamed.body, streamed.stream) == (b"", stream)
    with pytest.raises(ValueError, match="body or a stream"):
        ApiResponse(200, b"{}", stream=stream)
