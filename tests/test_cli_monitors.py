"""`siteaudit monitors`: add, list, run the due ones (the baseline run of a new monitor), remove."""

from __future__ import annotations

from pathlib import Path

from tests.support.site_server import Site
from tests.test_cli import siteaudit


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

    removed = siteaudit("monitors", "remove", monitor_id, state_dir=state)
    assert (removed.returncode, removed.stdout) == (0, f"removed {monitor_id}\n")
    gone = siteaudit("monitors", "remove", monitor_id, state_dir=state)
    assert gone.returncode == 2 and f"no monitor with id {monitor_id}" in gone.stderr


def test_add_refuses_a_private_webhook(tmp_path: Path) -> None:
    done = siteaudit(
        "monitors", "add", "https://example.com", "--webhook-url", "http://10.0.0.1/hook",
        state_dir=tmp_path / "state",
    )  # fmt: skip

    assert done.returncode == 2 and "webhook_url" in done.stderr
