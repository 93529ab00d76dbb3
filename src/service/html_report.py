"""One audit as a single self-contained HTML file that opens offline, written in chunks.

What the file holds, in order (docs/manual/reports.md; docs/issues.md for the catalogue texts):
* the verdict (service.verdict, docs/scoring.md), the first screen: the overall score as a gauge
  and the security grade in two cards of one height, each with a sentence of what it means; the
  category scores as gauges (an unscored one "n/a") and the notes that explain them; the verdict's first
  `FIX_FIRST` actions in its rank ("Fix first"), with the points each adds, where it is and
  example pages; or why the audit has no verdict;
* the audit's facts (site, status, pages, when);
* the findings grouped by severity, most pages first (one per fix: a grade test and its
  per-page header rows are one finding), each with its title, where it is and its summary, and a
  details element with its explanation, fix and at most `PAGES_PER_TYPE` affected pages with the
  detail that locates the problem (the link target, the duplicate group, the redirect chain:
  service.issue_locating), then "and N more";
* the site structure and the per-URL view (service.html_pages), around the page table
  (service.page_table): the first `TABLE_ROWS` pages by URL as a plain table, and up to
  `DATA_ROWS` pages in a JSON data island that a small inline script pages, sorts and filters,
  with the commands that list every page; then a section per page. Every page URL shown is
  followed by a link to its section;
* four inline SVG charts (service/svg_charts.py): status code classes, crawl depth, response time,
  issues by type, each with its numbers as a table;
* the structured-data summary (service/html_structured.py): pages with structured data, the types
  found and the rich-result features pages are eligible for, findings by kind and by issue type;
* the accessibility section (service/html_a11y.py), for an audit with a verdict: the category's
  score or that it was not checked, each failing static rule with its WCAG criteria, pages and
  example elements;
* for an audit that is a monitor's run (service.run_history, rendered by service.html_history):
  the monitor's scores over its last `HISTORY_RUNS` runs as a line chart with a table of the runs,
  and the new and fixed issues since the previous completed run;
* the Lighthouse section (service/html_vitals.py): a row per sampled page, mobile beside desktop,
  or why Lighthouse did not run.

Everything from a crawled site (URLs, titles, details) is hostile text: it is escaped on the way
out (`html.escape` with quotes), and a page URL becomes a link only when it is http(s), with
`rel="noopener noreferrer nofollow"`. The document carries its own Content-Security-Policy
(`default-src 'none'`, the one stylesheet and the one script allowed by their SHA-256 hashes, CSP
Level 3 §8.3; the data island is no script, so it needs none): nothing loads from anywhere, and an
injected script would not run even if escaping failed. There is no `style` attribute anywhere,
because the policy allows none.

Memory: one walk of the pages (keyset pages of `EXPORT_PAGE_SIZE` rows) folds them into the
charts' counts and the directories, keeps the first `TABLE_ROWS` and the URLs of the first
`PAGE_VIEWS`; one walk of the issues keeps those pages' issue types and counts issues by
directory; a second walk of the pages, stopped after `DATA_ROWS` rows, writes the data island one
keyset page at a time, and a third the per-URL sections; the issues are read `PAGES_PER_TYPE` rows
per type, the history `HISTORY_RUNS` runs and `CHANGES_LISTED` changes. So the renderer holds one
keyset page of rows and at most `PAGE_VIEWS` URLs whatever the audit's size
(bench/html_report_memory.py).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import (
    AsyncGenerator,
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Mapping,
    Sequence,
)
from contextlib import aclosing
from dataclasses import dataclass, field
from functools import partial
from html import escape

from audit.catalogue import IssueDescriptor, IssueType, Severity, doc_url, maybe_descriptor
from audit.link_graph import PageLinkLists
from audit.verdict import Action, FindingScope, gain_phrase
from auditdb import lighthouse, structured_data
from auditdb.lighthouse import LighthouseRow
from auditdb.listing import IssueFilter
from auditdb.records import MAX_LIGHTHOUSE_PAGES, AuditRecord, IssueRecord, PageRecord
from auditdb.structured_data import StructuredSummary
from auditdb.summary import IssueCounts, TypeCount
from common.bindings import Env
from common.failures import start_failure_code
from service.audits import owned_audit
from service.exports import Export
from service.html_a11y import (
    RuleRow,
    accessibility_rules,
    accessibility_score,
    accessibility_section,
)
from service.html_history import history_section
from service.html_pages import (
    PAGE_VIEWS,
    LinkView,
    PageIssues,
    Structure,
    page_section,
    pages_intro,
    structure_section,
)
from service.html_structured import structured_section
from service.html_style import CSP, STYLE
from service.html_vitals import vitals_section
from service.issue_locating import locating_detail, type_title
from service.lists import Paging, issue_counts, iter_issues, iter_pages, list_issues
from service.page_links import VIEW_BATCH, links_kept, view_limit, view_links
from service.page_table import (
    LINK_ATTRS,
    NOT_LINKED,
    SCRIPT,
    TABLE_ROWS,
    island_chunks,
    kept_rows,
    link,
    status_class,
    table_chunks,
)
from service.run_history import RunHistory, run_history
from service.scope_report import scope_summary
from service.svg_charts import Bar, Chart, Tone, render_chart
from service.verdict import AuditVerdict, verdict_of

MEDIA_TYPE = "text/html; charset=utf-8"
type PageRef = Callable[[str], str]  # a page URL as the report shows it: a link, maybe its view
# The kept link lists of some pages in view (service.page_links.view_links, for one audit).
type LinkReader = Callable[[list[str]], Awaitable[Mapping[str, PageLinkLists]]]
PAGES_PER_TYPE = 20  # affected pages shown per issue type
FIX_FIRST = 5  # ranked actions on the first screen; the issue groups hold every one
ISSUE_TYPE_BARS = 15  # issue types charted; the rest are summed into one bar
DEPTH_BARS = 10  # depths 0..9 each get a bar; deeper pages share "10+"
# Response time buckets (upper bounds, ms): Lighthouse calls a server response under 600 ms good
# (the "Reduce initial server response time" audit); the catalogue's slow-response threshold
# and longer waits get their own bars.
TIME_BOUNDS = ((200, "< 200 ms"), (600, "200-599 ms"), (1000, "600-999 ms"), (3000, "1-3 s"))
TONES = {Severity.CRITICAL: Tone.BAD, Severity.WARNING: Tone.WARN, Severity.INFO: Tone.NEUTRAL}


@dataclass(slots=True)
class PageStats:
    """The charts' counts over every page, the first `keep` pages for the table, the pages that
    get a per-URL section and the site's directories (service.html_pages)."""

    keep: int = TABLE_ROWS
    total: int = 0
    status_classes: Counter[str] = field(default_factory=Counter)
    depths: Counter[int | None] = field(default_factory=Counter)
    times: Counter[str] = field(default_factory=Counter)
    first: list[PageRecord] = field(default_factory=list)
    index: PageIssues = field(default_factory=PageIssues)  # the pages in view, their issue types
    structure: Structure = field(default_factory=Structure)

    def add(self, rows: Iterable[PageRecord]) -> None:
        for page in rows:
            self.total += 1
            if len(self.index.in_view) < PAGE_VIEWS:
                self.index.in_view.add(page.url)
            self.structure.add_pages((page,))
            self.status_classes[status_class(page.status_code)] += 1
            depth = page.crawl_depth
            self.depths[None if depth is None else min(depth, DEPTH_BARS)] += 1
            self.times[time_bucket(page.response_time_ms)] += 1
            if len(self.first) < self.keep:
                self.first.append(page)


