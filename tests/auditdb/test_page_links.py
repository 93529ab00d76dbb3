"""The kept link graph in D1 (auditdb.page_links, migrations/d1/0025): a lossless row layout,
rewrites that leave one row per page, and rows that go with their audit on every path that
deletes audits."""

from __future__ import annotations

import itertools
import json
from collections.abc import Awaitable, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.link_graph import (
    AnchorKind,
    PageLink,
    PageLinkLists,
    decode_links,
    encode_links,
    to_row,
)
from auditdb import monitors, page_links, repository
from auditdb.records import AuditRecord
from common.bindings import D1Database
from common.wire import as_int
from local_platform.d1 import LocalD1Database
from tests.support.local_d1 import as_d1

_ids = itertools.count()
PAGE = "https://a.test/docs/page"

# URLs on the page's origin, on others that share a prefix with it, and odd ones.
paths = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
link_urls = st.one_of(
    paths.map(lambda p: f"https://a.test/{p}"),
    paths.map(lambda p: f"https://a.test.evil/{p}"),
    paths.map(lambda p: f"http://a.test/{p}"),
    paths.map(lambda p: f"https://a.test:8443/{p}"),
    st.sampled_from(["https://a.test", "https://a.test?x", "mailto:x@a.test", "//a.test/x"]),
)
anchors = st.one_of(
    st.tuples(
        st.text(min_size=1, max_size=20), st.sampled_from([AnchorKind.TEXT, AnchorKind.IMAGE])
    ),
    st.just((None, AnchorKind.NONE)),
)
links = st.builds(
    lambda url, anchor, nofollow, external, status: PageLink(
        url, anchor[0], anchor[1], nofollow, external, status
    ),
    link_urls,
    anchors,
    st.booleans(),
    st.booleans(),
    st.none() | st.integers(0, 599),
)
page_urls = st.sampled_from([PAGE, "https://a.test/", "not a url", "https://b.test:81/x?y"])


@given(page_urls, st.lists(links, max_size=6))
def test_a_list_reads_back_as_it_was_written(page_url: str, written: list[PageLink]) -> None:
    assert decode_links(page_url, encode_links(page_url, written)) == tuple(written)


def test_links_on_the_pages_origin_are_kept_as_their_paths() -> None:
    written = [
        PageLink("https://a.test/", "Home", AnchorKind.TEXT),
        PageLink("https://other.test/x", None, AnchorKind.NONE, nofollow=True, external=True),
        PageLink("https://a.test/x?q=1", "Logo", AnchorKind.IMAGE, status_code=404),
    ]

    assert encode_links(PAGE, written) == [
        ["/", "Home", "text", 4, None],
        ["https://other.test/x", None, "none", 3, None],
        ["/x?q=1", "Logo", "image", 4, 404],
    ]


async def new_audit(db: D1Database) -> str:
    audit_id = f"links-{next(_ids)}"
    await repository.insert_audit(
        db, AuditRecord(audit_id, "https://a.test/", "2026-12-01T00:00:00.000Z", owner="alpha")
    )
    return audit_id


def lists(url: str, inlinks: int = 2) -> PageLinkLists:
    kept = tuple(
        PageLink(f"https://a.test/from-{n}", f"to {url}", AnchorKind.TEXT) for n in range(inlinks)
    )
    out = (PageLink("https://other.test/", None, AnchorKind.NONE, external=True, status_code=200),)
    return PageLinkLists(url, inlinks + 5, 1, kept, out, complete=inlinks % 2 == 0)


async def count_rows(db: D1Database, audit_id: str) -> int:
    sql = "SELECT COUNT(*) AS n FROM audit_page_links WHERE audit_id = ?"
    row = await db.prepare(sql).bind(audit_id).first()
    assert row is not None
    return as_int(row["n"])


