"""One audit as a single self-contained HTML file that opens offline, written in chunks.

What the file holds, in order (docs/issues.md for the catalogue texts it quotes):
* the health score, the security grade and the audit's facts (site, status, pages, when);
* four inline SVG charts (service/svg_charts.py): status code classes, crawl depth, response time,
  issues by type, each with its numbers as a table;
* the issues grouped by severity then type, each type with its title, explanation, fix, count and
  at most `PAGES_PER_TYPE` affected pages with the detail that locates the problem (the link
  target, the duplicate, the redirect), then "and N more";
* the first `PAGE_ROWS` pages by URL in a table a small inline script sorts and filters, with the
  CSV command that gives them all.

Everything from a crawled site (URLs, titles, details) is hostile text: it is escaped on the way
out (`html.escape` with quotes), and a page URL becomes a link only when it is http(s), with
`rel="noopener noreferrer nofollow"`, opening in a new tab. The document carries its own
Content-Security-Policy (`default-src 'none'`, the one stylesheet and the one script allowed by
their SHA-256 hashes, CSP Level 3 §8.3): nothing loads from anywhere, and an injected script would
not run even if escaping failed. There is no `style` attribute anywhere, because the policy allows none.

Memory: one walk of the pages (keyset pages of `EXPORT_PAGE_SIZE` rows) folds them into the
charts' counts and keeps the first `PAGE_ROWS`; the issues are read `PAGES_PER_TYPE` rows per type.
So the renderer holds at most `PAGE_ROWS` page rows whatever the audit's size
(bench/html_report_memory.py).
"""

from __future__ import annotations

import base64
import hashlib
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from html import escape
from urllib.parse import urlsplit

from audit.catalogue import IssueDescriptor, IssueType, Severity, doc_url, maybe_descriptor
from auditdb.listing import IssueFilter
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from auditdb.summary import IssueCounts, TypeCount
from common.bindings import Env
from service.audits import owned_audit
from service.exports import Export
from service.lists import Paging, issue_counts, iter_pages, list_issues
from service.svg_charts import Bar, Chart, Tone, render_chart

MEDIA_TYPE = "text/html; charset=utf-8"
PAGES_PER_TYPE = 20  # affected pages shown per issue type
PAGE_ROWS = 500  # rows of the page table
TABLE_CHUNK = 100  # page-table rows per written chunk
ISSUE_TYPE_BARS = 15  # issue types charted; the rest are summed into one bar
DEPTH_BARS = 10  # depths 0..9 each get a bar; deeper pages share "10+"
LINK_REL = "noopener noreferrer nofollow"
# Links open a new tab: the web app shows the report in a sandboxed frame whose policy lets it
# navigate nowhere, and a report opened as a file keeps its place either way.
LINK_ATTRS = f'rel="{LINK_REL}" target="_blank"'
# Response time buckets (upper bounds, ms): Lighthouse calls a server response under 600 ms good
# (the "Reduce initial server response time" audit); the catalogue's slow-response threshold
# and longer waits get their own bars.
TIME_BOUNDS = ((200, "< 200 ms"), (600, "200-599 ms"), (1000, "600-999 ms"), (3000, "1-3 s"))
TONES = {Severity.CRITICAL: Tone.BAD, Severity.WARNING: Tone.WARN, Severity.INFO: Tone.NEUTRAL}

STYLE = """
:root{color-scheme:light;--ink:#1a1a1a;--muted:#4a4a4a;--line:#c8c8c8;--bg:#fff;--panel:#f4f5f7}
body{font:16px/1.5 system-ui,sans-serif;color:var(--ink);background:var(--bg);margin:0}
header,main,footer{max-width:72rem;margin:0 auto;padding:1rem 1.5rem}
a{color:#0b57d0}a:focus,button:focus,input:focus,summary:focus{outline:3px solid #0b57d0;outline-offset:2px}
.score{display:flex;gap:2rem;flex-wrap:wrap;align-items:center}
.score-value{font-size:3rem;font-weight:700}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(36rem,1fr));gap:1rem}
figure.chart{margin:0;padding:1rem;background:var(--panel);border:1px solid var(--line)}
figcaption{font-weight:600;margin-bottom:.5rem}
svg{max-width:100%;height:auto}
.axis{font-size:12px;fill:#1a1a1a}
.bar.tone-neutral{fill:#3b5b92}.bar.tone-good{fill:#1e7b34}.bar.tone-warn{fill:#a35c00}.bar.tone-bad{fill:#b3261e}
.issue{border-top:1px solid var(--line);padding:.5rem 0}
.count{font-weight:400;color:var(--muted)}
.sev-critical{color:#b3261e}.sev-warning{color:#8a4b00}.sev-info{color:#3b5b92}
.affected li{overflow-wrap:anywhere}.detail{color:var(--muted)}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
td{overflow-wrap:anywhere}td.num{text-align:right}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit}
.note{color:var(--muted)}code{background:var(--panel);padding:0 .25rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
"""