def time_bucket(ms: int | None) -> str:
    if ms is None:
        return "not timed"
    for bound, label in TIME_BOUNDS:
        if ms < bound:
            return label
    return f">= {TIME_BOUNDS[-1][0] // 1000} s"


@dataclass(frozen=True, slots=True)
class IssueGroup:
    """One finding of the audit (or, without a verdict, one issue type): its lead type's count,
    the first affected rows, and the finding's action when there is one."""

    count: TypeCount
    rows: list[IssueRecord]
    action: Action | None = None


async def html_chunks(
    audit: AuditRecord,
    counts: IssueCounts,
    stats: PageStats,
    groups: AsyncIterator[IssueGroup],
    rows: AsyncGenerator[list[PageRecord]] | None = None,
    history: RunHistory | None = None,
    vitals: Sequence[LighthouseRow] = (),
    verdict: AuditVerdict | None = None,
    views: AsyncGenerator[list[PageRecord]] | None = None,
    links: LinkReader | None = None,
    structured: StructuredSummary | None = None,
    a11y: Sequence[RuleRow] = (),
) -> AsyncGenerator[bytes]:
    """The document as encoded chunks: head, the failure banner (when the site could not be
    audited), the verdict and what to fix first, the facts, one chunk per finding, the page table
    and its data island one chunk per batch of `rows` (None: the kept rows), the per-URL
    sections with the link lists `links` reads (None: the audit kept no links), the charts, the
    structured-data summary, the history and the Lighthouse section."""
    ref = stats.index.ref
    opening = _head(audit) + _failure(audit) + verdict_section(audit, verdict, ref)
    yield (opening + _overview(audit, counts, stats)).encode()
    yield b'<section aria-labelledby="issues-h"><h2 id="issues-h">Issues</h2>'
    if not counts.rows:
        yield b"<p>No issues found.</p>"
    totals = _severity_totals(counts, verdict)
    severity: str | None = None
    async for group in groups:
        if group.count.severity != severity:
            yield ((_close_severity() if severity else "") + _open_severity(group, totals)).encode()
            severity = group.count.severity
        yield _issue_type(audit.id, group, ref).encode()
    yield ((_close_severity() if severity else "") + "</section>").encode()
    yield structure_section(stats.structure).encode()
    classes = [c for c in STATUS_CLASSES if stats.status_classes[c]]
    for text in table_chunks(audit.id, stats.total, classes, stats.first):
        yield text.encode()
    async for text in island_chunks(kept_rows(stats.first) if rows is None else rows):
        yield text.encode()
    walk = kept_rows(stats.first) if views is None else views
    async for text in _page_views(audit.id, stats, walk, links, finding_anchors(verdict)):
        yield text.encode()
    yield _charts(counts, stats).encode()
    yield structured_section(audit.id, structured).encode()  # service/html_structured.py
    if verdict is not None and verdict.scores is not None:  # service/html_a11y.py
        score = accessibility_score(verdict.scores)
        rendered = verdict.scores.accessibility_rendered
        section = accessibility_section(
            audit.id, score, a11y, finding_anchors(verdict), rendered_pages=rendered
        )
        yield section.encode()
    if history is not None:
        yield history_section(history, audit.id).encode()
    yield vitals_section(audit, vitals, ref).encode()  # service/html_vitals.py
    yield _tail().encode()


