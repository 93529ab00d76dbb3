"""`siteaudit monitors`: add, list, run the due ones (the baseline run of a new monitor), remove."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.monitors import _run_row
from tests.support.cli_process import siteaudit
from tests.support.site_server import Site


def test_add_list_run_due_and_remove(small_site: Site, tmp_path: Path) -> None:
    state = tmp_path / "state"
    added = siteaudit(
        "monitors", "add", small_site.url("/"), "--frequency", "weekly", "--hour", "6",
        "--max-pages", "5", "--allow-private-hosts", state_dir=state,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    first, secret = added.stdout.splitlines()
    monitor_id = first.split()[1].rstrip(":")
    assert first == f"monitor {monitor_id}: {small_site.url('/')}, weekly at 06:00 UTC"
    assert secret.startswith("whsec_") and "not shown again" in added.stderr

    listed = siteaudit("monitors", "list", state_dir=state)
    assert listed.returncode == 0
    assert monitor_id in listed.stdout and "weekly at 06:00 UTC" in listed.stdout

    ran = siteaudit("monitors", "run-due", "--allow-private-hosts", state_dir=state)
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0] == "1 monitors due"
    assert lines[1].startswith(f"monitor {monitor_id}: started, audit ")
    assert "completed (health score" in lines[1]
    assert lines[1].endswith(", run completed, report stored")  # no webhook: no alert
    again = siteaudit("monitors", "run-due", "--allow-private-hosts", state_dir=state)
    assert again.stdout.splitlines() == ["0 monitors due"]
    forced = siteaudit(
        "monitors", "run-due", "--now", monitor_id, "--allow-private-hosts", state_dir=state
    )  # fmt: skip
    assert forced.stdout.splitlines()[0] == "1 monitors due", forced.stderr
    unknown = siteaudit("monitors", "run-due", "--now", "nope", state_dir=state)
    assert unknown.returncode == 1 and "no active monitor nope" in unknown.stderr

    history = siteaudit("monitors", "runs", monitor_id, state_dir=state)
    assert history.returncode == 0, history.stderr
    header, *runs = history.stdout.splitlines()
    assert header.split() == [
        "STARTED", "STATUS", "SCORE", "CRITICAL", "WARNING", "INFO", "NEW", "FIXED", "REPORT",
        "AUDIT",
    ]  # fmt: skip
    first_audit = lines[1].split(", audit ")[1].split()[0]
    forced_audit = forced.stdout.splitlines()[1].split(", audit ")[1].split()[0]
    # Newest first: the forced run compared with the first (nothing changed), the first alone.
    assert [run.split()[-1] for run in runs] == [forced_audit, first_audit]
    assert runs[0].split()[6:9] == ["0", "0", "yes"] and runs[1].split()[6:9] == ["-", "-", "yes"]

    removed = siteaudit("monitors", "remove", monitor_id, state_dir=state)
    assert (removed.returncode, removed.stdout) == (0, f"removed {monitor_id}\n")
    gone = siteaudit("monitors", "remove", monitor_id, state_dir=state)
    assert gone.returncode == 2 and f"no monitor with id {monitor_id}" in gone.stderr
    no_history = siteaudit("monitors", "runs", monitor_id, state_dir=state)
    assert no_history.returncode == 2 and f"no monitor with id {monitor_id}" in no_history.stderr


def test_add_refuses_a_private_webhook(tmp_path: Path) -> None:
    done = siteaudit(
        "monitors", "add", "https://example.com", "--webhook-url", "http://10.0.0.1/hook",
        state_dir=tmp_path / "state",
    )  # fmt: skip

    assert done.returncode == 2 and "webhook_url" in done.stderr


FINISHED = {
    "started_at": "2026-11-30T06:00:04.000Z",
    "status": "completed",
    "health_score": 87.5,
    "critical_count": 1,
    "warning_count": 4,
    "info_count": 0,
    "new_issues": 2,
    "fixed_issues": 0,
    "has_report": True,
    "audit_id": "a1",
}
UNFINISHED = {
    **FINISHED,
    "status": "running",
    **dict.fromkeys(["health_score", "critical_count", "warning_count", "info_count"]),
    **dict.fromkeys(["new_issues", "fixed_issues"]),
    "has_report": False,
}


@pytest.mark.parametrize(
    ("run", "row"),
    [
        (FINISHED, ("2026-11-30T06:00:04.000Z", "completed", "87.5", "1", "4", "0", "2", "0")),
        (UNFINISHED, ("2026-11-30T06:00:04.000Z", "running", *["-"] * 6)),
        ({**FINISHED, "health_score": 90.0}, (FINISHED["started_at"], "completed", "90")),
    ],
)
def test_a_run_row_reads_as_a_person_reads_it(run: dict[str, object], row: tuple[str, ...]) -> None:
    rendered = _run_row(run)

    assert rendered[: len(row)] == row
    assert rendered[-2:] == (("yes", "a1") if run["has_report"] else ("no", "a1"))


def test_a_run_that_never_started_its_audit_shows_a_dash() -> None:
    assert _run_row({**UNFINISHED, "status": "failed", "audit_id": None})[-1] == "-"


def test_add_keeps_the_lighthouse_check_external_and_render_options(tmp_path: Path) -> None:
    import sqlite3
    from contextlib import closing

    state = tmp_path / "state"
    added = siteaudit(
        "monitors", "add", "https://example.com", "--lighthouse", "none", "--check-external",
        "--render", "always", state_dir=state,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    with closing(sqlite3.connect(state / "d1" / "siteaudit.sqlite")) as db:
        rows = db.execute("SELECT lighthouse, check_external, render FROM monitors").fetchall()
        assert rows == [("none", 1, "always")]


def test_runs_prints_a_failed_runs_reason_under_its_row(tmp_path: Path) -> None:
    import sqlite3
    from contextlib import closing

    state = tmp_path / "state"
    added = siteaudit("monitors", "add", "https://example.com", state_dir=state)
    monitor_id = added.stdout.split()[1].rstrip(":")
    sentence = "The host name example.com does not resolve. Check the domain's DNS records."
    with closing(sqlite3.connect(state / "d1" / "siteaudit.sqlite")) as db:
        db.executemany(
            "INSERT INTO monitor_runs (id, monitor_id, audit_id, due_at, started_at, status, "
            "error_code, error_detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                ("r1", monitor_id, "a1", "d1", "2026-12-07T10:00:00.000Z", "completed", None, None),
                ("r2", monitor_id, "a2", "d2", "2026-12-08T10:00:00.000Z", "failed",
                 "site_dns_error", sentence),
                ("r3", monitor_id, "a3", "d3", "2026-12-09T10:00:00.000Z", "failed", "oom",
                 "Worker exceeded memory limit."),
            ],
        )  # fmt: skip
        db.commit()

    history = siteaudit("monitors", "runs", monitor_id, state_dir=state)

    assert history.returncode == 0, history.stderr
    _, oom, why_oom, dns, why_dns, completed = history.stdout.splitlines()
    assert oom.split()[:2] == ["2026-12-09T10:00:00.000Z", "failed"]
    assert why_oom == (
        "  siteaudit ran out of memory during the audit. Nothing was learned about the site; the "
        "next run will try again."
    )
    assert dns.split()[:2] == ["2026-12-08T10:00:00.000Z", "failed"] and why_dns == f"  {sentence}"
    assert completed.split()[:2] == ["2026-12-07T10:00:00.000Z", "completed"]
