"""crawl.chunk.persist_batch: what one sub-batch sends to the scratchpad."""

from __future__ import annotations

from typing import Any

from common import ports
from crawl.chunk import ChunkIO, ChunkPlan, persist_batch
from crawl.page_pipeline import CrawlScope
from crawl.page_stream import process_response
from crawl.url_policy import UrlPolicy
from durable.records import BatchResult, FrontierStats, LeasedUrl, RecordBatch
from urls.private_hosts import PrivateHosts

SITE = "https://site.test/"
HTML = {"content-type": "text/html; charset=utf-8"}
NAV = '<a href="/a">A</a> <a href="/b">B</a>'


class RecordingPad:
    def __init__(self) -> None:
        self.batches: list[RecordBatch] = []

    async def record_batch(self, batch: RecordBatch) -> BatchResult:
        self.batches.append(batch)
        return BatchResult(FrontierStats(0, 0, 0, 0, False), 0, 0)


class NullD1:
    """Accepts the page rows and the progress update; this test reads only the scratchpad."""

    def prepare(self, _sql: str) -> NullD1:
        return self

    def bind(self, *_values: object) -> NullD1:
        return self

    async def batch(self, _statements: object) -> list[object]:
        return []

    async def run(self) -> dict[str, Any]:
        return {"meta": {"changes": 0}}


def crawled(path: str, body: str) -> Any:
    scope = CrawlScope("audit", UrlPolicy(SITE, private_hosts=PrivateHosts.ALLOW), True)
    html = f"<!doctype html><title>{path}</title><body>{body}".encode()
    result = ports.FetchResult(SITE + path, 200, HTML, html, False, 1.0)
    return process_response(scope, LeasedUrl(SITE + path, 1, False), result)


async def test_a_sub_batch_sends_each_discovered_url_once_as_first_found() -> None:
    pages = [
        crawled("one", NAV + '<a href="/c">C</a>'),
        crawled("two", NAV + '<a href="/one">1</a>'),
        crawled("three", '<a href="/c">C</a>' + NAV),
    ]
    pad = RecordingPad()
    io = ChunkIO(pad, NullD1(), None)  # type: ignore[arg-type]  # no fetch in this test
    scope = CrawlScope("audit", UrlPolicy(SITE), True)
    await persist_batch(scope, ChunkPlan(chunk_no=1, limit=3), io, pages)
    [sent] = pad.batches
    assert [(d.url, d.found_on) for d in sent.discovered] == [
        (SITE + "a", SITE + "one"),
        (SITE + "b", SITE + "one"),
        (SITE + "c", SITE + "one"),
        (SITE + "one", SITE + "two"),
    ]
    assert len(sent.links) == 9  # every page keeps its own edges
