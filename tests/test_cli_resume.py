"""A CLI audit killed outright (SIGKILL) leaves its audit resumable: `siteaudit resume` finishes it
with the same pages and issues as an uninterrupted run, and the same report format."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from tests.support.cli_process import ROOT, audit_killed_midway, cli
from tests.support.site_server import Reply, Route, SiteRequest, html_page, serve_site

PAGES = 30


def slow_page(i: int) -> Route:
    def reply(request: SiteRequest) -> Reply:
        time.sleep(0.15)  # slow enough that the crawl is caught half-way
        return Reply(body=html_page(f"Page {i} of the slow site", f"<a href='/p{i + 1}'>next</a>"))

    return reply


def routes() -> dict[str, Route]:
    table: dict[str, Route] = {f"/p{i}": slow_page(i) for i in range(PAGES)}
    table["/"] = Reply(body=html_page("Home of the slow site", "<a href='/p0'>start</a>"))
    return table


def comparable(report: dict) -> tuple:
    pages = sorted(
        (p["url"], p["status_code"], p["title"], p["crawl_depth"]) for p in report["pages"]
    )
    issues = sorted((i["issue_type"], i["page_url"]) for i in report["issues"])
    return report["audit"]["status"], pages, issues


def test_a_sigkilled_audit_is_finished_by_resume(tmp_path: Path) -> None:
    with serve_site(routes()) as site:
        baseline = subprocess.run(
            cli(
                "--state-dir",
                str(tmp_path / "a"),
                "audit",
                site.url("/"),
                "--allow-private-hosts",
                "--json",
                str(tmp_path / "baseline.json"),
            ),
            capture_output=True,
            text=True,
            timeout=180,
            cwd=ROOT,
        )
        assert baseline.returncode == 0, baseline.stderr

        state = tmp_path / "b"
        audit_id = audit_killed_midway(state, site.url("/"), min_pages=8)

        resumed = subprocess.run(
            cli(
                "--state-dir",
                str(state),
                "resume",
                audit_id,
                "--json",
                str(tmp_path / "resumed.json"),
            ),
            capture_output=True,
            text=True,
            timeout=180,
            cwd=ROOT,
        )

    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.splitlines()[0] == f"audit {audit_id}"
    first, again = (
        json.loads((tmp_path / name).read_text()) for name in ("baseline.json", "resumed.json")
    )
    assert set(first) == set(again)  # the same report format
    assert comparable(again) == comparable(first)
    assert (
        comparable(again)[0] == "completed" and len(again["pages"]) == PAGES + 2
    )  # + home + the 404
