"""The progress display: a bar on a terminal, plain lines in logs, both from the progress feed."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cli.progress import ExternalCounts, PlainLines, RichBar, Snapshot, progress_view


def feed(phase: str | None, crawled: int, seen: int | None, status: str = "running") -> dict:
    audit = {
        "current_phase": phase,
        "status": status,
        "pages_crawled": crawled,
        "options": {"max_pages": 50},
    }
    frontier = (
        None if seen is None else {"seen": seen, "pending": 0, "leased": 0, "crawled": crawled}
    )
    return {"audit": audit, "frontier": frontier, "recent": []}


@pytest.mark.parametrize(
    ("body", "elapsed", "before", "expected"),
    [
        (feed("crawling", 8, 30), 2.0, 0, Snapshot("crawling", 8, 30, 50, 2.0, 4.0)),
        (feed("crawling", 40, 300), 10.0, 20, Snapshot("crawling", 40, 300, 50, 10.0, 2.0)),
        (feed("discovery", 0, 0), 0.0, 0, Snapshot("discovery", 0, 0, 50, 0.0, 0.0)),
        (feed(None, 12, None, "completed"), 3.0, 12, Snapshot("completed", 12, None, 50, 3.0, 0.0)),
    ],
)
def test_a_snapshot_reads_phase_counts_and_the_rate_of_this_run(body, elapsed, before, expected):
    assert Snapshot.of(body, elapsed, before) == expected


@pytest.mark.parametrize(("discovered", "expected"), [(30, 30), (300, 50), (None, None)])
def test_the_crawl_expects_what_it_discovered_up_to_its_page_cap(discovered, expected):
    assert Snapshot("crawling", 8, discovered, 50, 1.0, 8.0).expected == expected


def test_plain_lines_keep_logs_readable_and_parseable():
    out = io.StringIO()
    view = PlainLines(out)

    view.update(Snapshot("crawling", 8, 30, 50, 2.0, 4.0))
    view.update(Snapshot("completed", 12, None, 50, 65.0, 0.2))
    view.close()

    assert out.getvalue().splitlines() == [
        "  crawling: 8 pages crawled, 30 discovered, 4.0 pages/s, 0:02",
        "  completed: 12 pages crawled, 0.2 pages/s, 1:05",
    ]
    # tests/support/cli_process.py reads the crawled count this way
    assert int(out.getvalue().splitlines()[0].split(":")[1].split()[0]) == 8


CHECKING = ExternalCounts(urls=2_389, checked=120, hosts_failing=3)


def test_a_snapshot_reads_the_external_checks_counts():
    body = feed("external-links", 50, 51) | {
        "external": {"urls": 2_389, "checked": 120, "hosts_failing": 3, "stopped": None}
    }
    snapshot = Snapshot.of(body, 14.0, 0)
    assert snapshot.external == CHECKING and snapshot.checking_external


def test_the_external_checks_have_their_own_line_once_their_phase_starts():
    out = io.StringIO()
    view = PlainLines(out)
    # The crawl has found external links, but the crawl still runs: the crawl's line.
    view.update(Snapshot("crawling", 50, 51, 50, 2.0, 25.0, CHECKING))
    view.update(Snapshot("external-links", 50, 51, 50, 14.0, 3.6, CHECKING))
    view.update(Snapshot("external-links", 50, 51, 50, 15.0, 3.3, ExternalCounts(1, 1, 1)))
    assert out.getvalue().splitlines() == [
        "  crawling: 50 pages crawled, 51 discovered, 25.0 pages/s, 0:02",
        "  checking external links: 120 of 2,389 (3 hosts failing), 0:14",
        "  checking external links: 1 of 1 (1 host failing), 0:15",
    ]


def test_the_bar_counts_external_urls_while_they_are_checked():
    out = io.StringIO()
    view = RichBar(Console(file=out, force_terminal=True, width=120, color_system=None))
    view.update(Snapshot("crawling", 50, 51, 50, 2.0, 25.0))
    view.update(Snapshot("external-links", 50, 51, 50, 14.0, 3.6, CHECKING))
    view.close()
    final = out.getvalue().rsplit("\r", 1)[-1]
    assert "external links" in final and "120/2389" in final and "3 hosts failing" in final


def test_a_terminal_gets_a_bar_with_phase_counts_rate_and_elapsed():
    out = io.StringIO()
    view = RichBar(Console(file=out, force_terminal=True, width=120, color_system=None))

    view.update(Snapshot("discovery", 0, 0, 50, 0.5, 0.0))
    view.update(Snapshot("crawling", 8, 30, 50, 2.0, 4.0))
    view.close()

    screen = out.getvalue()
    assert "\x1b[" in screen  # redrawn in place with terminal control codes
    final = screen.rsplit("\r", 1)[-1]
    assert "crawling" in final and "8/30" in final and "30 discovered" in final
    assert "4.0 pages/s" in final and "0:02" in final
    assert "━" in final  # the bar itself


def test_the_bar_is_chosen_only_for_a_terminal():
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert isinstance(progress_view(io.StringIO()), PlainLines)
    assert isinstance(progress_view(Tty()), RichBar)
