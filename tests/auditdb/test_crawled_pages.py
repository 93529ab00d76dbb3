"""Finalize asks which of a page of issue URLs were crawled, and how many pages an audit has,
without loading every URL of the audit."""

from __future__ import annotations

import pytest

from auditdb import repository
from auditdb.records import AuditRecord, PageRecord
from common.bindings import Env
from local_platform.runtime import LocalPlatform

NOW = "2026-12-01T00:00:00.000Z"


async def seed(env: Env, audit_id: str, urls: list[str]) -> None:
    await repository.insert_audit(env.DB, AuditRecord(audit_id, "https://a.test/", NOW))
    pages = [PageRecord(f"{audit_id}-{n}", audit_id, url, NOW) for n, url in enumerate(urls)]
    await repository.write_crawled_pages(env.DB, pages, [])


@pytest.mark.parametrize("batch", [1, 2, 500])
async def test_crawled_among_answers_for_the_audit_only_in_any_batch_size(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    monkeypatch.setattr(repository, "_URL_LOOKUP_BATCH", batch)
    env = platform.env
    await seed(env, "a-1", ["https://a.test/", "https://a.test/x", "https://a.test/é?q='1'"])
    await seed(env, "a-2", ["https://a.test/y"])
    asked = ["https://a.test/x", "https://a.test/y", "https://a.test/é?q='1'", "https://a.test/x"]

    assert await repository.crawled_among(env.DB, "a-1", asked) == {
        "https://a.test/x",
        "https://a.test/é?q='1'",
    }
    assert await repository.crawled_among(env.DB, "a-1", []) == set()
    assert await repository.count_crawled_pages(env.DB, "a-1") == 3
    assert await repository.count_crawled_pages(env.DB, "a-2") == 1
    assert await repository.count_crawled_pages(env.DB, "none") == 0


async def test_the_lookup_seeks_the_audit_and_url_index(platform: LocalPlatform) -> None:
    plan = (
        await platform.env.DB.prepare("EXPLAIN QUERY PLAN " + repository._CRAWLED_AMONG_SQL)
        .bind("a-1", '["https://a.test/"]')
        .all()
    )
    details = " ".join(str(row["detail"]) for row in plan["results"])

    assert "SEARCH audit_pages USING COVERING INDEX audit_pages_audit_url_id_idx" in details
    assert "SCAN audit_pages" not in details
