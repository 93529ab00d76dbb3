"""What a page's own style sheets hide: the `display: none` and `visibility: hidden|collapse` of
its `<style>` elements, cascaded as a browser does (CSS Cascading Level 4: importance, the
`style` attribute, specificity, order) for a desktop screen of 1280x720 CSS pixels, the
viewport of the browser tier and of the agreement harness (tests/browser/a11y_agreement.py).

a11y.hidden decides what the markup hides; this adds what the page's `<style>` elements hide,
so a rule does not judge a menu a style sheet folds away, or a label nobody sees, as shown.
Style sheets the page links (`<link rel=stylesheet>`) are not fetched: what they hide stays
unseen, as before, and what they show cannot undo what this finds (docs/accessibility.md).

Certain by construction, never a guess: an element is hidden only when a hiding declaration
wins the cascade against every declaration that might match it. A declaration this module
cannot decide (a selector a11y.selectors does not support, a media query it cannot evaluate,
`@supports`, `@layer`, `@container`) never hides anything, and when it might show an element
(by what its selector's rightmost compound requires) it keeps that element undecided, that is
shown, as the markup alone would leave it. A `visibility: hidden` element is kept shown too when
an element under it might be made visible again (`visibility` is inherited and can be undone).

Cost: pages without `none`, `hidden` or `collapse` in their `<style>` text stop at one search;
a sheet is scanned once per process for all pages that repeat it (a site's pages usually do),
and only the rules declaring `display` or `visibility` are kept.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache

from a11y import selectors
from a11y.hidden import STYLE_DECLARATION
from a11y.tree import Document, Element, StyleSheet, text_content

VIEWPORT = (1280, 720)  # CSS pixels: width, height
_EM = 16  # the initial font size, for `em` in media queries

_COMMENT = re.compile(r"/\*.*?(?:\*/|$)", re.S)
_MAYBE = re.compile(r"none|hidden|collapse", re.I)
# A `display`, `visibility` or `all` declaration: one pattern for rules and style attributes.
_DECLARATION = STYLE_DECLARATION


Rank = tuple[bool, selectors.Specificity, int]  # importance, specificity, order


class Property(StrEnum):
    DISPLAY = "display"
    VISIBILITY = "visibility"


@dataclass(frozen=True, slots=True)
class Declaration:
    """One `display` or `visibility` declaration of a rule, with what ranks it in the cascade.
    `certain` is False when its media or at-rule context cannot be decided. Its selector is
    parsed when first asked (most rules of a large sheet match nothing on the page)."""

    prop: Property
    hides: bool
    important: bool
    order: int
    selector_text: str
    certain: bool
    key: tuple[str, str]  # what its subject requires (`_key`): where the cascade files it

    @property
    def selector(self) -> selectors.Selector | None:
        """None when a11y.selectors cannot decide it."""
        return _parsed(self.selector_text)

    @property
    def rank(self) -> Rank:
        specificity = self.selector.specificity if self.selector else (0, 0, 0)
        return (self.important, specificity, self.order)


def hidden_by_style_sheets(
    document: Document, style_sheets: Sequence[StyleSheet] | None = None
) -> list[Element]:
    """The elements the page's own style sheets certainly hide (each marks its subtree).
    `style_sheets`: the page's `<style>` texts as the streamed tree collects them
    (parse.tree_builder.ParsedTree.style_sheets, whole where the tree keeps only their start);
    None reads them from the tree's `<style>` elements (a tree that keeps their text whole)."""
    if style_sheets is None:
        style_sheets = [_from_element(style) for style in document.by_tag("style")]
    if not all(sheet.complete for sheet in style_sheets):
        return []  # what a cut sheet's lost end would show is unknown
    sheets = [sheet.text for sheet in style_sheets if _for_screen(sheet)]
    if not any(_MAYBE.search(sheet) for sheet in sheets):
        return []
    declarations: list[Declaration] = []
    for sheet in sheets:
        offset = len(declarations)
        declarations += [_renumbered(d, offset) for d in _sheet(sheet)]
    if not any(d.hides and d.certain for d in declarations):
        return []
    try:
        return _Cascade(document, declarations).hidden()
    except _TooCostly:
        return []  # decided nothing: what the markup hides stands alone


