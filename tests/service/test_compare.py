"""Comparing two audits: issues matched by (type, page, dedupe key), score change, pages."""

from __future__ import annotations

from typing import Any

import pytest

from audit.catalogue import IssueType, severity_of
from audit.issues import DetectedIssue
from auditdb import repository
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from local_platform.runtime import LocalEnv, LocalPlatform
from service.compare import ScoreChange, compare_audits
from service.errors import AuditNotFound
from tests.support.site_server import Reply, html_page, serve_site

ORIGIN = "https://a.test"
T = IssueType

# (page, type, dedupe key) before and after. Two broken links of one page differ only by target.
BEFORE = [
    ("/", T.BROKEN_INTERNAL_LINK, f"{ORIGIN}/x"),
    ("/", T.BROKEN_INTERNAL_LINK, f"{ORIGIN}/y"),
    ("/a", T.MISSING_TITLE, None),
    ("/c", T.THIN_CONTENT, None),
]
AFTER = [
    ("/", T.BROKEN_INTERNAL_LINK, f"{ORIGIN}/y"),
    ("/", T.BROKEN_INTERNAL_LINK, f"{ORIGIN}/z"),
    ("/a", T.MISSING_TITLE, None),
    ("/d", T.MISSING_META_DESCRIPTION, None),
]


async def seed(
    env: LocalEnv,
    audit_id: str,
    issues: list[tuple[str, IssueType, str | None]],
    score: float | None,
    owner: str = "alpha",
) -> None:
    audit = AuditRecord(audit_id, f"{ORIGIN}/", "2026-12-01T00:00:00.000Z", owner=owner)
    await repository.insert_audit(env.DB, audit)
    sql = "UPDATE audits SET status = 'completed', health_score = ? WHERE id = ?"
    await env.DB.prepare(sql).bind(score, audit_id).run()
    paths = sorted({path for path, _, _ in issues} | {"/"})
    pages = [PageRecord(f"{audit_id}{p}", audit_id, ORIGIN + p, audit.created_at) for p in paths]
    rows = [
        IssueRecord.from_detected(
            audit_id, DetectedIssue(kind, ORIGIN + path, dedupe_key=key), f"{audit_id}{path}"
        )
        for path, kind, key in issues
    ]
    await repository.write_crawled_pages(env.DB, pages, rows)


def identities(issues: list[IssueRecord]) -> list[tuple[str, str, str]]:
    return [(i.page_url.removeprefix(ORIGIN), i.issue_type, i.dedupe_key) for i in issues]


@pytest.fixture
async def env(platform: LocalPlatform) -> LocalEnv:
    await seed(platform.env, "before", BEFORE, 80.0)
    await seed(platform.env, "after", AFTER, 65.5)
    return platform.env


async def test_issues_are_matched_by_type_page_and_dedupe_key(env: LocalEnv) -> None:
    got = await compare_audits(env, "alpha", "before", "after")

    assert identities(got.new_issues.issues) == [
        ("/", "broken-internal-link", f"{ORIGIN}/z"),
        ("/d", "missing-meta-description", ""),
    ]
    assert identities(got.fixed_issues.issues) == [
        ("/", "broken-internal-link", f"{ORIGIN}/x"),
        ("/c", "thin-content", ""),
    ]
    assert sorted(identities(got.unchanged_issues.issues)) == [
        ("/", "broken-internal-link", f"{ORIGIN}/y"),
        ("/a", "missing-title", ""),
    ]
    assert {i.audit_id for i in got.unchanged_issues.issues} == {"after"}


async def test_counts_by_severity_add_up_to_each_audits_issues(env: LocalEnv) -> None:
    got = await compare_audits(env, "alpha", "before", "after")

    def by_severity(rows: list[tuple[str, IssueType, str | None]]) -> dict[str, int]:
        counts = {"critical": 0, "warning": 0, "info": 0}
        for _, kind, _ in rows:
            counts[severity_of(kind)] += 1
        return counts

    assert got.new_issues.by_severity == by_severity([AFTER[1], AFTER[3]])
    assert got.fixed_issues.by_severity == by_severity([BEFORE[0], BEFORE[3]])
    assert got.unchanged_issues.by_severity == by_severity([AFTER[0], AFTER[2]])
    assert (got.new_issues.total, got.fixed_issues.total, got.unchanged_issues.total) == (2, 2, 2)


async def test_score_change_and_pages_added_and_removed(env: LocalEnv) -> None:
    got = await compare_audits(env, "alpha", "before", "after")

    assert got.health_score == ScoreChange(80.0, 65.5, -14.5)
    assert (got.pages_added.urls, got.pages_removed.urls) == ([f"{ORIGIN}/d"], [f"{ORIGIN}/c"])
    assert (got.before.id, got.after.id) == ("before", "after")


