"""Which crawled pages a browser renders (issue 30, docs/rendering.md, "Which pages are rendered").

Sans-IO: a page's raw facts and the audit's `render` option in, a reason or None out.

* A page whose raw HTML looks like an app shell is rendered in `auto` and `always`, and counted
  as "would need rendering" in `never` (and whenever no renderer is configured). The test
  refines the original's `javascript-rendering-suspected` heuristic (audit.rules_head,
  original system §6.1): an executable script and little text (fewer than `JS_SHELL_MAX_WORDS`
  words), and then either nothing else in the body (no heading, link or image: the original's
  test) or one of the marks frameworks leave on a shell, an element whose id is a framework's
  mount point (`APP_ROOT_IDS`) or a module script.
* In `auto`, a small deterministic sample of the other HTML pages is rendered too, so that pages
  whose script changes what matters (a title, a canonical, a `noindex`, links) are seen on a site
  that is not an app: a page is in the sample when its URL's hash falls in one of
  `SAMPLE_ONE_IN` buckets, and the scratchpad keeps at most `SAMPLE_MAX_PAGES` of them
  (durable.render_queue).
* In `always`, every HTML page the crawl parsed (the crawl's max_pages bounds them).
"""

from __future__ import annotations

import hashlib
from enum import StrEnum

from audit.catalogue import JS_SHELL_MAX_WORDS
from audit.rules_head import has_executable_script, is_javascript_shell
from parse.facts import PageFacts
from render.records import RenderMode
from urls.fragment import fragment_key

__all__ = [
    "APP_ROOT_IDS",
    "SAMPLE_MAX_PAGES",
    "SAMPLE_ONE_IN",
    "RenderReason",
    "in_sample",
    "looks_like_app_shell",
    "render_reason",
]

# Ids of the element a client-side framework mounts its app into, as each framework's own starter
# template writes it: Vue (`<div id="app">`, Vue CLI's public/index.html), React
# (`<div id="root">`, create-react-app's public/index.html), Next.js (`__next`), Nuxt (`__nuxt`),
# Gatsby (`___gatsby`) and Angular's `<app-root>` (an element, not an id; its module script is
# what the test sees).
APP_ROOT_IDS = ("app", "root", "__next", "__nuxt", "___gatsby")
_APP_ROOT_KEYS = frozenset(fragment_key(name) for name in APP_ROOT_IDS)

# auto's sample: one URL in this many by hash, and at most this many pages an audit.
SAMPLE_ONE_IN = 10
SAMPLE_MAX_PAGES = 5


class RenderReason(StrEnum):
    """Why a page is queued for rendering."""

    APP_SHELL = "app-shell"  # its raw HTML looks like an app shell
    SAMPLE = "sample"  # auto's sample of the other HTML pages
    ALWAYS = "always"  # the audit renders every HTML page


def _has_module_script(facts: PageFacts) -> bool:
    return any((script.type or "").strip().lower() == "module" for script in facts.scripts)


def _has_app_root(facts: PageFacts) -> bool:
    return not _APP_ROOT_KEYS.isdisjoint(facts.fragment_targets)


def looks_like_app_shell(facts: PageFacts) -> bool:
    """Little text and an executable script, and nothing else in the body or a framework's
    mark (a mount-point id, a module script)."""
    if is_javascript_shell(facts):
        return True
    return (
        has_executable_script(facts)
        and facts.word_count < JS_SHELL_MAX_WORDS
        and (_has_app_root(facts) or _has_module_script(facts))
    )


def in_sample(url: str) -> bool:
    """Whether `url` falls in auto's sample: the same answer for the same URL in every audit."""
    digest = hashlib.sha256(url.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") % SAMPLE_ONE_IN == 0


def render_reason(mode: RenderMode, url: str, facts: PageFacts | None) -> RenderReason | None:
    """Why the page at `url` is queued for rendering, or None. `facts` is None for a page the
    crawl did not parse (not HTML, an error, a redirect): nothing to render. An app shell is
    queued in every mode: `never` counts it as a page rendering would have shown."""
    if facts is None:
        return None
    if looks_like_app_shell(facts):
        return RenderReason.APP_SHELL
    if mode is RenderMode.ALWAYS:
        return RenderReason.ALWAYS
    if mode is RenderMode.AUTO and in_sample(url):
        return RenderReason.SAMPLE
    return None
