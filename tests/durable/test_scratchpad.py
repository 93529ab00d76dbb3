"""The AuditScratchpad's frontier, called through Durable Object RPC on the local platform."""

from __future__ import annotations

from typing import Any

import pytest

DAY_MS = 24 * 60 * 60 * 1000


@pytest.fixture
def pad(platform: Any) -> Any:
    return platform.env.AUDIT_SCRATCHPAD.getByName("audit-1")


def urls(claim: dict[str, Any]) -> list[str]:
    return [row["url"] for row in claim["urls"]]


async def test_seeding_dedups_and_sitemap_urls_queue_after_links(pad: Any) -> None:
    assert (await pad.seed_start("https://a.test/"))["inserted"] is True
    assert (await pad.seed_start("https://a.test/"))["inserted"] is False
    seeded = await pad.seed_sitemap_urls(
        ["https://a.test/", "https://a.test/s1", "https://a.test/s2"]
    )
    assert seeded == {"received": 3, "inserted": 2}
    await pad.record_batch({"discovered": [{"url": "https://a.test/l1", "depth": 1}]})

    claim = await pad.claim_chunk(1, 10)

    assert urls(claim) == [
        "https://a.test/",
        "https://a.test/l1",
        "https://a.test/s1",
        "https://a.test/s2",
    ]
    start = claim["urls"][0]
    assert (start["depth"], start["in_sitemap"]) == (0, 1)


async def test_a_retried_chunk_gets_exactly_its_urls_and_a_crawled_chunk_nothing(pad: Any) -> None:
    await pad.seed_sitemap_urls([f"https://a.test/{i}" for i in range(5)])

    first = await pad.claim_chunk(1, 3)
    retry = await pad.claim_chunk(1, 3)
    assert (urls(retry), retry["is_retry"]) == (urls(first), True)

    await pad.record_batch({"crawled": urls(first)})
    after = await pad.claim_chunk(1, 3)
    assert (after["urls"], after["is_retry"]) == ([], True)
    assert urls(await pad.claim_chunk(2, 3)) == ["https://a.test/3", "https://a.test/4"]


async def test_released_urls_return_to_the_queue(pad: Any) -> None:
    await pad.seed_sitemap_urls(["https://a.test/a", "https://a.test/b"])
    await pad.claim_chunk(1, 2)

    released = await pad.release_urls(["https://a.test/b", "https://a.test/unknown"])

    assert released == {"released": 1}
    assert (await pad.stats())["pending"] == 1
    assert urls(await pad.claim_chunk(2, 5)) == ["https://a.test/b"]


async def test_record_batch_marks_crawled_and_enqueues_only_new_urls(pad: Any) -> None:
    await pad.seed_start("https://a.test/")
    await pad.claim_chunk(1, 1)

    stats = await pad.record_batch(
        {
            "crawled": ["https://a.test/"],
            "pages": [
                {"url": "https://a.test/", "page_id": "p1", "status_code": 200, "fetch_class": "ok"}
            ],
            "links": [
                {
                    "source_url": "https://a.test/",
                    "target_url": "https://a.test/x",
                    "nofollow": False,
                }
            ],
            "discovered": [
                {"url": "https://a.test/", "depth": 1},
                {"url": "https://a.test/x", "depth": 1},
            ],
        }
    )

    assert (stats["seen"], stats["pending"], stats["crawled"], stats["enqueued"]) == (2, 1, 1, 1)
    again = await pad.record_batch({"discovered": [{"url": "https://a.test/x", "depth": 1}]})
    assert again["enqueued"] == 0


async def test_links_stop_at_the_storage_budget_and_stay_stopped(pad: Any) -> None:
    link = {"source_url": "https://a.test/", "target_url": "https://a.test/t", "nofollow": 0}

    tripped = await pad.record_batch({"links": [link], "link_budget_bytes": 1})
    later = await pad.record_batch({"links": [link]})

    assert (tripped["links_written"], tripped["links_truncated"]) == (0, True)
    assert (later["links_written"], later["links_truncated"]) == (0, True)


async def test_construction_arms_a_seven_day_cleanup_alarm_that_destroys(
    platform: Any, pad: Any
) -> None:
    await pad.seed_start("https://a.test/")
    namespace = platform.env.AUDIT_SCRATCHPAD

    due = namespace.next_alarm_ms()
    assert due is not None and due - platform.clock.now_ms() == pytest.approx(
        7 * DAY_MS, abs=60_000
    )


async def test_destroy_removes_all_state(pad: Any) -> None:
    await pad.seed_start("https://a.test/")

    assert await pad.destroy() == {"destroyed": True}
    # A later call constructs the object again over empty storage (schema re-created).
    assert (await pad.stats())["seen"] == 0


async def test_a_call_after_destroy_reopens_with_a_fresh_cleanup_alarm(
    platform: Any, pad: Any
) -> None:
    await pad.destroy()
    assert platform.env.AUDIT_SCRATCHPAD.next_alarm_ms() is None

    await pad.seed_start("https://a.test/late")
    await pad.stats()  # calls wait behind blockConcurrencyWhile, so the alarm is set by now

    assert platform.env.AUDIT_SCRATCHPAD.next_alarm_ms() is not None


async def test_prepare_resume_reopens_leases_and_continues_chunk_numbers(pad: Any) -> None:
    await pad.save_crawl_config({"final_url": "https://a.test/", "robots_txt": ""})
    await pad.seed_sitemap_urls([f"https://a.test/{i}" for i in range(6)])
    first = await pad.claim_chunk(1, 2)
    await pad.record_batch({"crawled": urls(first)})
    await pad.claim_chunk(2, 2)  # the run dies with chunk 2 leased

    resumed = await pad.prepare_resume()

    assert (resumed["last_chunk"], resumed["leased"], resumed["pending"], resumed["crawled"]) == (
        2,
        0,
        4,
        2,
    )
    assert resumed["configured"] is True
    assert urls(await pad.claim_chunk(3, 10)) == [f"https://a.test/{i}" for i in range(2, 6)]


async def test_an_unconfigured_scratchpad_cannot_be_resumed(pad: Any) -> None:
    assert (await pad.prepare_resume())["configured"] is False
