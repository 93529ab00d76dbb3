"""badseo's accessibility fixtures (issue 31): one served page per rule fixture of
tests/a11y/cases.py, in the site's "accessibility" category (site.py splices them into FIXTURES).

Theory of operation
-------------------
* A rule fixture is a small document whose judged elements carry `data-expect="fail"` or
  `data-expect="pass"` (tests/a11y/cases.py). Its page here is a clean badseo page (pages.PageSpec:
  a unique title and description, an H1, a viewport, the chrome, the filler text) with the
  fixture's body after the first paragraph, its head elements in the head, and its `<html>` and
  `<body>` attributes on those elements. So the page's accessibility findings are the fixture's,
  and its SEO is clean unless the fixture's defect is an SEO defect too (a missing title, lang
  or H1, an image without alt, a meta refresh...), which `expected` then lists as well.
* What the clean page would change is left out where the rule reads it: the H1 of the heading
  rules' pages (the fixture's own headings are the point), the `<main>` of landmark-one-main's,
  the viewport of meta-viewport's. The fixtures' URLs name files that do not exist (`a.png`,
  `/b`); served, they point at the site's pixel and its home page, so no page carries a broken
  link or resource it was not built to show, and images get dimensions.
* Every rule has a page where it fails and a page where it passes (an element it judges and
  accepts), with two exceptions the rules themselves make. The two rules whose failures axe-core
  only asks a review of (`PASS_ONLY`: form-field-multiple-labels, th-has-data-cells) never fail
  statically, so they have passes only and no page expects their types. server-side-image-map
  judges only the `img[ismap]` it fails (`FAIL_ONLY`), so its clean page is one it does not
  apply to. test_a11y_pages.py holds all of this to the rule engine's own verdicts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from a11y.rule_ids import RuleId
from audit.catalogue import IssueType
from audit.rules_a11y import ISSUE_OF_RULE
from tests.a11y.cases import CASES, Case, F, P, doc
from tests.badseo.pages import SHARE_IMAGE, Html, PageSpec
from tests.support.site_server import Reply, SiteRequest

__all__ = [
    "A11Y_PAGES",
    "FAIL_ONLY",
    "FIXTURE_MARK",
    "PASS_ONLY",
    "A11yPage",
    "CasePage",
    "failing_marks",
    "passing_marks",
]

T = IssueType
PASS_ONLY = frozenset({RuleId.FORM_FIELD_MULTIPLE_LABELS, RuleId.TH_HAS_DATA_CELLS})
# The rule fails every server-side map it sees (axe-core's selector is `img[ismap]`): it judges
# nothing else, so no element ever passes it. Its clean page is one it does not apply to, a
# client-side image map, which is what it asks for.
FAIL_ONLY = frozenset({RuleId.SERVER_SIDE_IMAGE_MAP})
BADSEO_CASES = (
    Case(
        RuleId.SERVER_SIDE_IMAGE_MAP,
        "client-side-map",
        doc(
            '<img src="m.png" alt="Map" usemap="#m">'
            '<map name="m"><area href="/north" alt="North" shape="rect" coords="0,0,9,9"></map>'
        ),
    ),
)

# The issue types a page carries besides its own rule's (which its failing marks give), each an
# inherent companion of the fixture's defect.
_ALSO: Mapping[str, tuple[IssueType, ...]] = MappingProxyType(
    {
        # A hidden body hides the page's H1 and main landmark from assistive technology too.
        "aria-hidden-body-hidden": (T.A11Y_PAGE_HAS_HEADING_ONE, T.A11Y_LANDMARK_ONE_MAIN),
        # The SEO checks of the same defect (audit.verdict.SHARED_FIXES counts each once).
        "document-title-missing": (T.MISSING_TITLE,),
        "document-title-blank": (T.MISSING_TITLE,),
        "html-has-lang-missing": (T.MISSING_HTML_LANG,),
        "html-has-lang-xml-lang-only": (T.MISSING_HTML_LANG,),
        "heading-order-both": (T.HEADING_ORDER_SKIP,),
        "page-has-heading-one-missing": (T.MISSING_H1,),
        "image-alt-missing": (T.IMAGES_MISSING_ALT,),
        # Images named by aria-label, title or aria-labelledby, or hidden, still lack the `alt`
        # the SEO check reads.
        "image-alt-other-names": (T.IMAGES_MISSING_ALT,),
        "image-alt-hidden": (T.IMAGES_MISSING_ALT,),
        # The SEO check reports every refresh; the rule fails only the delayed one.
        "meta-refresh-delayed": (T.META_REFRESH,),
        "meta-refresh-immediate": (T.META_REFRESH,),
        # A form without an action submits to its page, which is plain http on this site.
        "input-image-alt-both": (T.INSECURE_FORM_ACTION,),
        "input-button-name-both": (T.INSECURE_FORM_ACTION,),
        "label-both": (T.INSECURE_FORM_ACTION,),
    }
)

# Rules whose verdict reads what the clean page adds: the page leaves that out.
_OWN_HEADINGS = frozenset({RuleId.EMPTY_HEADING, RuleId.HEADING_ORDER, RuleId.PAGE_HAS_HEADING_ONE})
_NO_MAIN = frozenset({RuleId.LANDMARK_ONE_MAIN})

FIXTURE_MARK = "<!--fixture-->"
_DOCUMENT = re.compile(
    r"<!DOCTYPE html><html(?P<html> [^>]*)?><head>(?P<head>.*?)</head>"
    r"<body(?P<body> [^>]*)?>(?P<content>.*)</body></html>",
    re.DOTALL,
)
_TITLE = re.compile(r"<title>(?P<text>.*?)</title>", re.DOTALL)
# A fixture's file names (src, object data) and its site paths (href, a refresh's url=), served:
# the site's pixel, with dimensions, and its home page.
_FILE = re.compile(r'\b(src|data)="(?!/|about:)[^"]*"')
_SITE_PATH = re.compile(r'(href="|url=)/[^"#]+')


@dataclass(frozen=True, slots=True)
class CasePage(Html):
    """A clean badseo page (`spec`, whose body holds `FIXTURE_MARK`) with a rule fixture's
    `markup` at the mark; `edits` (old, new) put the fixture's `<html>` and `<body>` attributes
    and its landmarks in place of the clean page's, before the fixture's markup goes in."""

    markup: str = ""
    edits: tuple[tuple[str, str], ...] = ()

    def __call__(self, request: SiteRequest) -> Reply:
        reply = Html.__call__(self, request)
        page = reply.body.decode()
        for old, new in self.edits:
            page = page.replace(old, new)
        return replace(reply, body=page.replace(FIXTURE_MARK, self.markup).encode())


@dataclass(frozen=True, slots=True)
class A11yPage:
    case: Case
    expected: tuple[IssueType, ...]
    handler: CasePage

    @property
    def path(self) -> str:
        return f"/a11y/{self.case.id}"

    @property
    def summary(self) -> str:
        return summary(self.case)


def failing_marks(case: Case) -> int:
    return case.html.count(F)


def passing_marks(case: Case) -> int:
    return case.html.count(P)


def summary(case: Case) -> str:
    fails, passes = failing_marks(case), passing_marks(case)
    if not fails + passes:
        return f"Accessibility rule {case.rule}, fixture {case.name}: the rule applies to nothing."
    return (
        f"Accessibility rule {case.rule}, fixture {case.name}: {fails} element(s) fail the rule "
        f"and {passes} pass it."
    )


def served(markup: str) -> str:
    """A fixture's markup with its made-up files and paths pointing at what the site serves."""
    markup = _FILE.sub(rf'\1="{SHARE_IMAGE}" width="1" height="1"', markup)
    return _SITE_PATH.sub(r"\1/", markup)


