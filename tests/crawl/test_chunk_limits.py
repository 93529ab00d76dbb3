"""crawl.chunk's two bounds: the soft deadline (a value; checking it changes nothing) and the
lease refill against the chunk's limit."""

import pytest

from crawl.chunk import Deadline, LeaseRefill


@pytest.mark.parametrize(
    ("started", "seconds", "now", "passed"),
    [
        (100.0, 90.0, 100.0, False),
        (100.0, 90.0, 189.999, False),
        (100.0, 90.0, 190.0, True),
        (100.0, 90.0, 500.0, True),
        (100.0, 0.0, 100.0, True),
    ],
)
def test_a_deadline_passes_once_its_seconds_are_up(
    started: float, seconds: float, now: float, passed: bool
) -> None:
    assert Deadline(started, seconds).passed(now) is passed


def test_checking_a_deadline_changes_nothing() -> None:
    deadline = Deadline(100.0, 90.0)
    assert deadline.passed(200.0)
    assert not deadline.passed(150.0)  # nothing sticks: the runner records that it stopped
    assert deadline == Deadline(100.0, 90.0)


@pytest.mark.parametrize(
    ("claimed", "asked_at", "persisted", "due"),
    [
        (1, 0, 0, False),  # nothing persisted yet: the frontier holds no new links
        (1, 0, 1, True),
        (5, 3, 3, False),  # nothing persisted since the last ask
        (5, 3, 4, True),
        (10, 3, 9, False),  # the chunk's limit is leased
        (12, 3, 9, False),
    ],
)
def test_more_is_due_under_the_limit_once_pages_were_persisted_since_the_last_ask(
    claimed: int, asked_at: int, persisted: int, due: bool
) -> None:
    assert LeaseRefill(10, claimed, asked_at).due(persisted) is due


def test_a_refill_asks_for_what_the_limit_leaves_and_counts_what_it_got() -> None:
    refill = LeaseRefill(10)
    refill.leased(1)  # the chunk's own claim
    refill.asked(1)
    assert refill.wanted == 9
    refill.leased(4)
    assert refill == LeaseRefill(10, claimed=5, asked_at=1)
    assert (refill.due(1), refill.due(2), refill.wanted) == (False, True, 5)
