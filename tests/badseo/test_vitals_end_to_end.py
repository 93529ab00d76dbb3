"""The badseo vitals site audited with a PSI key (the local double): Lighthouse issues == golden."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cli.report import full_report
from local_platform.runtime import LocalPlatform
from tests.badseo.test_end_to_end import diff
from tests.badseo.vitals_site import VITALS_FIXTURES, serve_vitals, vitals_expected
from tests.support.platform_vars import TEST_VARS


async def test_the_vitals_audit_reports_exactly_the_golden_lighthouse_issues(
    tmp_path: Path,
) -> None:
    with serve_vitals() as (site, psi):
        variables = {**TEST_VARS, "PSI_API_KEY": "k", "PSI_ENDPOINT": psi.endpoint}
        platform = LocalPlatform(tmp_path / "state", var_overrides=variables)
        try:
            status, body = await platform.request("POST", "/api/audits", {"url": site.url("/")})
            assert status == 201, body
            await platform.wait_for_workflow(body["audit"]["id"], timeout_s=120)
            report: dict[str, Any] = await full_report(platform, body["audit"]["id"])
        finally:
            await platform.close()

    audit = report["audit"]
    assert (audit["status"], audit["lighthouse_status"]) == ("completed", "completed")
    pages = len(VITALS_FIXTURES)
    assert (audit["lighthouse_total"], audit["lighthouse_failed"]) == (2 * pages, 2)
    found = {
        (i["issue_type"], i["page_url"])
        for i in report["issues"]
        if i["details"].get("source") == "lighthouse"
    }
    expected = vitals_expected(site.origin)
    assert found == expected, diff(found, expected, site.origin)
    assert len(psi.calls) == 2 * pages
