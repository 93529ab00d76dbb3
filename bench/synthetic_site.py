"""A deterministic synthetic site of N pages, generated page by page on request.

Shape (the same N always gives the same bytes):
* pages are numbered 0..N-1 and live at `/` (page 0) and `/p/<i>.html`; they form a tree of
  fan-out `FANOUT` (page i's children are i*FANOUT+1 .. i*FANOUT+FANOUT, heap order), so a
  10,000-page site is 5 levels deep and a 100,000-page site 6;
* every page carries a nav bar (home and the first-level sections), a breadcrumb (its
  ancestors), links to its children, `RELATED` links to pseudo-random pages across the site and
  a footer: a few dozen internal links each, about 40 on average;
* the body is paragraphs drawn from a fixed pool (about 18-28 KB of HTML a page, varied by page);
* a few issues recur at fixed rates: missing meta descriptions, titles shared by two pages,
  pages without an h1, images without alt text, and links to pages that do not exist (404s).

Nothing is stored: `page(path)` builds one page's bytes on demand, so a 100,000-page site costs
the server no memory. bench/site_server.py serves it through its `generated` hook.

Two variants, for bench/crawl_bench.py, have the page shapes where a crawler spends most per
page: `IndexSite` (1-3 MB index pages with thousands of links each) and `ApiDocsSite` (link-heavy
API reference pages).
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import random
import re
from dataclasses import dataclass

from site_server import Page  # bench/ is the script's folder, so it is on sys.path

FANOUT = 10
RELATED = 24
MISSING_META_EVERY = 50
SHARED_TITLE_EVERY = 37
NO_H1_EVERY = 73
IMAGE_NO_ALT_EVERY = 29
BROKEN_LINK_EVERY = 211  # about 0.5% of pages link to one missing page each
# Variants (below): IndexSite's mean entry in bytes, and how often an entry's anchor is missing;
# ApiDocsSite's items per module (its sidebar lists two modules).
INDEX_ENTRY_BYTES = 290
BROKEN_FRAGMENT_EVERY = 997
MODULE_ITEMS = 120

_WORDS = (
    "audit crawl page link index section module function return value request response header "
    "document anchor render parse token stream buffer cache table column record query result "
    "schema field option default limit budget memory process thread signal event handler route "
    "server client worker queue storage object binding durable workflow step chunk frontier "
    "depth sitemap robots canonical redirect status content title heading paragraph image"
).split()
_PATH = re.compile(r"/p/(\d+)\.html")
_IMAGE = re.compile(r"/img/\d+\.png")
# A 1x1 PNG: every page shows one of 40 images, which exist.
IMAGE = Page(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082"
    ),
    "image/png",
)


def _paragraph(seed: int) -> str:
    """One deterministic paragraph of 60-110 words."""
    digest = hashlib.blake2b(seed.to_bytes(8, "little"), digest_size=64).digest()
    count = 60 + digest[0] % 50
    words = [_WORDS[digest[(k % 63) + 1] % len(_WORDS)] for k in range(count)]
    for k in range(count):  # vary the order beyond the digest's 63 bytes
        if (k * 7 + seed) % 11 == 0:
            words[k] = words[k].capitalize()
    return " ".join(words).capitalize() + "."


_POOL = tuple(_paragraph(seed) for seed in range(256))


class _GeneratedPages:
    """`pages` pages at `/` (page 0) and `/p/<i>.html`, each built by `html(i)` on request."""

    __slots__ = ()
    pages: int

    def html(self, index: int) -> str:
        raise NotImplementedError

    def path_of(self, index: int) -> str:
        return "/" if index == 0 else f"/p/{index}.html"

    def index_of(self, path: str) -> int | None:
        if path in ("/", "/index.html"):
            return 0
        match = _PATH.fullmatch(path)
        if match is None:
            return None
        index = int(match.group(1))
        return index if 0 < index < self.pages else None

    def page(self, path: str) -> Page | None:
        """The page at `path`, or None (the server answers 404)."""
        index = self.index_of(path)
        return None if index is None else Page(self.html(index).encode())


@dataclass(frozen=True, slots=True)
class SyntheticSite(_GeneratedPages):
    pages: int

    def page(self, path: str) -> Page | None:
        """The page or image at `path`, or None (the server answers 404)."""
        return IMAGE if _IMAGE.fullmatch(path) else _GeneratedPages.page(self, path)

    # -- one page ------------------------------------------------------------------------------

    def html(self, index: int) -> str:
        # Every SHARED_TITLE_EVERY-th page repeats its predecessor's title (a duplicate title).
        shown = index - 1 if index % SHARED_TITLE_EVERY == 1 and index > 1 else index
        title = f"Page {shown}"
        head = [f"<title>{title}: {_POOL[shown % len(_POOL)][:40]}</title>"]
        if index % MISSING_META_EVERY != 7:
            head.append(f'<meta name="description" content="{_POOL[(index * 3) % 256][:150]}">')
        head.append(f'<link rel="canonical" href="{self.path_of(index)}">')
        body = [self._nav(), self._breadcrumb(index)]
        if index % NO_H1_EVERY != 5:
            body.append(f"<h1>{title}</h1>")
        body.extend(self._content(index))
        body.append(self._children(index))
        body.append(self._related(index))
        body.append(self._footer())
        return (
            '<!doctype html><html lang="en"><head><meta charset="utf-8">'
            + "".join(head)
            + "</head><body>"
            + "\n".join(body)
            + "</body></html>"
        )

    def _link(self, index: int, text: str) -> str:
        return f'<a href="{self.path_of(index)}">{text}</a>'

    def _nav(self) -> str:
        sections = range(1, min(FANOUT, self.pages - 1) + 1)
        items = [self._link(0, "Home"), *(self._link(i, f"Section {i}") for i in sections)]
        return "<nav><ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul></nav>"

    def _breadcrumb(self, index: int) -> str:
        trail: list[int] = []
        node = index
        while node > 0:
            node = (node - 1) // FANOUT
            trail.append(node)
        links = [self._link(i, f"Level {i}") for i in reversed(trail)]
        return '<nav aria-label="breadcrumb">' + " / ".join(links) + "</nav>"

    def _content(self, index: int) -> list[str]:
        parts: list[str] = []
        sections = 5 + index % 4
        for s in range(sections):
            parts.append(f"<h2>Part {s + 1} of page {index}</h2>")
            for p in range(5):
                parts.append(f"<p>{_POOL[(index * 31 + s * 7 + p * 13) % len(_POOL)]}</p>")
            if s == 0:
                alt = "" if index % IMAGE_NO_ALT_EVERY == 3 else ' alt="A diagram"'
                parts.append(f'<img src="/img/{index % 40}.png"{alt} width="320" height="200">')
        return parts

    def _children(self, index: int) -> str:
        first = index * FANOUT + 1
        children = range(first, min(first + FANOUT, self.pages))
        items = "".join(f"<li>{self._link(i, f'Child page {i}')}</li>" for i in children)
        return f"<h2>In this section</h2><ul>{items}</ul>" if items else ""

    def _related(self, index: int) -> str:
        digest = hashlib.shake_128(index.to_bytes(8, "little")).digest(4 * RELATED)
        targets = [
            int.from_bytes(digest[4 * k : 4 * k + 4], "little") % self.pages for k in range(RELATED)
        ]
        items = [self._link(t, f"Related topic {t}") for t in targets]
        if index % BROKEN_LINK_EVERY == 4:
            items.append(f'<a href="/missing/{index}.html">An old page</a>')
        return "<h2>Related</h2><ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"

    def _footer(self) -> str:
        return f"<footer>{self._link(0, 'Home')} · {self._link(1, 'About')}</footer>"


# -- variants: the page shapes where a crawler spends most per page ------------------------------


def _name(rng: random.Random, parts: int) -> str:
    return "_".join(rng.choice(_WORDS) for _ in range(parts))


@functools.cache
def _index_entries(index: int, min_kb: int, max_kb: int) -> int:
    kb = random.Random(index).randint(min_kb, max_kb)
    return kb * 1024 // INDEX_ENTRY_BYTES


@dataclass(frozen=True, slots=True)
class IndexSite(_GeneratedPages):
    """`pages` large index pages, like documentation's general and module indexes.

    Page i (at `/` for 0, else `/p/<i>.html`) is `min_kb`..`max_kb` KB of HTML (its size drawn
    from its number), made of entries `<dt id=..><a href="/p/<j>.html#<anchor>">name</a></dt>
    <dd>description</dd>` of about 290 bytes: a few thousand links each (about 3,500 a MB), to
    anchors of pages across the site, so most hrefs are distinct while a few hundred URLs are.
    Each page is the anchor target of its own entries, so most links' fragments exist; one entry
    in `BROKEN_FRAGMENT_EVERY` names an anchor that does not. Sizes are parameters so the site
    can stay within, or exceed, the audit's per-page parse cap.
    """

    pages: int
    min_kb: int = 1024
    max_kb: int = 3072

    def entries(self, index: int) -> int:
        """How many entries page `index` holds: its size / the mean entry's."""
        return _index_entries(index, self.min_kb, self.max_kb)

    def html(self, index: int) -> str:
        rng = random.Random(f"index-{index}")
        entries = self.entries(index)
        parts = [
            f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Index {index}'
            f'</title><meta name="description" content="{_POOL[index % 256][:120]}">'
            '<link rel="stylesheet" href="/static/style.css"></head><body>'
            f"<h1>Index of part {index}</h1><dl>"
        ]
        words = len(_WORDS)
        for k in range(entries):
            bits = rng.getrandbits(64)  # one draw per entry: the server's CPU is the crawlers'
            target = bits % self.pages
            anchor = (bits >> 16) % (self.entries(target) + (k % BROKEN_FRAGMENT_EVERY == 5))
            name = f"{_WORDS[(bits >> 24) % words]}_{_WORDS[(bits >> 32) % words]}"
            text = _POOL[(bits >> 40) & 255][: 150 + (bits >> 48) % 100]
            parts.append(
                f'<dt id="e{k}"><a href="{self.path_of(target)}#e{anchor}">{name}()</a></dt>'
                f"<dd>{text}</dd>\n"
            )
        parts.append("</dl></body></html>")
        return "".join(parts)