# Sorts by a header's column (numbers as numbers) and filters rows by the text typed; without
# script the table is still complete and readable.
SCRIPT = """
(function(){
var table=document.getElementById('pages');if(!table)return;
var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
var input=document.getElementById('page-filter'),shown=document.getElementById('page-shown');
function key(row,col){var c=row.cells[col],n=c.getAttribute('data-num');
return n===null?c.textContent.toLowerCase():parseFloat(n);}
Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th,col){
var b=th.querySelector('button');if(!b)return;
b.addEventListener('click',function(){
var asc=th.getAttribute('aria-sort')!=='ascending';
Array.prototype.forEach.call(table.tHead.rows[0].cells,function(o){o.removeAttribute('aria-sort');});
th.setAttribute('aria-sort',asc?'ascending':'descending');
rows.sort(function(x,y){var a=key(x,col),z=key(y,col);return (a<z?-1:a>z?1:0)*(asc?1:-1);});
rows.forEach(function(r){body.appendChild(r);});});});
input.addEventListener('input',function(){var q=input.value.toLowerCase(),n=0;
rows.forEach(function(r){var ok=r.textContent.toLowerCase().indexOf(q)>=0;r.hidden=!ok;if(ok)n++;});
shown.textContent=n+' of '+rows.length+' rows shown';});
})();
"""


def csp_hash(text: str) -> str:
    """A CSP hash source for an inline element's exact text (CSP Level 3 §2.3.1)."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


CSP = (
    f"default-src 'none'; style-src {csp_hash(STYLE)}; script-src {csp_hash(SCRIPT)}; "
    "img-src 'none'; base-uri 'none'; form-action 'none'"
)


@dataclass(slots=True)
class PageStats:
    """The charts' counts over every page, and the first `keep` pages for the table."""

    keep: int = PAGE_ROWS
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


def status_class(code: int) -> str:
    return f"{code // 100}xx" if 100 <= code <= 599 else "no response"


def time_bucket(ms: int | None) -> str:
    if ms is None:
        return "not timed"
    for bound, label in TIME_BOUNDS:
        if ms < bound:
            return label
    return f">= {TIME_BOUNDS[-1][0] // 1000} s"


@dataclass(frozen=True, slots=True)
class IssueGroup:
    """One issue type of the audit: its count and the first affected rows."""

    count: TypeCount
    rows: list[IssueRecord]


async def html_chunks(
    audit: AuditRecord, counts: IssueCounts, stats: PageStats, groups: AsyncIterator[IssueGroup]
) -> AsyncGenerator[bytes]:
    """The document as encoded chunks: head and charts, one chunk per issue type, the table."""
    yield (_head(audit) + _overview(audit, counts, stats) + _charts(counts, stats)).encode()
    yield b'<section aria-labelledby="issues-h"><h2 id="issues-h">Issues</h2>'
    if not counts.rows:
        yield b"<p>No issues found.</p>"
    severity: str | None = None
    async for group in groups:
        if group.count.severity != severity:
            yield ((_close_severity() if severity else "") + _open_severity(group, counts)).encode()
            severity = group.count.severity
        yield _issue_type(audit.id, group).encode()
    yield ((_close_severity() if severity else "") + "</section>").encode()
    for text in _page_table(audit, stats):
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


