"""`siteaudit audit|report|resume` as separate processes on start URLs that cannot be audited and on
a host given without a scheme: the exit status, the stderr lines, the gate, and what every report
format says (the text summary, JSON, SARIF, JUnit, HTML)."""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import html5lib
import pytest

from tests.badseo.failing_sites import closed_port
from tests.cli.test_formats import JUNIT, SARIF, run
from tests.support.elements import attr, find
from tests.support.site_server import Reply, html_page, serve_site

MEANING = "the site could not be connected to (site_connection_failed)"
SITE = {"/": Reply(body=html_page("Home of the site that was down", "<h1>Home</h1>"))}


@dataclass(frozen=True)
class Down:
    state: Path
    port: int
    audit_id: str
    sentence: str
    done: subprocess.CompletedProcess[str]

    def report(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run(self.state, "report", self.audit_id, *args)


@pytest.fixture(scope="module")
def down(tmp_path_factory: pytest.TempPathFactory) -> Down:
    state, port = tmp_path_factory.mktemp("down") / "state", closed_port()
    url = f"http://127.0.0.1:{port}/"
    done = run(state, "audit", url, "--allow-private-hosts", "--fail-on", "critical")
    audit_id = done.stdout.splitlines()[0].removeprefix("audit ")
    sentence = (
        f"{url} refused the connection: nothing answered on port {port}. Check that the site is "
        "running and that the address and port are right."
    )
    return Down(state, port, audit_id, sentence, done)


def test_a_closed_port_exits_3_says_why_and_fails_the_gate(down: Down) -> None:
    assert down.done.returncode == 3, down.done.stderr
    assert down.done.stderr.splitlines()[-2:] == [
        f"siteaudit: audit {down.audit_id} failed: {MEANING}: {down.sentence}",
        f"siteaudit: gate failed: the audit failed: {down.sentence}",
    ]
    summary = down.done.stdout.splitlines()
    assert summary[1:4] == [
        "status: failed",
        f"start url: http://127.0.0.1:{down.port}/",
        f"failed: {MEANING}: {down.sentence}",
    ]
    assert "None" not in down.done.stdout + down.done.stderr


def test_the_json_report_carries_the_code_and_the_sentence(down: Down) -> None:
    done = down.report("--format", "json")

    assert done.returncode == 3
    audit = json.loads(done.stdout)["audit"]
    assert (audit["status"], audit["error_code"], audit["failed_phase"]) == (
        "failed",
        "site_connection_failed",
        "discovery",
    )
    assert audit["error_detail"] == audit["site_failure"] == down.sentence


def test_sarif_says_the_run_did_not_succeed_and_why(down: Down) -> None:
    done = down.report("--format", "sarif")

    assert done.returncode == 3
    log = json.loads(done.stdout)
    assert not list(SARIF.iter_errors(log))
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"] == [
        {"level": "error", "message": {"text": f"the audit failed: {MEANING}: {down.sentence}"}}
    ]
    assert log["runs"][0]["results"] == []


def test_junit_fails_the_audit_completed_testcase_and_every_gate_condition(down: Down) -> None:
    done = down.report("--format", "junit", "--fail-on", "critical,score<50")

    assert done.returncode == 3
    JUNIT.validate(done.stdout)
    suite = find(ET.fromstring(done.stdout), "testsuite")
    checks = {c.get("name"): c for c in suite.findall("testcase")}
    completed = checks["audit completed"].find("failure")
    assert completed is not None and down.sentence in attr(completed, "message")
    for name in ("fail-on critical", "fail-on score<50"):
        failure = checks[name].find("failure")
        assert failure is not None and down.sentence in attr(failure, "message")


def test_the_html_report_opens_with_the_failure(down: Down, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    done = down.report("--format", "html", "--output", str(out))

    assert done.returncode == 3
    root = html5lib.parse(out.read_text(), namespaceHTMLElements=False)
    first = root.find(".//main")[0]
    assert (first.get("role"), first.get("class")) == ("alert", "failure")
    assert down.sentence in " ".join(" ".join(first.itertext()).split())


def test_a_resume_once_the_site_is_back_audits_it_from_the_start(
    down: Down, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    url = f"http://127.0.0.1:{down.port}/"
    failed = run(state, "audit", url, "--allow-private-hosts")
    audit_id = failed.stdout.splitlines()[0].removeprefix("audit ")
    with serve_site(dict(SITE), port=down.port):
        resumed = run(state, "resume", audit_id, "--fail-on", "critical")

    assert failed.returncode == 3
    assert resumed.returncode in (0, 1), resumed.stderr  # completed: the gate decides now
    assert "status: completed" in resumed.stdout and "pages crawled: 1" in resumed.stdout


@pytest.fixture
def plain_http() -> Iterator[str]:
    with serve_site(dict(SITE)) as site:
        yield site.origin.removeprefix("http://")


def test_a_bare_host_of_a_plain_http_site_is_audited_over_http_and_says_so(
    plain_http: str, tmp_path: Path
) -> None:
    note = (
        f"no scheme given: https://{plain_http}/ did not connect (TLS failed), auditing "
        f"http://{plain_http}/"
    )
    text = run(tmp_path / "state", "audit", plain_http, "--allow-private-hosts")
    as_json = run(
        tmp_path / "state", "audit", plain_http, "--allow-private-hosts", "--format", "json"
    )

    assert text.returncode == 0, text.stderr
    assert note in text.stdout.splitlines()
    assert as_json.returncode == 0, as_json.stderr
    assert f"siteaudit: {note}" in as_json.stderr.splitlines()
    audit = json.loads(as_json.stdout)["audit"]
    assert (audit["final_url"], audit["scheme_note"]) == (f"http://{plain_http}/", note)
    assert [page["status_code"] for page in json.loads(as_json.stdout)["pages"]] == [200]
