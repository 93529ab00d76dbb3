"""The HTML report's monitor section, for an audit that is a monitor's run (service.run_history).

It shows the monitor's health score and security score over its last runs as a line chart
(service.svg_charts.LineChart) with a table of every charted run (newest first: status and a
failed run's reason, scores, grade, counts, new and fixed), then what changed since the previous
completed run: the score change, the new and fixed issues by severity, and the first of each with
the detail that locates them; `siteaudit compare` lists them all. Everything from the crawled site
is escaped."""

from __future__ import annotations

from html import escape

from audit.catalogue import Severity
from auditdb.monitors import MonitorRunRecord
from auditdb.records import IssueRecord
from service.compare import AuditComparison, IssueChanges
from service.issue_locating import locating_detail, type_title
from service.page_table import link
from service.run_history import RunHistory
from service.run_reasons import run_reason
from service.svg_charts import LineChart, Series, render_line_chart

RUN_COLUMNS = (
    "Started",
    "Status",
    "Health score",
    "Security grade",
    "Critical",
    "Warnings",
    "Info",
    "New issues",
    "Fixed issues",
)


def history_section(history: RunHistory, audit_id: str) -> str:
    monitor = history.monitor
    intro = (
        f"This audit is a run of the monitor <code>{escape(monitor.id)}</code> of "
        f"{link(monitor.url)} ({escape(str(monitor.frequency))} at {monitor.hour:02d}:00 UTC). "
        f"The last {len(history.runs):,} runs, this one included:"
    )
    return (
        '<section aria-labelledby="history-h"><h2 id="history-h">Monitor history</h2>'
        f"<p>{intro}</p>{render_line_chart(history_chart(history))}{_runs_table(history)}"
        f"{_changes(history, audit_id)}</section>"
    )


def history_chart(history: RunHistory) -> LineChart:
    runs = history.runs
    return LineChart(
        "history",
        "Scores over the monitor's runs",
        tuple(run.started_at[:10] for run in runs),
        (
            Series("Health score", tuple(run.health_score for run in runs), "series-health"),
            Series(
                "Security score",
                tuple(None if r.security_score is None else float(r.security_score) for r in runs),
                "series-security",
            ),
        ),
    )


def _runs_table(history: RunHistory) -> str:
    heads = "".join(f'<th scope="col">{c}</th>' for c in RUN_COLUMNS)
    last = len(history.runs) - 1
    rows = "".join(
        _run_row(run, history.comparison if i == last else None, i == last)
        for i, run in reversed(list(enumerate(history.runs)))
    )
    return (
        '<table class="runs"><caption>Runs of the monitor, newest first</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>"
    )


def _run_row(run: MonitorRunRecord, comparison: AuditComparison | None, current: bool) -> str:
    new, fixed = run.new_issues, run.fixed_issues
    if comparison is not None:  # this run's row may not be finished yet; the comparison is
        new, fixed = comparison.new_issues.total, comparison.fixed_issues.total
    grade = run.grade or ""
    if run.grade and run.security_score is not None:
        grade += f" ({run.security_score})"
    started = escape(_when(run.started_at)) + (" (this report)" if current else "")
    reason = run_reason(run)
    why = "" if reason is None else f' <br><span class="detail">{escape(reason)}</span>'
    cells = [
        escape(str(run.status)) + why,
        _optional(run.health_score),
        escape(grade),
        *(_optional(n) for n in (run.critical_count, run.warning_count, run.info_count)),
        _optional(new),
        _optional(fixed),
    ]
    tds = "".join(f"<td>{c}</td>" for c in cells)
    return f'<tr><th scope="row">{started}</th>{tds}</tr>'


def _when(stamp: str) -> str:
    """An ISO-8601 UTC stamp to the minute: `2026-12-07 10:00 UTC`."""
    return stamp[:16].replace("T", " ") + " UTC"


def _optional(value: float | int | None) -> str:
    return "" if value is None else f"{value:g}"


def _changes(history: RunHistory, audit_id: str) -> str:
    head = '<h3 id="changes-h">Since the previous run</h3>'
    comparison = history.comparison
    if comparison is None:
        reason = history.not_compared or ""
        return f'<section aria-labelledby="changes-h">{head}<p>Not compared: {escape(reason)}.</p></section>'
    before = comparison.before
    score = comparison.health_score
    change = "" if score.delta is None else f" ({score.delta:+g})"
    summary = (
        f"Compared with the run of {escape(before.created_at[:10])} (audit "
        f"<code>{escape(before.id)}</code>): health score {_optional(score.before) or 'n/a'} → "
        f"{_optional(score.after) or 'n/a'}{change}."
    )
    command = f"siteaudit compare {escape(before.id)} {escape(audit_id)}"
    return (
        f'<section aria-labelledby="changes-h">{head}<p>{summary}</p>'
        f"{_change_list('new', 'New issues', comparison.new_issues, command)}"
        f"{_change_list('fixed', 'Fixed issues', comparison.fixed_issues, command)}</section>"
    )


def _change_list(kind: str, title: str, changes: IssueChanges, command: str) -> str:
    counts = ", ".join(f"{changes.by_severity.get(s, 0):,} {s}" for s in Severity)
    by_severity = f'<p class="note">{counts}</p>' if changes.total else ""
    items = "".join(_changed(issue) for issue in changes.issues)
    listed = f'<ul class="affected">{items}</ul>' if items else ""
    more = changes.total - len(changes.issues)
    rest = f'<p class="note">and {more:,} more: <code>{command}</code></p>' if more > 0 else ""
    return (
        f'<h4 id="{kind}-h">{title} <span class="count">{changes.total:,}</span></h4>'
        f"{by_severity}{listed}{rest}"
    )


def _changed(issue: IssueRecord) -> str:
    title = type_title(issue.issue_type)
    detail = locating_detail(issue)
    extra = f' <span class="detail">{escape(detail)}</span>' if detail else ""
    return (
        f'<li><span class="sev-{escape(issue.severity)}">{escape(issue.severity)}</span> '
        f"{escape(title)}: {link(issue.page_url)}{extra}</li>"
    )
