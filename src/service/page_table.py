"""The HTML report's page table: a plain capped table, enhanced by a small script into a paged,
sortable, filterable view of many more rows carried as JSON.

Progressive enhancement, so the report works with scripts off and stays light with them on:
* Without script: the first `TABLE_ROWS` pages by URL as an ordinary `<table>` (headers with
  `scope`, the URL column marked `aria-sort="ascending"`, which is the order the rows are in).
* With script: the same table shows one page of `TABLE_ROWS` rows at a time, rebuilt from a JSON
  data island of at most `DATA_ROWS` rows; the header cells get sort buttons (`aria-sort` follows
  the sort), and the hidden filter (a search box and a status class, both labelled) and the pager
  appear. The DOM never holds more than one page of rows, so a 10,000-page audit opens as fast as
  a 100-page one; whatever lies beyond `DATA_ROWS` is named, with the commands that list it.

The data island is a `<script type="application/json">`: the browser never runs it, so the
report's hashed `script-src` needs no entry for it (HTML §4.12.1.2 "data block"). Its text ends at
the first `</script`, and `<!--` inside it changes how the parser looks for that end (HTML
§13.2.5.4 script data states), so every `<`, `>` and `&` in the JSON is written as its `\\u`
escape, which JSON.parse reads back as the same character. The script builds cells with
`textContent` and links with `href` only for rows the server marked as http(s): what the crawled
site wrote stays text.

The island is written from a walk of the pages the caller passes in, one keyset page at a time,
so the renderer holds one page of rows, not the island (bench/html_report_memory.py).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncGenerator, Iterable
from contextlib import aclosing
from html import escape
from urllib.parse import urlsplit

from auditdb.records import PageRecord
from common.wire import JsonValue

TABLE_ROWS = 100  # rows of the script-free table, and rows per page of the enhanced one
DATA_ROWS = 10_000  # rows of the data island: a few MB of JSON at most, parsed in milliseconds
LINK_REL = "noopener noreferrer nofollow"
# Links open a new tab: the web app shows the report in a sandboxed frame whose policy lets it
# navigate nowhere, and a report opened as a file keeps its place either way.
LINK_ATTRS = f'rel="{LINK_REL}" target="_blank"'
COLUMNS = ("URL", "Status", "Depth", "Response ms", "Title", "Indexable", "Words")
# The depth of a page no link from the start page reaches (only a sitemap lists it, or only such
# pages link to it): the frontier gives every page links reach its link distance
# (durable/scratchpad.py, `_ENQUEUE_LINKS`), so a missing depth means "not linked", not unknown.
NOT_LINKED = "not linked"
NUMERIC = frozenset({1, 2, 3, 6})  # column indexes shown right-aligned
# What JSON may hold but a script element's text may not (see the module docstring).
_SCRIPT_UNSAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})

# The enhancement. First, links within the report ("#type-...", "#page-..."): in the web app the
# report is an about:srcdoc frame, whose links resolve against the app's own URL (WHATWG HTML,
# "fallback base URL"), so following one would leave the report; the script opens the target (a
# closed <details>, or an article holding one), scrolls to it and moves the focus there, as a
# fragment navigation would (the keyboard then goes on from that section). A <details> target's
# focus goes to its summary, never to the element itself: a <details> is a shadow host, and a
# shadow host given tabindex -1 is left out of the Tab order together with its shadow tree's
# slots, summary and contents included (WHATWG HTML, "flattened tabindex-ordered focus navigation
# scope"; Chromium does so, tests/browser/test_keyboard.py), so a section once reached by a link
# could no longer be tabbed into from above. A fragment in the
# address (a link from elsewhere, or a hash change) opens its target too. Each row of the island
# is [url, status, depth, ms, title, indexable, words, status class, linkable, the id of its
# per-URL section] (`island_row`); a null depth or time sorts last either way.
SCRIPT = """
(function(){
function unfold(t){var d=t.tagName==='DETAILS'?t:t.querySelector('details');if(d)d.open=true;return d;}
function reveal(){var t=location.hash&&document.getElementById(decodeURIComponent(location.hash.slice(1)));
if(t&&unfold(t))t.scrollIntoView();}
window.addEventListener('hashchange',reveal);reveal();
document.addEventListener('click',function(e){
var a=e.target.closest&&e.target.closest('a[href^="#"]');
var t=a&&document.getElementById(decodeURIComponent(a.hash.slice(1)));
if(!t)return;e.preventDefault();unfold(t);var f=t.tagName==='DETAILS'?t.querySelector('summary'):t;
if(!f.hasAttribute('tabindex')&&f.tagName!=='SUMMARY')f.setAttribute('tabindex','-1');
f.focus();t.scrollIntoView();});
var data=document.getElementById('page-data'),table=document.getElementById('pages');
if(!data||!table||!table.replaceChildren)return;
var rows=JSON.parse(data.textContent).rows,view=rows.slice(),page=0,col=0,asc=true,size=TABLE_ROWS;
var body=table.tBodies[0],heads=table.tHead.rows[0].cells,$=function(id){return document.getElementById(id);};
var text=$('page-filter'),cls=$('page-class'),prev=$('page-prev'),next=$('page-next'),shown=$('page-shown');
function key(r){var v=r[col];return typeof v==='string'?v.toLowerCase():v;}
function cmp(x,y){var a=key(x),b=key(y);if(a===b)return 0;if(a===null)return 1;if(b===null)return -1;
return (a<b?-1:1)*(asc?1:-1);}
function cell(tr,value,num){var td=document.createElement('td');if(num)td.className='num';
td.textContent=value===null?'':String(value);tr.appendChild(td);return td;}
function row(r){var tr=document.createElement('tr'),td=cell(tr,r[8]?'':r[0]);
if(r[8]){var a=document.createElement('a');a.href=r[0];a.rel='LINK_REL';a.target='_blank';
a.textContent=r[0];td.appendChild(a);}
var v=document.createElement('a');v.href='#'+r[9];v.className='view';v.textContent='page view';
td.appendChild(document.createTextNode(' '));td.appendChild(v);
cell(tr,r[1],1);
cell(tr,r[2]===null?'NOT_LINKED':r[2],1);cell(tr,r[3],1);
cell(tr,r[4]);cell(tr,r[5]?'yes':'no');cell(tr,r[6],1);return tr;}
function render(){var n=view.length,pages=Math.max(1,Math.ceil(n/size));if(page>=pages)page=pages-1;
var from=page*size,frag=document.createDocumentFragment();
view.slice(from,from+size).forEach(function(r){frag.appendChild(row(r));});body.replaceChildren(frag);
shown.textContent=(n?(from+1).toLocaleString()+'-'+Math.min(from+size,n).toLocaleString():'0')+' of '+
n.toLocaleString()+' matching pages, page '+(page+1)+' of '+pages;
prev.disabled=page===0;next.disabled=page>=pages-1;}
function filter(){var q=text.value.toLowerCase(),c=cls.value;
view=rows.filter(function(r){return (!c||r[7]===c)&&(!q||r[0].toLowerCase().indexOf(q)>=0||
r[4].toLowerCase().indexOf(q)>=0);});view.sort(cmp);page=0;render();}
Array.prototype.forEach.call(heads,function(th,i){var b=document.createElement('button');
b.type='button';b.textContent=th.textContent;th.textContent='';th.appendChild(b);
b.addEventListener('click',function(){asc=col===i?!asc:true;col=i;
Array.prototype.forEach.call(heads,function(o){o.removeAttribute('aria-sort');});
th.setAttribute('aria-sort',asc?'ascending':'descending');view.sort(cmp);page=0;render();});});
text.addEventListener('input',filter);cls.addEventListener('change',filter);
prev.addEventListener('click',function(){page--;render();});
next.addEventListener('click',function(){page++;render();});
$('page-controls').hidden=false;$('page-pager').hidden=false;render();
})();
"""
SCRIPT = (
    SCRIPT.replace("TABLE_ROWS", str(TABLE_ROWS))
    .replace("LINK_REL", LINK_REL)
    .replace("NOT_LINKED", NOT_LINKED)
)


def is_web_url(url: str) -> bool:
    """Whether an audited URL may become a link: only http(s), never javascript: or data:. One
    urlsplit refuses (an unclosed IPv6 bracket) stays text rather than failing the report."""
    try:
        return urlsplit(url).scheme.lower() in ("http", "https")
    except ValueError:
        return False


def link(url: str) -> str:
    """An audited page as a plain anchor, or as text when it is not an http(s) URL."""
    if is_web_url(url):
        return f'<a href="{escape(url)}" {LINK_ATTRS}>{escape(url)}</a>'
    return escape(url)


def page_anchor(url: str) -> str:
    """The id of a page's per-URL section (service.html_pages): stable, unique per URL, and safe
    as an id and a fragment."""
    return "u-" + hashlib.sha256(url.encode()).hexdigest()[:16]


def view_link(url: str) -> str:
    """The link to a page's per-URL section."""
    return f'<a class="view" href="#{page_anchor(url)}">page view</a>'


