"""The agreement harness of issue 31 item 3: real axe-core and the static rules (src/a11y) on
the same documents, compared per rule and per element.

Each document is served to headless Chromium from a route (no network) with
`Content-Security-Policy: script-src 'none'`, so the page's own scripts do not run and the DOM
is what the parser built, as the static rules see it; axe-core is evaluated through the
DevTools protocol, which the policy does not govern. Its stylesheets from other URLs are
refused, its inline styles apply. axe-core runs with the WCAG 2.1 A and AA tags plus the
best-practice rules siteaudit implements, on the top document only. Each result node is located
by its element path (the index among the parent's element children, from `<html>` down), which
`a11y.tree.Document.path` computes on the html5lib tree of the same bytes (parsed with scripting
on, as Chromium parses `<noscript>`). A navigation the document starts (a meta refresh) is
answered 204 No Content, which keeps the document.

An element where axe-core is definite (a pass or a violation) agrees when the static rule gives
the same verdict. The other cases are disagreements: the static rule undecided, a different
verdict, or a static verdict where axe-core has none (it asks for a review: `review`, or does not
apply the rule there: `static-only`). `cause` names why each happens, checked against the
browser (whether Chromium hides the element, whether the static rule given the elements
Chromium hides reaches axe-core's verdict, whether axe-core finds a modal open); a disagreement
without a cause fails tests/browser/test_a11y_agreement.py.
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, Page, Route

from a11y.aria import aria
from a11y.page import Page as A11yPage
from a11y.rule_ids import RuleId
from a11y.rules import outcomes
from a11y.tree import Element
from tests.a11y.html_tree import parse
from tests.browser.axe import WCAG21_AA, axe_source

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "corpus" / "pages"
ORIGIN = "http://a11y.test"
# The best-practice rules among those implemented: not in the WCAG tags, enabled by id.
BEST_PRACTICE = tuple(r for r in RuleId if aria().rules[r]["level"] == "best-practice")

_RUN = """async ([tags, extra]) => {
  const rules = Object.fromEntries(extra.map((id) => [id, { enabled: true }]));
  const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, rules,
                                           iframes: false, elementRef: true });
  const path = (el) => {
    const steps = [];
    while (el.parentElement) {
      steps.unshift(Array.prototype.indexOf.call(el.parentElement.children, el));
      el = el.parentElement;
    }
    return steps;
  };
  const out = [];
  for (const [kind, list] of [['pass', result.passes], ['fail', result.violations],
                              ['review', result.incomplete]]) {
    for (const rule of list) {
      for (const node of rule.nodes) {
        const el = node.element;
        out.push([rule.id, kind, el ? path(el) : null, node.target.join(' ')]);
      }
    }
  }
  return out;
}"""

_PROBE = """(paths) => {
  axe.setup(document);
  try {
    return paths.map((steps) => {
      let el = document.documentElement;
      for (const i of steps) { el = el && el.children[i]; }
      if (!el) return 'missing';
      return axe.commons.dom.isVisibleToScreenReaders(el) ? 'shown' : 'hidden';
    });
  } finally {
    axe.teardown();
  }
}"""

# The tops of the subtrees Chromium hides for everyone (display, visibility): their paths.
_STYLED_HIDDEN = """() => {
  axe.setup(document);
  try {
    const hidden = (el) => axe.commons.dom.isHiddenForEveryone(axe.utils.getNodeFromTree(el));
    const out = [];
    const walk = (el, steps) => {
      Array.from(el.children).forEach((child, i) => {
        const here = steps.concat([i]);
        if (hidden(child)) out.push(here); else walk(child, here);
      });
    };
    walk(document.documentElement, []);
    return out;
  } finally {
    axe.teardown();
  }
}"""

_MODAL_OPEN = """() => {
  axe.setup(document);
  try { return axe.commons.dom.isModalOpen(); } finally { axe.teardown(); }
}"""

Path_ = tuple[int, ...]


@dataclass(frozen=True)
class Disagreement:
    document: str
    rule: str
    path: Path_
    kind: str  # undecided | verdict | static-only | review
    axe: str  # pass | fail | review | none
    static: str  # pass | fail | none
    target: str
    browser: str = ""  # static-only: whether Chromium shows the element to assistive tech
    styled: str = ""  # verdict, undecided: the static verdict once Chromium's hidden set is known
    modal: bool = False  # whether axe-core finds a modal open on the page


@dataclass
class Tally:
    """Per rule: elements axe-core decided, and how many the static rule matches."""

    decided: Counter[str] = field(default_factory=Counter)
    matched: Counter[str] = field(default_factory=Counter)
    disagreements: list[Disagreement] = field(default_factory=list)


def corpus_sample(count: int) -> list[Path]:
    """Every (128 // count)-th corpus page by name: a fixed sample across the set."""
    pages = sorted(CORPUS.glob("*.html.gz"))
    return pages[:: max(1, len(pages) // count)][:count]


def corpus_document(path: Path) -> tuple[str, str]:
    return path.name[:12], gzip.decompress(path.read_bytes()).decode("utf-8", "replace")


def _serve(page: Page, html: str) -> None:
    def route(route: Route) -> None:
        if route.request.url == f"{ORIGIN}/doc":
            route.fulfill(
                status=200,
                headers={
                    "content-type": "text/html; charset=utf-8",
                    "content-security-policy": "script-src 'none'",
                },
                body=html.encode("utf-8"),
            )
        elif route.request.is_navigation_request():
            # A meta refresh or link navigation: 204 No Content keeps the current document.
            route.fulfill(status=204)
        else:
            route.abort()

    page.unroute("**/*")
    page.route("**/*", route)
    page.goto(f"{ORIGIN}/doc", wait_until="load")


def axe_results(page: Page, html: str) -> list[tuple[str, str, Path_ | None, str]]:
    _serve(page, html)
    page.evaluate("() => {\n" + axe_source() + "\n}")
    raw = page.evaluate(_RUN, [list(WCAG21_AA), list(BEST_PRACTICE)])
    return [(r, k, tuple(p) if p is not None else None, t) for r, k, p, t in raw]


def static_results(
    html: str, styled_hidden: list[Path_] | None = None
) -> dict[tuple[str, Path_], bool]:
    """The static outcomes by (rule, element path); with `styled_hidden`, the elements at those
    paths count as hidden (what Chromium's cascade hides), which the markup cannot tell."""
    root = parse(html)
    hidden: list[Element] = []
    if styled_hidden:
        plain = A11yPage(root).document
        by_path = {plain.path(e): e for e in plain.order}
        hidden = [by_path[p] for p in styled_hidden if p in by_path]
    a11y_page = A11yPage(root, hidden)
    document = a11y_page.document
    return {(str(o.rule), document.path(o.element)): o.passed for o in outcomes(a11y_page)}


def _said(passed: bool | None) -> str:
    return "none" if passed is None else ("pass" if passed else "fail")


def compare(name: str, html: str, page: Page, tally: Tally) -> None:
    ours = static_results(html)
    theirs: dict[tuple[str, Path_], tuple[str, str]] = {}
    implemented = {str(r) for r in RuleId}
    for rule, kind, path, target in axe_results(page, html):
        if rule in implemented and path is not None:
            theirs[(rule, path)] = (kind, target)
    differ: list[tuple[str, Path_, str, str, str]] = []
    for (rule, path), (kind, target) in theirs.items():
        static = ours.get((rule, path))
        said = _said(static)
        if kind == "review":
            if static is not None:
                tally.disagreements.append(
                    Disagreement(name, rule, path, "review", kind, said, target)
                )
            continue
        tally.decided[rule] += 1
        if said == kind:
            tally.matched[rule] += 1
        else:
            differ.append((rule, path, kind, said, target))
    if differ:
        styled = static_results(html, [tuple(p) for p in page.evaluate(_STYLED_HIDDEN)])
        modal = bool(page.evaluate(_MODAL_OPEN))
        for rule, path, kind, said, target in differ:
            gap = "undecided" if said == "none" else "verdict"
            again = _said(styled.get((rule, path)))
            tally.disagreements.append(
                Disagreement(name, rule, path, gap, kind, said, target, styled=again, modal=modal)
            )
    only = [(key, passed) for key, passed in ours.items() if key not in theirs]
    shown = page.evaluate(_PROBE, [list(path) for (_, path), _ in only]) if only else []
    for ((rule, path), passed), browser in zip(only, shown, strict=True):
        said = "pass" if passed else "fail"
        tally.disagreements.append(
            Disagreement(name, rule, path, "static-only", "none", said, "", browser)
        )


def run(browser: Browser, documents: Iterator[tuple[str, str]]) -> Tally:
    """Both engines on every document, in one browser page."""
    tally = Tally()
    axe_source()  # skips, saying why, before the browser starts work without axe-core
    context = browser.new_context()
    try:
        page = context.new_page()
        for name, html in documents:
            compare(name, html, page, tally)
    finally:
        context.close()
    return tally


# Causes of a whole kind of disagreement, each checked on the disagreement, not assumed.
HIDDEN_BY_STYLE = (
    "a style sheet hides the element (display or visibility from the cascade; axe-core "
    "excludes it): the static rules see what the markup and the page's own <style> sheets "
    "certainly hide (a11y/hidden.py, a11y/stylesheet.py), not linked sheets"
)
HIDDEN_BY_STYLE_NEAR = (
    "a style sheet hides an element the verdict depends on (a label, the content that names "
    "the element, a child of a list, the previous heading): with the elements Chromium hides "
    "added to the markup's, the static rule gives axe-core's verdict"
)
MODAL_OPEN = (
    "axe-core passes page rules while it finds a modal open (passForModal): a dialog drawn on "
    "screen (aria-hidden does not undraw it; whether a style sheet hides it needs the cascade) "
    "or a positioned element covering 75% of the viewport (layout)"
)
REVIEW_ON_FAIL = (
    "axe-core asks for a review of every element this rule fails (duplicate-id-aria is "
    "reviewOnFail; server-side-image-map's check never decides); the static rule fails the "
    "certain fact"
)
_REVIEW_ON_FAIL_RULES = frozenset({"duplicate-id-aria", "server-side-image-map"})
# Single disagreements and their causes, by (document, rule, element path). None so far: a new
# one fails the test until its cause is found and written here or fixed.
KNOWN: dict[tuple[str, str, Path_], str] = {}


def cause(disagreement: Disagreement) -> str | None:
    """Why the engines disagree on this element, or None when nobody knows yet."""
    key = (disagreement.document, disagreement.rule, disagreement.path)
    if key in KNOWN:
        return KNOWN[key]
    if disagreement.kind == "static-only" and disagreement.browser == "hidden":
        return HIDDEN_BY_STYLE
    if disagreement.kind in ("verdict", "undecided") and disagreement.styled == disagreement.axe:
        return HIDDEN_BY_STYLE_NEAR
    page_rule = disagreement.rule in ("page-has-heading-one", "landmark-one-main")
    if page_rule and disagreement.axe == "pass" and disagreement.modal:
        return MODAL_OPEN
    if disagreement.kind == "review" and disagreement.rule in _REVIEW_ON_FAIL_RULES:
        return REVIEW_ON_FAIL
    return None


def table(tally: Tally) -> str:
    """The per-rule table for bench/README.md."""
    lines = [
        "| rule | nodes axe-core decided | static rule matches |",
        "|---|---:|---:|",
    ]
    for rule in RuleId:
        lines.append(f"| `{rule}` | {tally.decided[rule]} | {tally.matched[rule]} |")
    return "\n".join(lines)
