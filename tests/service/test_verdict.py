"""The verdict of real audits on the local platform (service.verdict, GET /api/audits/{id}/actions):
a template fault is one site-wide finding, a header the grade fails is counted once, a broken link
is critical and ranks by what it is worth, and the stored health score is the verdict's overall
score."""

from __future__ import annotations

from typing import Any

from local_platform.runtime import LocalPlatform
from tests.support.site_server import Reply, html_page, serve_site

# Six pages from one template that forgets the viewport; the home page also links to a page that
# answers 404 (one broken link on one page).
NAV = "".join(f"<a href='/p{n}'>Page {n}</a> " for n in range(1, 6))


def template(title: str, extra: str = "") -> Reply:
    body = f"<h1>{title}</h1><p>{'Words that make a page. ' * 40}</p>{NAV}{extra}"
    head = "<meta name='description' content='" + "A page of the template site. " * 3 + "'>"
    return Reply(body=html_page(f"{title} of the template site", body, head))


def routes() -> dict[str, Reply]:
    site = {"/": template("Home", "<a href='/gone'>Gone</a>")}
    site.update({f"/p{n}": template(f"Page {n}") for n in range(1, 6)})
    return site


async def audit_actions(platform: LocalPlatform) -> tuple[dict[str, Any], dict[str, Any], str]:
    with serve_site(routes()) as site:
        status, body = await platform.request("POST", "/api/audits", {"url": site.url("/")})
        assert status == 201, body
        audit_id = body["audit"]["id"]
        await platform.wait_for_workflow(audit_id, timeout_s=60)
    status, verdict = await platform.request("GET", f"/api/audits/{audit_id}/actions")
    assert status == 200, verdict
    _, audit = await platform.request("GET", f"/api/audits/{audit_id}")
    return verdict, audit["audit"], site.origin


async def test_a_template_fault_is_one_site_wide_finding_and_the_score_agrees(
    platform: LocalPlatform,
) -> None:
    verdict, audit, origin = await audit_actions(platform)
    actions = {action["issue_type"]: action for action in verdict["actions"]}

    viewport = actions["missing-viewport"]
    assert (viewport["scope"], viewport["pages"], viewport["severity"]) == (
        "site-wide",
        6,
        "warning",
    )
    assert viewport["summary"].startswith("Missing viewport meta tag on 6 of 6 HTML pages (100%)")
    assert len(viewport["example_pages"]) == 3
    # The missing header: the grade's test and the six pages' rows are one finding.
    frames = actions["security-x-frame-options"]
    assert frames["issue_types"] == ["security-x-frame-options", "frame-protection-missing"]
    assert "frame-protection-missing" not in actions
    # One broken link on the home page: critical, on one page, with its page as the example.
    broken = actions["broken-internal-link"]
    assert (broken["severity"], broken["scope"], broken["pages"]) == ("critical", "pages", 1)
    assert broken["example_pages"] == [f"{origin}/"]
    # The headline agrees with the details: a critical finding, so below 100, and stored.
    scores = verdict["scores"]
    assert scores["overall"] == audit["health_score"] < 100
    assert [c["category"] for c in scores["categories"]] == [
        "crawlability",
        "on-page",
        "security",
        "performance",
        "content",
        "accessibility",
    ]
    # The crawl ran the static accessibility rules on every page: that category is scored.
    assert 0 <= [c["score"] for c in scores["categories"]][-1] < 100
    # Ranked by the points fixing each adds, every rank once.
    gains = [action["gain"] for action in verdict["actions"]]
    assert gains == sorted(gains, reverse=True)
    assert [a["rank"] for a in verdict["actions"]] == list(range(1, len(gains) + 1))


async def test_the_report_carries_the_same_verdict(platform: LocalPlatform) -> None:
    verdict, audit, _ = await audit_actions(platform)
    status, report = await platform.request("GET", f"/api/audits/{audit['id']}/report")

    assert status == 200
    assert (report["scores"], report["actions"]) == (verdict["scores"], verdict["actions"])
    assert report["verdict_note"] is None
