"""Resource checks in the scratchpad: references stored, leases per chunk, answers, and the
broken-resource and broken-share-image sections against their specifications
(`audit.cross_page.broken_resources`, `broken_share_images`)."""

from __future__ import annotations

import itertools
import sqlite3
from contextlib import closing
from dataclasses import replace

import pytest

from audit.cross_page import ResourceAnswer, ResourceUse, broken_resources, broken_share_images
from common.fetch_class import FetchClass
from durable.client import Scratchpad
from durable.records import LinkBatch, RecordBatch, ResourceCheck, ResourceRef
from durable.resources import ref_bytes
from local_platform.runtime import LocalPlatform

from .test_finalize import AUDIT, finalize_all, mirror_row, page, url

_names = itertools.count()


@pytest.fixture
def pad(platform: LocalPlatform) -> Scratchpad:
    return Scratchpad(platform.env.AUDIT_SCRATCHPAD.getByName(f"resources-{next(_names)}"))


def refs(*pairs: tuple[str, str, str]) -> tuple[ResourceRef, ...]:
    return tuple(ResourceRef(url(source), url(target), kind) for source, target, kind in pairs)


async def record(pad: Scratchpad, pages: list[str], *pairs: tuple[str, str, str]) -> None:
    rows = tuple(mirror_row(AUDIT, page(p)) for p in pages)
    await pad.record_batch(RecordBatch(crawled=(), pages=rows, resources=refs(*pairs)))


async def test_each_resource_is_leased_once_and_a_retried_chunk_gets_its_own(
    pad: Scratchpad,
) -> None:
    await record(pad, ["a", "b"], ("a", "x.png", "img"), ("b", "x.png", "srcset"))
    await record(pad, [], ("a", "y.js", "script"), ("a", "z.css", "link"))

    first = await pad.claim_resources(1, 2)
    assert (first.urls, first.is_retry, first.pending) == ((url("x.png"), url("y.js")), False, 1)
    retry = await pad.claim_resources(1, 2)
    assert (retry.urls, retry.is_retry) == (first.urls, True)

    await pad.record_resources([ResourceCheck(url("x.png"), 404, "ok")])
    await pad.release_resources([url("y.js")])
    assert (await pad.claim_resources(1, 5)).urls == ()  # chunk 1 checked something: done
    second = await pad.claim_resources(2, 5)
    assert (second.urls, second.pending) == ((url("y.js"), url("z.css")), 0)


async def test_a_url_the_frontier_holds_is_answered_by_its_page(pad: Scratchpad) -> None:
    await pad.seed_start(url("doc.pdf"))
    await record(pad, ["a"], ("a", "doc.pdf", "object"))
    claim = await pad.claim_resources(1, 5)
    assert (claim.urls, claim.pending) == ((), 0)


async def test_resume_releases_leases_and_counts_what_waits(pad: Scratchpad) -> None:
    await record(pad, ["a"], ("a", "x.png", "img"), ("a", "y.png", "img"))
    await pad.claim_resources(7, 1)
    state = await pad.prepare_resume()
    assert (state.last_chunk, state.resources_pending) == (7, 2)


async def test_broken_resources_match_the_specification(pad: Scratchpad) -> None:
    uses = [
        ("a", "missing.png", "img"),
        ("b", "missing.png", "srcset"),
        ("b", "ok.js", "script"),
        ("c", "blocked.css", "link"),
        ("c", "gone.mp4", "media"),
        ("c", "unchecked.png", "img"),
    ]
    await record(pad, ["a", "b", "c"], *uses)
    await pad.claim_resources(1, 10)
    answers = [
        ResourceAnswer(url("missing.png"), 404, FetchClass.OK),
        ResourceAnswer(url("ok.js"), 200, FetchClass.OK),
        ResourceAnswer(url("blocked.css"), 403, FetchClass.BLOCKED),
        ResourceAnswer(url("gone.mp4"), 410, FetchClass.OK),
    ]
    checks = [ResourceCheck(a.url, a.status_code, a.fetch_class.value) for a in answers]
    await pad.record_resources(checks)

    issues, _ = await finalize_all(pad.stub)
    found = [i for i in issues if i["issue_type"] == "broken-resource"]
    spec = broken_resources(AUDIT, answers, [ResourceUse(url(s), url(t), k) for s, t, k in uses])
    assert found == [issue.to_dict() for issue in spec]
    assert sorted((i["page_url"], i["details"]["kind"]) for i in found) == [
        (url("a"), "img"),
        (url("b"), "srcset"),
        (url("c"), "media"),
    ]