@functools.cache
def _module_starts(pages: int, min_items: int, max_items: int) -> tuple[int, ...]:
    """Where each module of ApiDocsSite begins: sizes drawn from [min_items, max_items] (all
    equal when the two are), and one start past the last module's nominal end, whose sidebar
    lists a next module that wraps round to the site's first pages."""
    rng = random.Random(f"modules-{pages}-{min_items}-{max_items}")
    starts = [0]
    while starts[-1] < pages or len(starts) < 3:
        starts.append(starts[-1] + rng.randint(min_items, max_items))
    starts.append(starts[-1] + rng.randint(min_items, max_items))
    return tuple(starts)


@dataclass(frozen=True, slots=True)
class ApiDocsSite(_GeneratedPages):
    """`pages` link-heavy pages, like generated API documentation (rustdoc, javadoc, Sphinx).

    Pages are items grouped in modules of `min_module`..`max_module` items (`MODULE_ITEMS` each
    by default; a size drawn per module otherwise); page i (at `/` for 0, else `/p/<i>.html`)
    has a sidebar listing every item of its module and of the next module, a heading linking
    its module, a signature and description per member, each linking to a few types (other
    pages, some with a `#method.name` fragment), and a footer. By default: 27-48 KB of HTML with
    340-490 links, most of them distinct URLs within the site. With modules of 40-900 items
    (bench/cpu_bench.py's `apidocs`, like the large crates and class libraries whose sidebars
    list every item of a module), 10,000 pages carry 500-1,640 links each (1,110 on average,
    36-101 KB, 70 KB on average).
    """

    pages: int
    min_module: int = MODULE_ITEMS
    max_module: int = MODULE_ITEMS

    def _item(self, index: int) -> str:
        return _name(random.Random(index), 2)

    def _module(self, index: int) -> tuple[int, int, int]:
        """Page `index`'s module number, its first item and the sidebar's item count (its
        module and the next; the last module's sidebar wraps round to the first)."""
        starts = _module_starts(self.pages, self.min_module, self.max_module)
        module = bisect.bisect_right(starts, index) - 1
        return module, starts[module], starts[module + 2] - starts[module]

    def html(self, index: int) -> str:
        rng = random.Random(f"api-{index}")
        module, first, sidebar = self._module(index)
        name = self._item(index)
        parts = [
            f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{name} in '
            f'module {module}</title><meta name="description" content="API reference of {name}.">'
            '<link rel="stylesheet" href="/static/rustdoc.css"><script src="/static/main.js">'
            "</script></head><body><nav class=sidebar><ul>"
        ]
        for k in range(sidebar):
            item = (first + k) % self.pages
            parts.append(f'<li><a href="{self.path_of(item)}">{self._item(item)}</a></li>')
        parts.append(f'</ul></nav><main><h1>Struct <a href="{self.path_of(first)}">mod{module}')
        parts.append(f"</a>::{name}</h1><p>{_POOL[index % 256]}</p>")
        for member in range(rng.randint(25, 60)):
            links = []
            for _ in range(rng.randint(3, 5)):
                target = rng.randrange(self.pages)
                fragment = f"#method.{_name(rng, 1)}" if rng.random() < 0.3 else ""
                links.append(
                    f'<a class="type" href="{self.path_of(target)}{fragment}">'
                    f"{self._item(target)}</a>"
                )
            parts.append(
                f'<section id="method.m{member}"><h3><code>fn {_name(rng, 2)}(&amp;self, '
                + ", ".join(links)
                + f")</code></h3><p>{_POOL[rng.randrange(256)][: rng.randint(100, 400)]}</p>"
                "</section>"
            )
        parts.append(f'</main><footer><a href="/">Crate index</a> {_POOL[module % 256][:80]}')
        parts.append("</footer></body></html>")
        return "".join(parts)
