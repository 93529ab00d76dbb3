"""One crawled page as its body arrives: the crawl fetch's `ports.BodySink`.

The HTTP client hands each network chunk to `feed` as it arrives (on Workers from the response
body's reader; locally the same code over the local platform's h11 stream), and the chunk goes
straight into the streaming extractor, so memory does not depend on the page's size: the stream
keeps the body's head (what the fetch classifier reads, `CRAWL.body_head_chars`), a byte
count, the extractor's bounded state and one batch of link rows. Nothing holds the whole body;
the text's content hash is computed incrementally by the extractor (parse.text.TextDigest).

Links leave early. The extractor reports every `<a href>` and every other reference (uncapped)
to `crawl.page_links`;
whenever `LINK_BATCH_ROWS` rows are ready and the head has shown an ordinary page (the fetch
classifier's verdict on the same head `assemble` judges), `feed` awaits the link writer (the
scratchpad's `record_links`) before taking the next chunk. The rest travels with the page's
sub-batch (crawl.chunk.persist_batch). Writing early is safe because every link write is
idempotent: a retried or killed chunk re-fetches the page and rewrites the same rows, which the
scratchpad neither duplicates nor counts twice against the link budget. A fetch that fails
mid-body (a timeout) records the page as failed; links it already sent stay, as links the page
does hold.

The element tree. The extractor hands the text it decodes to a `parse.tree_builder.TreeBuilder`
(one decoding and one tokenizing pass: the builder's tokens drive the extractor's facts, see
parse.tree_builder; bounded like the extractor), and once the body has
ended the accessibility rules (`a11y.rules.first_failures`) judge the tree: their first
`a11y.result.MAX_FINDINGS` failures, with how many there were, become
`PageObservation.accessibility` (incomplete when the page or the tree was cut).
`ParsedBody.tree` keeps the root for the structured-data check while the page is assembled
(crawl.page_pipeline.observe); nothing keeps it after.

Microdata and RDFa. Each chunk the page parses is also searched for their attributes
(structured.markup_scan, a `bytes.find` per name over the whole fetched body), so the check walks
the tree for that markup only on a page that has some, and knows a page has some past the
tree's caps (`ParsedBody.markup`).

Sans-IO but for that one await: the writer is passed in.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from a11y.axe import AxeResult
from a11y.merge import merged
from a11y.result import MAX_FINDINGS, PageAccessibility, page_accessibility
from a11y.rules import first_failures
from audit.page import PageObservation
from common import ports, settings
from common.fetch_class import FetchClass
from crawl.page_links import PageLinks
from crawl.page_pipeline import (
    CrawlScope,
    ParsedBody,
    ProcessedPage,
    assemble_observed,
    fetch_class_of,
    parses,
)
from durable.records import LeasedUrl, LinkBatch
from parse.extractor import PageExtractor
from parse.facts import PageFacts
from parse.tree_builder import ParsedTree, TreeBuilder
from structured.markup_scan import MarkupScan, ascii_compatible

LinkWriter = Callable[[LinkBatch], Awaitable[object]]
# A network chunk is parsed this much at a time, with a chance to send links between slices: a
# runtime may hand over megabytes at once (a decompressed body), and the rows one slice yields
# (at most ~1,700 links in 64 KiB of markup) bound what waits beside LINK_BATCH_ROWS.
FEED_SLICE_BYTES = 64 * 1024


class PageStream:
    def __init__(
        self, scope: CrawlScope, leased: LeasedUrl, write_links: LinkWriter | None = None
    ) -> None:
        self.scope, self.leased, self._write = scope, leased, write_links
        self.links = self._new_links()
        self._head = bytearray()
        self._head_max = settings.CRAWL.body_head_chars  # all the fetch classifier reads
        self._size = 0
        self._opened = False
        self._status = 0
        self._headers: dict[str, str] = {}
        self._extractor: PageExtractor | None = None
        self._tree: TreeBuilder | None = None
        self._markup: MarkupScan | None = None
        self._head_ok: bool | None = None  # the classifier's verdict, once it has its head

    def _new_links(self) -> PageLinks:
        return PageLinks(
            self.scope.policy,
            self.leased,
            check_external=self.scope.check_external,
            follow_links=self.scope.follow_links,
        )

    def open(self, status: int, headers: dict[str, str]) -> int:
        """Ready the parse for a 2xx HTML body; answers how much of the body to read: all the
        parse takes, or, for a body it will not parse (an error page, a PDF), what a whole
        body used to be read to (`CRAWL.whole_body_max_bytes`), which its size is judged by."""
        self._opened = True
        self._status, self._headers = status, headers
        if not parses(status, headers):
            return settings.CRAWL.whole_body_max_bytes
        self._tree = TreeBuilder()
        self._markup = MarkupScan()
        self._extractor = PageExtractor(
            self.leased.url,
            content_type=headers.get("content-type"),
            max_bytes=settings.CRAWL.parse_max_bytes,
            on_links=self.links.add_links,
            on_references=self.links.add_references,
            on_text=self._tree,
        )
        return settings.CRAWL.fetch_max_bytes

    async def feed(self, chunk: bytes) -> None:
        if self._write is None or len(chunk) <= FEED_SLICE_BYTES:
            self.take(chunk)
            await self._send_ready()
            return
        view = memoryview(chunk)
        for start in range(0, len(chunk), FEED_SLICE_BYTES):
            self.take(bytes(view[start : start + FEED_SLICE_BYTES]))
            await self._send_ready()

    async def _send_ready(self) -> None:
        if self._write is not None and self.links.ready() and self._ordinary():
            await self._write(self.links.take())

    def take(self, chunk: bytes) -> None:
        """The synchronous part of `feed`: keep the head, count, parse."""
        self._size += len(chunk)
        room = self._head_max - len(self._head)
        if room > 0:
            self._head += chunk[:room]
        if self._extractor is not None:
            self._extractor.feed(chunk)
        if self._markup is not None:
            self._markup.feed(chunk)

    def _close_tree(self, facts: PageFacts) -> ParsedTree | None:
        return None if self._tree is None else self._tree.close(truncated=facts.truncated)

    def _ordinary(self) -> bool:
        """Whether the head shows an ordinary page, whose links may leave before its end."""
        if self._head_ok is None and len(self._head) >= self._head_max:
            verdict = fetch_class_of(self._status, self._headers, bytes(self._head))
            self._head_ok = verdict is FetchClass.OK
        return bool(self._head_ok)

    def finish(
        self, result: ports.FetchResult, *, retried_after_429: bool = False
    ) -> ProcessedPage:
        """The page, once the fetch returned: a client that did not stream gave the body whole."""
        return self.finish_observed(result, retried_after_429=retried_after_429)[0]

    def finish_observed(
        self,
        result: ports.FetchResult,
        *,
        retried_after_429: bool = False,
        axe: AxeResult | None = None,
    ) -> tuple[ProcessedPage, PageObservation]:
        """`finish`, with the observation the page's rules judged. A rendered page brings
        axe-core's run on it (`axe`), merged with the static rules' findings (a11y.merge) before
        the page's rules and row see them, so its issues are axe-core's verdict."""
        if not self._opened:
            self.open(result.status, result.headers)
            self.take(result.body)
        failed = result.status == 0  # e.g. timed out mid-body: nothing is judged of a part
        head = b"" if failed else bytes(self._head)
        facts, tree = None, None
        if (
            self._extractor is not None
            and not failed
            and fetch_class_of(result.status, result.headers, head) is FetchClass.OK
        ):
            facts = self._extractor.close()
            tree = self._close_tree(facts)
        self._tree = None
        links = self.links if facts is not None else self._new_links()
        body = ParsedBody(
            head,
            0 if failed else self._size,
            facts,
            links,
            tree=None if tree is None else tree.root,
            accessibility=_accessibility(tree, axe),
            tree_complete=tree is None or tree.complete,
            markup=facts is not None and self._has_markup(facts),
        )
        return assemble_observed(
            self.scope, self.leased, result, body, retried_after_429=retried_after_429
        )

    def _has_markup(self, facts: PageFacts) -> bool:
        """Whether the body showed Microdata or RDFa, or the scan could not read it."""
        seen = self._markup is not None and self._markup.seen
        return seen or not ascii_compatible(facts.encoding.name)


def _accessibility(tree: ParsedTree | None, axe: AxeResult | None) -> PageAccessibility | None:
    static = None if tree is None else judged(tree)
    return static if axe is None else merged(static, axe)


def judged(tree: ParsedTree) -> PageAccessibility:
    """The accessibility rules' failures on a page's tree (a11y.rules)."""
    findings, seen = first_failures(tree.root, MAX_FINDINGS, tree.order, tree.style_sheets)
    return page_accessibility(findings, complete=tree.complete, seen=seen)


def process_response(
    scope: CrawlScope,
    leased: LeasedUrl,
    result: ports.FetchResult,
    *,
    retried_after_429: bool = False,
) -> ProcessedPage:
    """A response whose body came whole (`result.body`): the same path, without early writes."""
    return PageStream(scope, leased).finish(result, retried_after_429=retried_after_429)
