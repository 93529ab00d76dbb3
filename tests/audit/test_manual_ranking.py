"""Issue 31, Done-when 3, on a small site shaped like the PostgreSQL manual (docs/accessibility.md,
"The PostgreSQL manual's ranking"): DocBook's XHTML template on every page, without `lang`, a
`<main>` or a meta description and viewport, its headings starting at `<h2>`, the same access
keys in the header and the footer navigation, served without security headers over plain http.

The template's accessibility faults are site-wide findings ranked by their worth among the other
fixes, as on the manual itself: after the security grade's failures and the on-page template
warnings, ahead of every lighter fix, three of them in the text summary's first screen
(cli.report.ACTIONS_SHOWN). The summary says the rules only a rendered page decides were not
checked: this audit renders nothing."""

from __future__ import annotations

from typing import Any

from cli.report import ACTIONS_SHOWN, format_summary, full_report
from local_platform.runtime import LocalPlatform
from tests.support.site_server import Reply, serve_site

CHAPTERS = 11
_NAV = (
    '<a accesskey="p" href="{prev}" title="Previous">Prev</a> '
    '<a accesskey="u" href="index.html" title="Up">Up</a> '
    '<a accesskey="h" href="index.html" title="Home">Home</a> '
    '<a accesskey="n" href="{next}" title="Next">Next</a>'
)


def _page(n: int) -> bytes:
    """Page `n` (0: the index), as the DocBook XSL stylesheets write the manual's pages."""
    prev, nxt = f"ch{max(n - 1, 1)}.html", f"ch{min(n + 1, CHAPTERS)}.html"
    nav = _NAV.format(prev=prev, next=nxt)
    toc = "".join(f'<dt><a href="ch{c}.html">{c}. Chapter {c}</a></dt>' for c in range(1, 12))
    words = " ".join(["The manual explains each command and option in turn."] * 30)
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!DOCTYPE html PUBLIC '
        '"-//W3C//DTD XHTML 1.0 Transitional//EN" '
        '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" '
        f'content="text/html; charset=UTF-8" /><title>Chapter {n}. Topic {n}</title></head>'
        f'<body id="docContent"><div class="navheader"><table width="100%" '
        f'summary="Navigation header"><tr><td>{nav}</td></tr></table><hr /></div>'
        f'<div class="chapter"><h2 class="title">Chapter {n}. Topic {n}</h2><p>{words}</p>'
        f'<dl class="toc">{toc}</dl></div><div class="navfooter"><hr /><table width="100%" '
        f'summary="Navigation footer"><tr><td>{nav}</td></tr></table></div></body></html>'
    ).encode()


def _site() -> dict[str, Reply]:
    routes = {"/index.html": Reply(body=_page(0)), "/": Reply(body=_page(0))}
    routes |= {f"/ch{n}.html": Reply(body=_page(n)) for n in range(1, CHAPTERS + 1)}
    routes["/robots.txt"] = Reply(body=b"", headers={"content-type": "text/plain"})
    return routes


# The template's faults, by category: the manual's own, as its audit finds them (1,169 pages:
# docs/accessibility.md). definition-list: its tables of contents hold <dt> without <dd>.
TEMPLATE_A11Y = {
    "a11y-html-has-lang",
    "a11y-landmark-one-main",
    "a11y-accesskeys",
    "a11y-definition-list",
}
TEMPLATE_ON_PAGE = {"missing-meta-description", "missing-viewport", "missing-h1"}
GRADE = {"security-csp", "security-x-frame-options", "security-hsts", "security-redirection"}


async def test_the_template_s_accessibility_faults_rank_by_their_worth(
    platform: LocalPlatform,
) -> None:
    with serve_site(_site()) as site:
        request = {"url": site.url("/index.html"), "check_external": False}
        status, body = await platform.request("POST", "/api/audits", request)
        assert status == 201, body
        audit_id = body["audit"]["id"]
        await platform.wait_for_workflow(audit_id, timeout_s=120)
        report: Any = await full_report(platform, audit_id)  # JSON whose shape the test knows

    ranked = [a["issue_type"] for a in report["actions"]]
    actions = {a["issue_type"]: a for a in report["actions"]}
    pages = CHAPTERS + 1
    for fault in TEMPLATE_A11Y:
        assert (actions[fault]["scope"], actions[fault]["pages"]) == ("site-wide", pages)
        assert actions[fault]["severity"] == "warning"
    # Worth decides the order: the grade's critical tests, the on-page template warnings (on-page
    # SEO weighs 25, accessibility 15: docs/scoring.md), then the accessibility template warnings,
    # each worth the same, ahead of every lighter fix.
    assert set(ranked[:4]) == GRADE
    assert set(ranked[4:7]) == TEMPLATE_ON_PAGE
    assert set(ranked[7:11]) == TEMPLATE_A11Y
    assert len({actions[fault]["gain"] for fault in TEMPLATE_A11Y}) == 1
    assert all(a["gain"] < actions["a11y-html-has-lang"]["gain"] for a in report["actions"][11:])

    # The text summary's first screen shows three of them; the rest is a command away.
    summary = format_summary(report)
    first_screen = summary.split("what to fix first")[1].split("\n  ... ")[0]
    shown = [fault for fault in TEMPLATE_A11Y if actions[fault]["title"] in first_screen]
    assert len(shown) == ACTIONS_SHOWN - len(GRADE) - len(TEMPLATE_ON_PAGE) == 3
    assert "Page language not declared on 12 of 12 HTML pages" in first_screen
    # This audit rendered nothing: the summary does not imply the rendered-page rules passed.
    assert "no page rendered with axe-core" in summary
