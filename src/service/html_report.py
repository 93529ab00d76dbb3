"""One audit as a single self-contained HTML file that opens offline, written in chunks.

What the file holds, in order (docs/issues.md for the catalogue texts it quotes):
* what to fix first (service.verdict, docs/scoring.md): the overall score and the five category
  scores, the notes that explain them, then every finding as an action ranked by the points
  fixing it adds, with its scope, pages affected, how to fix it and example pages; or why the
  audit has no verdict;
* the health score, the security grade and the audit's facts (site, status, pages, when);
* for an audit that is a monitor's run (service.run_history, rendered by service.html_history):
  the monitor's scores over its last `HISTORY_RUNS` runs as a line chart with a table of the runs,
  and the new and fixed issues since the previous completed run;
* four inline SVG charts (service/svg_charts.py): status code classes, crawl depth, response time,
  issues by type, each with its numbers as a table;
* the findings grouped by severity, most pages first (one per fix: a grade test and its
  per-page header rows are one finding), each with its title, explanation, fix, pages affected
  and at most `PAGES_PER_TYPE` of them with the detail that locates the problem (the link target,
  the duplicate group, the redirect chain: service.issue_locating), then "and N more";
* the Lighthouse section (service/html_vitals.py): a row per sampled page, mobile beside desktop,
  or why Lighthouse did not run;
* the page table (service.page_table): the first `TABLE_ROWS` pages by URL as a plain table, and
  up to `DATA_ROWS` pages in a JSON data island that a small inline script pages, sorts and
  filters, with the commands that list every page.

Everything from a crawled site (URLs, titles, details) is hostile text: it is escaped on the way
out (`html.escape` with quotes), and a page URL becomes a link only when it is http(s), with
`rel="noopener noreferrer nofollow"`. The document carries its own Content-Security-Policy
(`default-src 'none'`, the one stylesheet and the one script allowed by their SHA-256 hashes, CSP
Level 3 §8.3; the data island is no script, so it needs none): nothing loads from anywhere, and an
injected script would not run even if escaping failed. There is no `style` attribute anywhere,
because the policy allows none.

Memory: one walk of the pages (keyset pages of `EXPORT_PAGE_SIZE` rows) folds them into the
charts' counts and keeps the first `TABLE_ROWS`; a second walk, stopped after `DATA_ROWS` rows,
writes the data island one keyset page at a time; the issues are read `PAGES_PER_TYPE` rows per
type, the history `HISTORY_RUNS` runs and `CHANGES_LISTED` changes. So the renderer holds at most
one keyset page of rows whatever the audit's size (bench/html_report_memory.py).
"""

from __future__ import annotations

import base64
import hashlib
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from html import escape

from audit.catalogue import IssueDescriptor, IssueType, Severity, doc_url, maybe_descriptor
from audit.verdict import Action, FindingScope, gain_phrase
from auditdb import lighthouse
from auditdb.lighthouse import LighthouseRow
from auditdb.listing import IssueFilter
from auditdb.records import MAX_LIGHTHOUSE_PAGES, AuditRecord, IssueRecord, PageRecord
from auditdb.summary import IssueCounts, TypeCount
from common.bindings import Env
from common.failures import site_failure_code
from service.audits import owned_audit
from service.exports import Export
from service.html_history import history_section
from service.html_vitals import vitals_section
from service.issue_locating import locating_detail, type_title
from service.lists import Paging, issue_counts, iter_pages, list_issues
from service.page_table import (
    LINK_ATTRS,
    SCRIPT,
    TABLE_ROWS,
    island_chunks,
    kept_rows,
    link,
    status_class,
    table_chunks,
)
from service.run_history import RunHistory, run_history
from service.svg_charts import Bar, Chart, Tone, render_chart
from service.verdict import AuditVerdict, verdict_of

MEDIA_TYPE = "text/html; charset=utf-8"
PAGES_PER_TYPE = 20  # affected pages shown per issue type
ISSUE_TYPE_BARS = 15  # issue types charted; the rest are summed into one bar
DEPTH_BARS = 10  # depths 0..9 each get a bar; deeper pages share "10+"
# Response time buckets (upper bounds, ms): Lighthouse calls a server response under 600 ms good
# (the "Reduce initial server response time" audit); the catalogue's slow-response threshold
# and longer waits get their own bars.
TIME_BOUNDS = ((200, "< 200 ms"), (600, "200-599 ms"), (1000, "600-999 ms"), (3000, "1-3 s"))
TONES = {Severity.CRITICAL: Tone.BAD, Severity.WARNING: Tone.WARN, Severity.INFO: Tone.NEUTRAL}

