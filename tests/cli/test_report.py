"""The CLI's summary says what happened, including why an audit stopped and what it kept; its
--json file is written as it is read, and spells the same document as the report in one piece."""

import json
import re
from typing import Any

import pytest

from audit.catalogue import IssueType, Severity
from audit.link_graph import AnchorKind, PageLink, PageLinkLists, to_row
from audit.verdict import Tally, TypeTally, judge
from auditdb import page_links, repository
from auditdb.records import AuditOptions, AuditRecord, AuditStatus, IssueRecord, PageRecord
from auditdb.scope import AuditMode, ScopeOptions
from auditdb.verifications import RobotsDecision
from cli import report as cli_report
from cli.report import format_summary, full_report, json_report_chunks
from common.wire import JsonObject, as_object
from local_platform.runtime import LocalPlatform
from service import page_links as service_page_links
from service.audits import LOCAL_OWNER
from service.scope_report import scope_summary


def report(status: str, **audit: Any) -> JsonObject:
    """A report as the API renders it: the audit record and its counts (no rows)."""
    record = AuditRecord(
        id="a1",
        start_url="https://a.test/",
        created_at="2026-12-01T00:00:00.000Z",
        status=AuditStatus(status),
        pages_crawled=7,
        **audit,
    )
    summary: JsonObject = {
        "issues_total": 3,
        "issues_by_severity": {"critical": 2, "warning": 1, "info": 0},
        "issues_by_type": {"missing-title": 2, "thin-content": 1},
        "top_issues": [],
    }
    return {
        "audit": {**record.to_dict(), "stopped_early": status in ("failed", "cancelled")},
        "summary": summary,
        "links": {"pages": "/api/audits/a1/pages", "issues": "/api/audits/a1/issues"},
    }


def test_a_failed_audit_shows_its_reason_and_partial_results() -> None:
    text = format_summary(report("failed", error_code="oom", failed_phase="crawling"))

    assert "status: failed" in text
    assert "error: oom in crawling" in text
    assert "stopped early after 7 pages; partial results kept" in text


SITE_DOWN = (
    "https://a.test/ refused the connection: nothing answered on port 443. Check that the site "
    "is running and that the address and port are right."
)


def test_an_audit_the_site_made_fail_says_what_happened_and_what_to_try_first() -> None:
    failed = report(
        "failed",
        error_code="site_connection_failed",
        error_detail=SITE_DOWN,
        failed_phase="discovery",
        security_error="the audit ended without a security grade step",
    )
    lines = format_summary(failed).splitlines()

    assert lines[:3] == [
        "status: failed",
        "start url: https://a.test/",
        f"failed: the site could not be connected to (site_connection_failed): {SITE_DOWN}",
    ]
    text = "\n".join(lines)
    assert "error:" not in text and "None" not in text and "security grade" not in text


def test_a_url_given_without_a_scheme_says_which_scheme_was_audited() -> None:
    note = "no scheme given: https://a.test/ did not connect (TLS failed), auditing http://a.test/"
    lines = format_summary(report("completed", scheme_assumed=True, scheme_note=note)).splitlines()

    assert lines[1:3] == ["start url: https://a.test/", note]


def test_a_cancelled_audit_says_so_keeps_its_partial_results_and_names_the_resume() -> None:
    text = format_summary(report("cancelled"))

    assert "status: cancelled" in text
    assert "cancelled; `siteaudit resume a1` finishes it" in text
    assert "stopped early after 7 pages; partial results kept" in text
    assert "error:" not in text


def test_a_completed_audit_shows_counts_by_severity_and_type() -> None:
    text = format_summary(report("completed", health_score=85.7))

    assert "issues: 3 (2 critical, 1 warning, 0 info)" in text
    assert "health score: 85.7" in text
    assert text.index("missing-title") < text.index("thin-content")


def judged_report(*types: TypeTally, pages: int = 20) -> JsonObject:
    """A completed audit's report with the verdict of `types` on a site of `pages` pages."""
    verdict = judge(Tally(pages, pages, 30 * pages, None, types))
    return {
        **report("completed", health_score=verdict.scores.overall),
        "scores": verdict.scores.to_dict(),
        "actions": [action.to_dict() for action in verdict.actions],
        "verdict_note": None,
    }