async def _page_views(
    audit_id: str,
    stats: PageStats,
    batches: AsyncGenerator[list[PageRecord]],
    links: LinkReader | None,
    anchors: Mapping[str, str],
) -> AsyncGenerator[str]:
    """The per-URL sections of the first `PAGE_VIEWS` pages, one chunk per batch, each batch's
    link lists read with it; a page's issue links go to the `anchors` of their types."""
    yield pages_intro(stats.total, None if links is None else audit_id)
    left = PAGE_VIEWS
    in_view = stats.index.in_view
    async with aclosing(batches) as walk:
        async for batch in walk:
            rows = batch[:left]
            # A chunk per VIEW_BATCH pages: their link lists are all the renderer holds.
            for start in range(0, len(rows), VIEW_BATCH):
                part = rows[start : start + VIEW_BATCH]
                found = {} if links is None else await links([p.url for p in part])
                yield "".join(
                    page_section(
                        p,
                        stats.index.types.get(p.url, ()),
                        None if links is None else LinkView(in_view, found.get(p.url)),
                        anchors,
                    )
                    for p in part
                )
            left -= len(rows)
            if left <= 0:
                break
    yield "</section>"


def _head(audit: AuditRecord) -> str:
    title = escape(f"siteaudit report: {audit.final_url or audit.start_url}")
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{title}</title><style>{STYLE}</style></head><body>"
        f'<header><h1>{title}</h1></header><main id="main">'
    )