def _renumbered(declaration: Declaration, offset: int) -> Declaration:
    return replace(declaration, order=declaration.order + offset) if offset else declaration


def _from_element(style: Element) -> StyleSheet:
    return StyleSheet(text_content(style), style.get("media"), style.get("type"))


def _for_screen(sheet: StyleSheet) -> bool:
    """A CSS sheet for a screen (one undecided, or for another medium, hides nothing here;
    neither can it show anything)."""
    if (sheet.type or "text/css").strip().lower() not in ("text/css", ""):
        return False
    return sheet.media is None or media_matches(sheet.media) is True


@lru_cache(maxsize=256)
def _sheet(text: str) -> tuple[Declaration, ...]:
    """A style sheet's `display` and `visibility` declarations, in order (cached: the same sheet
    on every page of a site is scanned once)."""
    return tuple(_scan(_COMMENT.sub(" ", text)))


def _scan(css: str) -> Iterator[Declaration]:
    """The sheet's `display`, `visibility` and `all` declarations, with their rules' selectors
    and contexts. Only a rule that holds one of those properties (found first, in one search of
    the whole sheet) is read further. `_TOKEN` visits the braces: a run of blocks with no block
    or string inside them (most rules of a sheet) is one match, and so is a block holding only
    such a run (an `@media` block), each passed over whole unless a wanted property lies in it;
    any other brace or string is one match, and the stack of open blocks follows them.
    (Written as one loop: a large sheet has tens of thousands of braces.)"""
    wanted = _wanted(css)
    if not wanted:
        return
    wanted.append(len(css) + 1)  # a sentinel: every block closes before it
    order = 0
    # Per open block: [kind, applies, the index of its `{`, where its prelude starts, nested].
    # kind: "at" holds rules, "rule" declarations, "inner" is a block nested in a rule. applies:
    # _LATER until a rule holding a wanted property asks (`_applies`): most at-rules of a large
    # sheet (`@media` blocks of a few rules each) hold none, and their preludes are never read.
    stack: list[list] = []  # type: ignore[type-arg]
    last = 0  # where the text before the next brace starts
    for found in _TOKEN.finditer(css):
        token = found.lastgroup
        if token == "flat":
            start, end = found.span()
            for declaration in _flat(stack, css, wanted, start, end, last, order):
                order = declaration.order + 1
                yield declaration
            last = end
        elif token == "group":
            start, end = found.span()
            top = stack[-1] if stack else None
            if top is not None and top[0] != "at":
                top[4] = top[0] == "rule" or top[4]  # blocks nested in a rule
            elif wanted[bisect_right(wanted, start)] < end:  # else it yields nothing
                # its `{`, its run of flat blocks, its `}`, as those tokens would be met
                opened = css.index("{", start)
                run_end = css.rfind("}", opened, end - 1) + 1
                _open(stack, css, last, opened)
                for declaration in _flat(
                    stack, css, wanted, opened + 1, run_end, opened + 1, order
                ):
                    order = declaration.order + 1
                    yield declaration
                for declaration in _close(stack, css, wanted, end - 1, order):
                    order = declaration.order + 1
                    yield declaration
            last = end
        elif token == "open":
            position = found.end() - 1
            _open(stack, css, last, position)
            last = position + 1
        elif token == "close":
            position = found.end() - 1
            for declaration in _close(stack, css, wanted, position, order):
                order = declaration.order + 1
                yield declaration
            last = position + 1
    for index in range(len(stack) - 1, -1, -1):  # open blocks end with the sheet
        kind, _, opened, start, nested = stack[index]
        applies = _applies(stack, index, css) if kind == "rule" else False
        if applies is not False:
            for declaration in _read(css, opened, start, len(css), applies, nested, order):
                order = declaration.order + 1
                yield declaration