def _title(head: str) -> str | None:
    """The page's title: the clean default, blank or none as the fixture's."""
    found = _TITLE.search(head)
    if found is None:
        return None
    return found["text"] if not found["text"].strip() else ""


def _handler(case: Case) -> CasePage:
    parts = _DOCUMENT.fullmatch(case.html)
    assert parts is not None, case.id  # cases.doc writes every fixture in this shape
    head = served(parts["head"])
    path = f"/a11y/{case.id}"
    spec = PageSpec(
        path,
        text=summary(case),
        title=_title(head),
        h1=None if case.rule in _OWN_HEADINGS else "",
        head=_TITLE.sub("", head),
        body=FIXTURE_MARK,
        viewport='name="viewport"' not in head,
    )
    edits = [('<html lang="en">', f"<html{parts['html'] or ''}>")]
    if spec.title_text is not None and not spec.title_text.strip():
        # A blank title is the rule's defect; the page still shares itself with a title.
        blank_og = f'property="og:title" content="{spec.title_text}"'
        edits.append((blank_og, f'property="og:title" content="badseo fixture {path}"'))
    if parts["body"]:
        edits.append(("<body>", f"<body{parts['body']}>"))
    if case.rule in _NO_MAIN:
        edits += [("<main>", "<div>"), ("</main>", "</div>")]
    return CasePage(spec, markup=served(parts["content"]), edits=tuple(edits))


def _page(case: Case) -> A11yPage:
    own = (ISSUE_OF_RULE[case.rule],) if failing_marks(case) else ()
    return A11yPage(case, (*own, *_ALSO.get(case.id, ())), _handler(case))


A11Y_PAGES: tuple[A11yPage, ...] = tuple(_page(case) for case in (*CASES, *BADSEO_CASES))