def _failure(audit: AuditRecord) -> str:
    """The banner of an audit whose start URL could not be audited (the site's failure or our
    network's), first on the page: what happened, what to try."""
    code = start_failure_code(audit.error_code)
    if audit.site_failure is None or code is None:
        return ""
    return (
        '<section role="alert" aria-labelledby="failure-h" class="failure">'
        f'<h2 id="failure-h">The audit failed: {escape(code.meaning)}</h2>'
        f"<p>{escape(audit.site_failure)}</p></section>"
    )


def _overview(audit: AuditRecord, counts: IssueCounts, stats: PageStats) -> str:
    """The audit's facts, below the verdict (whose cards hold the score and the grade)."""
    by_severity = counts.by_severity
    facts = [
        ("Site", link(audit.final_url or audit.start_url)),
        ("Audit", escape(audit.id)),
        ("Status", escape(str(audit.status))),
        ("Pages", f"{stats.total:,}"),
        ("Issues", ", ".join(f"{by_severity[s]:,} {s}" for s in Severity)),
        ("Finished", escape(audit.finished_at or "not finished")),
        *([("Scheme", escape(audit.scheme_note))] if audit.scheme_note else []),
        *_scope_facts(audit),
        *([("robots.txt", escape(audit.robots_note))] if audit.robots_note else []),
    ]
    rows = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
    return (
        '<section aria-labelledby="facts-h" class="about"><h2 id="facts-h">About this audit</h2>'
        f'<dl class="facts">{rows}</dl></section>'
    )


def _scope_facts(audit: AuditRecord) -> list[tuple[str, str]]:
    """The scope the audit ran with (service.scope_report), when not every default."""
    scope = scope_summary(audit.options)
    facts = [("Scope", escape(fact)) for fact in scope.facts]
    if scope.not_checked_sentence is not None:
        facts.append(("Not checked", escape(scope.not_checked_sentence)))
    return facts


STATUS_CLASSES = (
    "2xx",
    "3xx",
    "4xx",
    "5xx",
    "1xx",
    "no response",
)  # the charts' and filter's order


def charts(counts: IssueCounts, stats: PageStats) -> list[Chart]:
    """The four charts of the report, from the counts alone."""
    classes = STATUS_CLASSES
    tones = {"2xx": Tone.GOOD, "3xx": Tone.NEUTRAL, "4xx": Tone.BAD, "5xx": Tone.BAD}
    status = tuple(
        Bar(c, stats.status_classes[c], tones.get(c, Tone.WARN))
        for c in classes
        if stats.status_classes[c]
    )
    depth = tuple(
        Bar(_depth_label(d), n)
        for d, n in sorted(stats.depths.items(), key=lambda item: (item[0] is None, item[0] or 0))
    )
    labels = [label for _, label in TIME_BOUNDS] + [time_bucket(TIME_BOUNDS[-1][0]), "not timed"]
    times = tuple(Bar(label, stats.times[label]) for label in labels if stats.times[label])
    return [
        Chart("status", "Pages by status code class", status),
        Chart("depth", "Pages by crawl depth (clicks from the start page)", depth),
        Chart("time", "Pages by response time", times),
        Chart("types", "Issues by type", _type_bars(counts), unit="issues"),
    ]


def _depth_label(depth: int | None) -> str:
    if depth is None:
        return NOT_LINKED
    return f"{depth}+" if depth >= DEPTH_BARS else str(depth)