def on(issue_type: IssueType, pages: int) -> TypeTally:
    return TypeTally(str(issue_type), issue_type.severity, pages, pages, 30 * pages)


def test_the_summary_opens_with_the_scores_and_what_to_fix_first() -> None:
    text = format_summary(
        judged_report(
            on(IssueType.MISSING_VIEWPORT, 20),
            on(IssueType.BROKEN_INTERNAL_LINK, 1),
            on(IssueType.TITLE_TOO_SHORT, 3),
        )
    )
    lines = text.splitlines()

    assert lines[3] == (
        "health score: 93.5 of 100 (Crawlability and links 95, On-page SEO 80, Security 100, "
        "Performance 100, Content 100)"
    )
    assert lines[4] == "what to fix first (3 of 3, by the points each fix adds):"
    assert lines[5].split()[:3] == ["1.", "warning", "+5.0"]
    assert "Missing viewport meta tag on 20 of 20 HTML pages (100%): one shared cause" in lines[5]
    assert lines[6].split()[:3] == ["2.", "critical", "+1.5"]
    assert lines[7].split()[:3] == ["3.", "info", "-"]
    # The findings after the other phases: most severe first, then by pages affected.
    findings = lines[lines.index("issues: 3 (2 critical, 1 warning, 0 info) in 3 findings") + 1 :]
    assert [line.split()[0] for line in findings] == ["critical", "warning", "info"]
    assert findings[0].endswith("1 page  Broken internal link (broken-internal-link)")


def test_the_summary_lists_ten_actions_and_says_how_to_read_the_rest() -> None:
    many = [on(t, 2) for t in list(IssueType)[:30] if t.severity is not Severity.INFO][:12]
    lines = format_summary(judged_report(*many)).splitlines()
    shown = [line for line in lines if re.match(r"\s+\d+\. ", line)]
    assert len(shown) == 10
    assert f"  ... {len(many) - 10} more: siteaudit report a1 --format json" in lines


def test_an_audit_without_a_verdict_says_why() -> None:
    data = {**report("running"), "scores": None, "actions": [], "verdict_note": "Still running."}
    assert "what to fix first: Still running." in format_summary(data).splitlines()


@pytest.mark.parametrize(
    ("timing", "line"),
    [
        ({"threshold_ms": 1500}, "timing: no page over 1,500 ms during the crawl"),
        (
            {"threshold_ms": 1500, "candidates": 4, "slow_pages": 1, "sampled": 9,
             "median_ms": 40, "unconfirmed": 2},
            "timing: 1 of 4 pages slow during the crawl were slow again when measured alone; "
            "the site's median 40 ms; 2 not measured again in time, so not flagged",
        ),
        (
            {"skipped": "the site rate-limited the crawl"},
            "timing: not measured again (the site rate-limited the crawl)",
        ),
        ({"error": "the step failed"}, "timing: not judged (the step failed)"),
    ],
)  # fmt: skip
def test_the_summary_says_what_the_timing_check_measured(timing: JsonObject, line: str) -> None:
    data = {**report("completed"), "timing": timing}
    assert line in format_summary(data).splitlines()


def runs(status: str, completed: int, failed: int) -> dict[str, object]:
    return {
        "lighthouse_status": status,
        "lighthouse_total": 16,
        "lighthouse_completed": completed,
        "lighthouse_failed": failed,
    }


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        (
            {"lighthouse_status": "skipped_no_key"},
            "lighthouse: skipped (no PSI_API_KEY configured)",
        ),
        ({"lighthouse_status": "disabled"}, "lighthouse: not run (option none)"),
        (
            {
                "lighthouse_status": "completed",
                "lighthouse_total": 16,
                "lighthouse_completed": 14,
                "lighthouse_failed": 2,
            },
            "lighthouse: 16/16 runs, 2 failed",
        ),
        (
            {
                "lighthouse_status": "running",
                "lighthouse_total": 16,
                "lighthouse_completed": 5,
                "lighthouse_failed": 1,
            },
            "lighthouse: 6/16 runs, 1 failed (running)",
        ),
    ],
)
def test_the_summary_says_what_became_of_lighthouse(fields: dict[str, object], line: str) -> None:
    data = report("completed")
    data["audit"] = {**data["audit"], **fields}  # type: ignore[dict-item]
    assert line in format_summary(data).splitlines()