def _flat(
    stack: list[list],  # type: ignore[type-arg]
    css: str,
    wanted: list[int],
    start: int,
    end: int,
    last: int,
    order: int,
) -> Iterator[Declaration]:
    """The declarations of a run of flat blocks css[start:end] (`_TOKEN`'s `flat`) met with
    `stack` open, the first block's prelude beginning at `last`."""
    outer = stack[-1] if stack else None
    if outer is not None and outer[0] != "at":
        outer[4] = outer[0] == "rule" or outer[4]  # blocks nested in a rule
        return
    if wanted[bisect_right(wanted, start)] >= end:
        return
    applies = _applies(stack, len(stack) - 1, css) if stack else True
    if applies is False:
        return
    for opened, begins, closed in _holding(css, wanted, start, end, last):
        for declaration in _read(css, opened, begins, closed, applies, False, order):
            order = declaration.order + 1
            yield declaration


def _holding(
    css: str, wanted: list[int], start: int, end: int, last: int
) -> Iterator[tuple[int, int, int]]:
    """The blocks of the run of flat blocks css[start:end] (`_TOKEN`'s `flat`) that hold a
    wanted property and are rules, not at-rules: (where the block opens, where its prelude
    begins, where it closes). Found from the wanted positions, not block by block: a run can
    be hundreds of rules, few of which declare `display` or `visibility`. `last`: where the
    first block's prelude begins."""
    at = bisect_right(wanted, start)
    closed = start  # where the last block found closes
    while wanted[at] < end:
        position = wanted[at]
        at += 1
        if position < closed:
            continue  # in the block just found
        opened = css.rfind("{", start, position)
        if opened < 0 or css.rfind("}", opened, position) >= 0:
            continue  # in a prelude, not a block
        closed = css.find("}", position, end)
        previous = css.rfind("}", start, opened)
        begins = previous + 1 if previous >= 0 else last
        if not _is_at_rule(css, begins, opened):
            yield opened, begins, closed


def _open(stack: list[list], css: str, last: int, position: int) -> None:  # type: ignore[type-arg]
    """The block opened by the `{` at `position` pushed on `stack` (`_scan`'s)."""
    outer = stack[-1] if stack else None
    if outer is not None and outer[0] != "at":
        outer[4] = outer[0] == "rule" or outer[4]
        stack.append(["inner", None, position, last, False])
        return
    kind = "at" if _is_at_rule(css, last, position) else "rule"
    stack.append(
        [kind, True if outer is None and kind == "rule" else _LATER, position, last, False]
    )


# An at-rule's or its rules' `applies` not yet worked out (`_applies`).
_LATER = object()


def _applies(stack: list[list], index: int, css: str) -> bool | None:  # type: ignore[type-arg]
    """Whether the rules of the block stack[index] apply (`_at_rule`; None: undecided), worked
    out on first need from the blocks around it, and kept."""
    entry = stack[index]
    applies = entry[1]
    if applies is _LATER:
        outer = _applies(stack, index - 1, css) if index else True
        if entry[0] == "at":
            applies = _both(outer, _at_rule(_prelude(css, entry[3], entry[2])))
        else:
            applies = outer
        entry[1] = applies
    return applies  # type: ignore[no-any-return]


def _close(
    stack: list[list],  # type: ignore[type-arg]
    css: str,
    wanted: list[int],
    position: int,
    order: int,
) -> Iterator[Declaration]:
    """The declarations of the block closed by the `}` at `position`, popped from `stack`."""
    if not stack:
        return
    kind, applies, opened, start, nested = stack[-1]
    holds = wanted[bisect_right(wanted, opened)] < position  # a wanted property
    if kind == "rule" and holds:
        applies = _applies(stack, len(stack) - 1, css)
    stack.pop()
    if kind == "rule" and holds and applies is not False:
        yield from _read(css, opened, start, position, applies, nested, order)