def _overview(audit: AuditRecord, counts: IssueCounts, stats: PageStats) -> str:
    score = "n/a" if audit.health_score is None else f"{audit.health_score:.0f}"
    by_severity = counts.by_severity
    facts = [
        ("Site", _link(audit.final_url or audit.start_url)),
        ("Audit", escape(audit.id)),
        ("Status", escape(str(audit.status))),
        ("Pages", f"{stats.total:,}"),
        ("Issues", ", ".join(f"{by_severity[s]:,} {s}" for s in Severity)),
        ("Finished", escape(audit.finished_at or "not finished")),
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


def charts(counts: IssueCounts, stats: PageStats) -> list[Chart]:
    """The four charts of the report, from the counts alone."""
    classes = ("2xx", "3xx", "4xx", "5xx", "1xx", "no response")
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
    bars = [Bar(_title(r.issue_type), r.count, TONES[r.severity]) for r in ranked[:ISSUE_TYPE_BARS]]
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


def _open_severity(group: IssueGroup, counts: IssueCounts) -> str:
    severity = group.count.severity
    total = counts.by_severity[severity]
    return (
        f'<section aria-labelledby="sev-{severity}-h"><h3 id="sev-{severity}-h" '
        f'class="sev-{severity}">{severity.capitalize()} <span class="count">({total:,})</span></h3>'
    )


def _close_severity() -> str:
    return "</section>"


def _title(issue_type: str) -> str:
    d = maybe_descriptor(issue_type)
    return d.title if d else issue_type


def _issue_type(audit_id: str, group: IssueGroup) -> str:
    count = group.count
    d = maybe_descriptor(count.issue_type)
    more = count.count - len(group.rows)
    rest = (
        f'<p class="note">and {more:,} more (every issue: <code>siteaudit report '
        f"{escape(audit_id)} --format csv</code>)</p>"
        if more > 0
        else ""
    )
    items = "".join(_affected(row) for row in group.rows)
    listed = f'<ul class="affected">{items}</ul>' if items else ""
    return (
        f'<article class="issue" id="type-{escape(count.issue_type)}">'
        f"<h4>{escape(_title(count.issue_type))} "
        f'<span class="count">{count.count:,}</span></h4>{_describe(d)}'
        f"<h5>Affected pages</h5>{listed}{rest}</article>"
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
    return f"<li>{_link(issue.page_url)}{extra}</li>"


def locating_detail(issue: IssueRecord) -> str:
    """What locates the problem on the page: the dedupe key (a link target, a duplicate group,
    a redirect target), then the details, in one short line."""
    parts = [f"→ {issue.dedupe_key}"] if issue.dedupe_key else []
    for key in sorted(issue.details):
        value = issue.details[key]
        if isinstance(value, list):
            shown = ", ".join(str(v) for v in value[:3]) + (" …" if len(value) > 3 else "")
        else:
            shown = str(value)
        parts.append(f"{key}: {shown}")
    line = "; ".join(parts)
    return line if len(line) <= 300 else line[:299] + "…"


def _link(url: str) -> str:
    """An audited page as a plain anchor, or as text when it is not an http(s) URL."""
    if urlsplit(url).scheme.lower() in ("http", "https"):
        return f'<a href="{escape(url)}" {LINK_ATTRS}>{escape(url)}</a>'
    return escape(url)


PAGE_COLUMNS = ("URL", "Status", "Depth", "Response ms", "Title", "Indexable", "Words")


def _page_table(audit: AuditRecord, stats: PageStats) -> Iterable[str]:
    shown = len(stats.first)
    note = f"All {stats.total:,} pages, by URL."
    if stats.total > shown:
        note = (
            f"The first {shown:,} of {stats.total:,} pages by URL. Every page: "
            f"<code>GET /api/audits/{escape(audit.id)}/pages.csv</code> (from "
            f"<code>siteaudit serve</code>) or <code>siteaudit report {escape(audit.id)} "
            "--format json</code>."
        )
    heads = "".join(
        f'<th scope="col"><button type="button">{c}</button></th>' for c in PAGE_COLUMNS
    )
    yield (
        '<section aria-labelledby="pages-h"><h2 id="pages-h">Pages</h2>'
        f'<p class="note">{note}</p><p><label for="page-filter">Filter pages</label> '
        '<input id="page-filter" type="search"> <span id="page-shown" aria-live="polite">'
        f"{shown:,} rows shown</span></p>"
        f'<table id="pages"><caption class="visually-hidden">Pages of the audit</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>"
    )
    for start in range(0, shown, TABLE_CHUNK):
        yield "".join(_page_row(p) for p in stats.first[start : start + TABLE_CHUNK])
    yield "</tbody></table></section>"


def _page_row(page: PageRecord) -> str:
    depth = "" if page.crawl_depth is None else str(page.crawl_depth)
    ms = "" if page.response_time_ms is None else str(page.response_time_ms)
    return (
        f"<tr><td>{_link(page.url)}</td>{_num(str(page.status_code))}{_num(depth)}{_num(ms)}"
        f"<td>{escape(page.title or '')}</td><td>{'yes' if page.is_indexable else 'no'}</td>"
        f"{_num(str(page.word_count))}</tr>"
    )


def _num(text: str) -> str:
    value = text or "-1"
    return f'<td class="num" data-num="{value}">{text}</td>'


def _tail() -> str:
    return (
        '</main><footer><p class="note">Written by siteaudit. This file loads nothing from the '
        f"network.</p></footer><script>{SCRIPT}</script></body></html>\n"
    )


async def page_stats(env: Env, owner: str, audit_id: str, keep: int = PAGE_ROWS) -> PageStats:
    """One keyset walk over the audit's pages, folded into the charts' counts."""
    stats = PageStats(keep)
    async with aclosing(iter_pages(env, owner, audit_id)) as walk:
        async for rows in walk:
            stats.add(rows)
    return stats


async def issue_groups(
    env: Env, owner: str, audit_id: str, counts: Sequence[TypeCount], per_type: int
) -> AsyncGenerator[IssueGroup]:
    """Each counted type with its first `per_type` rows. A type this catalogue does not know (from
    an older or newer catalogue) gets none, since the list filter takes catalogue types only: the
    report gives its count and the command that lists its rows."""
    for count in counts:
        rows: list[IssueRecord] = []
        if count.issue_type in IssueType:
            only = IssueFilter(types=(IssueType(count.issue_type),))
            page = await list_issues(env, owner, audit_id, only, Paging(limit=per_type))
            rows = page.items
        yield IssueGroup(count, rows)


async def export_html(env: Env, owner: str, audit_id: str) -> Export:
    """The audit's HTML report; `AuditNotFound` before any byte."""
    audit = await owned_audit(env, owner, audit_id)
    counts = await issue_counts(env, owner, audit.id)
    stats = await page_stats(env, owner, audit.id)
    groups = issue_groups(env, owner, audit.id, counts.rows, PAGES_PER_TYPE)
    return Export(
        f"siteaudit-{audit.id}.html", MEDIA_TYPE, html_chunks(audit, counts, stats, groups)
    )
