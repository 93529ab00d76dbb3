"""badseo's closed staging sites (closed_sites.py) audited end to end (issue 28, item 5).

`siteaudit audit` with the right credentials audits every page of each variant, sending them
with every request to the site (robots.txt and the sitemap included) and never to another origin;
without them the audit fails at its start URL with a sentence naming what to pass. Through the
API: a redirect to another origin drops them and the hop back re-adds them, wrong credentials are
said to be refused (by name, never by value), and every view shows them redacted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli.report import full_report
from local_platform.runtime import LocalPlatform
from tests.badseo.closed_sites import (
    CLOSED_FIXTURES,
    SECRETS,
    VARIANTS,
    ClosedVariant,
    Wall,
    carries_credentials,
    serve_closed,
)
from tests.badseo.site import expected_issues
from tests.badseo.test_end_to_end import diff, issue_set
from tests.support.cli_process import siteaudit

PAGES = {path for fixture in CLOSED_FIXTURES for path in fixture.paths}


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.wall)
def test_siteaudit_audit_with_the_credentials_audits_every_page_and_sends_them_nowhere_else(
    tmp_path: Path, variant: ClosedVariant
) -> None:
    report_path = tmp_path / "report.json"
    with serve_closed(variant) as closed:
        done = siteaudit(
            "audit", closed.start_url, "--allow-private-hosts", "--max-pages", "20",
            *variant.cli_options, "--format", "json", "--output", str(report_path),
            state_dir=tmp_path / "state",
        )  # fmt: skip
        site_requests = closed.site.requests
        elsewhere = closed.external.requests + closed.elsewhere.requests

    assert done.returncode == 0, done.stderr
    report = json.loads(report_path.read_text())
    assert report["audit"]["status"] == "completed"
    crawled = {p["url"].removeprefix(closed.origin) for p in report["pages"]}
    assert crawled == PAGES
    assert {p["status_code"] for p in report["pages"]} == {200}
    found, expected = issue_set(report), expected_issues(closed.origin, CLOSED_FIXTURES)
    assert found == expected, diff(found, expected, closed.origin)
    # Every request to the site came through the wall: robots.txt and the sitemap too.
    assert all(variant.admits(r.headers) for r in site_requests), [
        r.path for r in site_requests if not variant.admits(r.headers)
    ]
    assert {"/robots.txt", "/sitemap.xml"} <= {r.path for r in site_requests}
    # The external link was checked, without a credential.
    assert [r.path for r in elsewhere] and not any(carries_credentials(r) for r in elsewhere)
    for secret in SECRETS:
        assert secret not in done.stdout + done.stderr + report_path.read_text()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.wall)
def test_siteaudit_audit_without_credentials_fails_naming_what_to_pass(
    tmp_path: Path, variant: ClosedVariant
) -> None:
    with serve_closed(variant) as closed:
        done = siteaudit(
            "audit", closed.start_url, "--allow-private-hosts", state_dir=tmp_path / "state"
        )  # fmt: skip
        requested = sorted(r.path for r in closed.site.requests)

    assert done.returncode == 3, done.stderr
    failure = done.stderr.splitlines()[-1]
    assert failure.startswith("siteaudit: audit ") and " failed: " in failure
    for words in variant.missing_words:
        assert words in failure, failure
    assert requested == ["/", "/robots.txt"]  # decided at the start URL, once


async def audit(platform: LocalPlatform, url: str, credentials: dict[str, Any]) -> dict[str, Any]:
    body = {"url": url, "max_pages": 20, "check_external": True, "credentials": credentials}
    status, created = await platform.request("POST", "/api/audits", body)
    assert status == 201, created
    await platform.wait_for_workflow(created["audit"]["id"], timeout_s=60)
    return await full_report(platform, created["audit"]["id"])


BASIC = next(variant for variant in VARIANTS if variant.wall is Wall.BASIC)


async def test_a_redirect_to_another_origin_drops_them_and_the_hop_back_re_adds_them(
    platform: LocalPlatform,
) -> None:
    with serve_closed(BASIC) as closed:
        report = await audit(platform, closed.url("/hop"), BASIC.credentials)
        hops = [(r.path, carries_credentials(r)) for r in closed.elsewhere.requests]
        first = [(r.path, BASIC.admits(r.headers)) for r in closed.site.requests][:3]

    assert report["audit"]["status"] == "completed", report["audit"]
    assert report["audit"]["final_url"] == closed.start_url
    assert {p["url"].removeprefix(closed.origin) for p in report["pages"]} == PAGES
    # Discovery followed the hop, and the security grade too: the other origin got nothing.
    assert hops and set(hops) == {("/bounce", False)}
    assert ("/hop", True) in first and ("/", True) in first  # ... and the way back got them


async def test_wrong_credentials_are_said_refused_by_name_never_by_value(
    platform: LocalPlatform,
) -> None:
    wrong = {"basic_auth": {"user": "ci-preview", "password": "not-the-pa55word"}}
    with serve_closed(BASIC) as closed:
        report = await audit(platform, closed.start_url, wrong)

    audit_row = report["audit"]
    assert (audit_row["status"], audit_row["error_code"]) == ("failed", "site_http_error")
    assert audit_row["error_detail"] == (
        f"{closed.start_url} answered 401 Unauthorized: the server refused the credentials sent "
        "(basic auth as 'ci-preview'). Check that they are current and meant for this site."
    )
    assert "not-the-pa55word" not in json.dumps(report)


async def test_every_view_shows_them_redacted(platform: LocalPlatform) -> None:
    credentials = {**BASIC.credentials, "origins": ["https://api.example"]}
    with serve_closed(BASIC) as closed:
        report = await audit(platform, closed.start_url, credentials)
        _, read = await platform.request("GET", f"/api/audits/{report['audit']['id']}")

    shown = {
        "basic_auth": {"user": "ci-preview", "password": "[redacted]"},
        "headers": {},
        "cookies": {},
        "origins": ["https://api.example"],
        "send_to_lighthouse": False,
        "send_to_external_links": False,
    }
    assert read["audit"]["options"]["credentials"] == shown
    assert report["audit"]["options"]["credentials"] == shown