async def test_broken_share_images_match_the_specification(pad: Scratchpad) -> None:
    """An og:image or twitter:image that answers an error, or 2xx with no image type, is a
    broken share image on every page naming it, and never a broken resource; the same URL as
    an <img> stays a broken resource."""
    uses = [
        ("a", "gone.png", "og:image"),
        ("b", "gone.png", "twitter:image"),
        ("c", "gone.png", "img"),
        ("a", "html.png", "og:image:secure_url"),
        ("a", "fine.png", "og:image"),
        ("b", "typed.png", "og:image"),
        ("b", "untyped.png", "og:image"),
        ("c", "blocked.png", "og:image:url"),
        ("c", "moved.png", "og:image"),
        ("c", "page", "og:image"),
    ]
    await pad.seed_start(url("page"))  # crawled as a page: its page row answers
    await record(pad, ["a", "b", "c", "page"], *uses)
    await pad.claim_resources(1, 20)
    answers = [
        ResourceAnswer(url("gone.png"), 404, FetchClass.OK, "text/html"),
        ResourceAnswer(url("html.png"), 200, FetchClass.OK, "text/html; charset=utf-8"),
        ResourceAnswer(url("fine.png"), 200, FetchClass.OK, "image/png"),
        ResourceAnswer(url("typed.png"), 200, FetchClass.OK, " Image/WebP ; q=1"),
        ResourceAnswer(url("untyped.png"), 200, FetchClass.OK, None),
        ResourceAnswer(url("blocked.png"), 403, FetchClass.BLOCKED, None),
        ResourceAnswer(url("moved.png"), 301, FetchClass.OK, "text/html"),
    ]
    checks = [
        ResourceCheck(a.url, a.status_code, a.fetch_class.value, a.content_type) for a in answers
    ]
    await pad.record_resources(checks)

    issues, _ = await finalize_all(pad.stub)
    found = [i for i in issues if i["issue_type"] == "broken-share-image"]
    page_answer = ResourceAnswer(url("page"), 200, FetchClass.OK, "text/html")
    resource_uses = [ResourceUse(url(s), url(t), k) for s, t, k in uses]
    spec = broken_share_images(AUDIT, [*answers, page_answer], resource_uses)
    assert found == [issue.to_dict() for issue in spec]
    assert sorted(
        (i["page_url"], i["details"]["imageUrl"], i["details"]["tag"]) for i in found
    ) == [
        (url("a"), url("gone.png"), "og:image"),
        (url("a"), url("html.png"), "og:image:secure_url"),
        (url("b"), url("gone.png"), "twitter:image"),
        (url("c"), url("page"), "og:image"),
    ]
    resources = [
        (i["page_url"], i["details"]["kind"])
        for i in issues
        if i["issue_type"] == "broken-resource"
    ]
    assert resources == [(url("c"), "img")]
    assert broken_resources(AUDIT, answers, resource_uses)[0].page_url == url("c")


async def test_resources_sent_early_are_kept_and_a_rewrite_takes_no_budget_again(
    pad: Scratchpad,
) -> None:
    early = LinkBatch(resources=refs(("a", "x.png", "img"), ("a", "y.css", "link")))
    once = sum(ref_bytes(ref) for ref in early.resources)  # the budget they take
    await pad.record_links(replace(early, link_budget_bytes=once))
    await pad.record_links(replace(early, link_budget_bytes=once))  # a retried page
    assert (await pad.stats()).links_truncated is False
    claim = await pad.claim_resources(1, 5)
    assert claim.urls == (url("x.png"), url("y.css"))
    other = refs(("b", "x.png", "img"))
    await pad.record_links(replace(early, resources=other, link_budget_bytes=once))
    assert (await pad.stats()).links_truncated is True  # a new reference: over that budget


async def test_an_object_from_before_content_types_gains_the_column(
    platform: LocalPlatform,
) -> None:
    """An audit running across the deploy: its object's `resources` table lacks content_type;
    the next construction adds it, and its share images are judged."""
    namespace = platform.env.AUDIT_SCRATCHPAD
    pad = Scratchpad(namespace.getByName("resources-before-content-types"))
    await record(pad, ["a"], ("a", "x.png", "og:image"))
    object_id = namespace.idFromName("resources-before-content-types")
    namespace.evict(object_id)
    with closing(sqlite3.connect(namespace.storage_path(object_id))) as db, db:
        db.execute("ALTER TABLE resources DROP COLUMN content_type")  # as deployed before

    await pad.claim_resources(1, 5)
    await pad.record_resources([ResourceCheck(url("x.png"), 200, "ok", "text/html")])

    issues, _ = await finalize_all(pad.stub)
    shares = [i for i in issues if i["issue_type"] == "broken-share-image"]
    assert [i["details"]["contentType"] for i in shares] == ["text/html"]
