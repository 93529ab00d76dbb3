"""The AuditScratchpad's frontier, called through Durable Object RPC on the local platform."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from durable.client import Scratchpad
from durable.links import edge_bytes, edge_row
from durable.records import (
    Claim,
    CrawlConfig,
    DiscoveredUrl,
    FragmentLink,
    LinkBatch,
    LinkRow,
    RecordBatch,
    SiteFact,
    SiteFactKind,
)
from local_platform.runtime import LocalPlatform

DAY_MS = 24 * 60 * 60 * 1000


@pytest.fixture
def pad(platform: LocalPlatform) -> Scratchpad:
    return Scratchpad.for_audit(platform.env, "audit-1")


def urls(claim: Claim) -> list[str]:
    return [leased.url for leased in claim.urls]


def crawled(*pages: str) -> RecordBatch:
    return RecordBatch(crawled=pages)


def discovered(*pages: str, depth: int = 1) -> RecordBatch:
    return RecordBatch(discovered=tuple(DiscoveredUrl(page, depth) for page in pages))


async def test_seeding_dedups_and_sitemap_urls_queue_after_links(pad: Scratchpad) -> None:
    assert (await pad.seed_start("https://a.test/")).inserted == 1
    assert (await pad.seed_start("https://a.test/")).inserted == 0
    seeded = await pad.seed_sitemap_urls(
        ["https://a.test/", "https://a.test/s2", "https://a.test/s1", "https://a.test/s1"]
    )
    assert (seeded.received, seeded.inserted) == (4, 2)
    await pad.record_batch(discovered("https://a.test/l1"))

    levels = []
    for chunk in (1, 2, 3):
        claim = await pad.claim_chunk(chunk, 10)
        levels.append(claim.urls)
        await pad.record_batch(crawled(*urls(claim)))

    assert [[leased.url for leased in level] for level in levels] == [
        ["https://a.test/"],
        ["https://a.test/l1"],
        ["https://a.test/s1", "https://a.test/s2"],
    ]
    start = levels[0][0]
    assert (start.depth, start.in_sitemap) == (0, True)
    assert [leased.in_sitemap for leased in (*levels[1], *levels[2])] == [False, True, True]


async def test_a_level_is_leased_only_once_the_levels_before_it_are_crawled(
    pad: Scratchpad,
) -> None:
    """The barrier: while any depth-1 URL is leased, depth 2 waits, however it was found; each
    level goes in URL order, whatever order its URLs were discovered in."""
    await pad.seed_start("https://a.test/")
    await pad.record_batch(crawled(*urls(await pad.claim_chunk(1, 10))))
    await pad.record_batch(discovered("https://a.test/slow", "https://a.test/fast"))
    assert urls(await pad.claim_more(1, 10)) == ["https://a.test/fast", "https://a.test/slow"]

    await pad.record_batch(RecordBatch(crawled=("https://a.test/fast",)))
    await pad.record_batch(discovered("https://a.test/z", "https://a.test/y", depth=2))
    assert urls(await pad.claim_more(1, 10)) == []  # /slow is still in flight

    await pad.record_batch(RecordBatch(crawled=("https://a.test/slow",)))
    await pad.record_batch(discovered("https://a.test/x", depth=2))
    assert urls(await pad.claim_more(1, 10)) == [
        "https://a.test/x",
        "https://a.test/y",
        "https://a.test/z",
    ]


async def test_a_pending_url_found_again_nearer_the_start_takes_the_smaller_depth(
    pad: Scratchpad,
) -> None:
    """A redirect's target keeps the redirecting page's depth: found by a sibling one level
    deeper first, it still belongs to the level being crawled. A crawled URL keeps its depth, and
    a URL the sitemap listed first takes the depth of the links that reach it."""
    await pad.seed_start("https://a.test/")
    await pad.seed_sitemap_urls(["https://a.test/listed"])
    await pad.record_batch(crawled(*urls(await pad.claim_chunk(1, 10))))
    await pad.record_batch(discovered("https://a.test/moved", "https://a.test/sibling"))
    await pad.claim_more(1, 10)
    found_deeper = discovered("https://a.test/target", "https://a.test/listed", depth=2)
    assert (await pad.record_batch(found_deeper)).enqueued == 1

    found_again = discovered("https://a.test/target", "https://a.test/listed", "https://a.test/")
    assert (await pad.record_batch(found_again)).enqueued == 0
    assert (await pad.stats()).pending == 2  # /target and /listed: nothing counted twice

    await pad.record_batch(RecordBatch(crawled=("https://a.test/moved", "https://a.test/sibling")))
    level = (await pad.claim_more(1, 10)).urls
    assert [(leased.url, leased.depth, leased.in_sitemap) for leased in level] == [
        ("https://a.test/listed", 1, True),
        ("https://a.test/target", 1, False),
    ]
    await pad.record_batch(RecordBatch(crawled=("https://a.test/listed", "https://a.test/target")))
    assert (await pad.claim_more(1, 10)).urls == ()


# Issue 27: on a site whose sitemap lists its pages, pages first seen in the sitemap kept an
# unknown depth even when links reached them. (sitemap URLs, link levels: the URLs each level's
# pages link to) -> each URL's depth when leased; None only for what no link from the start reaches.
SITEMAP_THEN_LINKS = [
    (["/a", "/b"], [["/a"], ["/b"]], {"/": 0, "/a": 1, "/b": 2}),
    (["/a", "/b", "/orphan"], [["/a", "/b"], []], {"/": 0, "/a": 1, "/b": 1, "/orphan": None}),
    (["/deep"], [["/x"], ["/y"], ["/deep"]], {"/": 0, "/x": 1, "/y": 2, "/deep": 3}),
]


@pytest.mark.parametrize(("listed", "levels", "depths"), SITEMAP_THEN_LINKS)
async def test_a_sitemap_url_reached_by_links_takes_the_links_depth(
    pad: Scratchpad, listed: list[str], levels: list[list[str]], depths: dict[str, int | None]
) -> None:
    site = "https://a.test"
    await pad.seed_start(f"{site}/")
    await pad.seed_sitemap_urls([site + path for path in listed])
    leased: dict[str, int | None] = {}
    for chunk in range(1, len(depths) + 2):
        claim = await pad.claim_chunk(chunk, 10)
        leased |= {url.url.removeprefix(site): url.depth for url in claim.urls}
        batch = RecordBatch(crawled=tuple(urls(claim)))
        depth = chunk  # the claimed level's depth + 1, while links reach it
        if chunk <= len(levels):
            found = tuple(DiscoveredUrl(site + path, depth) for path in levels[chunk - 1])
            batch = RecordBatch(crawled=batch.crawled, discovered=found)
        await pad.record_batch(batch)

    assert leased == depths


async def test_a_retried_chunk_gets_exactly_its_urls_and_a_crawled_chunk_nothing(
    pad: Scratchpad,
) -> None:
    await pad.seed_sitemap_urls([f"https://a.test/{i}" for i in range(5)])

    first = await pad.claim_chunk(1, 3)
    retry = await pad.claim_chunk(1, 3)
    assert (retry, first.is_retry) == (Claim(first.urls, is_retry=True), False)

    await pad.record_batch(crawled(*urls(first)))
    assert await pad.claim_chunk(1, 3) == Claim((), is_retry=True)
    assert urls(await pad.claim_chunk(2, 3)) == ["https://a.test/3", "https://a.test/4"]


async def test_a_chunk_that_ran_short_leases_more_and_a_retry_gets_them_all_back(
    pad: Scratchpad,
) -> None:
    await pad.seed_start("https://a.test/")
    first = await pad.claim_chunk(1, 10)
    await pad.record_batch(crawled("https://a.test/"))
    await pad.record_batch(discovered("https://a.test/a", "https://a.test/b", "https://a.test/c"))

    more = await pad.claim_more(1, 2)

    assert (urls(more), more.is_retry) == (["https://a.test/a", "https://a.test/b"], False)
    assert await pad.claim_more(1, 0) == Claim((), is_retry=False)
    # The step dies: its retry gets back every URL still leased to chunk 1, refills included.
    assert await pad.claim_chunk(1, 10) == Claim(more.urls, is_retry=True)
    assert urls(first) == ["https://a.test/"]
    assert urls(await pad.claim_chunk(2, 10)) == ["https://a.test/c"]


async def test_released_urls_return_to_the_queue(pad: Scratchpad) -> None:
    await pad.seed_sitemap_urls(["https://a.test/a", "https://a.test/b"])
    await pad.claim_chunk(1, 2)

    released = await pad.release_urls(["https://a.test/b", "https://a.test/unknown"])

    assert released.released == 1
    assert (await pad.stats()).pending == 1
    assert urls(await pad.claim_chunk(2, 5)) == ["https://a.test/b"]


async def test_record_batch_marks_crawled_and_enqueues_only_new_urls(pad: Scratchpad) -> None:
    await pad.seed_start("https://a.test/")
    await pad.claim_chunk(1, 1)

    result = await pad.record_batch(
        RecordBatch(
            crawled=("https://a.test/",),
            pages=(
                {
                    "url": "https://a.test/",
                    "page_id": "p1",
                    "status_code": 200,
                    "fetch_class": "ok",
                },
            ),
            links=(LinkRow("https://a.test/", "https://a.test/x"),),
            discovered=(
                DiscoveredUrl("https://a.test/", 1),
                DiscoveredUrl("https://a.test/x", 1),
                DiscoveredUrl("https://a.test/x", 2),
            ),
        )
    )

    stats = result.stats
    assert (stats.seen, stats.pending, stats.crawled, result.enqueued) == (2, 1, 1, 1)
    assert (result.links_written, stats.links_truncated) == (1, False)
    assert (await pad.record_batch(discovered("https://a.test/x"))).enqueued == 0


async def test_links_stop_at_the_storage_budget_and_stay_stopped(pad: Scratchpad) -> None:
    link = LinkRow("https://a.test/", "https://a.test/t")

    tripped = await pad.record_batch(RecordBatch(links=(link,), link_budget_bytes=1))
    later = await pad.record_batch(RecordBatch(links=(link,)))

    assert (tripped.links_written, tripped.stats.links_truncated) == (0, True)
    assert (later.links_written, later.stats.links_truncated) == (0, True)


def link_bytes(platform: LocalPlatform) -> int:
    """The budget spent so far, as the scratchpad counts it (read from its SQLite file)."""
    namespace = platform.env.AUDIT_SCRATCHPAD
    path = namespace.storage_path(namespace.idFromName("audit-1"))
    with closing(sqlite3.connect(path)) as db:
        row = db.execute("SELECT value FROM scratchpad_meta WHERE key = 'link_bytes'").fetchone()
    return int(row[0]) if row else 0


def edges_of(source: str, count: int) -> tuple[LinkRow, ...]:
    return tuple(LinkRow(source, f"https://a.test/t{i}") for i in range(count))


async def test_writing_a_pages_links_again_stores_and_spends_nothing_more(
    platform: LocalPlatform, pad: Scratchpad
) -> None:
    links = edges_of("https://a.test/", 3_000)
    found = tuple(DiscoveredUrl(link.target_url, 1) for link in links)
    fragments = tuple(FragmentLink(link.source_url, link.target_url, "s", 1, 2) for link in links)

    first = await pad.record_links(LinkBatch(links, found, fragments))
    spent = link_bytes(platform)
    again = await pad.record_links(LinkBatch(links, found, fragments))  # a retried chunk
    batch = await pad.record_batch(RecordBatch(links=links[:10]))  # and its sub-batch

    assert (first.links_written, first.enqueued) == (3_000, 3_000)
    assert (again.links_written, again.enqueued, batch.links_written) == (0, 0, 0)
    assert link_bytes(platform) == spent > 0
    assert (await pad.stats()).pending == 3_000


async def test_a_batch_of_a_page_written_again_and_a_new_page_spends_on_the_new_edges_only(
    platform: LocalPlatform, pad: Scratchpad
) -> None:
    """The stored lookup runs when one of a batch's source pages holds edges (a retried page
    beside a new one); a batch of new pages alone skips it (issue 29) and spends the same."""
    old, new = edges_of("https://a.test/old", 50), edges_of("https://a.test/new", 30)
    external = LinkRow("https://a.test/old", "https://b.test/", external=True)
    alt = LinkRow("https://a.test/new", "https://a.test/img", image_alt="Logo")
    fragment = FragmentLink("https://a.test/old", "https://a.test/t1", "s", 1, 2)

    first = await pad.record_links(LinkBatch((*old, external), fragment_links=(fragment,)))
    spent = link_bytes(platform)
    mixed = await pad.record_links(
        LinkBatch((*old, external, *new, alt), fragment_links=(fragment,))
    )

    assert (first.links_written, mixed.links_written) == (51, 31)
    assert link_bytes(platform) - spent == sum(map(edge_bytes, map(edge_row, (*new, alt))))


async def test_repeats_within_one_write_are_stored_and_counted_once(
    platform: LocalPlatform, pad: Scratchpad
) -> None:
    link = LinkRow("https://a.test/", "https://a.test/t")

    result = await pad.record_links(LinkBatch((link, link, link)))

    assert result.links_written == 1
    assert link_bytes(platform) == 2 * (len(link.source_url) + len(link.target_url)) + 32


async def test_a_budget_tripped_mid_page_keeps_what_fit_and_flags_the_graph(
    pad: Scratchpad,
) -> None:
    links = edges_of("https://a.test/", 10)
    one = 2 * (len(links[0].source_url) + len(links[0].target_url)) + 32

    result = await pad.record_links(LinkBatch(links, link_budget_bytes=4 * one))
    again = await pad.record_links(LinkBatch(links[:4], link_budget_bytes=4 * one))

    assert (result.links_written, result.stats.links_truncated) == (4, True)
    assert again.links_written == 0


async def test_construction_arms_a_seven_day_cleanup_alarm_that_destroys(
    platform: LocalPlatform, pad: Scratchpad
) -> None:
    await pad.seed_start("https://a.test/")
    namespace = platform.env.AUDIT_SCRATCHPAD

    due = namespace.next_alarm_ms()
    assert due is not None and due - platform.clock.now_ms() == pytest.approx(
        7 * DAY_MS, abs=60_000
    )


async def test_destroy_removes_all_state(pad: Scratchpad) -> None:
    await pad.seed_start("https://a.test/")

    assert (await pad.destroy()).destroyed is True
    # A later call constructs the object again over empty storage (schema re-created).
    assert (await pad.stats()).seen == 0
    assert (await pad.seed_start("https://a.test/")).inserted == 1
    assert (await pad.stats()).pending == 1


async def test_a_call_after_destroy_reopens_with_a_fresh_cleanup_alarm(
    platform: LocalPlatform, pad: Scratchpad
) -> None:
    await pad.destroy()
    assert platform.env.AUDIT_SCRATCHPAD.next_alarm_ms() is None

    await pad.seed_start("https://a.test/late")
    await pad.stats()  # calls wait behind blockConcurrencyWhile, so the alarm is set by now

    assert platform.env.AUDIT_SCRATCHPAD.next_alarm_ms() is not None


async def test_prepare_resume_reopens_leases_and_continues_chunk_numbers(
    pad: Scratchpad,
) -> None:
    await pad.save_crawl_config(CrawlConfig(final_url="https://a.test/"))
    await pad.seed_sitemap_urls([f"https://a.test/{i}" for i in range(6)])
    first = await pad.claim_chunk(1, 2)
    await pad.record_batch(crawled(*urls(first)))
    await pad.claim_chunk(2, 2)  # the run dies with chunk 2 leased

    resumed = await pad.prepare_resume()

    stats = resumed.stats
    assert (resumed.last_chunk, stats.leased, stats.pending, stats.crawled) == (2, 0, 4, 2)
    assert resumed.configured is True
    assert urls(await pad.claim_chunk(3, 10)) == [f"https://a.test/{i}" for i in range(2, 6)]


async def test_an_unconfigured_scratchpad_cannot_be_resumed(pad: Scratchpad) -> None:
    assert (await pad.prepare_resume()).configured is False


async def test_crawl_config_round_trips_and_reads_empty_when_never_saved(pad: Scratchpad) -> None:
    assert await pad.crawl_config() == CrawlConfig()
    config = CrawlConfig(final_url="https://a.test/", robots_txt="User-agent: *\nDisallow: /x\n")
    assert (await pad.save_crawl_config(config)).saved is True
    assert await pad.crawl_config() == config


async def test_sitemap_blocked_urls_dedup_and_page_in_url_order(pad: Scratchpad) -> None:
    blocked = [f"https://a.test/b{i:04d}" for i in range(4500)]
    noted = await pad.note_sitemap_blocked([*blocked[::-1], blocked[0]])

    assert (noted.received, noted.inserted) == (4501, 4500)
    assert await pad.all_sitemap_blocked_urls() == blocked


async def test_site_facts_keep_the_first_page_in_url_order_of_each_fact_and_page_by_kind(
    pad: Scratchpad,
) -> None:
    """Whichever page of a fact finishes first, the fact is kept with the first page in URL
    order (and that page's detail), so identical crawls report it on the same page."""
    cookie = SiteFact(SiteFactKind.COOKIE, "sid=; Path=/", "https://a.test/1", "first")
    scripts = [
        SiteFact(SiteFactKind.SCRIPT, f"https://a.test/s{i:04d}.js", "https://a.test/1")
        for i in range(1200)
    ]
    later = SiteFact(SiteFactKind.COOKIE, "sid=; Path=/", "https://a.test/2", "later")
    await pad.record_batch(RecordBatch(facts=(later, *scripts[::-1])))
    await pad.record_batch(RecordBatch(facts=(cookie, scripts[0])))
    await pad.record_batch(RecordBatch(facts=(later,)))

    assert await pad.all_site_facts(SiteFactKind.COOKIE) == [cookie]
    assert await pad.all_site_facts(SiteFactKind.SCRIPT) == scripts
    assert await pad.all_site_facts(SiteFactKind.SRI) == []


async def test_batches_larger_than_one_json_parameter_are_split(pad: Scratchpad) -> None:
    # ~300 bytes a URL: 10,000 of them are three bound JSON arrays per statement kind.
    many = [f"https://a.test/{'p' * 270}/{i}" for i in range(10_000)]

    seeded = await pad.seed_sitemap_urls(many)
    claim = await pad.claim_chunk(1, 10_000)
    result = await pad.record_batch(crawled(*many[:5000]))
    released = await pad.release_urls(many)

    assert seeded.inserted == 10_000 and len(claim.urls) == 10_000
    assert (result.stats.crawled, released.released) == (5000, 5000)
    assert (await pad.stats()).pending == 5000


async def test_an_object_from_before_the_per_state_counts_counts_its_rows_once(
    platform: LocalPlatform, pad: Scratchpad
) -> None:
    await pad.seed_sitemap_urls([f"https://a.test/{i}" for i in range(5)])
    first = await pad.claim_chunk(1, 3)
    await pad.record_batch(crawled(first.urls[0].url))
    namespace = platform.env.AUDIT_SCRATCHPAD
    object_id = namespace.idFromName("audit-1")
    namespace.evict(object_id)
    with closing(sqlite3.connect(namespace.storage_path(object_id))) as db, db:
        db.execute("DROP TABLE frontier_counts")  # the schema as deployed before the counts

    stats = await pad.stats()

    assert (stats.seen, stats.pending, stats.leased, stats.crawled) == (5, 2, 2, 1)
