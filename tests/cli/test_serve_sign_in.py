"""`siteaudit serve` on a state dir the CLI has audited: it prints the app's address and a sign-in
link whose key belongs to the owner of the CLI's audits, so the app lists them; and an audit the
app starts with that key is one `siteaudit report ID --format csv` reports."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from service.exports import ISSUE_COLUMNS
from tests.support.cli_process import serving, siteaudit
from tests.support.site_server import Site


def test_serve_prints_the_app_and_a_sign_in_link_that_sees_the_cli_audits(
    small_site: Site, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    done = siteaudit("audit", small_site.url("/"), "--allow-private-hosts", state_dir=state)
    assert done.returncode == 0, done.stderr
    cli_audit = done.stdout.splitlines()[0].removeprefix("audit ")

    with serving(state) as banner:
        origin = banner.api.removesuffix("/api/audits")
        assert banner.app == f"{origin}/"
        assert banner.sign_in_link.startswith(f"{origin}/#key=sa_")
        assert httpx.get(banner.app, timeout=10).status_code == 200
        with httpx.Client(headers={"authorization": f"Bearer {banner.key}"}, timeout=10) as app:
            listed = app.get(banner.api).json()["audits"]
            assert cli_audit in [audit["id"] for audit in listed]
            app_audit = _audit_through(app, banner.api, small_site.url("/about"))

    csv_report = siteaudit("report", app_audit, "--format", "csv", state_dir=state)
    assert csv_report.returncode == 0, csv_report.stderr
    assert csv_report.stdout.splitlines()[0].split(",") == list(ISSUE_COLUMNS)


def test_a_second_serve_prints_the_same_working_link(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with serving(state) as first:
        pass
    with serving(state) as second:
        assert second.key == first.key
        answer = httpx.get(second.api, headers={"authorization": f"Bearer {second.key}"})
        assert answer.status_code == 200


def _audit_through(client: httpx.Client, api: str, url: str) -> str:
    created = client.post(api, json={"url": url})
    assert created.status_code == 201, created.text
    audit_id: str = created.json()["audit"]["id"]
    deadline = time.monotonic() + 60
    while client.get(f"{api}/{audit_id}").json()["audit"]["status"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return audit_id
