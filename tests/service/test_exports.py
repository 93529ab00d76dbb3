"""CSV (RFC 4180, spreadsheet-safe) and NDJSON exports of an audit's rows, one page at a time."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from auditdb import repository
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from local_platform.runtime import LocalEnv, LocalPlatform
from service.exports import (
    ISSUE_COLUMNS,
    PAGE_COLUMNS,
    ExportFormat,
    csv_cell,
    csv_line,
    export_rows,
    file_name,
)
from service.lists import iter_issues, iter_pages


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        (None, ""),
        ("plain", "plain"),
        (True, "true"),
        (3, "3"),
        (-5, "-5"),  # a number is never a formula
        (1.5, "1.5"),
        ("a,b", '"a,b"'),
        ('say "hi"', '"say ""hi"""'),
        ("two\nlines", '"two\nlines"'),
        ('=HYPERLINK("x")', '"\'=HYPERLINK(""x"")"'),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", '"\'\rx"'),
        (["h1", "h2"], '"[""h1"", ""h2""]"'),
        ({"targetUrl": "/x"}, '"{""targetUrl"": ""/x""}"'),
    ],
)
def test_csv_cells(value: object, cell: str) -> None:
    assert csv_cell(value) == cell


@given(st.lists(st.text(), min_size=1, max_size=5))
def test_any_text_survives_a_csv_reader_with_formulas_neutralised(values: list[str]) -> None:
    parsed = next(csv.reader(io.StringIO(csv_line(values), newline="")))
    assert parsed == [
        "'" + v if v.startswith(("=", "+", "-", "@", "\t", "\r")) else v for v in values
    ]


@pytest.fixture
async def seeded(platform: LocalPlatform) -> LocalEnv:
    env = platform.env
    await repository.insert_audit(
        env.DB, AuditRecord("x-1", "https://a.test/", "2026-12-01T00:00:00.000Z", owner="alpha")
    )
    pages = [
        PageRecord(f"p{n:03d}", "x-1", f"https://a.test/{n:03d}", "t", title=f"=cmd{n},x")
        for n in range(25)
    ]
    issues = [
        IssueRecord(f"i{n:03d}", "x-1", page.url, "missing-title", "critical", page.id)
        for n, page in enumerate(pages)
    ]
    await repository.write_crawled_pages(env.DB, pages, issues)
    return env


async def chunks(source: Any, columns: Any, fmt: ExportFormat) -> list[bytes]:
    return [chunk async for chunk in export_rows(source, columns, fmt)]


async def test_pages_as_csv_one_chunk_per_page_of_rows(seeded: LocalEnv) -> None:
    got = await chunks(
        iter_pages(seeded, "alpha", "x-1", page_size=10), PAGE_COLUMNS, ExportFormat.CSV
    )
    assert len(got) == 1 + 3  # the header, then pages of 10, 10 and 5 rows
    rows = list(csv.DictReader(io.StringIO(b"".join(got).decode(), newline="")))
    assert [row["url"] for row in rows] == [f"https://a.test/{n:03d}" for n in range(25)]
    assert rows[0]["title"] == "'=cmd0,x" and rows[0]["heading_order"] == "[]"


async def test_issues_as_ndjson(seeded: LocalEnv) -> None:
    got = await chunks(
        iter_issues(seeded, "alpha", "x-1", page_size=7), ISSUE_COLUMNS, ExportFormat.NDJSON
    )
    lines = b"".join(got).decode().splitlines()
    assert len(got) == 4 and len(lines) == 25
    first = json.loads(lines[0])
    assert IssueRecord.from_dict(first).issue_type == "missing-title"


def test_names_and_media_types() -> None:
    assert file_name("x-1", "pages", ExportFormat.CSV) == "siteaudit-x-1-pages.csv"
    assert ExportFormat.CSV.media_type.startswith("text/csv")
    assert ExportFormat.NDJSON.media_type == "application/x-ndjson"


async def test_closing_an_export_closes_the_walk_under_it() -> None:
    walked: list[str] = []

    async def walk() -> Any:
        try:
            for n in range(3):
                walked.append(f"page {n}")
                yield [PageRecord(f"p{n}", "x-1", f"https://a.test/{n}", "t")]
        finally:
            walked.append("closed")

    chunks = export_rows(walk(), PAGE_COLUMNS, ExportFormat.CSV)
    await anext(chunks)  # the header
    await anext(chunks)  # the first page of rows
    await chunks.aclose()  # the client went away

    assert walked == ["page 0", "closed"]