STYLE = """
:root{color-scheme:light;--ink:#1a1a1a;--muted:#4a4a4a;--line:#c8c8c8;--bg:#fff;--panel:#f4f5f7}
body{font:16px/1.5 system-ui,sans-serif;color:var(--ink);background:var(--bg);margin:0}
header,main,footer{max-width:72rem;margin:0 auto;padding:1rem 1.5rem}
a{color:#0b57d0}
a:focus,button:focus,input:focus,summary:focus,.table-wrap:focus{outline:3px solid #0b57d0;outline-offset:2px}
.score{display:flex;gap:2rem;flex-wrap:wrap;align-items:center}
.score-value{font-size:3rem;font-weight:700}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(36rem,100%),1fr));gap:1rem}
figure.chart{margin:0;padding:1rem;background:var(--panel);border:1px solid var(--line)}
figcaption{font-weight:600;margin-bottom:.5rem}
svg{max-width:100%;height:auto}
.axis{font-size:12px;fill:#1a1a1a}
.bar.tone-neutral{fill:#3b5b92}.bar.tone-good{fill:#1e7b34}.bar.tone-warn{fill:#a35c00}.bar.tone-bad{fill:#b3261e}
.issue{border-top:1px solid var(--line);padding:.5rem 0}
.count{font-weight:400;color:var(--muted)}
.sev-critical{color:#b3261e}.sev-warning{color:#8a4b00}.sev-info{color:#3b5b92}
.affected li{overflow-wrap:anywhere}.detail{color:var(--muted)}
table{border-collapse:collapse;width:100%}.table-wrap{overflow-x:auto}
th,td{border-bottom:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
td{overflow-wrap:anywhere}td.num{text-align:right}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit}
.note{color:var(--muted)}code{background:var(--panel);padding:0 .25rem}
.failure{border:2px solid #b3261e;background:#fdecea;padding:.75rem 1rem;margin:0 0 1rem}
.failure h2{color:#b3261e;margin:0 0 .25rem}.failure p{margin:0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
[hidden]{display:none!important}
.verdict{border-bottom:1px solid var(--line)}
.categories{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;padding:0;list-style:none}
.categories li{background:var(--panel);padding:.25rem .75rem;border:1px solid var(--line)}
ol.actions{padding-left:2rem}ol.actions>li{margin:.75rem 0;overflow-wrap:anywhere}
h1{overflow-wrap:anywhere}
.gain{font-weight:700}.scope{color:var(--muted)}
.controls{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:.5rem 0}
input,select,button{font:inherit}
.grid{stroke:#c8c8c8}.line{fill:none;stroke-width:2}.line.series-security{stroke-dasharray:6 4}
.series-health{stroke:#0b57d0}.series-security{stroke:#a35c00}
circle.series-health{fill:#0b57d0}circle.series-security{fill:#a35c00}
table.runs{margin:1rem 0}table.runs td{overflow-wrap:normal}caption{text-align:left;font-weight:600}
th button::after{content:" \\2195";content:" \\2195"/""}
th[aria-sort=ascending] button::after{content:" \\25B2";content:" \\25B2"/""}
th[aria-sort=descending] button::after{content:" \\25BC";content:" \\25BC"/""}
"""