def test_no_lighthouse_line_before_the_phase() -> None:
    assert "lighthouse" not in format_summary(report("completed"))


async def seed(platform: LocalPlatform, audit_id: str, pages: int) -> None:
    now = "2026-12-01T00:00:00.000Z"
    await repository.insert_audit(
        platform.env.DB, AuditRecord(audit_id, "https://a.test/", now, owner=LOCAL_OWNER)
    )
    rows = [
        PageRecord(f"p{n:03d}", audit_id, f"https://a.test/{n}", now, title=f'"t{n}"\n\u00e9')
        for n in range(pages)
    ]
    issues = [
        IssueRecord(f"i{n:03d}", audit_id, page.url, "missing-title", "critical", page.id)
        for n, page in enumerate(rows)
    ]
    await repository.write_crawled_pages(platform.env.DB, rows, issues)


async def keep_links(platform: LocalPlatform, audit_id: str, pages: int) -> None:
    """Each page links to the next, with its number as the anchor text."""
    urls = [f"https://a.test/{n}" for n in range(pages)]
    lists = [
        PageLinkLists(
            url,
            inlinks_total=int(n > 0),
            outlinks_total=int(n + 1 < pages),
            inlinks=(PageLink(urls[n - 1], str(n - 1), AnchorKind.TEXT),) if n else (),
            outlinks=(PageLink(urls[n + 1], str(n), AnchorKind.TEXT, status_code=200),)
            if n + 1 < pages
            else (),
        )
        for n, url in enumerate(urls)
    ]
    await page_links.write_page_links(platform.env.DB, audit_id, [to_row(p) for p in lists])


