"""The verdict (audit.verdict): findings, category scores, the overall score and ranked actions,
as docs/scoring.md specifies them, including its worked examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.catalogue import CATALOGUE, Category, IssueType, Severity
from audit.verdict import (
    CATEGORY_WEIGHTS,
    Finding,
    FindingScope,
    Scores,
    Tally,
    TypeTally,
    Verdict,
    describe,
    findings,
    gain_phrase,
    importance,
    judge,
    score,
)


def tally_of(
    *types: TypeTally, pages: int = 100, security: int | None = None, a11y: bool = False
) -> Tally:
    """A site of `pages` scored HTML pages, all at depth 1 (importance 30 sixtieths each), whose
    accessibility was not checked unless `a11y` (docs/scoring.md's worked examples: five
    categories)."""
    return Tally(
        scored_pages=pages,
        html_pages=pages,
        scored_weight=30 * pages,
        security_score=security,
        types=types,
        accessibility_checked=a11y,
    )


def on_pages(issue_type: IssueType, pages: int, *, rows: int | None = None) -> TypeTally:
    """`issue_type` on `pages` pages at depth 1, with its catalogue severity."""
    return TypeTally(str(issue_type), issue_type.severity, rows or pages, pages, 30 * pages)


def site_issue(issue_type: IssueType, severity: Severity, modifier: int = 0) -> TypeTally:
    """A site-level issue (reported on the start page, depth 0)."""
    return TypeTally(str(issue_type), severity, 1, 1, 60, modifier)


def category_score(scores: Scores, category: Category) -> float | None:
    return next(c.score for c in scores.categories if c.category is category)


@pytest.mark.parametrize(
    ("depth", "weight"),
    [(0, 60), (1, 30), (2, 20), (3, 15), (4, 12), (5, 10), (9, 10), (None, 10), (-1, 60)],
)
def test_a_page_weighs_less_the_deeper_it_is(depth: int | None, weight: int) -> None:
    assert importance(depth) == weight  # sixtieths: 1 / (1 + depth), whole numbers


def test_accessibility_not_checked_is_not_scored_and_leaves_the_mean() -> None:
    scores = score(tally_of(on_pages(IssueType.MISSING_H1, 100), a11y=False))
    accessibility = next(c for c in scores.categories if c.category is Category.ACCESSIBILITY)
    assert accessibility.score is None and accessibility.weight == 15
    assert scores.overall == 95.0  # (25 x 80 + 75 x 100) / 100: five categories, not six


def test_an_accessibility_fault_on_every_page_costs_its_category() -> None:
    scores = score(tally_of(on_pages(IssueType.A11Y_BUTTON_NAME, 100), a11y=True))
    assert category_score(scores, Category.ACCESSIBILITY) == 50.0  # critical on every page
    assert scores.overall == 93.5  # (15 x 50 + 100 x 100) / 115


@pytest.mark.parametrize(
    ("seo", "a11y", "lead"),
    [
        (IssueType.IMAGES_MISSING_ALT, IssueType.A11Y_IMAGE_ALT, IssueType.A11Y_IMAGE_ALT),
        (IssueType.MISSING_HTML_LANG, IssueType.A11Y_HTML_HAS_LANG, IssueType.A11Y_HTML_HAS_LANG),
        (IssueType.HEADING_ORDER_SKIP, IssueType.A11Y_HEADING_ORDER, IssueType.A11Y_HEADING_ORDER),
        (IssueType.MISSING_TITLE, IssueType.A11Y_DOCUMENT_TITLE, IssueType.MISSING_TITLE),
        (IssueType.META_REFRESH, IssueType.A11Y_META_REFRESH, IssueType.META_REFRESH),
        (IssueType.MISSING_H1, IssueType.A11Y_PAGE_HAS_HEADING_ONE, IssueType.MISSING_H1),
    ],
)
def test_a_defect_both_checks_report_is_one_finding(
    seo: IssueType, a11y: IssueType, lead: IssueType
) -> None:
    [found] = findings(tally_of(on_pages(seo, 10), on_pages(a11y, 10), a11y=True))
    assert found.issue_type == lead
    assert set(found.issue_types) == {str(seo), str(a11y)}
    assert found.category is lead.category


_PAIRS = [
    (IssueType.IMAGES_MISSING_ALT, IssueType.A11Y_IMAGE_ALT),
    (IssueType.MISSING_HTML_LANG, IssueType.A11Y_HTML_HAS_LANG),
    (IssueType.HEADING_ORDER_SKIP, IssueType.A11Y_HEADING_ORDER),
    (IssueType.A11Y_DOCUMENT_TITLE, IssueType.MISSING_TITLE),
    (IssueType.A11Y_META_REFRESH, IssueType.META_REFRESH),
    (IssueType.A11Y_PAGE_HAS_HEADING_ONE, IssueType.MISSING_H1),
]


@pytest.mark.parametrize(("member", "lead"), _PAIRS)
def test_a_pairs_defect_sits_in_the_leads_category_whichever_check_found_it(
    member: IssueType, lead: IssueType
) -> None:
    [alone] = findings(tally_of(on_pages(member, 10), a11y=True))
    [both] = findings(tally_of(on_pages(member, 10), on_pages(lead, 10), a11y=True))
    assert alone.issue_type == member and both.issue_type == lead
    assert alone.category is both.category is lead.category
    # so finding the other check's twin too never raises the category the member sat in
    before = score(tally_of(on_pages(member, 10), a11y=True))
    after = score(tally_of(on_pages(member, 10), on_pages(lead, 10), a11y=True))
    for old, new in zip(before.categories, after.categories, strict=True):
        assert old.score is not None and new.score is not None and new.score <= old.score


@pytest.mark.parametrize(
    "member", [m for m, lead in _PAIRS if lead.category is Category.ACCESSIBILITY]
)
def test_without_accessibility_checked_an_seo_check_keeps_its_own_category(
    member: IssueType,
) -> None:
    [found] = findings(tally_of(on_pages(member, 10), a11y=False))
    assert found.category is member.category is not Category.ACCESSIBILITY


def test_a_site_without_findings_scores_100_everywhere() -> None:
    scores = score(tally_of(a11y=True))
    assert scores.overall == 100.0
    assert {c.score for c in scores.categories} == {100.0}
    assert scores.notes == ()


def test_no_scored_page_means_no_score_rather_than_0_or_100() -> None:
    scores = score(Tally(0, 0, 0, None, (on_pages(IssueType.MISSING_H1, 0),)))
    assert scores.overall is None
    assert {c.score for c in scores.categories} == {None}


@pytest.mark.parametrize(
    ("issue", "pages", "scope"),
    [
        (IssueType.MISSING_VIEWPORT, 100, FindingScope.SITE_WIDE),
        (IssueType.MISSING_VIEWPORT, 50, FindingScope.SITE_WIDE),  # half the pages: shared
        (IssueType.MISSING_VIEWPORT, 49, FindingScope.PAGES),
        # a template without Open Graph tags: one row per page listing every missing tag
        (IssueType.MISSING_OPEN_GRAPH, 100, FindingScope.SITE_WIDE),
        (IssueType.DUPLICATE_TITLE, 100, FindingScope.PAGES),  # cross-page: its own cause each
        (IssueType.SECURITY_REDIRECTION, 1, FindingScope.SITE),
        (IssueType.CRAWL_RATE_LIMITED, 1, FindingScope.SITE),
    ],
)
def test_a_page_fault_on_half_the_pages_is_one_site_wide_finding(
    issue: IssueType, pages: int, scope: FindingScope
) -> None:
    (finding,) = findings(tally_of(on_pages(issue, pages)))
    assert finding.scope is scope


def test_site_wide_needs_five_pages_on_a_small_site() -> None:
    small = Tally(4, 4, 120, None, (on_pages(IssueType.MISSING_H1, 4),))
    assert findings(small)[0].scope is FindingScope.PAGES


def test_a_header_the_grade_fails_and_the_pages_lack_is_one_finding_counted_once() -> None:
    tally = tally_of(
        site_issue(IssueType.SECURITY_CSP, Severity.CRITICAL, -25),
        on_pages(IssueType.CSP_MISSING, 100),
        security=75,
    )
    (finding,) = findings(tally)
    assert finding.issue_type == "security-csp"
    assert finding.issue_types == ("security-csp", "csp-missing")
    assert (finding.severity, finding.pages, finding.rows) == (Severity.CRITICAL, 100, 101)
    # The grade already took its 25 points: the per-page rows cost nothing more.
    assert category_score(score(tally), Category.SECURITY) == 75.0


def test_a_header_missing_on_pages_while_the_grade_passes_stays_its_own_finding() -> None:
    (finding,) = findings(tally_of(on_pages(IssueType.CSP_MISSING, 3)))
    assert (finding.issue_type, finding.severity) == ("csp-missing", Severity.INFO)


def test_findings_are_ordered_by_severity_then_pages_affected() -> None:
    tally = tally_of(
        on_pages(IssueType.THIN_CONTENT, 2),
        on_pages(IssueType.MISSING_H1, 90),
        on_pages(IssueType.TITLE_TOO_SHORT, 40),
        on_pages(IssueType.BROKEN_INTERNAL_LINK, 1, rows=3),
        on_pages(IssueType.DUPLICATE_TITLE, 6),
    )
    assert [f.issue_type for f in findings(tally)] == [
        "broken-internal-link",
        "missing-h1",
        "duplicate-title",
        "thin-content",
        "title-too-short",
    ]


def test_issue_types_this_catalogue_does_not_know_are_left_out() -> None:
    tally = tally_of(TypeTally("retired-check", Severity.CRITICAL, 5, 5, 150))
    assert findings(tally) == []
    assert score(tally).overall == 100.0


# -- the worked examples of docs/scoring.md ----------------------------------------------------


def test_worked_example_one_critical_link_on_one_page() -> None:
    # One broken internal link on one page of 100: its share (0.005) is raised to 0.1, so
    # crawlability loses 5% (95.0) and the overall score 30% of 5 points.
    verdict = judge(tally_of(on_pages(IssueType.BROKEN_INTERNAL_LINK, 1)))
    assert category_score(verdict.scores, Category.CRAWLABILITY) == 95.0
    assert verdict.scores.overall == 98.5
    (action,) = verdict.actions
    assert (action.rank, action.gain, action.pages) == (1, 1.5, 1)


def test_worked_example_a_template_missing_its_viewport_and_h1() -> None:
    # Two warnings on every page: on-page SEO keeps 0.8 × 0.8 of its points.
    verdict = judge(
        tally_of(on_pages(IssueType.MISSING_VIEWPORT, 100), on_pages(IssueType.MISSING_H1, 100))
    )
    assert category_score(verdict.scores, Category.ON_PAGE) == 64.0
    assert verdict.scores.overall == 91.0
    assert [a.scope for a in verdict.actions] == [FindingScope.SITE_WIDE] * 2
    # Fixing either one gives back the same 0.2 × 64 points of on-page SEO (x 25%).
    assert [a.gain for a in verdict.actions] == [4.0, 4.0]


# A grade of 10 (F): no CSP -25, no HSTS -20, no redirect to https -20, no clickjacking
# protection -20, no X-Content-Type-Options -5.
FAILING_GRADE = (
    site_issue(IssueType.SECURITY_CSP, Severity.CRITICAL, -25),
    site_issue(IssueType.SECURITY_HSTS, Severity.CRITICAL, -20),
    site_issue(IssueType.SECURITY_REDIRECTION, Severity.CRITICAL, -20),
    site_issue(IssueType.SECURITY_FRAME_OPTIONS, Severity.CRITICAL, -20),
    site_issue(IssueType.SECURITY_CONTENT_TYPE_OPTIONS, Severity.WARNING, -5),
)


def test_worked_example_a_failing_grade_drags_the_security_category_and_says_why() -> None:
    tally = tally_of(
        *FAILING_GRADE,
        security=10,
    )
    verdict = judge(tally)
    assert category_score(verdict.scores, Category.SECURITY) == 10.0
    assert verdict.scores.overall == 82.0
    assert verdict.scores.notes == (
        "The overall score (82) averages five categories; Security alone scores 10: see its "
        "actions below.",
    )
    # Fixing the CSP gives the grade back its 25 points: 20% of 25.
    assert verdict.actions[0].issue_type == "security-csp"
    assert verdict.actions[0].gain == 5.0


def test_every_poor_category_is_named_in_one_note() -> None:
    tally = tally_of(
        on_pages(IssueType.MISSING_VIEWPORT, 100),
        on_pages(IssueType.MISSING_H1, 100),
        *FAILING_GRADE,
        security=10,
    )
    verdict = judge(tally)
    assert verdict.scores.overall == 73.0
    assert verdict.scores.notes == (
        "The overall score (73) averages five categories; On-page SEO scores 64 and Security "
        "10: see their actions below.",
    )


def test_a_security_score_below_its_grade_says_why() -> None:
    tally = tally_of(on_pages(IssueType.MIXED_CONTENT, 100), security=90)
    scores = score(tally)
    assert category_score(scores, Category.SECURITY) == 72.0
    assert scores.notes[0].startswith("The security score (72) is below the security grade's")
    assert "Mixed content" in scores.notes[0]


# -- properties ---------------------------------------------------------------------------------

_TYPES = sorted(CATALOGUE, key=str)


@st.composite
def tallies(draw: st.DrawFn) -> Tally:
    pages = draw(st.integers(min_value=1, max_value=500))
    chosen = draw(st.lists(st.sampled_from(_TYPES), unique=True, max_size=12))
    types = []
    for issue_type in chosen:
        affected = draw(st.integers(min_value=1, max_value=pages))
        depth_weight = draw(st.sampled_from([10, 12, 15, 20, 30, 60]))
        severity = (
            draw(st.sampled_from(list(Severity)))
            if str(issue_type).startswith("security-")
            else issue_type.severity
        )
        modifier = draw(st.integers(min_value=-40, max_value=0))
        types.append(
            TypeTally(
                str(issue_type), severity, affected, affected, affected * depth_weight, modifier
            )
        )
    security = draw(st.none() | st.integers(min_value=0, max_value=135))
    # The rules' failures are rows only where they ran: a tally with one has them checked.
    checked = draw(st.booleans()) or any(t.issue_type.startswith("a11y-") for t in types)
    return Tally(pages, pages, 60 * pages, security, tuple(types), checked)


@given(tallies())
def test_every_score_is_between_0_and_100(tally: Tally) -> None:
    scores = score(tally)
    values = [scores.overall, *(c.score for c in scores.categories)]
    assert all(v is not None and 0 <= v <= 100 for v in values if v is not None)
    assert scores.overall is not None
    unscored = {c.category for c in scores.categories if c.score is None}
    assert unscored == (set() if tally.accessibility_checked else {Category.ACCESSIBILITY})


@given(tallies())
def test_an_audit_with_a_critical_finding_never_scores_100(tally: Tally) -> None:
    verdict = judge(tally)
    if any(f.severity is Severity.CRITICAL for f in verdict.findings):
        assert verdict.scores.overall is not None and verdict.scores.overall < 100


@given(tallies(), st.sampled_from(_TYPES))
def test_one_more_finding_never_raises_any_score(tally: Tally, extra: IssueType) -> None:
    if any(t.issue_type == str(extra) for t in tally.types):
        return
    more = Tally(
        tally.scored_pages,
        tally.html_pages,
        tally.scored_weight,
        tally.security_score,
        (*tally.types, TypeTally(str(extra), extra.severity, 1, 1, 30)),
        tally.accessibility_checked or str(extra).startswith("a11y-"),
    )
    if more.accessibility_checked != tally.accessibility_checked:
        return  # checking accessibility adds a category: a different audit, not one more finding
    before, after = score(tally), score(more)
    assert after.overall is not None and before.overall is not None
    assert after.overall <= before.overall
    for old, new in zip(before.categories, after.categories, strict=True):
        assert (new.score is None) is (old.score is None)
        assert new.score is None or old.score is None or new.score <= old.score


@given(tallies())
def test_actions_cover_every_finding_once_ranked_by_gain(tally: Tally) -> None:
    verdict = judge(tally)
    assert sorted(a.issue_type for a in verdict.actions) == sorted(
        f.issue_type for f in verdict.findings
    )
    assert [a.rank for a in verdict.actions] == list(range(1, len(verdict.actions) + 1))
    gains = [a.gain for a in verdict.actions]
    assert gains == sorted(gains, reverse=True)
    assert all(
        a.gain == 0
        for a in verdict.actions
        if a.severity is Severity.INFO and not a.issue_type.startswith("security-")
    )


@given(tallies())
def test_the_verdict_survives_its_wire_form(tally: Tally) -> None:
    assert Tally.from_dict(tally.to_dict()) == tally
    verdict = judge(tally)
    assert Verdict.from_dict(verdict.to_dict()) == verdict


def test_the_category_weights_cover_every_category() -> None:
    assert set(CATEGORY_WEIGHTS) == set(Category)
    assert all(d.scope is not None for d in CATALOGUE.values())


def test_findings_carry_the_lead_types_category() -> None:
    finding = findings(tally_of(on_pages(IssueType.SLOW_RESPONSE, 3)))[0]
    assert isinstance(finding, Finding)
    assert finding.category is Category.PERFORMANCE


@pytest.mark.parametrize(
    ("scope", "pages", "html_pages", "sentence"),
    [
        (FindingScope.SITE, 1, 100, "Title: it concerns the whole site."),
        (FindingScope.PAGES, 1, 100, "Title on 1 of 100 HTML pages (1%)."),
        (FindingScope.PAGES, 2, 1000, "Title on 2 of 1,000 HTML pages (<1%)."),
        (FindingScope.PAGES, 3, 0, "Title on 3 pages."),  # no HTML page answered 2xx
        (
            FindingScope.SITE_WIDE,
            1170,
            1170,
            "Title on 1,170 of 1,170 HTML pages (100%): one shared cause (a template or the "
            "server's configuration), fixed once for every page.",
        ),
    ],
)
def test_each_finding_is_described_in_one_plain_sentence(
    scope: FindingScope, pages: int, html_pages: int, sentence: str
) -> None:
    finding = Finding(
        "missing-h1", ("missing-h1",), Severity.WARNING, Category.ON_PAGE, scope, pages, pages, 0.1
    )
    assert describe(finding, "Title", html_pages) == sentence


@pytest.mark.parametrize(
    ("issue", "pages", "phrase"),
    [
        (IssueType.MISSING_H1, 100, "+0.5 points"),  # a tenth of on-page SEO's weight
        (IssueType.THIN_CONTENT, 1, "under 0.1 points"),  # a warning on one page of 1,000
        (IssueType.TITLE_TOO_SHORT, 500, "no score impact (info)"),
    ],
)
def test_what_fixing_is_worth_is_said_in_words(issue: IssueType, pages: int, phrase: str) -> None:
    (action,) = judge(tally_of(on_pages(issue, pages), pages=1000)).actions
    assert gain_phrase(action) == phrase


# -- the rules only axe-core decides, on the rendered pages it ran on (Scope.RENDERED) ------------


@pytest.mark.parametrize(
    ("failing", "checked", "scope", "share", "where"),
    [
        # a template's fault: every page axe-core checked fails, however many the crawl read
        (10, 10, FindingScope.SITE_WIDE, 1.0, "10 of the 10 pages axe-core checked in a browser"),
        (6, 10, FindingScope.SITE_WIDE, 0.6, "6 of the 10 pages axe-core checked"),
        (2, 10, FindingScope.PAGES, 0.2, "2 of the 10 pages axe-core checked"),
        # fewer checked pages than a site-wide finding needs: their share, not site-wide
        (3, 3, FindingScope.PAGES, 1.0, "3 of the 3 pages axe-core checked"),
    ],
)
def test_a_rendered_only_rule_is_judged_on_the_pages_axe_core_checked(
    failing: int, checked: int, scope: FindingScope, share: float, where: str
) -> None:
    tally = Tally(
        scored_pages=1000,
        html_pages=1000,
        scored_weight=30 * 1000,
        security_score=None,
        types=(on_pages(IssueType.A11Y_COLOR_CONTRAST, failing),),
        accessibility_checked=True,
        accessibility_rendered=checked,
    )
    [action] = judge(tally).actions
    [found] = findings(tally)
    assert (found.scope, found.share, found.checked_pages) == (scope, share, checked)
    assert where in action.summary
    assert "only rendered pages are checked for it" in action.summary
    assert "of 1,000 HTML pages" not in action.summary  # the unchecked pages did not pass


def test_a_contrast_fault_on_every_checked_page_ranks_as_a_site_wide_warning() -> None:
    # The pages axe-core checked are a sample of 10 of 1,000: failing on all of them weighs as
    # a warning on every page does (a template's colours), not as 10 pages of 1,000 would.
    template = on_pages(IssueType.MISSING_META_DESCRIPTION, 1000)
    sampled = on_pages(IssueType.A11Y_COLOR_CONTRAST, 10)
    tally = Tally(1000, 1000, 30_000, None, (template, sampled), True, 10)
    gains = {a.issue_type: a.gain for a in judge(tally).actions}
    assert gains["a11y-color-contrast"] > 1.0