def csp_hash(text: str) -> str:
    """A CSP hash source for an inline element's exact text (CSP Level 3 §2.3.1)."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


# The report's one stylesheet and one script, as CSP hash sources: its own policy allows exactly
# these, and so must any page that shows the report in a srcdoc frame (which inherits its policy).
STYLE_HASH = csp_hash(STYLE)
SCRIPT_HASH = csp_hash(SCRIPT)
CSP = (
    f"default-src 'none'; style-src {STYLE_HASH}; script-src {SCRIPT_HASH}; "
    "img-src 'none'; base-uri 'none'; form-action 'none'"
)


@dataclass(slots=True)
class PageStats:
    """The charts' counts over every page, and the first `keep` pages for the table."""

    keep: int = TABLE_ROWS
    total: int = 0
    status_classes: Counter[str] = field(default_factory=Counter)
    depths: Counter[int | None] = field(default_factory=Counter)
    times: Counter[str] = field(default_factory=Counter)
    first: list[PageRecord] = field(default_factory=list)

    def add(self, rows: Iterable[PageRecord]) -> None:
        for page in rows:
            self.total += 1
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
) -> AsyncGenerator[bytes]:
    """The document as encoded chunks: head, the failure banner (when the site could not be
    audited), what to fix first, history and charts, one chunk per finding, the page table, then
    its data island one chunk per batch of `rows` (None: the kept rows)."""
    opening = _head(audit) + _failure(audit) + verdict_section(audit, verdict)
    yield (opening + _overview(audit, counts, stats)).encode()
    if history is not None:
        yield history_section(history, audit.id).encode()
    yield _charts(counts, stats).encode()
    yield b'<section aria-labelledby="issues-h"><h2 id="issues-h">Issues</h2>'
    if not counts.rows:
        yield b"<p>No issues found.</p>"
    totals = _severity_totals(counts, verdict)
    severity: str | None = None
    async for group in groups:
        if group.count.severity != severity:
            yield ((_close_severity() if severity else "") + _open_severity(group, totals)).encode()
            severity = group.count.severity
        yield _issue_type(audit.id, group).encode()
    yield ((_close_severity() if severity else "") + "</section>").encode()
    yield vitals_section(audit, vitals, link).encode()  # service/html_vitals.py
    classes = [c for c in STATUS_CLASSES if stats.status_classes[c]]
    for text in table_chunks(audit.id, stats.total, classes, stats.first):
        yield text.encode()
    async for text in island_chunks(kept_rows(stats.first) if rows is None else rows):
        yield text.encode()
    yield _tail().encode()


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
    """The banner of an audit the site made fail, first on the page: what happened, what to try."""
    code = site_failure_code(audit.error_code)
    if audit.site_failure is None or code is None:
        return ""
    return (
        '<section role="alert" aria-labelledby="failure-h" class="failure">'
        f'<h2 id="failure-h">The audit failed: {escape(code.meaning)}</h2>'
        f"<p>{escape(audit.site_failure)}</p></section>"
    )


def _overview(audit: AuditRecord, counts: IssueCounts, stats: PageStats) -> str:
    score = "n/a" if audit.health_score is None else f"{audit.health_score:.0f}"
    by_severity = counts.by_severity
    facts = [
        ("Site", link(audit.final_url or audit.start_url)),
        ("Audit", escape(audit.id)),
        ("Status", escape(str(audit.status))),
        ("Pages", f"{stats.total:,}"),
        ("Issues", ", ".join(f"{by_severity[s]:,} {s}" for s in Severity)),
        ("Finished", escape(audit.finished_at or "not finished")),
        *([("Scheme", escape(audit.scheme_note))] if audit.scheme_note else []),
    ]
    rows = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
    return (
        '<section aria-labelledby="score-h" class="score">'
        f'<div><h2 id="score-h">Health score</h2><p class="score-value">{score}'
        '<span class="visually-hidden"> out of 100</span></p></div>'
        f"{_grade(audit)}"
        f'<dl class="facts">{rows}</dl></section>'
    )


def _grade(audit: AuditRecord) -> str:
    """The start URL's security grade (docs/security.md), or why there is none."""
    if audit.security_grade is None:
        reason = audit.security_error or "not graded yet"
        return (
            f'<div><h2 id="grade-h">Security grade</h2><p>not graded ({escape(reason)})</p></div>'
        )
    score = "" if audit.security_score is None else f" ({audit.security_score}/100)"
    return (
        '<div><h2 id="grade-h">Security grade</h2>'
        f'<p class="score-value">{escape(audit.security_grade)}</p><p>{escape(score)}</p></div>'
    )


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
        return "unknown"
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


def _issue_type(audit_id: str, group: IssueGroup) -> str:
    count = group.count
    d = maybe_descriptor(count.issue_type)
    more = count.count - len(group.rows)
    title = escape(type_title(count.issue_type))
    if group.action is not None:
        return _finding(audit_id, group, group.action, d, more)
    return (
        f'<article class="issue" id="type-{escape(count.issue_type)}">'
        f'<h4>{title} <span class="count">{count.count:,}</span></h4>{_describe(d)}'
        f"{_affected_block(audit_id, group.rows, more, '')}</article>"
    )


