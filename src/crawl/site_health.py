"""A site that stops answering part-way through its crawl: counted, stopped early, reported once.

Theory of operation
-------------------
* Each chunk counts its page fetches that got no answer at all (status 0: refused, timed out, TLS
  or DNS failure; `common.net_failure` says which) in a `NoAnswerTally`, and how many came in a
  row at the end, in the order they finished. The chunk's report carries the counts
  (`NoAnswers`); the workflow sums them over the crawl's chunks (`NoAnswers.merged`) and hands
  the streak to the next chunk, so a run of failures is counted across chunk boundaries.
* The breaker: `SITE_DOWN_STREAK` page fetches in a row without an answer, and none answered in
  between, stop the crawl (`NoAnswers.stopped`): the chunk launches nothing more and hands its
  URLs back to the frontier, and the workflow starts no further chunk. An audit of a dead site
  then spends a couple of windows of timeouts, not `max_pages` of them. Crawlers with a safeguard
  of this kind stop in the same way (redirection.io cancels a crawl whose error rate passes 90 %
  over a minute; Cyotek WebCopy aborts on configured status codes).
* The finding: `site-stopped-responding`, critical, once per audit on the start URL, when the
  breaker stopped the crawl or when more than `SITE_DOWN_SHARE_PERCENT` % of the crawl's page
  fetches got no answer. It carries the counts, the kinds of failure and a few sample URLs, so a
  crawl of a site that went down is never a clean completion.

A resumed audit counts from its resume on (the counts of the chunks before it are not kept).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from audit.catalogue import SITE_DOWN_SHARE_PERCENT, SITE_DOWN_STREAK, IssueType
from audit.issues import DetectedIssue
from common.net_failure import NetFailure, classify_net_failure
from common.wire import JsonObject, JsonRecord

__all__ = ["SAMPLE_URLS", "NoAnswerTally", "NoAnswers", "stopped_responding"]

# URLs that got no answer, kept as examples for the finding (and per chunk report).
SAMPLE_URLS = 5


@dataclass(frozen=True, slots=True)
class NoAnswers(JsonRecord):
    """Page fetches of a chunk (or, merged, of the crawl) and those that got no answer."""

    fetched: int = 0
    no_answer: int = 0
    kinds: dict[str, int] = field(default_factory=dict)  # NetFailure value -> fetches
    samples: list[str] = field(default_factory=list)
    streak: int = 0  # fetches in a row without an answer, at the end
    stopped: bool = False  # the breaker stopped the crawl

    def merged(self, later: NoAnswers) -> NoAnswers:
        """These counts followed by a later chunk's (whose streak already continues this one)."""
        kinds = Counter(self.kinds) + Counter(later.kinds)
        return NoAnswers(
            fetched=self.fetched + later.fetched,
            no_answer=self.no_answer + later.no_answer,
            kinds=dict(sorted(kinds.items())),
            samples=[*self.samples, *later.samples][:SAMPLE_URLS],
            streak=later.streak,
            stopped=self.stopped or later.stopped,
        )

    @property
    def mostly_unanswered(self) -> bool:
        return self.no_answer * 100 > self.fetched * SITE_DOWN_SHARE_PERCENT


class NoAnswerTally:
    """One chunk's count, fed each page fetch as it finishes."""

    def __init__(self, streak: int = 0) -> None:
        self._counts = NoAnswers(streak=streak)
        self._kinds: Counter[str] = Counter()

    def record(self, url: str, status: int, error: str | None) -> None:
        counts = self._counts
        if status != 0:
            self._counts = replace(counts, fetched=counts.fetched + 1, streak=0)
            return
        self._kinds[classify_net_failure(error)] += 1
        samples = counts.samples if len(counts.samples) >= SAMPLE_URLS else [*counts.samples, url]
        streak = counts.streak + 1
        self._counts = replace(
            counts,
            fetched=counts.fetched + 1,
            no_answer=counts.no_answer + 1,
            samples=samples,
            streak=streak,
            stopped=counts.stopped or streak >= SITE_DOWN_STREAK,
        )

    @property
    def stopped(self) -> bool:
        return self._counts.stopped

    def counts(self) -> NoAnswers:
        return replace(self._counts, kinds=dict(sorted(self._kinds.items())))


def stopped_responding(crawl: NoAnswers, start_url: str) -> DetectedIssue | None:
    """The crawl-level finding, on the start URL, or None when the site kept answering."""
    if not (crawl.stopped or (crawl.no_answer and crawl.mostly_unanswered)):
        return None
    details: JsonObject = {
        "pagesWithoutAnswer": crawl.no_answer,
        "pagesFetched": crawl.fetched,
        "failures": "; ".join(
            f"{NetFailure(kind).description}: {count}" for kind, count in crawl.kinds.items()
        ),
        "sampleUrls": list(crawl.samples),
    }
    if crawl.stopped:
        details["crawl"] = f"stopped after {SITE_DOWN_STREAK} pages in a row got no answer"
    return DetectedIssue(IssueType.SITE_STOPPED_RESPONDING, start_url, details)