def _is_at_rule(css: str, start: int, end: int) -> bool:
    """Whether the prelude in css[start:end] is an at-rule's (a block of one holds no rule)."""
    return css.find("@", start, end) >= 0 and _prelude(css, start, end).startswith("@")


def _wanted(css: str) -> list[int]:
    """Where each `display`, `visibility` or `all` property name starts, in order. An ASCII
    sheet is searched lowered, one literal at a time: a search led by a literal skips to its
    candidates, where the case-blind pattern tries every character (four times the cost on the
    corpus). Other text is searched so too when lowering keeps its length (each character one
    character, so the positions hold) and it holds none of the three characters a case-blind
    match takes for an ASCII letter of these names (`İ`, `ı`, `ſ`); else by the pattern."""
    lowered = css.lower()
    if not css.isascii() and (len(lowered) != len(css) or _FOLDS_TO_ASCII.search(css)):
        return [found.start() for found in _WANTED.finditer(css)]
    found = [match.start() for name in _WANTED_NAMES for match in name.finditer(lowered)]
    found.sort()
    return found


_WANTED = re.compile(r"(?<![\w-])(?:display|visibility|all)\s*:", re.I)
_FOLDS_TO_ASCII = re.compile("[\u0130\u0131\u017f]")
_WANTED_NAMES = [
    re.compile(rf"{name}(?<![\w-]{name})\s*:") for name in ("display", "visibility", "all")
]
# A run of blocks with neither a block nor a string inside (`flat`); a block holding only such
# a run (`group`: an `@media` block, most often); else the text up to the next brace or string,
# and that brace or string; else the sheet's end. Each part of a match can be read one way
# only (possessive), so a failed try costs no more than its text.
_PLAIN = "[^{}\"']"
_TOKEN = re.compile(
    rf"""(?P<flat>(?:{_PLAIN}*+\{{{_PLAIN}*+\}})++)
    |(?P<group>{_PLAIN}*+\{{(?:{_PLAIN}*+\{{{_PLAIN}*+\}})++{_PLAIN}*+\}})
    |{_PLAIN}*+(?:(?P<open>\{{)|(?P<close>\}})|"(?:[^"\\\n]|\\.)*+"?|'(?:[^'\\\n]|\\.)*+'?)
    |{_PLAIN}++\Z""",
    re.S | re.X,
)


def _read(
    css: str, opened: int, start: int, closed: int, applies: bool | None, nested: bool, order: int
) -> Iterator[Declaration]:
    """A closed rule's declarations of interest."""
    prelude = _prelude(css, start, opened)
    if nested:
        # CSS nesting is not decided: its declarations might show anything, so they count,
        # undecided, for every element (a selector a11y.selectors does not decide).
        prelude, applies = _ANY, None
    body = css[opened + 1 : closed].replace("{", ";").replace("}", ";")
    yield from _rule(prelude, body, order, applies)


def _prelude(css: str, start: int, end: int) -> str:
    """The text before a `{`, past the at-statements before it (`@import ...;`)."""
    text = css[start:end]
    if "@" in text and ";" in text:
        text = _AT_STATEMENTS.sub("", text)
    return text.strip()


_AT_STATEMENTS = re.compile(r"^(?:\s*@[\w-]+(?:[^;{}\"']|\"[^\"]*\"|'[^']*')*;)+")


def _both(outer: bool | None, inner: bool | None) -> bool | None:
    if outer is False or inner is False:
        return False
    return None if outer is None or inner is None else True


# A selector a11y.selectors leaves undecided and that requires nothing of its subject.
_ANY = ":has(*)"


def _at_rule(prelude: str) -> bool | None:
    name = _AT_NAME.match(prelude)
    keyword = name.group(1).lower() if name else ""
    if keyword == "media":
        return media_matches(prelude[name.end() :] if name else "")
    return False if keyword in _NEVER_APPLIES else None