@pytest.mark.parametrize(
    ("pages", "page_size", "batch", "links"),
    [(0, 1000, 50, False), (1, 1000, 50, True), (7, 3, 2, True), (9, 3, 50, False)],
)
async def test_the_streamed_json_report_is_the_whole_report_byte_for_byte(
    platform: LocalPlatform,
    monkeypatch: pytest.MonkeyPatch,
    pages: int,
    page_size: int,
    batch: int,
    links: bool,
) -> None:
    monkeypatch.setattr(cli_report, "LIST_PAGE_SIZE", page_size)
    monkeypatch.setattr(service_page_links, "VIEW_BATCH", batch)
    await seed(platform, "x-1", pages)
    if links:
        await keep_links(platform, "x-1", pages)

    chunks = [chunk async for chunk in json_report_chunks(platform, "x-1")]
    whole = await full_report(platform, "x-1")

    assert b"".join(chunks).decode() == json.dumps(whole, indent=2, sort_keys=True) + "\n"
    assert len(whole["pages"]) == len(whole["issues"]) == pages  # type: ignore[arg-type]
    # The per-URL link lists of the HTML report's view, as the stored report holds them.
    section = whole["page_links"]
    assert isinstance(section, dict) and section["kept"] is links
    listed = [PageLinkLists.from_dict(page) for page in section["pages"]]
    assert [(p.url, [link.anchor for link in p.outlinks]) for p in listed] == (
        [
            (f"https://a.test/{n}", [str(n)] if n + 1 < pages else [])
            for n in sorted(range(pages), key=str)
        ]
        if links
        else []
    )
    # One chunk per list page (and one per key), never the whole list at once.
    assert len(chunks) >= 2 * -(-pages // page_size)


ROBOTS_IGNORED = RobotsDecision(True, "robots.txt was ignored (host verified by dns)", "a.test")


@pytest.mark.parametrize(
    ("options", "robots", "expected"),
    [
        (AuditOptions(), None, []),  # every default: no scope line
        (AuditOptions(max_depth=2), None, ["scope: At most 2 clicks from the start URL."]),
        (
            AuditOptions(include_patterns=["/blog/*"], exclude_patterns=["/tag/*", "/x"]),
            None,
            ["scope: Only URLs matching: /blog/*.", "scope: URLs never crawled: /tag/*, /x."],
        ),
        (
            AuditOptions(scope=ScopeOptions(user_agent="StagingBot/1.0", rate_per_s=0.5)),
            None,
            [
                "scope: User-Agent sent: StagingBot/1.0 (robots.txt matched on 'siteaudit').",
                "scope: At most 0.5 requests a second to one host (lower where robots.txt asks "
                "for a Crawl-delay).",
            ],
        ),
        (
            AuditOptions(scope=ScopeOptions(concurrency=3, strip_params=["sid", "utm_*"])),
            None,
            [
                "scope: At most 3 page fetches in flight.",
                "scope: Query parameters stripped before deduplication: sid, utm_*.",
            ],
        ),
        (
            AuditOptions(scope=ScopeOptions(subdomains=True)),
            None,
            ["scope: Subdomains included: every host under the start host's registrable domain."],
        ),
        (
            AuditOptions(
                scope=ScopeOptions(
                    mode=AuditMode.LIST, urls=["https://a.test/", "https://a.test/b"]
                )
            ),
            None,
            [
                "scope: List mode: 2 listed URLs, no link followed.",
                "not checked: Orphan pages, crawl depth, sitemap coverage: not checked in list mode.",
            ],
        ),
        (
            AuditOptions(ignore_robots=True, max_depth=0),
            ROBOTS_IGNORED,
            [ROBOTS_IGNORED.note, "scope: At most 0 clicks from the start URL."],
        ),
    ],
)
def test_the_summary_states_the_scope_an_audit_ran_with_when_not_the_default(
    options: AuditOptions, robots: RobotsDecision | None, expected: list[str]
) -> None:
    lines = format_summary(
        report("completed", options=options, robots_override=robots)
    ).splitlines()

    # Right after the start URL, before the counts, as the HTML report's "About this audit".
    assert lines[2 : lines.index("pages crawled: 7")] == expected
    # The same sentences as the JSON, HTML and SARIF reports (service.scope_report).
    summary = scope_summary(options)
    assert [line for line in expected if line.startswith("scope: ")] == [
        f"scope: {fact}" for fact in summary.facts
    ]


def a11y_report(checked: bool, by_type: dict[str, int], rendered: int = 0) -> JsonObject:
    types = tuple(on(IssueType(t), n) for t, n in by_type.items())
    verdict = judge(Tally(20, 20, 600, None, types, checked, rendered))
    base = report("completed", health_score=verdict.scores.overall)
    summary: Any = dict(as_object(base["summary"]))  # JSON whose shape the test knows
    summary["issues_by_type"] = dict(by_type)
    return {**base, "summary": summary, "scores": verdict.scores.to_dict()}


_NOT_RENDERED = (
    "colour contrast, target size and the other rules only a browser decides not checked (no "
    "page rendered with axe-core)"
)


@pytest.mark.parametrize(
    ("checked", "by_type", "rendered", "line"),
    [
        (False, {}, 0, "accessibility: not checked (the static rules did not run on the pages)"),
        (True, {}, 0, f"accessibility: 100 of 100; no rule failed; {_NOT_RENDERED}"),
        (
            True,
            {"a11y-link-name": 2, "a11y-image-alt": 20, "missing-title": 3},
            0,
            # 100 x (1 - 0.5) for image-alt on every page x (1 - 0.2 x 0.1) for link-name on 2 of 20
            "accessibility: 49 of 100; failing rules (pages): image-alt on 20, link-name on 2; "
            + _NOT_RENDERED,
        ),
        (
            True,
            {"a11y-color-contrast": 4},
            5,
            # a warning on 4 of the 5 pages axe-core checked: 100 x (1 - 0.2 x 0.8)
            "accessibility: 84 of 100; failing rules (pages): color-contrast on 4; colour "
            "contrast, target size and the other rules only a browser decides checked on the 5 "
            "pages rendered with axe-core only",
        ),
    ],
)
def test_the_accessibility_line(
    checked: bool, by_type: dict[str, int], rendered: int, line: str
) -> None:
    assert line in format_summary(a11y_report(checked, by_type, rendered)).splitlines()
