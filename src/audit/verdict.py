"""The audit's verdict: one finding per fix, category scores, an overall score that agrees with
them, and the actions ranked by what fixing each is worth. docs/scoring.md is its specification,
with worked examples; the constants below are its parameters.

Theory of operation
-------------------
Everything here is a pure function of a `Tally`: per issue type, how many rows and distinct pages
it has, and the summed *importance* of the scored pages it touches, plus the site's totals
(auditdb.verdict adds them up in SQL at finalize and stores the tally with the audit). So the
score written at finalize and the actions a report shows later come from the same numbers.

* Importance of a page: `1 / (1 + depth)`, depth capped at `MAX_WEIGHTED_DEPTH` (a page of
  unknown depth counts as that deep), counted in whole sixtieths so sums are exact. The start
  page weighs 1, a page one click away 1/2: a fault on the pages readers and search engines
  reach first is worth more (Ahrefs ranks its always-on crawl by URL depth and inlinks;
  docs/field.md §1.2).
* Findings (`findings`): one per fix. Issue types that one change fixes are merged: a response
  header the security grade fails at the start page and the same header missing on crawled pages
  (`SHARED_FIXES`) are one finding, not a `security-*` issue plus a row per page; so are an app
  shell's `javascript-rendering-suspected` and its `rendering-not-done`. A merged pair's finding
  sits in one category whichever of its members the audit found (the lead's in `SHARED_FIXES`),
  so finding one more never moves a finding out of a category. A per-page type
  on at least `SITE_WIDE_SHARE` of the crawled HTML pages (and `SITE_WIDE_MIN_PAGES`) is a
  *site-wide* finding: its cause is shared (a template, the server's configuration), so it is one
  fix however many pages show it. Site and crawl issues (headers, DNS, the crawl itself) concern
  the whole site.
* Share of a finding: the importance of the scored pages it touches over the importance of all
  scored pages (1 for a finding about the whole site). A critical finding counts as at least
  `CRITICAL_MIN_SHARE`, so one critical fault always shows in the score.
* Category score: `100 × Π (1 − PENALTY[severity] × share)` over the category's findings. Info
  findings weigh nothing (as Ahrefs' and Semrush's notices); fixing every instance of one finding
  helps more than fixing scattered instances of several (Semrush's rule). The security category
  starts from the security grade's score (the HTTP Observatory's 0-100 scale, so letter and score
  agree) and the other security findings lower it from there; the grade's own tests are inside
  that score and are not counted twice.
* Overall score: the scored categories' mean weighted by `CATEGORY_WEIGHTS`. Accessibility is
  scored only when its rules ran on some page (`Tally.accessibility_checked`); otherwise it is
  not scored (None) and left out of the mean. With any critical finding
  it cannot reach 100 (its category loses at least `PENALTY × CRITICAL_MIN_SHARE`).
* Actions: the findings ranked by the overall points fixing each would gain (the score is
  recomputed without it), then severity, then pages affected. Info findings gain nothing and
  come last, by pages affected.
* Notes: a sentence wherever the headline could seem to contradict the details (a good overall
  score beside a poor category or a failing grade; a security score below its grade's score).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from audit.catalogue import (
    Category,
    IssueDescriptor,
    IssueType,
    Scope,
    Severity,
    maybe_descriptor,
)
from common.wire import JsonRecord

__all__ = [
    "CATEGORY_WEIGHTS",
    "CRITICAL_MIN_SHARE",
    "IMPORTANCE_UNITS",
    "MAX_WEIGHTED_DEPTH",
    "PENALTY",
    "SHARED_FIXES",
    "SITE_WIDE_MIN_PAGES",
    "SITE_WIDE_SHARE",
    "Action",
    "CategoryScore",
    "Finding",
    "FindingScope",
    "Scores",
    "Tally",
    "TypeTally",
    "Verdict",
    "describe",
    "findings",
    "importance",
    "judge",
    "rank_actions",
    "score",
]

# Depth 5 is where the catalogue calls a page deep (`DEEP_PAGE_DEPTH`); deeper pages weigh the same.
MAX_WEIGHTED_DEPTH = 5
# What one finding on every page costs its category: a critical fault halves it, a warning takes
# a fifth, an info nothing (Semrush: a warning weighs about ten times less than an error in its
# Site Health; Ahrefs and Semrush leave notices out; docs/field.md §1.1).
PENALTY: Mapping[Severity, float] = MappingProxyType(
    {Severity.CRITICAL: 0.5, Severity.WARNING: 0.2, Severity.INFO: 0.0}
)
# A critical finding on a few deep pages still costs its category at least 5 points.
CRITICAL_MIN_SHARE = 0.1
# More than half of the pages sharing one fault points at a shared cause: templates and server
# configuration, not page-by-page authoring. Five pages at least, so a 3-page site's two pages
# missing a description stay two pages to fix.
SITE_WIDE_SHARE = 0.5
SITE_WIDE_MIN_PAGES = 5
# Relative weights of the categories in the overall score (docs/scoring.md explains the choice).
CATEGORY_WEIGHTS: Mapping[Category, int] = MappingProxyType(
    {
        Category.CRAWLABILITY: 30,
        Category.ON_PAGE: 25,
        Category.SECURITY: 20,
        Category.PERFORMANCE: 15,
        Category.CONTENT: 10,
        # docs/scoring.md: as much as performance. Lighthouse and SiteOne Crawler score it beside
        # SEO and performance; the static rules check the markup only (no contrast, no layout)
        # and axe-core, which does, a few rendered pages, so it weighs less than what the audit
        # checks most.
        Category.ACCESSIBILITY: 15,
    }
)
# A per-page header fault and the security grade's test of the same header are fixed by one
# change (send the header everywhere): the grade's issue leads the finding. Other pairs that one
# change fixes are listed here too.
SHARED_FIXES: Mapping[IssueType, IssueType] = MappingProxyType(
    {
        IssueType.CSP_MISSING: IssueType.SECURITY_CSP,
        IssueType.FRAME_PROTECTION_MISSING: IssueType.SECURITY_FRAME_OPTIONS,
        IssueType.CONTENT_TYPE_OPTIONS_MISSING: IssueType.SECURITY_CONTENT_TYPE_OPTIONS,
        IssueType.HSTS_MISSING: IssueType.SECURITY_HSTS,
        IssueType.HSTS_TOO_SHORT: IssueType.SECURITY_HSTS,
        # An app shell the audit did not render says the same of the page as its raw HTML's
        # shell finding: one fix (serve the content in the HTML, or render it), one finding.
        IssueType.RENDERING_NOT_DONE: IssueType.JAVASCRIPT_RENDERING_SUSPECTED,
        # An SEO or content check and the accessibility rule that reports the same defect on the
        # same element: one fix (audit.rules_* against a11y.rules_*). The accessibility rule leads
        # where it is the stricter reading of the markup: an image with no alt attribute
        # (images-missing-alt) fails image-alt; no lang on <html> (missing-html-lang) fails
        # html-has-lang; a heading more than one level deeper than the one before
        # (heading-order-skip) fails heading-order.
        IssueType.IMAGES_MISSING_ALT: IssueType.A11Y_IMAGE_ALT,
        IssueType.MISSING_HTML_LANG: IssueType.A11Y_HTML_HAS_LANG,
        IssueType.HEADING_ORDER_SKIP: IssueType.A11Y_HEADING_ORDER,
        # The SEO check leads where it is the wider one: missing-title is every page without a
        # non-empty title, which document-title fails too; meta-refresh is every refresh, of which
        # the accessibility rule fails the delayed ones; missing-h1 is a page without a non-empty
        # <h1>, where page-has-heading-one fails unless a role="heading" aria-level="1" stands in.
        IssueType.A11Y_DOCUMENT_TITLE: IssueType.MISSING_TITLE,
        IssueType.A11Y_META_REFRESH: IssueType.META_REFRESH,
        IssueType.A11Y_PAGE_HAS_HEADING_ONE: IssueType.MISSING_H1,
    }
)
GOOD_SCORE = 70  # below it a category is called poor in the notes
POOR_GRADES = frozenset({"D+", "D", "D-", "E", "F"})
_SITE_SCOPES = frozenset({Scope.SITE, Scope.CRAWL})
_GRADE_PREFIX = "security-"


# Importance is counted in sixtieths (60 is the least common multiple of 1..6), so every page's
# weight is a whole number and every sum is exact: floating-point sums would differ with the order
# the rows are added in, and identical audits must get identical scores.
IMPORTANCE_UNITS = 60


def importance(depth: int | None) -> int:
    """How much a page weighs in the shares, in sixtieths: 60 / (1 + depth), depth capped (an
    unknown depth counts as capped). The start page weighs 60, a page one click away 30."""
    capped = MAX_WEIGHTED_DEPTH if depth is None else min(max(depth, 0), MAX_WEIGHTED_DEPTH)
    return IMPORTANCE_UNITS // (1 + capped)


# -- the tally: what the rows add up to ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TypeTally(JsonRecord):
    """One issue type's rows in an audit."""

    issue_type: str
    severity: Severity  # the most severe of its rows (a grade test's severity varies by result)
    rows: int
    pages: int  # distinct page URLs with the issue
    weight: int  # summed importance (sixtieths) of the scored pages among them
    score_modifier: int = 0  # for a security grade test: the points it cost the grade