_AT_NAME = re.compile(r"@([\w-]+)")

# At-rules whose blocks hold no rules that style this page's elements.
_NEVER_APPLIES = frozenset(
    "font-face keyframes -webkit-keyframes -moz-keyframes page counter-style "
    "font-feature-values property view-transition".split()
)


def _rule(prelude: str, body: str, order: int, applies: bool | None) -> Iterator[Declaration]:
    if applies is False:
        return
    found = [(p.lower(), v.strip().lower(), bool(i)) for p, v, i in _DECLARATION.findall(body)]
    if not found:
        return
    try:
        texts = selectors.split_list(prelude)
    except selectors.Unsupported:
        return  # brackets or a string left open: a browser drops the rule
    for text in texts:
        if not text or not selectors.selects_elements(text):
            continue
        key = _key(text)
        for name, value, important in found:  # in order: the later of two equals wins
            for prop, hides in _effects(name, value):
                yield Declaration(prop, hides, important, order, text, applies is True, key)
                order += 1


@lru_cache(maxsize=8192)
def _parsed(text: str) -> selectors.Selector | None:
    return selectors.parse(text)


def _effects(name: str, value: str) -> Iterable[tuple[Property, bool]]:
    """What a declaration does to the two properties: (property, hides). `all` resets both to
    their initial values (shown); a CSS-wide keyword is taken as showing (it may)."""
    if name == "all":
        return ((Property.DISPLAY, False), (Property.VISIBILITY, False))
    if name == "display":
        return ((Property.DISPLAY, value == "none"),)
    return ((Property.VISIBILITY, value in ("hidden", "collapse")),)


@lru_cache(maxsize=1024)
def media_matches(query_list: str) -> bool | None:
    """A media query list on a 1280x720 screen (Media Queries Level 4): True, False, or None
    when it asks what this module does not know. An empty list matches."""
    queries = [q.strip().lower() for q in query_list.split(",")]
    results = [_query(q) for q in queries if q] if any(queries) else [True]
    if any(r is True for r in results):
        return True
    return None if any(r is None for r in results) else False


_MEDIA_TYPE = re.compile(r"^(?:(only|not)\s+)?([a-z-]+)(?:\s+and\s+(.*))?$")


def _query(query: str) -> bool | None:
    negate = False
    features = query
    if not query.startswith("("):
        found = _MEDIA_TYPE.match(query)
        if found is None:
            return None
        negate = found.group(1) == "not"
        kind = found.group(2)
        if kind not in ("all", "screen"):
            return negate if kind in _MEDIA_TYPES else None
        features = found.group(3) or ""
    result: bool | None = True
    for feature in re.split(r"\s+and\s+", features) if features else ():
        one = _feature(feature.strip())
        if one is False:
            result = False
            break
        if one is None:
            result = None
    if result is None:
        return None
    return result != negate


_MEDIA_TYPES = frozenset({"print", "speech", "tty", "tv", "projection", "handheld", "braille"})
_FEATURE = re.compile(r"^\(\s*([a-z-]+)\s*(?::\s*([^)]*?))?\s*\)$")
_LENGTH = re.compile(r"^(-?\d*\.?\d+)(px|em|rem)?$")


def _feature(text: str) -> bool | None:
    found = _FEATURE.match(text)
    if found is None:
        return None
    name, value = found.group(1), (found.group(2) or "").strip()
    for prefix, compare in (("min-", 1), ("max-", -1), ("", 0)):
        if name in (prefix + "width", prefix + "height"):
            size = VIEWPORT[0] if name.endswith("width") else VIEWPORT[1]
            length = _length(value)
            if length is None:
                return None
            return (
                size >= length if compare > 0 else size <= length if compare < 0 else size == length
            )
    known = _KNOWN_FEATURES.get(name)
    if known is None:
        return None
    return value in known if value else bool(known)