def _type_bars(counts: IssueCounts) -> tuple[Bar, ...]:
    ranked = sorted(counts.rows, key=lambda r: (-r.count, r.issue_type))
    bars = [
        Bar(type_title(r.issue_type), r.count, TONES[r.severity]) for r in ranked[:ISSUE_TYPE_BARS]
    ]
    rest = sum(r.count for r in ranked[ISSUE_TYPE_BARS:])
    if rest:
        bars.append(Bar(f"{len(ranked) - ISSUE_TYPE_BARS} other types", rest))
    return tuple(bars)


def _charts(counts: IssueCounts, stats: PageStats) -> str:
    figures = "".join(render_chart(chart) for chart in charts(counts, stats))
    return (
        '<section aria-labelledby="charts-h"><h2 id="charts-h">Charts</h2>'
        f'<div class="charts">{figures}</div></section>'
    )


def _severity_totals(counts: IssueCounts, verdict: AuditVerdict | None) -> dict[str, str]:
    """What each severity's heading counts: its findings when there is a verdict, else its rows."""
    if verdict is None or not verdict.actions:
        return {s: f"{n:,} issues" for s, n in counts.by_severity.items()}
    found = Counter(str(action.severity) for action in verdict.actions)
    return {str(s): f"{found[s]:,} findings" for s in Severity}


def _open_severity(group: IssueGroup, totals: Mapping[str, str]) -> str:
    severity = group.count.severity
    total = totals.get(severity, "")
    return (
        f'<section aria-labelledby="sev-{severity}-h"><h3 id="sev-{severity}-h" '
        f'class="sev-{severity}">{severity.capitalize()} <span class="count">({total})</span></h3>'
    )


def _close_severity() -> str:
    return "</section>"


def _issue_type(audit_id: str, group: IssueGroup, ref: PageRef = link) -> str:
    count = group.count
    d = maybe_descriptor(count.issue_type)
    more = count.count - len(group.rows)
    title = escape(type_title(count.issue_type))
    if group.action is not None:
        return _finding(audit_id, group, group.action, d, more, ref)
    body = _describe(d) + _affected_block(audit_id, group.rows, more, "", ref)
    return (
        f'<article class="issue" id="type-{escape(count.issue_type)}">'
        f'<h4>{title} <span class="count">{count.count:,}</span></h4>'
        f"{_expandable(title, body)}</article>"
    )


def _expandable(title: str, body: str) -> str:
    """An issue group's texts and pages, closed until asked for (or linked to: the script opens
    a group whose anchor is followed)."""
    return (
        f'<details class="more"><summary>{title}: what it means, how to fix it, the affected '
        f"pages</summary>{body}</details>"
    )


def _affected_block(
    audit_id: str, rows: Sequence[IssueRecord], more: int, of: str, ref: PageRef
) -> str:
    """The first affected pages, then how many more `of` what, and the command that lists them."""
    rest = (
        f'<p class="note">and {more:,} more{of} (every issue: <code>siteaudit report '
        f"{escape(audit_id)} --format csv</code>)</p>"
        if more > 0
        else ""
    )
    items = "".join(_affected(row, ref) for row in rows)
    listed = f'<ul class="affected">{items}</ul>' if items else ""
    return f"<h5>Affected pages</h5>{listed}{rest}"


def _finding(
    audit_id: str,
    group: IssueGroup,
    action: Action,
    d: IssueDescriptor | None,
    more: int,
    ref: PageRef,
) -> str:
    """A finding: its lead type's texts, where it is, and the first rows of its widest type."""
    of = f" rows of {escape(type_title(group.count.issue_type))}"
    merged = [type_title(t) for t in action.issue_types[1:]]
    also = (
        f'<p class="note">One fix with: {escape(", ".join(merged))} (counted once).</p>'
        if merged
        else ""
    )
    return (
        f'<article class="issue" id="type-{escape(action.issue_type)}">'
        f'<h4>{escape(action.title)} <span class="count">{_where(action)}</span></h4>'
        f"<p>{escape(action.summary)}</p>{also}"
        f"{_expandable(escape(action.title), _describe(d) + _affected_block(audit_id, group.rows, more, of, ref))}"
        "</article>"
    )