@dataclass(frozen=True, slots=True)
class Tally(JsonRecord):
    """The audit's totals and its issue types, as finalize stores them (auditdb.verdict)."""

    scored_pages: int  # pages with a verdict (audit.score.is_scored)
    html_pages: int  # crawled HTML pages that answered 2xx: the site-wide denominator
    scored_weight: int  # summed importance (sixtieths) of the scored pages
    security_score: int | None  # the security grade's score, None when not graded
    types: tuple[TypeTally, ...] = ()
    # Whether the static accessibility rules ran on any page: the accessibility category is
    # scored only then, and shows as not scored otherwise (never a 100 for what was not checked).
    accessibility_checked: bool = False
    # Scored pages axe-core ran on, rendered (audit_pages.a11y_rendered): the only pages checked
    # for the rules only a rendered page decides (Scope.RENDERED: color-contrast...).
    accessibility_rendered: int = 0


# -- findings -----------------------------------------------------------------------------------


class FindingScope(StrEnum):
    SITE = "site"  # about the whole site: a header, DNS, the crawl, the grade
    SITE_WIDE = "site-wide"  # the same fault on most pages: one shared cause
    PAGES = "pages"  # some pages


@dataclass(frozen=True, slots=True)
class Finding(JsonRecord):
    """One thing to fix: a lead issue type and the types that the same fix clears."""

    issue_type: str  # the lead type: its texts describe the fix
    issue_types: tuple[str, ...]  # every type the fix clears, the lead first
    severity: Severity
    category: Category
    scope: FindingScope
    pages: int  # distinct pages on which it is reported
    rows: int  # issue rows behind it (per-page rows stay in the exports)
    share: float  # its share of the site's importance, 0-1
    score_modifier: int = 0  # the points its grade test cost the security score
    # For a rule decided only on rendered pages (Scope.RENDERED): the pages axe-core ran on, of
    # which `pages` failed; 0 for every other finding, decided on every page the crawl read.
    checked_pages: int = 0

    @property
    def from_grade(self) -> bool:
        return self.issue_type.startswith(_GRADE_PREFIX) and self.score_modifier < 0