# Media features of a desktop screen at load: landscape, a fine pointer that hovers, colour,
# no preference for reduced motion or a dark scheme.
_KNOWN_FEATURES: dict[str, frozenset[str]] = {
    "orientation": frozenset({"landscape"}),
    "hover": frozenset({"hover"}),
    "any-hover": frozenset({"hover"}),
    "pointer": frozenset({"fine"}),
    "any-pointer": frozenset({"fine"}),
    "prefers-reduced-motion": frozenset({"no-preference"}),
    "prefers-color-scheme": frozenset({"light"}),
    "color": frozenset({"8"}),
}


def _length(value: str) -> float | None:
    found = _LENGTH.match(value)
    if found is None:
        return None
    number = float(found.group(1))
    unit = found.group(2)
    if unit is None and number != 0:
        return None
    return number * _EM if unit in ("em", "rem") else number


# Steps up or across the tree that matching may take on one page. Matching `.a .b .c` on a tree
# as deep as parse.tree_construction.MAX_DEPTH could cost a power of its depth; the costliest of
# the 128 corpus pages takes about 40,000. Past the bound nothing is decided (`_TooCostly`).
MAX_STEPS = 1_000_000


class _TooCostly(Exception):
    """A page whose sheets would cost more than MAX_STEPS to match."""


class _Budgeted:
    """The document as selectors walk it (a11y.selectors.Tree), counting each step."""

    def __init__(self, document: Document) -> None:
        self.root = document.root
        self._parents = document.parents
        self.steps = 0

    def parent(self, element: Element) -> Element | None:
        # `step` written out: matching asks for a parent at most of its steps
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _TooCostly
        return self._parents.get(id(element))

    def step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps > MAX_STEPS:
            raise _TooCostly


class _Cascade:
    """The declarations of one page, indexed by what their subject compound requires, and the
    elements they certainly hide. Matching walks a `_Budgeted` tree."""

    def __init__(self, document: Document, declarations: list[Declaration]) -> None:
        self.order = document.order
        self.document = _Budgeted(document)
        self.by_key: dict[tuple[str, str], list[Declaration]] = {}
        for declaration in declarations:
            if declaration.certain or not declaration.hides:  # an uncertain hider never hides
                self.by_key.setdefault(declaration.key, []).append(declaration)
        self.elements = _ElementIndex(document)

    def hidden(self) -> list[Element]:
        found: set[int] = set()
        asked: set[int] = set()  # elements whose cascade is settled, hidden or not
        document = self.document
        hiding = [
            (key, hiders_of)
            for key, declarations in self.by_key.items()
            if (hiders_of := [d for d in declarations if d.hides and d.certain])
        ]
        self.elements.classes = {value for (kind, value), _ in hiding if kind == "class"}
        for (kind, value), declarations in hiding:
            elements = self.elements.get(kind, value)
            if not elements:
                continue
            parsed = [d.selector for d in declarations]
            hiders = [h for h in parsed if h is not None]
            for element in elements if hiders else ():
                if id(element) in asked or not any(h.test(element, document) for h in hiders):
                    continue
                asked.add(id(element))
                if self._hides(element):
                    found.add(id(element))
        return [e for e in self.order if id(e) in found]

    def _hides(self, element: Element) -> bool:
        if self._wins(element, Property.DISPLAY):
            return True
        return self._wins(element, Property.VISIBILITY) and not self._shown_below(element)

    def _wins(self, element: Element, prop: Property) -> bool:
        """Whether a hiding declaration of `prop` certainly wins the cascade on `element`. The
        decided declarations are matched from the highest rank down: the first that matches
        wins, and those under it need not be matched (ranks differ: each has its order)."""
        decided: list[Declaration] = []
        showing: list[Declaration] = []
        for declaration in self._candidates(element):
            if declaration.prop is not prop:
                continue
            if declaration.selector is None or not declaration.certain:
                if not declaration.hides:
                    showing.append(declaration)  # might match and show
                continue
            decided.append(declaration)
        decided.sort(key=_rank, reverse=True)
        document = self.document
        for declaration in decided:
            if declaration.selector.matches(element, document):  # type: ignore[union-attr]
                break
        else:
            return False
        best = declaration.rank
        if not declaration.hides or _inline_overrides(element, prop, best[0]):
            return False
        return not any(_might_outrank(d, best) for d in showing)

    def _candidates(self, element: Element) -> Iterator[Declaration]:
        attributes = element.attributes
        keys = [("*", "")]
        keys.append(("tag", element.tag))
        element_id = attributes.get("id")
        if element_id:
            keys.append(("id", element_id))
        keys += [("class", c) for c in (attributes.get("class") or "").split()]
        for key in keys:
            yield from self.by_key.get(key, ())

    def _shown_below(self, element: Element) -> bool:
        """Whether an element under `element` might be made visible again."""
        pending = list(element.elements)
        while pending:
            child = pending.pop()
            self.document.step()  # a deep tree of hidden elements would cost its square
            style = child.attributes.get("style") or ""
            if "visib" in style.lower():
                return True
            for declaration in self._candidates(child):
                shows = declaration.prop is Property.VISIBILITY and not declaration.hides
                selector = declaration.selector
                if shows and (selector is None or selector.matches(child, self.document)):
                    return True
            pending.extend(child.elements)
        return False