def _where(action: Action) -> str:
    if action.scope is FindingScope.SITE:
        return "whole site"
    noun = "page" if action.pages == 1 else "pages"
    site_wide = ", site-wide" if action.scope is FindingScope.SITE_WIDE else ""
    return f"{action.pages:,} {noun}{site_wide}"


# -- the first screen: the verdict and what to fix first ------------------------------------------


def verdict_section(audit: AuditRecord, verdict: AuditVerdict | None, ref: PageRef = link) -> str:
    """The first thing on screen: the overall score and the security grade side by side, each with
    a sentence of what it means, the category scores as gauges, and the first `FIX_FIRST` ranked
    actions (audit.verdict's order); or why there is no verdict. Nothing after a site failure:
    the banner above says why there is nothing to fix on the site."""
    if audit.site_failure is not None:
        return ""
    heading = '<section aria-labelledby="fix-h" class="verdict"><h2 id="fix-h">Verdict</h2>'
    scores = None if verdict is None else verdict.scores
    overall = audit.health_score if scores is None else scores.overall
    headline = f'<div class="headline">{_overall_card(overall)}{_grade_card(audit)}</div>'
    if verdict is None or scores is None:
        note = "no verdict" if verdict is None or verdict.note is None else verdict.note
        return f'{heading}{headline}<p class="why-none">{escape(note)}</p></section>'
    gauges = "".join(
        f"<li>{gauge(c.score, c.label)}<span>{escape(c.label)}</span></li>"
        for c in scores.categories
    )
    notes = "".join(f'<p class="note">{escape(note)}</p>' for note in scores.notes)
    return (
        f'{heading}{headline}<h3 id="categories-h">Scores by category</h3>'
        f'<ul class="gauges" aria-labelledby="categories-h">{gauges}</ul>{notes}'
        f"{fix_first(verdict.actions, ref)}</section>"
    )


def score_band(score: float | None) -> Tone:
    """Lighthouse's colour bands for a 0-100 score: 90 and up good, 50-89 needs work, below 50
    poor (Lighthouse docs, "How the Performance score is calculated", colour-coding)."""
    if score is None:
        return Tone.NEUTRAL
    return Tone.GOOD if score >= 90 else Tone.WARN if score >= 50 else Tone.BAD


BAND_WORDS = {
    Tone.GOOD: "Good",
    Tone.WARN: "Needs work",
    Tone.BAD: "Poor",
    Tone.NEUTRAL: "Not scored",
}
GAUGE_RADIUS = 36  # px; the circle's length is 2 pi r, the arc drawn is the score's share of it


def gauge(score: float | None, label: str) -> str:
    """A score as a ring filled in proportion, the number in its middle (as Lighthouse's gauges),
    coloured by its band; one image whose name says it all."""
    shown = "n/a" if score is None else f"{score:g}"
    length = 2 * math.pi * GAUGE_RADIUS
    filled = 0.0 if score is None else length * min(max(score, 0.0), 100.0) / 100
    spoken = escape(f"{label}: {shown}" + ("" if score is None else " out of 100"))
    return (
        f'<svg class="gauge" role="img" aria-label="{spoken}" width="88" height="88" '
        'viewBox="0 0 88 88" xmlns="http://www.w3.org/2000/svg">'
        f'<circle class="track" cx="44" cy="44" r="{GAUGE_RADIUS}"/>'
        f'<circle class="arc tone-{score_band(score)}" cx="44" cy="44" r="{GAUGE_RADIUS}" '
        f'stroke-dasharray="{filled:.1f} {length:.1f}" transform="rotate(-90 44 44)"/>'
        f'<text class="gauge-value" x="44" y="44" text-anchor="middle" '
        f'dominant-baseline="central">{shown}</text></svg>'
    )


def _overall_card(overall: float | None) -> str:
    band = score_band(overall)
    meaning = (
        "No page could be scored, so there is no overall score."
        if overall is None
        else f"{BAND_WORDS[band]}: the category scores below, weighted into one number "
        "out of 100 (90 and up is good, under 50 poor); each fix below says what it adds."
    )
    return (
        f'<div class="card"><h3 id="score-h">Overall score</h3>{gauge(overall, "Overall score")}'
        f'<p class="meaning">{escape(meaning)}</p></div>'
    )


