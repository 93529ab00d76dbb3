"""The HTML report's page table: the data island's JSON survives a script element, stops at its
cap and closes the walk; rows link only to http(s); the script-free table is accessible and its
note says what is held and where the rest is."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from auditdb.records import PageRecord
from service.page_table import (
    COLUMNS,
    DATA_ROWS,
    SCRIPT,
    TABLE_ROWS,
    is_web_url,
    island_chunks,
    island_row,
    script_json,
    table_chunks,
)
from tests.service.html_doc import parse
from tests.support.elements import find

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(JSON)
def test_script_json_reads_back_the_same_and_holds_no_markup_character(value: Any) -> None:
    text = script_json(value)
    assert json.loads(text) == value
    assert not {"<", ">", "&"} & set(text)


def page(n: int, url: str | None = None) -> PageRecord:
    return PageRecord(f"p{n}", "a1", url or f"https://a.test/{n:05d}", "2026-12-01T00:00:00.000Z")


@pytest.mark.parametrize(
    ("url", "linkable"),
    [
        ("https://a.test/", True),
        ("HTTP://a.test/", True),
        ("javascript:alert(1)", False),
        ("JavaScript:alert(1)", False),
        ("data:text/html,<script>alert(1)</script>", False),
        ("mailto:a@a.test", False),
        ("/relative", False),
        ("http://[::1/", False),  # urlsplit refuses it: text, not a failed report
    ],
)
def test_only_http_urls_become_links(url: str, linkable: bool) -> None:
    assert is_web_url(url) is linkable
    assert island_row(page(1, url))[8] == int(linkable)


async def test_the_island_stops_at_its_cap_and_closes_the_walk() -> None:
    walked: list[int] = []
    closed: list[bool] = []

    async def batches() -> AsyncGenerator[list[PageRecord]]:
        try:
            for start in range(0, DATA_ROWS + 2000, 500):
                walked.append(start)
                yield [page(n) for n in range(start, start + 500)]
        finally:
            closed.append(True)

    text = "".join([chunk async for chunk in island_chunks(batches())])
    rows = json.loads(text[text.index(">") + 1 : text.index("</script>")])["rows"]

    assert [r[0] for r in rows] == [f"https://a.test/{n:05d}" for n in range(DATA_ROWS)]
    assert len(walked) == DATA_ROWS // 500 and closed == [True]


def section(total: int, shown: int) -> str:
    classes = ["2xx", "4xx"]
    return "".join(table_chunks("a1", total, classes, [page(n) for n in range(shown)]))


@pytest.mark.parametrize(
    ("total", "note", "names_every_page"),
    [
        (0, "All 0 pages, by URL.", False),
        (TABLE_ROWS, f"All {TABLE_ROWS} pages, by URL.", False),
        (
            TABLE_ROWS + 1,
            f"The first {TABLE_ROWS} of {TABLE_ROWS + 1:,} pages by URL; with scripts on, the "
            f"table pages, sorts and filters all {TABLE_ROWS + 1:,}.",
            False,
        ),
        (
            DATA_ROWS + 1,
            f"The first {TABLE_ROWS} of {DATA_ROWS + 1:,} pages by URL; with scripts on, the "
            f"table pages, sorts and filters the first {DATA_ROWS:,}. Every page:",
            True,
        ),
    ],
)
def test_the_note_says_what_the_table_holds(total: int, note: str, names_every_page: bool) -> None:
    text = section(total, min(total, TABLE_ROWS))
    assert note in text
    assert ("/api/audits/a1/pages.csv" in text) is names_every_page


def test_the_table_is_accessible_and_its_controls_wait_for_the_script() -> None:
    root = parse(f"<!DOCTYPE html><title>t</title>{section(3, 3)}</section>")
    heads = list(root.iter("th"))
    assert ["".join(th.itertext()) for th in heads] == list(COLUMNS)
    assert {th.get("scope") for th in heads} == {"col"}
    assert [th.get("aria-sort") for th in heads] == ["ascending"] + [None] * (len(COLUMNS) - 1)
    labels = {label.get("for") for label in root.iter("label")}
    fields = [el for el in root.iter() if el.tag in {"input", "select"}]
    assert fields and all(el.get("id") in labels for el in fields)
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    assert by_id["page-controls"].get("hidden") is not None  # useless without the script
    assert by_id["page-pager"].get("hidden") is not None
    assert by_id["page-shown"].get("aria-live") == "polite"
    options = [o.get("value") for o in by_id["page-class"].iter("option")]
    assert options == ["", "2xx", "4xx"]
    assert len(find(root, ".//table[@id='pages']/tbody")) == 3


def test_the_script_uses_the_same_caps_and_ids_as_the_markup() -> None:
    assert "TABLE_ROWS" not in SCRIPT and "LINK_REL" not in SCRIPT
    assert f"size={TABLE_ROWS}" in SCRIPT
    markup = section(1, 1)
    for element_id in ("page-filter", "page-class", "page-prev", "page-next", "page-shown"):
        assert f"'{element_id}'" in SCRIPT and f'id="{element_id}"' in markup
    assert "'page-data'" in SCRIPT and "'pages'" in SCRIPT