async def test_the_reverse_comparison_swaps_new_and_fixed(env: LocalEnv) -> None:
    forward = await compare_audits(env, "alpha", "before", "after")
    backward = await compare_audits(env, "alpha", "after", "before")

    assert identities(backward.new_issues.issues) == identities(forward.fixed_issues.issues)
    assert identities(backward.fixed_issues.issues) == identities(forward.new_issues.issues)
    assert backward.pages_added == forward.pages_removed
    assert backward.health_score == ScoreChange(65.5, 80.0, 14.5)


async def test_an_audit_compared_with_itself_has_only_unchanged_issues(env: LocalEnv) -> None:
    got = await compare_audits(env, "alpha", "after", "after")

    assert (got.new_issues.total, got.fixed_issues.total) == (0, 0)
    assert got.unchanged_issues.total == len(AFTER)
    assert (got.pages_added.total, got.pages_removed.total, got.health_score.delta) == (0, 0, 0)


@pytest.mark.parametrize(
    ("before", "after", "delta"), [(None, 50.0, None), (50.0, None, None), (70.0, 70.2, 0.2)]
)
def test_score_change(before: float | None, after: float | None, delta: float | None) -> None:
    assert ScoreChange.of(before, after).delta == delta


async def test_lists_are_capped_and_keep_their_totals(env: LocalEnv) -> None:
    got = await compare_audits(env, "alpha", "before", "after", limit=1)

    assert (len(got.new_issues.issues), got.new_issues.total, got.new_issues.truncated) == (
        1,
        2,
        True,
    )
    assert (got.pages_added.truncated, got.unchanged_issues.truncated) == (False, True)


@pytest.mark.parametrize(("before", "after"), [("theirs", "after"), ("before", "theirs")])
async def test_another_owners_audit_on_either_side_is_not_found(
    env: LocalEnv, before: str, after: str
) -> None:
    await seed(env, "theirs", AFTER, 90.0, owner="beta")

    with pytest.raises(AuditNotFound, match="theirs"):
        await compare_audits(env, "alpha", before, after)


# -- real audits of a local site that gets worse --------------------------------------------


def healthy_routes() -> dict[str, Any]:
    nav = "<a href='/a'>A</a> <a href='/b'>B</a> <a href='/c'>C</a>"
    return {
        "/": Reply(body=html_page("Home of the changing site", f"<h1>Home</h1>{nav}")),
        "/a": Reply(body=html_page("Page A of the changing site", f"<h1>A</h1>{nav}")),
        "/b": Reply(body=html_page("Page B of the changing site", f"<h1>B</h1>{nav}")),
        "/c": Reply(body=html_page("Page C of the changing site", f"<h1>C</h1>{nav}")),
    }


def make_worse(routes: dict[str, Any]) -> None:
    """/b starts answering 500, /c loses its title, and the home page also links to a new /d."""
    nav = "<a href='/a'>A</a> <a href='/b'>B</a> <a href='/c'>C</a> <a href='/d'>D</a>"
    routes["/"] = Reply(body=html_page("Home of the changing site", f"<h1>Home</h1>{nav}"))
    routes["/b"] = Reply(status=500, body=b"<h1>Internal error</h1>")
    routes["/c"] = Reply(body=f"<!doctype html><html><body><h1>C</h1>{nav}</body></html>".encode())
    routes["/d"] = Reply(body=html_page("Page D of the changing site", f"<h1>D</h1>{nav}"))


async def run_audit(platform: LocalPlatform, url: str) -> str:
    status, body = await platform.request("POST", "/api/audits", {"url": url, "max_pages": 20})
    assert status == 201, body
    audit_id: str = body["audit"]["id"]
    await platform.wait_for_workflow(audit_id, timeout_s=60)
    return audit_id


async def audits_of_a_site_that_gets_worse(platform: LocalPlatform) -> tuple[str, str, str]:
    routes = healthy_routes()
    with serve_site(routes) as site:
        before = await run_audit(platform, site.url("/"))
        make_worse(routes)
        after = await run_audit(platform, site.url("/"))
    return before, after, site.origin


async def test_a_site_that_gets_worse_between_two_real_audits(platform: LocalPlatform) -> None:
    before, after, origin = await audits_of_a_site_that_gets_worse(platform)

    status, body = await platform.request("GET", f"/api/audits/{before}/compare/{after}")

    assert status == 200, body
    got = body["comparison"]
    new = {(i["issue_type"], i["page_url"], i["dedupe_key"]) for i in got["new_issues"]["issues"]}
    assert ("server-error", f"{origin}/b", "") in new
    assert ("missing-title", f"{origin}/c", "") in new
    for source in ("/", "/a", "/c", "/d"):  # every page linking to /b now links to a 500
        assert ("broken-internal-link", f"{origin}{source}", f"{origin}/b") in new
    # The only "fixed" issues are /b's content issues: a page answering 500 has no content.
    assert {i["page_url"] for i in got["fixed_issues"]["issues"]} == {f"{origin}/b"}
    assert (got["pages_added"]["urls"], got["pages_removed"]["urls"]) == ([f"{origin}/d"], [])
    assert got["health_score"]["delta"] < 0
    assert got["new_issues"]["total"] == len(new)