def findings(tally: Tally) -> list[Finding]:
    """One finding per fix, most severe first, then by pages affected (then type)."""
    by_type = {t.issue_type: t for t in tally.types if maybe_descriptor(t.issue_type)}
    groups: dict[str, list[TypeTally]] = {}
    for name, tallied in by_type.items():
        lead = _lead_type(name, by_type)
        groups.setdefault(lead, []).append(tallied)
    found = [_finding(tally, lead, members) for lead, members in groups.items()]
    return sorted(found, key=lambda f: (f.severity.order, -f.pages, -f.share, f.issue_type))


def _lead_type(name: str, present: Mapping[str, TypeTally]) -> str:
    lead = SHARED_FIXES.get(IssueType(name))
    return str(lead) if lead is not None and str(lead) in present else name


def _finding(tally: Tally, lead: str, members: Sequence[TypeTally]) -> Finding:
    ordered = sorted(members, key=lambda t: (t.issue_type != lead, t.issue_type))
    head = ordered[0]
    spread = max(members, key=lambda t: (t.pages, t.weight))  # the widest member's pages
    if _descriptor(spread.issue_type).scope is Scope.RENDERED:
        return _sampled_finding(tally, ordered)
    scope = _scope(tally, head, spread)
    share = 1.0 if scope is FindingScope.SITE else _share(tally, spread.weight)
    return Finding(
        issue_type=lead,
        issue_types=tuple(t.issue_type for t in ordered),
        severity=min((t.severity for t in members), key=lambda s: s.order),
        category=_category(tally, lead),
        scope=scope,
        pages=spread.pages,
        rows=sum(t.rows for t in members),
        share=share,
        score_modifier=head.score_modifier,
    )


