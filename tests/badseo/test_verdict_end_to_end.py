"""The verdict of a real audit (docs/scoring.md) on badseo's template site: six pages from one
template without a viewport and without Open Graph tags, served without a
Content-Security-Policy or clickjacking protection.

One fix, one finding: the viewport is one site-wide finding of six pages, and so are the missing
Open Graph tags (one row per page listing every missing tag, one template to fix); each missing
header is the security grade's test together with the six pages' rows, counted once. The
headline agrees with the details: a critical finding keeps the score under 100, the security
category is the grade's score, and a note says why a good overall score sits beside grade F.
What to fix first is led by the shared causes."""

from __future__ import annotations

from typing import Any

from cli.report import full_report
from local_platform.runtime import LocalPlatform
from tests.badseo.site import TEMPLATE_FIXTURES, TEMPLATE_PAGES, expected_issues, serve_template


async def audit_template_site(platform: LocalPlatform) -> tuple[dict[str, Any], str]:
    with serve_template() as site:
        status, body = await platform.request("POST", "/api/audits", {"url": site.start_url})
        assert status == 201, body
        audit_id = body["audit"]["id"]
        await platform.wait_for_workflow(audit_id, timeout_s=60)
        return await full_report(platform, audit_id), site.origin


async def test_the_template_sites_faults_are_one_finding_each(platform: LocalPlatform) -> None:
    report, origin = await audit_template_site(platform)

    issues = {(i["issue_type"], i["page_url"]) for i in report["issues"]}
    assert issues == expected_issues(origin, TEMPLATE_FIXTURES)
    actions = {action["issue_type"]: action for action in report["actions"]}
    assert set(actions) == {
        "missing-viewport",
        "missing-open-graph",
        "security-csp",
        "security-x-frame-options",
        "security-hsts",
        "security-redirection",
    }
    for template_fault in ("missing-viewport", "missing-open-graph"):
        action = actions[template_fault]
        assert (action["scope"], action["pages"]) == ("site-wide", TEMPLATE_PAGES)
    assert "shared cause (a template" in actions["missing-open-graph"]["summary"]
    for lead, rows in (
        ("security-csp", "csp-missing"),
        ("security-x-frame-options", "frame-protection-missing"),
    ):
        assert actions[lead]["issue_types"] == [lead, rows]
        assert (actions[lead]["severity"], actions[lead]["pages"]) == ("critical", TEMPLATE_PAGES)
    # Every per-page row stays in the exports: 6 pages x 4 faults, and the grade's 4 tests.
    assert len(report["issues"]) == 4 * TEMPLATE_PAGES + 4


async def test_the_headline_agrees_with_the_details_and_says_why(platform: LocalPlatform) -> None:
    report, _ = await audit_template_site(platform)

    scores = report["scores"]
    categories = {c["category"]: c["score"] for c in scores["categories"]}
    assert report["security"]["grade"] == "F"
    assert categories["security"] == report["security"]["score"]
    assert categories["on-page"] == 80.0  # one warning on every page (the Open Graph info: none)
    assert report["audit"]["health_score"] == scores["overall"] < 100
    assert scores["notes"] == [
        f"The overall score ({scores['overall']:g}) averages six categories; Security alone "
        f"scores {categories['security']:g}: see its actions below."
    ]
    ranked = [action["issue_type"] for action in report["actions"]]
    assert ranked[0] == "security-csp"  # the grade's most costly test: 25 points
    assert all(action["scope"] in ("site", "site-wide") for action in report["actions"])
