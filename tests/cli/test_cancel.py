"""`siteaudit cancel` from another process: the audit stops under `cancelled` with what it crawled,
a second cancel is refused, and `siteaudit resume` finishes it like an uninterrupted run."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.chain_site import PAGES, Chain
from tests.support.cli_process import ROOT, audit_killed_midway, cli
from tests.support.site_server import serve_site


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cli(*args), capture_output=True, text=True, timeout=180, cwd=ROOT)


@pytest.mark.slow
def test_cancel_keeps_the_partial_audit_and_resume_finishes_it(tmp_path: Path) -> None:
    state = tmp_path / "state"
    chain = Chain()
    with serve_site(chain.routes()) as site:
        # The audit's own process is stopped outright mid-crawl, so the audit is still running
        # when `cancel` (a process of its own) reaches it.
        with chain.held():
            audit_id = audit_killed_midway(state, site.url("/"), min_pages=4)

        cancelled = run("--state-dir", str(state), "cancel", audit_id)
        again = run("--state-dir", str(state), "cancel", audit_id)
        unknown = run("--state-dir", str(state), "cancel", "no-such-audit")
        resumed = run(
            "--state-dir", str(state), "resume", audit_id, "--json", str(tmp_path / "report.json")
        )

    assert cancelled.returncode == 0, cancelled.stderr
    words = cancelled.stdout.split()
    assert words[:2] == ["cancelled", audit_id] and 4 <= int(words[3]) < PAGES
    assert again.returncode == 2
    assert "only running audits can be cancelled; this one is cancelled" in again.stderr
    assert unknown.returncode == 2 and "no audit with id no-such-audit" in unknown.stderr
    assert resumed.returncode == 0, resumed.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert (report["audit"]["status"], report["audit"]["resume_count"]) == ("completed", 1)
    assert len(report["pages"]) == PAGES + 2  # + home + the 404