def _category(tally: Tally, lead: str) -> Category:
    """A finding's category is its pair's (SHARED_FIXES), whichever member is present: were it
    the present lead's, adding the accessibility twin of an SEO finding would move the finding
    out of On-page SEO and raise that score. The pair's category stands where it is scored (an
    audit whose accessibility rules did not run keeps the SEO member in its own category)."""
    own = _descriptor(lead).category
    paired = SHARED_FIXES.get(IssueType(lead))
    if paired is None:
        return own
    category = _descriptor(str(paired)).category
    return category if category in scored_categories(tally) else own


def _sampled_finding(tally: Tally, ordered: Sequence[TypeTally]) -> Finding:
    """A rule only axe-core decides, on the rendered pages it ran on (Scope.RENDERED): those
    pages are all the audit knows of it, so its share is theirs. Failing on most of them is the
    site-wide pattern a template gives (the pages rendered are the app shells and a sample of
    the rest, render.decision); a page it did not run on counts neither as failing nor as
    passing."""
    head = ordered[0]
    checked = max(tally.accessibility_rendered, head.pages)
    site_wide = head.pages >= SITE_WIDE_MIN_PAGES and head.pages >= SITE_WIDE_SHARE * checked
    return Finding(
        issue_type=head.issue_type,
        issue_types=tuple(t.issue_type for t in ordered),
        severity=head.severity,
        category=_descriptor(head.issue_type).category,
        scope=FindingScope.SITE_WIDE if site_wide else FindingScope.PAGES,
        pages=head.pages,
        rows=head.rows,
        share=head.pages / checked if checked else 0.0,
        checked_pages=checked,
    )


def _scope(tally: Tally, head: TypeTally, spread: TypeTally) -> FindingScope:
    if _descriptor(spread.issue_type).scope is Scope.PAGE and _is_site_wide(tally, spread.pages):
        return FindingScope.SITE_WIDE
    if _descriptor(head.issue_type).scope in _SITE_SCOPES:
        return FindingScope.SITE
    return FindingScope.PAGES


def _is_site_wide(tally: Tally, pages: int) -> bool:
    return (
        pages >= SITE_WIDE_MIN_PAGES
        and tally.html_pages > 0
        and pages >= SITE_WIDE_SHARE * tally.html_pages
    )


def _share(tally: Tally, weight: int) -> float:
    if tally.scored_weight <= 0:
        return 0.0
    return min(weight / tally.scored_weight, 1.0)


def _descriptor(issue_type: str) -> IssueDescriptor:
    found = maybe_descriptor(issue_type)
    if found is None:  # findings() keeps only the types this catalogue knows
        raise KeyError(issue_type)
    return found


# -- scores -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CategoryScore(JsonRecord):
    category: Category
    label: str
    score: float | None  # 0-100 with one decimal; None when no page could be scored
    weight: int  # its weight in the overall score
    findings: int  # findings in the category (info included)


@dataclass(frozen=True, slots=True)
class Scores(JsonRecord):
    overall: float | None  # 0-100 with one decimal; None when no page could be scored
    categories: tuple[CategoryScore, ...]
    notes: tuple[str, ...] = ()  # sentences explaining what might look like a contradiction
    # Scored pages axe-core ran on, rendered (Tally.accessibility_rendered): the reports say the
    # rules only a browser decides (color-contrast...) were checked there and on no other page.
    accessibility_rendered: int = 0


def score(tally: Tally, found: Iterable[Finding] | None = None) -> Scores:
    """The category scores and the overall score of an audit (see the module docstring)."""
    items = list(findings(tally) if found is None else found)
    if tally.scored_pages == 0:
        return Scores(None, tuple(_empty(category, items) for category in CATEGORY_WEIGHTS))
    values = _category_values(tally, items)
    overall = _weighted_mean(values)
    categories = tuple(
        CategoryScore(
            category,
            category.label,
            _one_decimal(values[category]) if category in values else None,
            CATEGORY_WEIGHTS[category],
            sum(f.category is category for f in items),
        )
        for category in CATEGORY_WEIGHTS
    )
    scores = Scores(
        _one_decimal(overall), categories, accessibility_rendered=tally.accessibility_rendered
    )
    return replace(scores, notes=tuple(_notes(tally, scores, items)))


