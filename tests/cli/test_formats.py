"""`siteaudit audit|report --format ... --output ... --fail-on ...` as separate processes, on a
local site with known defects: the documents, the gate's exit statuses and its one-line reasons."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import html5lib
import jsonschema
import pytest
import xmlschema

from cli.main import main
from service.exports import ISSUE_COLUMNS
from tests.support.chain_site import Chain
from tests.support.cli_process import ROOT, audit_killed_midway, cli
from tests.support.elements import attr, find
from tests.support.site_server import Reply, html_page, serve_site

DATA = Path(__file__).parents[1] / "data"
SARIF = jsonschema.Draft4Validator(
    json.loads((DATA / "sarif" / "sarif-schema-2.1.0.json").read_text()),
    format_checker=jsonschema.FormatChecker(),
)
JUNIT = xmlschema.XMLSchema(DATA / "junit" / "junit-10.xsd")

# Two critical defects (a page without a title, a link to a 404) and a warning or two besides.
DEFECTS = {
    "/": Reply(
        body=html_page(
            "Home of the gated site",
            "<h1>Home</h1><a href='/about'>About</a> <a href='/gone'>Gone</a>",
        )
    ),
    "/about": Reply(body=b"<!doctype html><html lang=en><body><h1>About</h1><a href='/'>Home</a>"),
}


def run(state: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cli("--state-dir", str(state), *args), capture_output=True, text=True, timeout=120, cwd=ROOT
    )


@dataclass(frozen=True)
class Audited:
    state: Path
    audit_id: str
    clean_id: str  # an audit of a site without those defects, as a baseline
    sarif_run: subprocess.CompletedProcess[str]
    sarif_path: Path

    def report(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run(self.state, "report", self.audit_id, *args)


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Audited]:
    base = tmp_path_factory.mktemp("formats")
    state, sarif_path = base / "state", base / "out" / "audit.sarif"
    clean = {"/": Reply(body=html_page("Home of the clean site", "<h1>Home</h1>"))}
    with serve_site(DEFECTS) as site, serve_site(clean) as clean_site:
        sarif_run = run(
            state, "audit", site.url("/"), "--allow-private-hosts",
            "--format", "sarif", "--output", str(sarif_path), "--fail-on", "critical",
        )  # fmt: skip
        baseline = run(
            state, "audit", clean_site.url("/"), "--allow-private-hosts", "--format", "json"
        )
    assert baseline.returncode == 0, baseline.stderr
    audit_id = sarif_run.stdout.splitlines()[0].removeprefix("audit ")
    # The report went to stdout, alone: `audit <id>` moved to stderr.
    clean_id = json.loads(baseline.stdout)["audit"]["id"]
    assert baseline.stderr.splitlines()[0] == f"audit {clean_id}"
    yield Audited(state, audit_id, clean_id, sarif_run, sarif_path)


def report_json(audited: Audited) -> dict:
    done = audited.report("--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_audit_writes_sarif_fails_the_gate_and_says_why_in_one_line(audited: Audited) -> None:
    done = audited.sarif_run
    log = json.loads(audited.sarif_path.read_text())
    issues = report_json(audited)["issues"]
    critical = sum(issue["severity"] == "critical" for issue in issues)

    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[0] == f"audit {audited.audit_id}"
    assert "status: completed" in done.stdout  # the summary stays on stdout
    assert re.search(r"^  \w+: \d+ pages crawled", done.stderr, re.M)  # progress, plain lines
    assert done.stderr.splitlines()[-1] == (
        f"siteaudit: gate failed: critical: {critical} issues ({critical} critical)"
    )
    assert critical >= 2
    assert not list(SARIF.iter_errors(log))
    results = log["runs"][0]["results"]
    assert sorted(
        (r["ruleId"], r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"])
        for r in results
    ) == sorted((i["issue_type"], i["page_url"]) for i in issues)
    assert {"missing-title", "broken-internal-link"} <= {r["ruleId"] for r in results}


def test_report_writes_junit_to_stdout_alone_with_the_gate_as_a_testcase(audited: Audited) -> None:
    done = audited.report("--format", "junit", "--fail-on", "critical,score<0")

    assert done.returncode == 1
    JUNIT.validate(done.stdout)
    root = ET.fromstring(done.stdout)
    checks = {c.get("name"): c for c in find(root, "testsuite").findall("testcase")}
    assert checks["fail-on critical"].find("failure") is not None
    assert checks["fail-on score<0"].find("failure") is None
    assert checks["audit completed"].find("error") is None
    failed_suites = {
        attr(s, "name").split(":")[0]
        for s in root.findall("testsuite")[1:]
        if s.get("failures") != "0"
    }
    # Critical only, as gated: the site's two critical SEO types, and the security grade's tests
    # that a plain-http site without security headers fails at -20 or worse (docs/security.md).
    grade_tests = {
        "security-csp",
        "security-hsts",
        "security-redirection",
        "security-x-frame-options",
    }
    assert failed_suites == {"missing-title", "broken-internal-link", *grade_tests}


def test_report_writes_the_issues_csv(audited: Audited, tmp_path: Path) -> None:
    out = tmp_path / "issues.csv"
    done = audited.report("--format", "csv", "--output", str(out))
    rows = list(csv.reader(io.StringIO(out.read_text(), newline="")))

    assert done.returncode == 0, done.stderr
    assert "status: completed" in done.stdout
    assert done.stderr == f"siteaudit: csv report written to {out}\n"
    assert tuple(rows[0]) == ISSUE_COLUMNS
    assert len(rows) - 1 == len(report_json(audited)["issues"])


def test_json_output_and_the_json_shorthand_write_the_same_report(
    audited: Audited, tmp_path: Path
) -> None:
    long, short = tmp_path / "long.json", tmp_path / "short.json"

    assert audited.report("--format", "json", "--output", str(long)).returncode == 0
    assert audited.report("--json", str(short)).returncode == 0
    assert json.loads(long.read_text()) == json.loads(short.read_text())
    keys = {"audit", "summary", "security", "exposure", "links", "pages", "issues", "lighthouse"}
    keys |= {"actions", "scores", "verdict_note"}  # the verdict, first in key order
    keys |= {"timing"}  # what the timing check measured again
    keys |= {"rendering"}  # what rendering did (docs/rendering.md)
    keys |= {"structured_data"}  # the pages' structured data (docs/structured-data.md)
    keys |= {"scope"}  # the scope the audit ran with (service.scope_report)
    keys |= {"page_links"}  # the per-URL link lists of the HTML report's view
    assert keys == set(json.loads(long.read_text()))
    assert next(iter(json.loads(long.read_text()))) == "actions"


@pytest.mark.parametrize(
    ("fail_on", "status", "reason"),
    [
        (["score<0"], 0, "gate passed: score<0"),
        (["score<100"], 1, "gate failed: score<100: health score"),
        (["warning"], 1, "gate failed: warning: "),
        (["new-issues-since={self}"], 0, "gate passed: new-issues-since="),
        (["new-issues-since={clean}"], 1, "new issues"),
        (["score<0", "new-issues-since={clean},critical"], 1, "; critical: "),
    ],
)
def test_the_gate_decides_the_exit_status(audited: Audited, fail_on, status, reason) -> None:
    ids = {"self": audited.audit_id, "clean": audited.clean_id}
    args = [arg for value in fail_on for arg in ("--fail-on", value.format(**ids))]

    done = audited.report(*args)

    assert done.returncode == status, done.stderr
    (line,) = [line for line in done.stderr.splitlines() if line.startswith("siteaudit: gate")]
    assert reason in line
    if "{clean}" in "".join(fail_on):
        assert f"since {audited.clean_id}" in line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fail-on", "criticl"], "argument --fail-on: unknown condition 'criticl'"),
        (["--fail-on", "grade<Z"], "grade<G needs a grade G among A+ A A- B+"),
        (["--fail-on", "score<x"], "score<N needs a number N, not 'x'"),
        (["--format", "pdf"], "argument --format: invalid OutputFormat value: 'pdf'"),
        (["--json", "a.json", "--format", "sarif"], "--json FILE is short for --format json"),
    ],
)
@pytest.mark.parametrize("command", [["report", "a1"], ["audit", "https://example.com/"]])
def test_usage_errors_exit_2_with_a_clear_message_before_anything_runs(
    command, args, message, capsys, tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--state-dir", str(tmp_path / "state"), *command, *args])

    captured = capsys.readouterr()
    assert exited.value.code == 2 and captured.out == ""
    assert message in captured.err
    assert not (tmp_path / "state").exists()  # refused before the platform opened


def test_report_refuses_an_unknown_audit_or_baseline(audited: Audited) -> None:
    baseline = audited.report("--fail-on", "new-issues-since=no-such-audit")
    unknown = run(audited.state, "report", "no-such-audit", "--format", "sarif")

    for done in (baseline, unknown):
        assert done.returncode == 2 and done.stdout == ""
        assert "no audit with id no-such-audit" in done.stderr


def test_an_unknown_baseline_is_refused_before_any_crawl(audited: Audited) -> None:
    done = run(
        audited.state, "audit", "http://127.0.0.1:9/", "--allow-private-hosts",
        "--fail-on", "new-issues-since=no-such-audit",
    )  # fmt: skip

    assert done.returncode == 2 and done.stdout == ""
    assert "no audit with id no-such-audit" in done.stderr


def test_an_audit_that_did_not_complete_exits_3_with_its_partial_report(tmp_path: Path) -> None:
    state, out = tmp_path / "state", tmp_path / "partial.sarif"
    chain = Chain()
    with serve_site(chain.routes()) as site:
        with chain.held():
            audit_id = audit_killed_midway(state, site.url("/"), min_pages=3)
        running = run(state, "report", audit_id)
        assert run(state, "cancel", audit_id).returncode == 0
    done = run(
        state,
        "report",
        audit_id,
        "--format",
        "sarif",
        "--output",
        str(out),
        "--fail-on",
        "critical",
    )

    assert running.returncode == 2 and f"audit {audit_id} is still running" in running.stderr
    assert done.returncode == 3, done.stderr
    assert done.stderr.splitlines()[-1].startswith(
        f"siteaudit: audit {audit_id} cancelled: partial results after"
    )
    assert done.stderr.splitlines()[-1].endswith("pages; gate not decided")
    log = json.loads(out.read_text())
    assert not list(SARIF.iter_errors(log))
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_audit_writes_an_html_report_that_keeps_the_sites_markup_as_text(tmp_path: Path) -> None:
    hostile = "<script>alert('pwned')</script> shop"
    routes = {
        "/": Reply(body=html_page(hostile, "<h1>Home</h1><a href='/gone'>Gone</a>")),
    }
    out = tmp_path / "out" / "report.html"
    with serve_site(routes) as site:
        done = run(
            tmp_path / "state", "audit", site.url("/"), "--allow-private-hosts",
            "--format", "html", "--output", str(out),
        )  # fmt: skip
    root = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(out.read_text())

    assert done.returncode == 0, done.stderr
    assert "status: completed" in done.stdout
    assert done.stderr.splitlines()[-1] == f"siteaudit: html report written to {out}"
    scripts = [s for s in root.iter("script") if s.get("type") != "application/json"]
    assert len(scripts) == 1  # the report's own; the title stayed text
    cells = ["".join(td.itertext()) for td in root.iter("td")]
    assert hostile in cells
    (data,) = [s for s in root.iter("script") if s.get("type") == "application/json"]
    assert hostile in {row[4] for row in json.loads(data.text)["rows"]}  # the data island's too
    articles = {a.get("id") for a in root.iter("article")}
    assert "type-broken-internal-link" in articles
    assert not list(out.parent.glob("*.tmp"))


def test_report_writes_html_whose_findings_match_the_json_report(
    audited: Audited, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    done = audited.report("--format", "html", "--output", str(out))
    root = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(out.read_text())
    report = report_json(audited)

    assert done.returncode == 0, done.stderr
    shown = {
        a.get("id").removeprefix("type-"): a.find("h4/span").text for a in root.iter("article")
    }
    # One article per finding, saying where it is, as the JSON report's actions do.
    expected = {}
    for action in report["actions"]:
        noun = "page" if action["pages"] == 1 else "pages"
        wide = ", site-wide" if action["scope"] == "site-wide" else ""
        where = f"{action['pages']:,} {noun}{wide}"
        expected[action["issue_type"]] = "whole site" if action["scope"] == "site" else where
    assert shown == expected
    # Every issue row's type is part of one finding.
    covered = {t for action in report["actions"] for t in action["issue_types"]}
    assert {issue["issue_type"] for issue in report["issues"]} <= covered
    # The verdict and its ranked list are the first section of the report.
    first = next(root.iter("section"))
    assert first.find("h2").text == "Verdict"
