"""The workflow's security-grade step: the start URL graded inside a whole audit, its result in
the API, the report and the issues, and a step that cannot grade leaving the audit completed."""

from __future__ import annotations

from typing import Any

import pytest

from auditdb import repository
from cli.report import format_summary
from local_platform.runtime import LocalPlatform
from tests.crawl_flow.test_audit_crawl import audit_site, page
from tests.support.site_server import Reply, html_page, serve_site
from workflow import security_step

HEADERS = {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": "default-src 'self'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
}


def security_issues(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {i["issue_type"]: i for i in report["issues"] if i["issue_type"].startswith("security-")}


async def test_an_audit_grades_its_start_url_and_reports_the_failing_tests(
    platform: LocalPlatform,
) -> None:
    home = Reply(body=html_page("Home", "<h1>Home</h1><a href='/a'>A</a>"), headers=HEADERS)
    with serve_site({"/": home, "/a": page("Page A")}) as site:
        report = await audit_site(platform, site.url("/"))
        _, read = await platform.request("GET", f"/api/audits/{report['audit']['id']}")

    audit = read["audit"]
    assert audit["status"] == "completed"
    # plain http: no redirect to https (-20) and no HSTS (-20); the rest passes
    assert (audit["security_grade"], audit["security_score"], audit["security_error"]) == (
        "C+",
        60,
        None,
    )
    security = report["security"]
    assert (security["status"], security["grade"], security["score"]) == ("graded", "C+", 60)
    assert [t["test"] for t in security["tests"]][:2] == ["content-security-policy", "cookies"]
    assert len(security["tests"]) == 12
    failing = {t["test"]: t["result"] for t in security["tests"] if not t["passed"]}
    assert failing == {
        "redirection": "redirection-missing",
        "strict-transport-security": "hsts-not-implemented-no-https",
    }
    issues = security_issues(report)
    assert set(issues) == {"security-redirection", "security-hsts"}
    home_row = next(p for p in report["pages"] if p["url"] == site.url("/"))
    for issue in issues.values():
        assert (issue["page_url"], issue["page_id"], issue["severity"]) == (
            site.url("/"),
            home_row["id"],
            "critical",
        )
        assert issue["details"]["source"] == "security"
    assert issues["security-hsts"]["details"]["result"] == "hsts-not-implemented-no-https"
    # The grade's score is where the security category starts (docs/scoring.md), so the overall
    # score shows the failing tests; the per-page header rows are counted once, inside the grade.
    categories = {c["category"]: c["score"] for c in report["scores"]["categories"]}
    assert categories["security"] == 60.0
    assert audit["health_score"] == report["scores"]["overall"] < 100
    assert "security grade: C+ (60/100)" in format_summary(report).splitlines()


async def test_a_step_that_cannot_grade_leaves_the_audit_completed_and_not_graded(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(url: str, **_: Any) -> Any:
        raise RuntimeError(f"cannot observe {url}")

    monkeypatch.setattr(security_step, "observe_site", broken)
    with serve_site({"/": page("Home")}) as site:
        report = await audit_site(platform, site.url("/"))

    reason = f"cannot observe {site.url('/')}"
    audit = report["audit"]
    assert audit["status"] == "completed"
    assert (audit["security_grade"], audit["security_score"], audit["security_error"]) == (
        None,
        None,
        reason,
    )
    assert report["security"] == {
        "status": "not_graded",
        "grade": None,
        "score": None,
        "reason": reason,
        "tests": [],
    }
    assert security_issues(report) == {}
    assert f"security grade: not graded ({reason})" in format_summary(report).splitlines()


async def test_a_cancel_while_the_site_is_observed_leaves_no_grade_behind(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner cancels while the step fetches the site: the step's batch, guarded by
    `status = 'running'` in every statement, writes neither the columns nor the issues."""
    observe = security_step.observe_site  # type: ignore[attr-defined]  # the name where the workflow looks it up and the test patches it

    async def cancelled_meanwhile(url: str, **kwargs: Any) -> Any:
        site = await observe(url, **kwargs)
        running = await repository.list_running_before(platform.env.DB, "9999", 10)
        assert [audit.start_url for audit in running] == [url]
        assert await repository.cancel_audit(platform.env.DB, running[0].id, finished_at="t")
        return site

    monkeypatch.setattr(security_step, "observe_site", cancelled_meanwhile)
    with serve_site({"/": page("Home", "/a"), "/a": page("Page A")}) as site:
        report = await audit_site(platform, site.url("/"))

    audit = report["audit"]
    assert audit["status"] == "cancelled"
    assert (audit["security_grade"], audit["security_score"], audit["security_error"]) == (
        None,
        None,
        None,
    )
    assert security_issues(report) == {}
    # the crawl's own issues are still there: only the grade's writes were refused
    assert report["pages"]


async def test_a_cancel_while_grading_fails_leaves_no_reason_behind(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def cancelled_then_broken(url: str, **_: Any) -> Any:
        running = await repository.list_running_before(platform.env.DB, "9999", 10)
        assert await repository.cancel_audit(platform.env.DB, running[0].id, finished_at="t")
        raise RuntimeError("site down")

    monkeypatch.setattr(security_step, "observe_site", cancelled_then_broken)
    with serve_site({"/": page("Home")}) as site:
        report = await audit_site(platform, site.url("/"))

    assert report["audit"]["status"] == "cancelled"
    assert report["audit"]["security_error"] is None
    assert security_issues(report) == {}


async def test_what_the_crawl_saw_on_an_inner_page_lowers_the_grade(
    platform: LocalPlatform,
) -> None:
    """The start page is clean; an inner page sets a cookie without Secure and loads a
    cross-origin script without integrity. The Observatory's single-response grade of the start
    URL is C+ (60); the audit's grade takes both tests' worse outcomes, on the inner page."""
    home = Reply(body=html_page("Home", "<h1>Home</h1><a href='/shop'>Shop</a>"), headers=HEADERS)
    shop = Reply(
        body=html_page(
            "Shop", "<h1>Shop</h1><script src='https://cdn.example.org/cart.js'></script>"
        ),
        headers={**HEADERS, "set-cookie": "theme=dark; Path=/"},
    )
    with serve_site({"/": home, "/shop": shop}) as site:
        report = await audit_site(platform, site.url("/"))

    # 100 - 20 (redirection) - 20 (HSTS) - 20 (cookie without Secure) - 5 (SRI) = 35
    assert (report["security"]["grade"], report["security"]["score"]) == ("D", 35)
    tests = {t["test"]: t for t in report["security"]["tests"]}
    assert tests["cookies"]["result"] == "cookies-without-secure-flag"
    assert tests["cookies"]["details"]["page"] == site.url("/shop")
    sri = tests["subresource-integrity"]
    assert sri["result"] == "sri-not-implemented-but-external-scripts-loaded-securely"
    assert sri["details"] == {
        "scripts": ["https://cdn.example.org/cart.js"],
        "page": site.url("/shop"),
    }
    issues = security_issues(report)
    shop_row = next(p for p in report["pages"] if p["url"] == site.url("/shop"))
    for kind, severity in (("security-cookies", "critical"), ("security-sri", "warning")):
        assert (issues[kind]["page_url"], issues[kind]["page_id"]) == (
            site.url("/shop"),
            shop_row["id"],
        )
        assert issues[kind]["severity"] == severity
    assert issues["security-hsts"]["page_url"] == site.url("/")