def _grade_card(audit: AuditRecord) -> str:
    """The start URL's security grade (docs/security.md), or why there is none."""
    if audit.security_grade is None:
        letter, reason = "–", audit.security_error or "not graded yet"
        meaning = f"Not graded ({reason})."
    else:
        letter = audit.security_grade
        score = "" if audit.security_score is None else f" ({audit.security_score}/100)"
        meaning = (
            f"Security grade {letter}{score}: Mozilla HTTP Observatory's A+ to F grade of the "
            "start page's security headers and redirects; the fixes below name what it lacks."
        )
    return (
        '<div class="card"><h3 id="grade-h">Security grade</h3>'
        f'<p class="grade" aria-hidden="true">{escape(letter)}</p>'
        f'<p class="meaning">{escape(meaning)}</p></div>'
    )


def fix_first(actions: Sequence[Action], ref: PageRef = link) -> str:
    """The first `FIX_FIRST` actions in the verdict's rank: what each is worth and where it is,
    linked to its issue group below; then how many more the issue groups hold."""
    if not actions:
        return '<h3 id="first-h">Fix first</h3><p>Nothing to fix.</p>'
    items = "".join(_action_item(action, ref) for action in actions[:FIX_FIRST])
    more = len(actions) - FIX_FIRST
    rest = (
        f'<p><a href="#issues-h">{more:,} more findings</a> in the issue groups below.</p>'
        if more > 0
        else ""
    )
    return f'<h3 id="first-h">Fix first</h3><ol class="actions">{items}</ol>{rest}'


def _action_item(action: Action, ref: PageRef) -> str:
    gain = gain_phrase(action)
    examples = ", ".join(ref(url) for url in action.example_pages)
    pages = f'<p class="note">For example: {examples}</p>' if examples else ""
    if action.detail:
        pages = f"<p>{escape(action.detail)}</p>{pages}"
    return (
        f'<li><a href="#type-{escape(action.issue_type)}">{escape(action.summary)}</a> '
        f'<span class="gain">{escape(gain)}</span> '
        f'<span class="where">{_where(action)}</span> '
        f'<span class="sev-{action.severity}">{escape(str(action.severity))}</span>'
        f"<p><strong>Fix:</strong> {escape(action.fix)}</p>{pages}</li>"
    )


def _describe(d: IssueDescriptor | None) -> str:
    if d is None:
        return '<p class="note">An issue type this version of siteaudit does not describe.</p>'
    return (
        f"<p><strong>What and why it matters:</strong> {escape(d.explanation)}</p>"
        f"<p><strong>How to fix:</strong> {escape(d.how_to_fix)}</p>"
        f'<p class="note">Trigger: {escape(d.trigger)}. '
        f'<a href="{escape(doc_url(d.id))}" {LINK_ATTRS}>{escape(d.id.value)} in the catalogue</a></p>'
    )


def _affected(issue: IssueRecord, ref: PageRef) -> str:
    detail = locating_detail(issue)
    extra = f' <span class="detail">{escape(detail)}</span>' if detail else ""
    return f"<li>{ref(issue.page_url)}{extra}</li>"


def _tail() -> str:
    return (
        '</main><footer><p class="note">Written by siteaudit. This file loads nothing from the '
        f"network.</p></footer><script>{SCRIPT}</script></body></html>\n"
    )


async def page_stats(env: Env, owner: str, audit_id: str, keep: int = TABLE_ROWS) -> PageStats:
    """One keyset walk over the audit's pages, folded into the charts' counts."""
    stats = PageStats(keep)
    async with aclosing(iter_pages(env, owner, audit_id)) as walk:
        async for rows in walk:
            stats.add(rows)
    return stats