def status_class(code: int) -> str:
    return f"{code // 100}xx" if 100 <= code <= 599 else "no response"


def island_row(page: PageRecord) -> list[JsonValue]:
    """One page as the script reads it (the order SCRIPT indexes)."""
    return [
        page.url,
        page.status_code,
        page.crawl_depth,
        page.response_time_ms,
        page.title or "",
        1 if page.is_indexable else 0,
        page.word_count,
        status_class(page.status_code),
        1 if is_web_url(page.url) else 0,
        page_anchor(page.url),
    ]


def script_json(value: JsonValue) -> str:
    """JSON that is safe as the text of a script element (see the module docstring)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).translate(_SCRIPT_UNSAFE)


def table_chunks(
    audit_id: str, total: int, classes: Iterable[str], first: list[PageRecord]
) -> Iterable[str]:
    """The section up to the end of the script-free table: note, hidden controls, `first` rows."""
    yield (
        '<section aria-labelledby="pages-h"><h2 id="pages-h">Pages</h2>'
        f'<p class="note">{_note(audit_id, total)}</p>{_controls(classes, len(first))}'
        # Seven columns do not fit a phone: the table scrolls sideways in its own focusable box.
        '<div class="wide" tabindex="0" role="region" aria-labelledby="pages-h">'
        '<table id="pages"><caption class="visually-hidden">Pages of the audit</caption>'
        f"<thead><tr>{_heads()}</tr></thead><tbody>"
    )
    yield "".join(_row(p) for p in first)
    yield (
        '</tbody></table></div><p id="page-pager" hidden><button type="button" id="page-prev">'
        'Previous page</button> <button type="button" id="page-next">Next page</button></p>'
    )


async def island_chunks(batches: AsyncGenerator[list[PageRecord]]) -> AsyncGenerator[str]:
    """The data island, one chunk per batch of rows; the walk is closed after `DATA_ROWS` rows."""
    yield '<script type="application/json" id="page-data">{"rows":['
    left = DATA_ROWS
    separator = ""
    async with aclosing(batches) as walk:
        async for batch in walk:
            rows = batch[:left]
            if rows:
                yield separator + ",".join(script_json(island_row(p)) for p in rows)
                separator = ","
            left -= len(rows)
            if left <= 0:
                break
    yield "]}</script></section>"


async def kept_rows(rows: list[PageRecord]) -> AsyncGenerator[list[PageRecord]]:
    """Rows already in memory as one batch (an audit rendered without a database walk)."""
    yield rows


def _note(audit_id: str, total: int) -> str:
    if total <= TABLE_ROWS:
        return f"All {total:,} pages, by URL."
    every = (
        f"Every page: <code>GET /api/audits/{escape(audit_id)}/pages.csv</code> (from "
        f"<code>siteaudit serve</code>) or <code>siteaudit report {escape(audit_id)} "
        "--format json</code>."
    )
    held = f"all {total:,}" if total <= DATA_ROWS else f"the first {DATA_ROWS:,}. {every}"
    return (
        f"The first {TABLE_ROWS:,} of {total:,} pages by URL; with scripts on, the table pages, "
        f"sorts and filters {held}"
    ) + ("." if total <= DATA_ROWS else "")


def _controls(classes: Iterable[str], shown: int) -> str:
    options = "".join(f'<option value="{escape(c)}">{escape(c)}</option>' for c in classes)
    return (
        '<div id="page-controls" class="controls" hidden>'
        '<label for="page-filter">Filter by URL or title</label> '
        '<input id="page-filter" type="search"> '
        '<label for="page-class">Status class</label> '
        f'<select id="page-class"><option value="">all</option>{options}</select></div>'
        f'<p id="page-shown" aria-live="polite">{shown:,} rows shown</p>'
    )


def _heads() -> str:
    sorted_by = ' aria-sort="ascending"'  # the rows come by URL
    return "".join(
        f'<th scope="col"{sorted_by if i == 0 else ""}>{c}</th>' for i, c in enumerate(COLUMNS)
    )


def _row(page: PageRecord) -> str:
    cells = island_row(page)
    shown = [
        f"{link(page.url)} {view_link(page.url)}",
        str(page.status_code),
        NOT_LINKED if page.crawl_depth is None else str(page.crawl_depth),
        *(escape("" if v is None else str(v)) for v in cells[3:5]),
        "yes" if page.is_indexable else "no",
        str(page.word_count),
    ]
    return "<tr>" + "".join(_cell(i, text) for i, text in enumerate(shown)) + "</tr>"


def _cell(index: int, text: str) -> str:
    return f'<td class="num">{text}</td>' if index in NUMERIC else f"<td>{text}</td>"
