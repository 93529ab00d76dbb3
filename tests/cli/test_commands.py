"""The terminal interface: `siteaudit audit`, `serve` and `keys`, as separate processes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest

from tests.support.cli_process import running_serve, siteaudit
from tests.support.site_server import Site


def test_audit_prints_its_id_first_and_writes_the_report(small_site: Site, tmp_path: Path) -> None:
    report_path = tmp_path / "out" / "report.json"

    done = siteaudit(
        "audit",
        small_site.url("/"),
        "--allow-private-hosts",
        "--max-pages",
        "10",
        "--external-budget",
        "7.5",
        "--json",
        str(report_path),
        state_dir=tmp_path / "state",
    )

    assert done.returncode == 0, done.stderr
    first_line, *summary = done.stdout.splitlines()
    audit_id = first_line.removeprefix("audit ")
    assert first_line == f"audit {audit_id}" and len(audit_id) == 36
    assert "status: completed" in summary
    report = json.loads(report_path.read_text())
    assert {"audit", "summary", "pages", "issues"} <= set(report)
    assert {k: report["audit"][k] for k in ("id", "status", "start_url", "error_code")} == {
        "id": audit_id,
        "status": "completed",
        "start_url": small_site.url("/"),
        "error_code": None,
    }
    assert report["audit"]["pages_crawled"] == len(report["pages"]) >= 1
    options = report["audit"]["options"]
    assert (options["check_external"], options["external_budget_s"]) == (True, 7.5)
    assert {"url", "status_code"} <= set(report["pages"][0])

    deleted = siteaudit("delete", audit_id, state_dir=tmp_path / "state")
    assert (deleted.returncode, deleted.stdout) == (0, f"deleted {audit_id}\n"), deleted.stderr
    again = siteaudit("delete", audit_id, state_dir=tmp_path / "state")
    assert again.returncode == 2 and f"no audit with id {audit_id}" in again.stderr


def test_audit_refuses_private_hosts_without_the_flag(small_site: Site, tmp_path: Path) -> None:
    done = siteaudit("audit", small_site.url("/"), state_dir=tmp_path / "state")

    assert done.returncode == 2
    assert "private" in done.stderr and done.stdout == ""


def test_audit_rejects_a_malformed_url(tmp_path: Path) -> None:
    done = siteaudit("audit", "ftp://example.com/", state_dir=tmp_path / "state")

    assert done.returncode == 2 and "http" in done.stderr


def test_serve_answers_the_api_on_loopback(small_site: Site, tmp_path: Path) -> None:
    made = siteaudit("keys", "create", "--owner", "tester", state_dir=tmp_path / "state")
    assert made.returncode == 0, made.stderr
    key = made.stdout.splitlines()[1]
    with running_serve(tmp_path / "state") as api:
        _exercise_api(api, small_site, key)


def _exercise_api(api: str, small_site: Site, key: str) -> None:
    anonymous = httpx.post(api, json={"url": small_site.url("/")}, timeout=10)
    assert anonymous.status_code == 401
    assert anonymous.headers["www-authenticate"] == 'Bearer realm="siteaudit"'
    with httpx.Client(headers={"authorization": f"Bearer {key}"}, timeout=10) as client:
        _audit_with(client, api, small_site)


def _audit_with(client: httpx.Client, api: str, small_site: Site) -> None:
    created = client.post(api, json={"url": small_site.url("/")})
    assert created.status_code == 201
    status_url = api + "/" + created.json()["audit"]["id"]
    deadline = time.monotonic() + 60
    while (audit := client.get(status_url).json()["audit"])["status"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert audit["status"] == "completed"
    assert client.get(api + "/nope").status_code == 404
    assert client.get(api).headers["x-content-type-options"] == "nosniff"


def test_keys_create_list_revoke(tmp_path: Path) -> None:
    state = tmp_path / "state"
    made = siteaudit("keys", "create", "--owner", "acme", "--name", "ci", state_dir=state)
    assert made.returncode == 0, made.stderr
    about, secret = made.stdout.splitlines()
    key_id = about.split()[1]
    assert secret.startswith("sa_") and len(secret) == 46
    assert "not shown again" in made.stderr

    listed = siteaudit("keys", "list", state_dir=state)
    header, row = listed.stdout.splitlines()
    assert header.split()[:4] == ["ID", "OWNER", "NAME", "PREFIX"]
    assert row.split()[:4] == [key_id, "acme", "ci", secret[:11]]
    assert secret not in listed.stdout and row.split()[-2:] == ["never", "-"]

    assert siteaudit("keys", "revoke", key_id, state_dir=state).returncode == 0
    assert siteaudit("keys", "list", state_dir=state).stdout.splitlines()[1].split()[-1] != "-"
    unknown = siteaudit("keys", "revoke", "key_nope", state_dir=state)
    assert unknown.returncode == 2 and "no API key with id key_nope" in unknown.stderr
    bad = siteaudit("keys", "create", "--owner", "no spaces", state_dir=state)
    assert bad.returncode == 2 and "owner must be" in bad.stderr


def test_compare_prints_what_changed_between_two_audits(tmp_path: Path) -> None:
    from tests.service.test_compare import healthy_routes, make_worse
    from tests.support.site_server import serve_site

    state = tmp_path / "state"
    routes = healthy_routes()

    def audit(url: str) -> str:
        done = siteaudit("audit", url, "--allow-private-hosts", state_dir=state)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()[0].removeprefix("audit ")

    with serve_site(routes) as site:
        before = audit(site.url("/"))
        make_worse(routes)
        after = audit(site.url("/"))

    done = siteaudit("compare", before, after, "--limit", "3", state_dir=state)

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"from {before} (") and lines[0].endswith(", completed)")
    assert lines[1].startswith(f"  to {after} (") and lines[1].endswith(", completed)")
    assert lines[2:6] == [
        f"site: {site.url('/')}",
        "health score: 72.2 -> 60.3 (-11.9)",
        "new issues: 17 (6 critical, 6 warning, 5 info)",
        f"  critical broken-internal-link  {site.url('/')} -> {site.url('/b')}",
    ]
    assert lines.index("  ... and 14 more") == 8
    # Open Graph and accessibility: /d is new without the tags; /b, now a 500, is no longer
    # judged for them (nor for its missing main landmark).
    assert "fixed issues: 8 (4 warning, 4 info)" in lines
    assert lines[-3:] == ["pages added: 1", f"  {site.url('/d')}", "pages removed: 0"]

    refused = siteaudit("compare", before, "no-such-audit", state_dir=state)
    assert (refused.returncode, refused.stderr) == (
        2,
        "siteaudit: no audit with id no-such-audit\n",
    )


async def test_serve_var_overrides_a_wrangler_setting(tmp_path: Path) -> None:
    from cli.main import _platform, build_parser

    cors = "CORS_ORIGINS:https://a.example,https://b.example"
    limit = "RATE_LIMIT_AUDITS_PER_HOUR:0"
    args = build_parser().parse_args(
        ["--state-dir", str(tmp_path), "serve", "--var", limit, "--var", cors]
    )
    platform = _platform(args)
    try:
        assert platform.env.RATE_LIMIT_AUDITS_PER_HOUR == "0"  # wrangler.toml says 20
        assert platform.env.CORS_ORIGINS == "https://a.example,https://b.example"
    finally:
        await platform.close()


@pytest.mark.parametrize("var", ["NO_COLON", ":value", "not a name:1"])
def test_serve_var_refuses_what_is_not_name_colon_value(var: str) -> None:
    from cli.main import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--var", var])


@pytest.mark.slow  # three CLI processes, each a whole audit
@pytest.mark.parametrize(
    ("args", "with_key", "line"),
    [
        ((), True, "lighthouse: 4/4 runs, 0 failed"),
        (("--lighthouse", "none"), True, "lighthouse: not run (option none)"),
        ((), False, "lighthouse: skipped (no PSI_API_KEY configured)"),
    ],
)
def test_audit_runs_lighthouse_with_a_key_from_the_environment(
    small_site: Site,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    with_key: bool,
    line: str,
) -> None:
    from tests.support.psi_double import serve_psi

    with serve_psi() as psi:
        monkeypatch.delenv("PSI_API_KEY", raising=False)
        if with_key:
            monkeypatch.setenv("PSI_API_KEY", "cli-key")
            monkeypatch.setenv("PSI_ENDPOINT", psi.endpoint)
        url = small_site.url("/")
        done = siteaudit("audit", url, "--allow-private-hosts", *args, state_dir=tmp_path / "s")
    assert done.returncode == 0, done.stderr
    assert line in done.stdout.splitlines()
    assert {call.key for call in psi.calls} == ({"cli-key"} if line.endswith("0 failed") else set())


@pytest.mark.parametrize(
    ("args", "check_external"), [((), True), (("--no-check-external",), False)]
)
def test_audit_checks_external_links_unless_told_not_to(
    args: tuple[str, ...], check_external: bool
) -> None:
    from cli.main import build_parser

    parsed = build_parser().parse_args(["audit", "https://example.com/", *args])
    assert parsed.check_external is check_external


@pytest.mark.parametrize(("args", "render"), [((), "auto"), (("--render", "never"), "never")])
def test_audit_renders_in_auto_mode_unless_told_otherwise(
    args: tuple[str, ...], render: str
) -> None:
    from cli.main import build_parser

    parsed = build_parser().parse_args(["audit", "https://example.com/", *args])
    assert parsed.render == render
    with pytest.raises(SystemExit):
        build_parser().parse_args(["audit", "https://example.com/", "--render", "sometimes"])


def test_compare_of_two_different_sites_warns_and_still_compares(
    small_site: Site, tmp_path: Path
) -> None:
    from tests.support.site_server import Reply, html_page, serve_site

    state = tmp_path / "state"
    other_routes = {"/": Reply(body=html_page("Another site", "<h1>Another</h1>"))}
    with serve_site(other_routes) as other:
        ids = []
        for url in (small_site.url("/"), other.url("/")):
            done = siteaudit("audit", url, "--allow-private-hosts", state_dir=state)
            assert done.returncode == 0, done.stderr
            ids.append(done.stdout.splitlines()[0].removeprefix("audit "))

    done = siteaudit("compare", *ids, state_dir=state)

    assert done.returncode == 0, done.stderr
    first, *rest = done.stdout.splitlines()
    assert first.startswith("warning: these audits are of different sites (")
    assert small_site.url("/") in first and other.url("/") in first
    assert rest[0].startswith(f"from {ids[0]} (")
