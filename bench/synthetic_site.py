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
"""

from __future__ import annotations

import hashlib
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


@dataclass(frozen=True, slots=True)
class SyntheticSite:
    pages: int

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
        if _IMAGE.fullmatch(path):
            return IMAGE
        index = self.index_of(path)
        return None if index is None else Page(self.html(index).encode())

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
