"""A site that stops answering part-way (crawl.site_health): the count, the breaker across chunks,
and the one finding."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from audit.catalogue import SITE_DOWN_STREAK, IssueType
from crawl.site_health import SAMPLE_URLS, NoAnswers, NoAnswerTally, stopped_responding

REFUSED = "cannot connect to 127.0.0.1:9: [Errno 111] Connect call failed"
START = "http://127.0.0.1:9/"


def tally(outcomes: str, streak: int = 0) -> NoAnswers:
    """`outcomes`: one letter a fetch, in the order they finish: o answered, r refused, t timed
    out."""
    counting = NoAnswerTally(streak)
    errors = {"r": REFUSED, "t": "timed out after 15 s"}
    for n, outcome in enumerate(outcomes):
        status = 200 if outcome == "o" else 0
        counting.record(f"{START}p{n}", status, errors.get(outcome))
    return counting.counts()


def test_a_chunk_counts_its_fetches_without_an_answer_by_kind() -> None:
    counts = tally("orrot")
    assert (counts.fetched, counts.no_answer, counts.streak, counts.stopped) == (5, 3, 1, False)
    assert counts.kinds == {"refused": 2, "timeout": 1}
    assert counts.samples == [f"{START}p1", f"{START}p2", f"{START}p4"]


def test_the_breaker_trips_on_a_streak_and_an_answer_resets_it() -> None:
    assert not tally("r" * (SITE_DOWN_STREAK - 1) + "o" + "r" * (SITE_DOWN_STREAK - 1)).stopped
    assert tally("o" * 50 + "r" * SITE_DOWN_STREAK).stopped


def test_a_streak_goes_on_across_chunks() -> None:
    first = tally("o" + "r" * (SITE_DOWN_STREAK - 5))
    second = tally("rrrrr", streak=first.streak)
    crawl = first.merged(second)
    assert crawl.stopped and crawl.streak == SITE_DOWN_STREAK
    assert (crawl.fetched, crawl.no_answer) == (SITE_DOWN_STREAK + 1, SITE_DOWN_STREAK)
    assert len(crawl.samples) == SAMPLE_URLS


@given(st.lists(st.text("ort", max_size=30), max_size=6))
def test_merging_chunks_counts_what_one_long_chunk_counts(chunks: list[str]) -> None:
    merged, streak = NoAnswers(), 0
    for outcomes in chunks:
        merged = merged.merged(tally(outcomes, streak))
        streak = merged.streak
    whole = tally("".join(chunks))
    assert (merged.fetched, merged.no_answer, merged.kinds, merged.streak) == (
        whole.fetched,
        whole.no_answer,
        whole.kinds,
        whole.streak,
    )
    assert merged.stopped == whole.stopped


def test_a_site_that_keeps_answering_has_no_finding() -> None:
    assert stopped_responding(tally("o" * 30 + "t" * 5), START) is None
    assert stopped_responding(tally(""), START) is None
    assert stopped_responding(tally("oorr"), START) is None  # half is not most


def test_most_fetches_without_an_answer_is_the_finding_even_without_the_breaker() -> None:
    issue = stopped_responding(tally("ortrr"), START)
    assert issue is not None
    assert (issue.issue_type, issue.page_url) == (IssueType.SITE_STOPPED_RESPONDING, START)
    assert issue.details == {
        "pagesWithoutAnswer": 4,
        "pagesFetched": 5,
        "failures": "the connection was refused: 3; no answer in time (timeout): 1",
        "sampleUrls": [f"{START}p1", f"{START}p2", f"{START}p3", f"{START}p4"],
    }


def test_a_tripped_breaker_is_the_finding_and_says_the_crawl_stopped() -> None:
    issue = stopped_responding(tally("o" * 40 + "r" * SITE_DOWN_STREAK), START)
    assert issue is not None
    assert issue.details["crawl"] == (
        f"stopped after {SITE_DOWN_STREAK} pages in a row got no answer"
    )
    assert issue.details["pagesWithoutAnswer"] == SITE_DOWN_STREAK


def test_the_counts_cross_a_step_boundary_unchanged() -> None:
    counts = tally("orrot")
    assert NoAnswers.from_dict(counts.to_dict()) == counts
