"""The https variant of badseo audited through the Worker's API and the full workflow: the issues
are exactly golden_https.json, which covers the catalogue's four https-only issue types."""

from __future__ import annotations

from local_platform.fetch import trust_ca_file
from local_platform.runtime import LocalPlatform
from tests.badseo import golden
from tests.badseo.https_site import (
    HOST,
    HTTP_ORIGIN,
    HTTPS_FIXTURES,
    HTTPS_ORIGIN,
    MIXED_IMAGE_URL,
    HttpsSite,
    https_expected_issues,
)
from tests.badseo.test_end_to_end import audit, issue_set


def _diff(found: set[tuple[str, str]], expected: set[tuple[str, str]]) -> str:
    def show(items: set[tuple[str, str]]) -> str:
        return "\n".join(f"  {t} {u}" for t, u in sorted(items)) or "  (none)"

    return f"missing:\n{show(expected - found)}\nextra:\n{show(found - expected)}"


async def test_the_https_variant_reports_exactly_its_golden_issues(
    platform: LocalPlatform, https_badseo: HttpsSite
) -> None:
    trust_ca_file(https_badseo.ca_file)  # this event loop's fetches: the platform's crawl runs here
    report = await audit(platform, https_badseo.start_url)
    requested = https_badseo.requested()

    assert report["audit"]["status"] == "completed", report["audit"]
    assert report["audit"]["final_url"] == https_badseo.start_url
    found = issue_set(report)
    golden_set = {(e["issue_type"], e["url"]) for e in golden.golden_https_entries()}
    assert golden_set == https_expected_issues()
    assert found == golden_set, _diff(found, golden_set)
    assert {page["url"] for page in report["pages"]} == {f.url for f in HTTPS_FIXTURES}
    # The http twin was asked for its one page by the crawl, for the mixed-content page's image
    # once, with HEAD (an internal resource is checked, never crawled: crawl.references), then
    # for / by the security grade (its http entry point), and nothing else.
    assert sorted(url for url in requested if url.startswith(HTTP_ORIGIN + "/")) == sorted(
        [
            *(f.url for f in HTTPS_FIXTURES if f.url.startswith(HTTP_ORIGIN + "/")),
            MIXED_IMAGE_URL,
            HTTP_ORIGIN + "/",
        ]
    )
    image_requests = [
        r.method for r in https_badseo.http_server.log if HTTP_ORIGIN + r.path == MIXED_IMAGE_URL
    ]
    assert image_requests == ["HEAD"]


async def test_a_bare_host_whose_https_answers_is_audited_over_https(
    platform: LocalPlatform, https_badseo: HttpsSite
) -> None:
    trust_ca_file(https_badseo.ca_file)
    status, body = await platform.request("POST", "/api/audits", {"url": HOST, "max_pages": 1})
    assert status == 201 and body["audit"]["scheme_assumed"] is True
    audit_id = body["audit"]["id"]
    await platform.wait_for_workflow(audit_id, timeout_s=60)
    audit = (await platform.request("GET", f"/api/audits/{audit_id}"))[1]["audit"]

    assert audit["status"] == "completed", audit
    assert audit["final_url"] == https_badseo.start_url
    assert audit["scheme_note"] == f"no scheme given: auditing {HTTPS_ORIGIN}/ (https answered)"
