"""The HTML report of a monitor's run: the monitor's scores over its runs (chart and table, capped
to the last runs, none after the reported one) and the new and fixed issues since the previous
completed run, matched as service.compare matches them; and why a run is not compared."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from xml.etree.ElementTree import Element

import pytest

from audit.catalogue import CATALOGUE, IssueType
from auditdb import monitors as table
from auditdb import repository
from auditdb.monitors import MonitorRecord, MonitorRunRecord
from auditdb.records import AuditRecord, AuditStatus, IssueRecord, PageRecord
from common.bindings import Env
from common.failures import ErrorCode
from service.html_report import export_html
from service.run_finish import finish_run_for_audit
from service.run_history import NotCompared, run_history
from tests.service.html_doc import parse
from tests.service.run_helpers import OWNER, manual_platform, new_monitor
from tests.support.elements import attr, find
from tests.support.manual_platform import ManualPlatform

SITE = "https://shop.test/"
DOWN = (ErrorCode.SITE_HTTP_ERROR, "The start URL answered HTTP 503 (Service Unavailable).")


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[ManualPlatform]:
    async for platform in manual_platform(tmp_path):
        yield platform


def day(n: int) -> str:
    return f"2026-12-{n:02d}T10:00:00.000Z"


async def audited_run(
    env: Env,
    monitor: MonitorRecord,
    n: int,
    issues: list[tuple[str, str]],
    status: AuditStatus = AuditStatus.COMPLETED,
    score: float | None = None,
    grade: tuple[str, int] | None = None,
    failure: tuple[ErrorCode, str] | None = None,
) -> MonitorRunRecord:
    """Run `n` of the monitor (started on day `n`): its audit with one page per issue row
    (type, path), ended with `status`, then finished as the queue consumer finishes it."""
    audit_id = f"audit-{n}"
    await repository.insert_audit(env.DB, AuditRecord(audit_id, SITE, day(n), OWNER))
    paths = sorted({path for _, path in issues})
    pages = [PageRecord(f"{audit_id}-{p}", audit_id, SITE + p, day(n)) for p in paths]
    rows = [
        IssueRecord(
            f"{audit_id}-{t}-{p}", audit_id, SITE + p, t, str(CATALOGUE[IssueType(t)].severity)
        )
        for t, p in issues
    ]
    await repository.write_crawled_pages(env.DB, pages, rows)
    letter, points = grade or (None, None)
    code, detail = failure or (None, None)
    await (
        env.DB.prepare(
            "UPDATE audits SET status = ?, health_score = ?, finished_at = ?, security_grade = ?, "
            "security_score = ?, error_code = ?, error_detail = ? WHERE id = ?"
        )
        .bind(str(status), score, day(n), letter, points, code, detail, audit_id)
        .run()
    )
    run = MonitorRunRecord(f"run-{n:02d}", monitor.id, day(n), day(n), audit_id=audit_id)
    await table.record_run_start(env.DB, run, day(n + 1))
    await finish_run_for_audit(env, audit_id)
    return run


async def report(env: Env, audit_id: str) -> Element:
    export = await export_html(env, OWNER, audit_id)
    return parse(b"".join([chunk async for chunk in export.chunks]).decode())


def text(el: Element | None) -> str:
    assert el is not None
    return " ".join("".join(el.itertext()).split())


def section(root: Element, heading: str) -> Element:
    (found,) = [s for s in root.iter("section") if s.get("aria-labelledby") == heading]
    return found


async def test_a_run_shows_its_history_and_what_changed_since_the_previous_run(local) -> None:
    env = local.env
    monitor, _ = await new_monitor(env, SITE)
    await audited_run(env, monitor, 1, [("missing-title", "a"), ("missing-h1", "b")], score=70)
    await audited_run(env, monitor, 2, [], AuditStatus.FAILED, failure=DOWN)  # no baseline
    await audited_run(
        env,
        monitor,
        3,
        [("missing-h1", "b"), ("missing-meta-description", "c")],
        score=82.5,
        grade=("B", 75),
    )
    root = await report(env, "audit-3")
    history = section(root, "history-h")

    runs = find(history, ".//table[@class='runs']/tbody").findall("tr")
    started = [text(tr.find("th")) for tr in runs]
    assert started == [  # newest first
        "2026-12-03 10:00 UTC (this report)",
        "2026-12-02 10:00 UTC",
        "2026-12-01 10:00 UTC",
    ]
    cells = [[text(td) for td in tr.findall("td")] for tr in runs]
    assert [c[:3] for c in cells] == [
        ["completed", "82.5", "B (75)"],
        [f"failed {DOWN[1]}", "", ""],  # with its reason
        ["completed", "70", ""],
    ]
    assert [c[6:] for c in cells] == [["1", "1"], ["", ""], ["", ""]]  # new, fixed
    svg = find(history, ".//svg")
    label = attr(svg, "aria-label")
    assert "Health score 70 at 2026-12-01, 82.5 at 2026-12-03" in label
    assert "Security score 75 at 2026-12-03" in label
    dots = [c for c in svg.iter("circle") if "series-health" in attr(c, "class")]
    assert len(dots) == 2  # the failed run has no score: a gap, not a zero

    changes = text(section(history, "changes-h"))
    assert (
        "Compared with the run of 2026-12-01 (audit audit-1): health score 70 → 82.5 (+12.5)"
        in changes
    )
    new, fixed = (history.find(f".//h4[@id='{k}-h']") for k in ("new", "fixed"))
    assert text(new) == "New issues 1" and text(fixed) == "Fixed issues 1"
    items = [text(li) for li in section(history, "changes-h").iter("li")]
    meta, title = CATALOGUE[IssueType.MISSING_META_DESCRIPTION], CATALOGUE[IssueType.MISSING_TITLE]
    assert items == [
        f"{meta.severity} {meta.title}: {SITE}c",
        f"{title.severity} {title.title}: {SITE}a",
    ]


async def test_the_lists_of_changes_are_capped_with_the_command_for_all(local) -> None:
    env = local.env
    monitor, _ = await new_monitor(env, SITE)
    await audited_run(env, monitor, 1, [], score=90)
    await audited_run(
        env, monitor, 2, [("missing-title", f"p{n:02d}") for n in range(25)], score=60
    )
    history = section(await report(env, "audit-2"), "history-h")
    changes = section(history, "changes-h")

    assert len(list(changes.iter("li"))) == 20
    assert "and 5 more: siteaudit compare audit-1 audit-2" in text(changes)


async def test_the_history_holds_the_last_runs_up_to_the_reported_one(local) -> None:
    env = local.env
    monitor, _ = await new_monitor(env, SITE)
    for n in range(1, 7):
        await audited_run(env, monitor, n, [], score=float(n * 10))
    audit = await repository.get_audit(env.DB, "audit-5")
    assert audit is not None

    history = await run_history(env, audit, limit=3)

    assert history is not None
    assert [r.id for r in history.runs] == ["run-03", "run-04", "run-05"]  # oldest first; not 6
    assert history.baseline is not None and history.baseline.id == "run-04"
    assert history.comparison is not None and history.comparison.health_score.delta == 10


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("first", NotCompared.FIRST),
        ("incomplete", NotCompared.INCOMPLETE),
        ("baseline deleted", NotCompared.BASELINE_DELETED),
    ],
)
async def test_why_a_run_is_not_compared(local, case: str, reason: NotCompared) -> None:
    env = local.env
    monitor, _ = await new_monitor(env, SITE)
    if case != "first":
        await audited_run(env, monitor, 1, [("missing-title", "a")], score=50)
    status = AuditStatus.CANCELLED if case == "incomplete" else AuditStatus.COMPLETED
    await audited_run(env, monitor, 2, [], status, score=60)
    if case == "baseline deleted":
        await repository.delete_audit(env.DB, "audit-1")

    changes = section(section(await report(env, "audit-2"), "history-h"), "changes-h")

    assert f"Not compared: {reason}." in text(changes)
    assert not list(changes.iter("li"))


async def test_an_audit_no_monitor_ran_has_no_history(local) -> None:
    env = local.env
    await repository.insert_audit(env.DB, AuditRecord("solo", SITE, day(1), OWNER))
    root = await report(env, "solo")
    assert not [s for s in root.iter("section") if s.get("aria-labelledby") == "history-h"]


async def test_another_owners_monitor_lends_no_history(local) -> None:
    """A run row pointing at an audit of another owner (which the API never writes) is not
    followed: the monitor must be the audit's owner's."""
    env = local.env
    monitor, _ = await new_monitor(env, SITE)
    await repository.insert_audit(env.DB, AuditRecord("theirs", SITE, day(1), "someone-else"))
    run = MonitorRunRecord("run-x", monitor.id, day(1), day(1), audit_id="theirs")
    await table.record_run_start(env.DB, run, day(2))
    audit = await repository.get_audit(env.DB, "theirs")
    assert audit is not None
    assert await run_history(env, audit) is None