def _empty(category: Category, items: Sequence[Finding]) -> CategoryScore:
    count = sum(f.category is category for f in items)
    return CategoryScore(category, category.label, None, CATEGORY_WEIGHTS[category], count)


def scored_categories(tally: Tally) -> tuple[Category, ...]:
    """The categories the audit scores: accessibility only when its rules ran on some page."""
    return tuple(
        c
        for c in CATEGORY_WEIGHTS
        if c is not Category.ACCESSIBILITY or tally.accessibility_checked
    )


def _category_values(tally: Tally, items: Sequence[Finding]) -> dict[Category, float]:
    return {c: _category_value(tally, c, items) for c in scored_categories(tally)}


def _category_value(tally: Tally, category: Category, items: Sequence[Finding]) -> float:
    graded = category is Category.SECURITY and tally.security_score is not None
    value = float(min(max(tally.security_score or 0, 0), 100)) if graded else 100.0
    for finding in items:
        if finding.category is not category:
            continue
        if graded and finding.from_grade:
            # Inside the grade's score already; a failing test still keeps it below 100.
            value = min(value, 100.0 + finding.score_modifier)
        else:
            value *= 1 - _penalty(finding)
    return value


def _penalty(finding: Finding) -> float:
    share = finding.share
    if finding.severity is Severity.CRITICAL:
        share = max(share, CRITICAL_MIN_SHARE)
    return PENALTY[finding.severity] * share


def _weighted_mean(values: Mapping[Category, float]) -> float:
    total = sum(CATEGORY_WEIGHTS[c] for c in values)
    return sum(CATEGORY_WEIGHTS[c] * v for c, v in values.items()) / total


def _one_decimal(value: float) -> float:
    """Half up on the tenth, like the health score; a score that lost anything stays below 100."""
    rounded = math.floor(value * 10 + 0.5) / 10
    return 99.9 if rounded >= 100 and value < 100 else rounded


# -- notes --------------------------------------------------------------------------------------


def _notes(tally: Tally, scores: Scores, items: Sequence[Finding]) -> list[str]:
    notes = []
    security = next(c for c in scores.categories if c.category is Category.SECURITY)
    if tally.security_score is not None and security.score is not None:
        notes.extend(_security_note(tally.security_score, security.score, items))
    scored = sum(c.score is not None for c in scores.categories)
    poor = [c for c in scores.categories if c.score is not None and c.score < GOOD_SCORE]
    if scores.overall is not None and scores.overall >= GOOD_SCORE and poor:
        notes.append(_poor_categories_note(scores.overall, poor, scored))
    return notes


def _security_note(grade_score: int, security: float, items: Sequence[Finding]) -> list[str]:
    if security >= min(grade_score, 100) - 5:
        return []
    others = [
        _descriptor(f.issue_type).title
        for f in items
        if f.category is Category.SECURITY and not f.from_grade and PENALTY[f.severity] > 0
    ]
    return [
        f"The security score ({security:g}) is below the security grade's score "
        f"({min(grade_score, 100)}/100) because the grade judges the start page's response only, "
        f"and the crawl found more on other pages: {', '.join(others[:3])}."
    ]


_COUNT_WORDS = {5: "five", 6: "six"}


def _poor_categories_note(overall: float, poor: Sequence[CategoryScore], scored: int) -> str:
    """One sentence for every poor category (a sentence each read as a list of repeats)."""
    count = _COUNT_WORDS.get(scored, str(scored))
    first, *others = poor
    named = [f"{first.label}{' alone' if not others else ''} scores {first.score:g}"]
    named += [f"{c.label} {c.score:g}" for c in others]
    listed = named[0] if not others else f"{', '.join(named[:-1])} and {named[-1]}"
    whose = "its" if not others else "their"
    return (
        f"The overall score ({overall:g}) averages {count} categories; {listed}: see {whose} "
        "actions below."
    )


# -- actions ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Action(JsonRecord):
    """One ranked thing to do: a finding, what fixing it is worth, and what it clears."""

    rank: int
    issue_type: str  # the finding's lead type
    issue_types: tuple[str, ...]
    title: str
    severity: Severity
    category: Category
    scope: FindingScope
    pages: int  # the pages it clears the finding from (0 for a site setting)
    share: float
    gain: float  # overall points the score would gain, 0-100 with one decimal
    summary: str  # what it is and where, in one sentence for the site's owner
    fix: str  # how to fix it, from the catalogue
    example_pages: tuple[str, ...] = ()  # a few of its pages (filled in by the report's reader)
    detail: str | None = None  # for a finding about the whole site: what its row says, in words


