"""The live progress of an audit on stderr: a bar on a terminal, plain lines anywhere else.

Each second `siteaudit audit|resume` reads the progress feed (`GET /api/audits/{id}/progress`)
and hands a `Snapshot` to the view. On a terminal the view is a rich progress bar (phase, pages
crawled of those it will crawl, pages discovered, rate, elapsed), redrawn in place; when stderr is
a file or a pipe (CI logs, tests) it prints one line per snapshot, which logs keep readable:

    crawling: 8 pages crawled, 30 discovered, 4.1 pages/s, 0:02

The external link checks (check_external) are a phase of their own after the crawl, with their
own line, from the feed's `external` counts:

    checking external links: 120 of 2,389 (3 hosts failing), 0:14

rich is a CLI dependency only: the Worker never imports this module (the layers in pyproject.toml
keep `cli` above everything else).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TextIO

from auditdb.records import AuditPhase
from common.wire import as_int, as_object
from service.progress import expected_pages

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import TaskID


@dataclass(frozen=True, slots=True)
class ExternalCounts:
    """The feed's `external`: distinct external URLs found, checked, and failing hosts."""

    urls: int
    checked: int
    hosts_failing: int

    def line(self) -> str:
        hosts = f"{self.hosts_failing} host{'' if self.hosts_failing == 1 else 's'} failing"
        return f"{self.checked:,} of {self.urls:,} ({hosts})"


@dataclass(frozen=True, slots=True)
class Snapshot:
    phase: str
    crawled: int
    discovered: int | None  # URLs found so far; None once the audit has ended
    max_pages: int
    elapsed_s: float
    rate: float  # pages crawled per second by this run
    external: ExternalCounts | None = None  # while the audit runs, once it has external links

    @classmethod
    def of(cls, feed: Mapping[str, object], elapsed_s: float, crawled_before: int) -> Snapshot:
        """From the progress feed's answer (`{"audit", "frontier", "external", "recent"}`)."""
        audit = as_object(feed["audit"])
        frontier = feed.get("frontier")
        external = feed.get("external")
        crawled = as_int(audit["pages_crawled"])
        return cls(
            phase=str(audit["current_phase"] or audit["status"]),
            crawled=crawled,
            discovered=None if frontier is None else as_int(as_object(frontier)["seen"]),
            max_pages=as_int(as_object(audit["options"])["max_pages"]),
            elapsed_s=elapsed_s,
            rate=max(crawled - crawled_before, 0) / elapsed_s if elapsed_s > 0 else 0.0,
            external=None if external is None else _external_counts(as_object(external)),
        )

    @property
    def checking_external(self) -> bool:
        return self.phase == AuditPhase.EXTERNAL_LINKS and self.external is not None

    @property
    def expected(self) -> int | None:
        """How many pages the crawl will reach as far as it knows: discovered, up to the cap
        (the same figure as the feed's `pages_expected`)."""
        if self.discovered is None:
            return None
        return expected_pages(self.discovered, self.crawled, self.max_pages)

    def elapsed(self) -> str:
        minutes, seconds = divmod(int(self.elapsed_s), 60)
        return f"{minutes}:{seconds:02d}"


def _external_counts(external: Mapping[str, object]) -> ExternalCounts:
    return ExternalCounts(
        as_int(external["urls"]), as_int(external["checked"]), as_int(external["hosts_failing"])
    )


EXTERNAL_LABEL = "checking external links"


class ProgressView(Protocol):
    def update(self, snapshot: Snapshot) -> None: ...

    def close(self) -> None: ...


class PlainLines:
    """One line per snapshot, for logs (`  crawling: 8 pages crawled, ...`)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def update(self, snapshot: Snapshot) -> None:
        if snapshot.checking_external and snapshot.external is not None:
            line = f"  {EXTERNAL_LABEL}: {snapshot.external.line()}, {snapshot.elapsed()}"
            print(line, file=self.stream, flush=True)
            return
        found = "" if snapshot.discovered is None else f", {snapshot.discovered} discovered"
        print(
            f"  {snapshot.phase}: {snapshot.crawled} pages crawled{found}, "
            f"{snapshot.rate:.1f} pages/s, {snapshot.elapsed()}",
            file=self.stream,
            flush=True,
        )

    def close(self) -> None:
        return None


class RichBar:
    """A progress bar redrawn in place; drawn on each update (no refresh thread)."""

    def __init__(self, console: Console) -> None:
        # rich costs a tenth of a second to import: only a run on a terminal pays it.
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.progress = Progress(
            TextColumn("{task.description:<10}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[detail]}"),
            console=console,
            auto_refresh=False,
        )
        self.task: TaskID | None = None

    def update(self, snapshot: Snapshot) -> None:
        description, completed, total, detail = _bar(snapshot)
        if self.task is None:
            self.progress.start()
            self.task = self.progress.add_task(
                description, total=total, completed=completed, detail=detail
            )
        self.progress.update(
            self.task, description=description, completed=completed, total=total, detail=detail
        )
        self.progress.refresh()

    def close(self) -> None:
        if self.task is not None:
            self.progress.stop()


def _bar(snapshot: Snapshot) -> tuple[str, int, int, str]:
    """The bar's description, counts and the text after them: pages while crawling, URLs while
    checking external links."""
    if snapshot.checking_external and snapshot.external is not None:
        external = snapshot.external
        failing = f"{external.hosts_failing} hosts failing"
        detail = f"external URLs checked · {failing} · {snapshot.elapsed()}"
        return "external links", external.checked, external.urls, detail
    discovered = "?" if snapshot.discovered is None else str(snapshot.discovered)
    total = max(snapshot.expected or 0, snapshot.crawled)
    detail = f"pages · {discovered} discovered · {snapshot.rate:.1f} pages/s · {snapshot.elapsed()}"
    return snapshot.phase, snapshot.crawled, total, detail


def progress_view(stream: TextIO) -> ProgressView:
    """A bar when `stream` is a terminal, plain lines otherwise."""
    if stream.isatty():
        from rich.console import Console

        return RichBar(Console(file=stream))
    return PlainLines(stream)