async def test_rows_read_back_and_a_rewrite_leaves_one_row_per_page(
    migrated_d1: LocalD1Database,
) -> None:
    db = as_d1(migrated_d1)
    audit_id = await new_audit(db)
    pages = [lists(f"https://a.test/p{n}", n) for n in range(5)]
    assert not await page_links.links_kept(db, audit_id)

    await page_links.write_page_links(db, audit_id, [to_row(p) for p in pages])
    await page_links.write_page_links(
        db, audit_id, [to_row(p) for p in pages[1:3]]
    )  # a retried step

    assert await count_rows(db, audit_id) == 5
    assert await page_links.links_kept(db, audit_id)
    assert await page_links.read_page_links(db, audit_id, pages[3].url) == pages[3]
    assert await page_links.read_page_links(db, audit_id, "https://a.test/nope") is None
    got = await page_links.read_many(db, audit_id, [pages[3].url, pages[1].url, "https://x/"])
    assert got == [pages[1], pages[3]]


async def test_statements_stay_under_the_bound_value_limit(
    migrated_d1: LocalD1Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = as_d1(migrated_d1)
    audit_id = await new_audit(db)
    monkeypatch.setattr(page_links, "MAX_PARAM_BYTES", 2_000)
    pages = [lists(f"https://a.test/{'é' * 40}/{n}", 20) for n in range(30)]

    arrays = page_links._arrays([to_row(p) for p in pages])
    await page_links.write_page_links(db, audit_id, [to_row(p) for p in pages])

    assert len(arrays) > 1
    assert all(len(a.encode()) <= 2_000 or len(json.loads(a)) == 1 for a in arrays)
    ordered = sorted(pages, key=lambda p: p.url)
    assert await page_links.read_many(db, audit_id, [p.url for p in pages]) == ordered


async def _delete_by_owner(db: D1Database, audit_id: str) -> None:
    await repository.delete_audit(db, audit_id)


async def _delete_by_retention(db: D1Database, audit_id: str) -> None:
    await (
        db.prepare(
            "UPDATE audits SET status = 'completed', finished_at = '2000-01-01' WHERE id = ?"
        )
        .bind(audit_id)
        .run()
    )
    assert await repository.delete_finished_before(db, "2001-01-01", 1000) >= 1


async def _delete_by_run_expiry(db: D1Database, audit_id: str) -> None:
    monitor = f"m-{audit_id}"
    await (
        db.prepare(
            "INSERT INTO monitors (id, owner, url, frequency, hour, max_pages, webhook_secret, "
            "next_due_at, created_at) VALUES (?, 'alpha', 'https://a.test/', 'daily', 1, 5, 'whsec_x', "
            "'t', 't')"
        )
        .bind(monitor)
        .run()
    )
    await (
        db.prepare(
            "INSERT INTO monitor_runs (id, monitor_id, audit_id, due_at, started_at) "
            "VALUES (?, ?, ?, 't', '2000-01-01')"
        )
        .bind(f"r-{audit_id}", monitor, audit_id)
        .run()
    )
    runs = await monitors.read_expired_runs(db, "2001-01-01", monitors.BEFORE_ALL, 1000)
    last = max((run.started_at, run.id) for run in runs)
    await monitors.delete_expired_range(db, monitors.BEFORE_ALL, last)


@pytest.mark.parametrize("delete", [_delete_by_owner, _delete_by_retention, _delete_by_run_expiry])
async def test_an_audits_rows_go_with_it_on_every_path_that_deletes_audits(
    migrated_d1: LocalD1Database, delete: Callable[[D1Database, str], Awaitable[None]]
) -> None:
    db = as_d1(migrated_d1)
    audit_id, other = await new_audit(db), await new_audit(db)
    for each in (audit_id, other):
        await page_links.write_page_links(
            db, each, [to_row(lists("https://a.test/")), to_row(lists(PAGE))]
        )

    await delete(db, audit_id)

    assert await repository.get_audit(db, audit_id) is None
    assert (await count_rows(db, audit_id), await count_rows(db, other)) == (0, 2)
