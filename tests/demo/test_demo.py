"""`siteaudit demo` as a newcomer runs it: one command serves the demo shop, audits it and writes
the HTML report; the audit reports exactly the problems the shop plants (demo.shop.PLANTED), and
at least one issue of every category of the catalogue."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from audit.catalogue import CATALOGUE, Category, IssueType, Scope
from demo.shop import PAGES, PLANTED, routes
from tests.support.cli_process import cli

pytestmark = pytest.mark.slow  # one audit of the shop, about 7 s


@dataclass(frozen=True)
class DemoRun:
    done: subprocess.CompletedProcess[str]
    folder: Path
    report: dict[str, object]
    reported: dict[str, set[str]]  # issue type -> the paths it was reported on


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    folder = tmp_path_factory.mktemp("demo")
    run = [*cli("--state-dir", str(folder / "state"), "demo")]
    done = subprocess.run(run, capture_output=True, text=True, timeout=180, cwd=folder)
    audit_id = next(
        line.split()[1] for line in done.stdout.splitlines() if line.startswith("audit ")
    )
    as_json = subprocess.run(
        cli("--state-dir", str(folder / "state"), "report", audit_id, "--format", "json"),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=folder,
    )
    assert as_json.returncode == 0, as_json.stderr
    report = json.loads(as_json.stdout)
    reported: dict[str, set[str]] = {}
    for issue in report["issues"]:
        reported.setdefault(issue["issue_type"], set()).add(_path(issue["page_url"]))
    return DemoRun(done, folder, report, reported)


def test_one_command_serves_audits_and_writes_the_html_report(demo_run: DemoRun) -> None:
    out = demo_run.done.stdout
    report = demo_run.folder / "siteaudit-demo.html"

    assert demo_run.done.returncode == 0, demo_run.done.stderr
    assert out.startswith("demo site: http://127.0.0.1:")
    assert "status: completed" in out and "what to fix first" in out
    assert out.rstrip().endswith(f"report: {report}")
    assert report.read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("issue_type", "paths"), sorted(PLANTED.items()), ids=[str(t) for t in sorted(PLANTED)]
)
def test_each_planted_issue_is_reported_where_it_was_planted(
    demo_run: DemoRun, issue_type: IssueType, paths: tuple[str, ...]
) -> None:
    assert demo_run.reported.get(issue_type) == set(paths)


def test_nothing_is_reported_that_the_shop_does_not_plant(demo_run: DemoRun) -> None:
    assert set(demo_run.reported) == {str(t) for t in PLANTED}


def test_every_category_of_the_catalogue_has_an_issue(demo_run: DemoRun) -> None:
    categories = {IssueType(t).category for t in demo_run.reported}

    assert categories == set(Category)


def test_the_plants_cover_every_kind_a_local_site_can_have() -> None:
    """Every category and scope of the catalogue but three: Lighthouse's issues need PageSpeed
    Insights to reach the site from the internet, the crawl's own (a site that stops answering
    or rate-limits the crawl) would leave the audit of the rest incomplete, and the rendered-page
    accessibility rules need a browser running axe-core, which the demo's audit does not start."""
    assert {t.category for t in PLANTED} == set(Category)
    unplanted = {Scope.LIGHTHOUSE, Scope.CRAWL, Scope.RENDERED}
    assert {CATALOGUE[t].scope for t in PLANTED} == set(Scope) - unplanted


def test_the_shop_is_a_small_site_whose_pages_are_all_served() -> None:
    served = routes()

    assert 30 <= len(PAGES) <= 40
    assert all(page.path in served for page in PAGES)