def _rank(declaration: Declaration) -> Rank:
    return declaration.rank


def _key(selector_text: str) -> tuple[str, str]:
    """The most selective thing the subject compound requires: an id, else a class, else a tag,
    else nothing ("*")."""
    element_id, tag, classes = selectors.subject_keys(selector_text)
    if element_id:
        return ("id", element_id)
    if classes:
        return ("class", classes[0])
    if tag:
        return ("tag", tag)
    return ("*", "")


def _might_outrank(declaration: Declaration, rank: Rank) -> bool:
    """Whether an undecided showing declaration would win over `rank` if it matched: an
    important one over a normal winner; of equal importance, one ranked higher (an unknown
    specificity taken as higher)."""
    if declaration.important != rank[0]:
        return declaration.important
    return declaration.selector is None or declaration.rank > rank


def _inline_overrides(element: Element, prop: Property, important: bool) -> bool:
    """Whether the element's own `style` attribute shows it against the winning declaration
    (a declaration there beats every sheet's but an important one, unless important itself)."""
    style = element.attributes.get("style")
    if not style:
        return False
    for name, value, inline_important in _DECLARATION.findall(style):
        for effect, hides in _effects(name.lower(), value.strip().lower()):
            if effect is prop and not hides and (bool(inline_important) or not important):
                return True
    return False


class _ElementIndex:
    """The page's elements by id, class and tag: tags and ids from the document's index, classes
    in one pass on first use (a page whose sheets hide nothing never makes it), only those of
    `classes` (the classes the sheets' hiders require: a page has many more)."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self.classes: Collection[str] = ()
        self._classes: dict[str, list[Element]] | None = None

    def get(self, kind: str, value: str) -> list[Element]:
        document = self.document
        if kind == "*":
            return list(document.order)
        if kind == "tag":
            return [*document.by_tag(value), *(e for e in document.foreign if e.tag == value)]
        if kind == "id":
            count = document.id_counts.get(value, 0)
            if count == 1:
                return [document.ids[value]]
            return [e for e in document.order if e.attributes.get("id") == value] if count else []
        if self._classes is None:
            self._classes = self._build()
        return self._classes.get(value, [])

    def _build(self) -> dict[str, list[Element]]:
        index: dict[str, list[Element]] = {}
        wanted = self.classes
        for element in self.document.order:
            classes = element.attributes.get("class")
            if classes:
                for name in classes.split():
                    if name not in wanted:
                        continue
                    found = index.get(name)
                    if found is None:
                        index[name] = [element]
                    elif found[-1] is not element:  # a class written twice
                        found.append(element)
        return index