async def issue_groups(
    env: Env, owner: str, audit_id: str, counts: Sequence[TypeCount], per_type: int
) -> AsyncGenerator[IssueGroup]:
    """Each counted type with its first `per_type` rows."""
    for count in counts:
        yield IssueGroup(count, await _first_rows(env, owner, audit_id, count, per_type))


async def _first_rows(
    env: Env, owner: str, audit_id: str, count: TypeCount, per_type: int
) -> list[IssueRecord]:
    """A type's first rows. A type this catalogue does not know (from an older or newer
    catalogue) gets none, since the list filter takes catalogue types only: the report gives its
    count and the command that lists its rows."""
    if count.issue_type not in IssueType:
        return []
    only = IssueFilter(types=(IssueType(count.issue_type),))
    page = await list_issues(env, owner, audit_id, only, Paging(limit=per_type))
    return page.items


def finding_anchors(verdict: AuditVerdict | None) -> dict[str, str]:
    """Each issue type a finding merged into another (the same fix clears both), mapped to the
    type whose section the report shows (`_finding` writes only the lead type's id)."""
    if verdict is None:
        return {}
    return {t: a.issue_type for a in verdict.actions for t in a.issue_types[1:]}


def finding_counts(
    counts: IssueCounts, actions: Sequence[Action]
) -> list[tuple[TypeCount, Action]]:
    """Each finding with the count of its widest type (whose rows the report lists), most severe
    first, then by pages affected."""
    by_type = {row.issue_type: row for row in counts.rows}
    found = []
    for action in sorted(actions, key=lambda a: (a.severity.order, -a.pages, a.issue_type)):
        members = [by_type[t] for t in action.issue_types if t in by_type]
        if members:
            widest = max(members, key=lambda row: row.count)
            found.append((TypeCount(widest.issue_type, action.severity, widest.count), action))
    return found


async def finding_groups(
    env: Env, owner: str, audit_id: str, counts: IssueCounts, verdict: AuditVerdict, per_type: int
) -> AsyncGenerator[IssueGroup]:
    """The findings' groups, then every type no finding covers (one this catalogue does not
    know) as `issue_groups` gives them."""
    found = finding_counts(counts, verdict.actions)
    for count, action in found:
        rows = await _first_rows(env, owner, audit_id, count, per_type)
        yield IssueGroup(count, rows, action)
    covered = {t for _, action in found for t in action.issue_types}
    for count in counts.rows:
        if count.issue_type not in covered:
            yield IssueGroup(count, await _first_rows(env, owner, audit_id, count, per_type))


async def export_html(env: Env, owner: str, audit_id: str) -> Export:
    """The audit's HTML report; `AuditNotFound` before any byte."""
    audit = await owned_audit(env, owner, audit_id)
    counts = await issue_counts(env, owner, audit.id)
    stats = await page_stats(env, owner, audit.id)
    async with aclosing(iter_issues(env, owner, audit.id)) as issues:
        async for batch in issues:  # the issue types of the pages in view, issues by directory
            stats.index.add(batch)
            stats.structure.add_issues(batch)
    history = await run_history(env, audit)
    verdict = await verdict_of(env, audit)
    if verdict.actions:
        groups = finding_groups(env, owner, audit.id, counts, verdict, PAGES_PER_TYPE)
    else:
        groups = issue_groups(env, owner, audit.id, counts.rows, PAGES_PER_TYPE)
    rows = iter_pages(env, owner, audit.id)
    vitals = await lighthouse.list_results(env.DB, audit.id, limit=2 * MAX_LIGHTHOUSE_PAGES)
    views = iter_pages(env, owner, audit.id)
    limit = view_limit(min(stats.total, PAGE_VIEWS))
    kept = await links_kept(env, audit.id)
    links = partial(view_links, env, audit.id, limit=limit) if kept else None
    structured = await structured_data.read_summary(env.DB, audit.id)
    a11y = await accessibility_rules(env, owner, audit.id, counts)
    chunks = html_chunks(
        audit, counts, stats, groups, rows, history, vitals, verdict, views, links, structured, a11y
    )
    return Export(f"siteaudit-{audit.id}.html", MEDIA_TYPE, chunks)