def rank_actions(tally: Tally, found: Sequence[Finding], current: Scores) -> list[Action]:
    """Every finding as an action, most worth fixing first (see the module docstring)."""
    gains = [_gain(tally, found, index, current) for index in range(len(found))]
    order = sorted(
        range(len(found)),
        key=lambda i: (-gains[i], found[i].severity.order, -found[i].pages, found[i].issue_type),
    )
    return [
        _action(rank, found[i], gains[i], tally.html_pages) for rank, i in enumerate(order, start=1)
    ]


def _gain(tally: Tally, found: Sequence[Finding], index: int, current: Scores) -> float:
    """Overall points gained without `found[index]`, from the unrounded scores (a rounded score
    kept below 100 would make every small fix look worth a tenth)."""
    if current.overall is None:
        return 0.0
    fixed = found[index]
    rest = [f for i, f in enumerate(found) if i != index]
    raised = tally
    if fixed.from_grade and tally.security_score is not None:
        raised = replace(tally, security_score=tally.security_score - fixed.score_modifier)
    return max(0.0, round(_raw_overall(raised, rest) - _raw_overall(tally, found), 1))


def _raw_overall(tally: Tally, items: Sequence[Finding]) -> float:
    return _weighted_mean(_category_values(tally, items))


def _action(rank: int, finding: Finding, gain: float, html_pages: int) -> Action:
    descriptor = _descriptor(finding.issue_type)
    return Action(
        rank=rank,
        issue_type=finding.issue_type,
        issue_types=finding.issue_types,
        title=descriptor.title,
        severity=finding.severity,
        category=finding.category,
        scope=finding.scope,
        pages=finding.pages,
        share=round(finding.share, 4),
        gain=gain,
        summary=describe(finding, descriptor.title, html_pages),
        fix=descriptor.how_to_fix,
    )


def describe(finding: Finding, title: str, html_pages: int) -> str:
    """`title` and where it was found, as one plain sentence."""
    if finding.scope is FindingScope.SITE:
        return f"{title}: it concerns the whole site."
    where = (
        _checked_phrase(finding.pages, finding.checked_pages)
        if finding.checked_pages
        else _pages_phrase(finding.pages, html_pages)
    )
    if finding.scope is FindingScope.SITE_WIDE:
        return (
            f"{title} on {where}: one shared cause (a template or the server's configuration), "
            "fixed once for every page."
        )
    return f"{title} on {where}."


def _checked_phrase(pages: int, checked: int) -> str:
    # Decided only where axe-core ran on a rendered page: the sentence says so, and never names
    # the crawled pages it did not check as if they passed.
    noun = "page" if checked == 1 else "pages"
    return (
        f"{pages:,} of the {checked:,} {noun} axe-core checked in a browser "
        f"({round(100 * pages / checked)}%; only rendered pages are checked for it)"
    )


def _pages_phrase(pages: int, html_pages: int) -> str:
    noun = "page" if pages == 1 else "pages"
    if html_pages <= 0 or pages > html_pages:
        return f"{pages:,} {noun}"
    percent = 100 * pages / html_pages
    shown = "<1" if 0 < percent < 1 else f"{round(percent)}"
    return f"{pages:,} of {html_pages:,} HTML pages ({shown}%)"


def gain_phrase(action: Action) -> str:
    """What fixing `action` is worth, in words: the points it adds, or why it adds none."""
    if action.gain > 0:
        return f"+{action.gain:.1f} points"
    if PENALTY[action.severity] == 0 and not action.issue_type.startswith(_GRADE_PREFIX):
        return "no score impact (info)"
    return "under 0.1 points"


# -- everything at once -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict(JsonRecord):
    scores: Scores
    findings: tuple[Finding, ...]
    actions: tuple[Action, ...]


def judge(tally: Tally) -> Verdict:
    """The findings, the scores and the ranked actions of one audit."""
    found = findings(tally)
    scores = score(tally, found)
    return Verdict(scores, tuple(found), tuple(rank_actions(tally, found, scores)))