def _affected_block(audit_id: str, rows: Sequence[IssueRecord], more: int, of: str) -> str:
    """The first affected pages, then how many more `of` what, and the command that lists them."""
    rest = (
        f'<p class="note">and {more:,} more{of} (every issue: <code>siteaudit report '
        f"{escape(audit_id)} --format csv</code>)</p>"
        if more > 0
        else ""
    )
    items = "".join(_affected(row) for row in rows)
    listed = f'<ul class="affected">{items}</ul>' if items else ""
    return f"<h5>Affected pages</h5>{listed}{rest}"


def _finding(
    audit_id: str, group: IssueGroup, action: Action, d: IssueDescriptor | None, more: int
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
        f"<p>{escape(action.summary)}</p>{also}{_describe(d)}"
        f"{_affected_block(audit_id, group.rows, more, of)}</article>"
    )


def _where(action: Action) -> str:
    if action.scope is FindingScope.SITE:
        return "whole site"
    noun = "page" if action.pages == 1 else "pages"
    site_wide = ", site-wide" if action.scope is FindingScope.SITE_WIDE else ""
    return f"{action.pages:,} {noun}{site_wide}"


# -- what to fix first -------------------------------------------------------------------------


def verdict_section(audit: AuditRecord, verdict: AuditVerdict | None) -> str:
    """The first thing on screen: the scores and the ranked actions, or why there are none."""
    heading = (
        '<section aria-labelledby="fix-h" class="verdict"><h2 id="fix-h">What to fix first</h2>'
    )
    if audit.site_failure is not None:
        return ""  # the failure banner above says why there is nothing to fix on the site
    if verdict is None or verdict.scores is None:
        note = "no verdict" if verdict is None or verdict.note is None else verdict.note
        return f"{heading}<p>{escape(note)}</p></section>"
    scores = verdict.scores
    overall = "n/a" if scores.overall is None else f"{scores.overall:g}"
    categories = "".join(
        f"<li>{escape(c.label)}: <strong>{'n/a' if c.score is None else f'{c.score:g}'}</strong>"
        f'<span class="visually-hidden"> out of 100</span></li>'
        for c in scores.categories
    )
    notes = "".join(f'<p class="note">{escape(note)}</p>' for note in scores.notes)
    actions = "".join(_action_item(action) for action in verdict.actions)
    listed = f'<ol class="actions">{actions}</ol>' if actions else "<p>Nothing to fix.</p>"
    return (
        f"{heading}<p>Overall score <strong>{overall}</strong> of 100 "
        f'(<a href="#score-h">the audit\'s facts</a>)</p>'
        f'<ul class="categories">{categories}</ul>{notes}{listed}</section>'
    )


def _action_item(action: Action) -> str:
    gain = gain_phrase(action)
    examples = ", ".join(link(url) for url in action.example_pages)
    pages = f'<p class="note">For example: {examples}</p>' if examples else ""
    if action.detail:
        pages = f"<p>{escape(action.detail)}</p>{pages}"
    return (
        f'<li><span class="sev-{action.severity}">{escape(str(action.severity))}</span> '
        f'<span class="gain">{escape(gain)}</span> '
        f'<a href="#type-{escape(action.issue_type)}">{escape(action.summary)}</a>'
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


def _affected(issue: IssueRecord) -> str:
    detail = locating_detail(issue)
    extra = f' <span class="detail">{escape(detail)}</span>' if detail else ""
    return f"<li>{link(issue.page_url)}{extra}</li>"


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
    history = await run_history(env, audit)
    verdict = await verdict_of(env, audit)
    if verdict.actions:
        groups = finding_groups(env, owner, audit.id, counts, verdict, PAGES_PER_TYPE)
    else:
        groups = issue_groups(env, owner, audit.id, counts.rows, PAGES_PER_TYPE)
    rows = iter_pages(env, owner, audit.id)
    vitals = await lighthouse.list_results(env.DB, audit.id, limit=2 * MAX_LIGHTHOUSE_PAGES)
    chunks = html_chunks(audit, counts, stats, groups, rows, history, vitals, verdict)
    return Export(f"siteaudit-{audit.id}.html", MEDIA_TYPE, chunks)
