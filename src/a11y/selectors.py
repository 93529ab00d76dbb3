"""CSS selectors (Selectors Level 4, https://www.w3.org/TR/selectors-4/) as far as a static page
decides them: parsed from a style sheet's text and matched against the element tree.

Decided: type and universal selectors, `#id`, `.class`, attribute selectors with every
operator and the `i`/`s` flags, the four combinators, the tree-structural pseudo-classes
(`:first-child` ... `:nth-last-of-type(An+B)`, `:empty`, `:root`), `:not()`, `:is()`,
`:where()`, `:link`/`:any-link`, `:checked`; the user-action and time pseudo-classes
(`:hover`, `:focus`, `:target`...) never match, since a static page has no pointer, no focus and
no fragment. A selector with a pseudo-element (`::before`, legacy `:after`...) selects no element.
Anything else (`:has()`, `:nth-child(An+B of S)`, vendor pseudo-classes, namespaces) is
unsupported: `parse` says so with None, and `subject_keys` still gives what the rightmost
compound requires, so a caller can tell which elements such a selector might match.
Class and id matching is case-sensitive (a standards-mode document).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from a11y.tree import Element


class Tree(Protocol):
    """What matching reads of a document: its root and each element's parent
    (a11y.tree.Document, or a caller's wrapper that bounds the work)."""

    @property
    def root(self) -> Element: ...

    def parent(self, element: Element) -> Element | None: ...

    def step(self, count: int = 1) -> None:
        """Count `count` steps of a walk against the work's bound, if the tree keeps one."""


Specificity = tuple[int, int, int]
Test = Callable[[Element, Tree], bool]

_ESC = r"(?:\\[0-9a-fA-F]{1,6}[ \t\n\r\f]?|\\[^0-9a-fA-F\n])"
_IDENT = rf"-?(?:[A-Za-z_]|[^\x00-\x7f]|{_ESC})(?:[\w-]|[^\x00-\x7f]|{_ESC})*"
_ATTRIBUTE = re.compile(
    rf"""\[\s*(?P<name>{_IDENT})\s*(?:(?P<op>[~|^$*]?=)\s*
    (?:(?P<quoted>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(?P<bare>{_IDENT}|-?\d[\w-]*))\s*
    (?P<flag>[iIsS])?\s*)?\]$""",
    re.X,
)
_NTH = re.compile(
    r"^\s*(?:(?P<odd>odd)|(?P<even>even)|(?P<a>[+-]?\d*)n\s*(?:(?P<sign>[+-])\s*(?P<b>\d+))?|(?P<only>[+-]?\d+))\s*$",
    re.I,
)
_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6}\s?|.)", re.S)

# Pseudo-elements written with one colon (CSS 2), and the pseudo-classes of user action, time
# and state a page has none of before anyone touches it.
_LEGACY_PSEUDO_ELEMENTS = frozenset({"before", "after", "first-line", "first-letter"})
_NEVER = frozenset(
    "hover focus active focus-within focus-visible visited target target-within current past "
    "future playing paused popover-open modal fullscreen open autofill user-invalid "
    "user-valid".split()
)
_STRUCTURAL = frozenset(
    "first-child last-child only-child first-of-type last-of-type only-of-type empty root".split()
)
_NTH_NAMES = frozenset({"nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type"})


class Unsupported(ValueError):
    """A selector this module cannot decide."""


class NoElement(ValueError):
    """A selector of a pseudo-element: it selects no element."""


@dataclass(frozen=True, slots=True)
class Selector:
    """One complex selector: its specificity and a test of an element."""

    text: str
    specificity: Specificity
    test: Test

    def matches(self, element: Element, document: Tree) -> bool:
        return self.test(element, document)


def _escape_end(text: str, index: int) -> int:
    """The index after the escape starting at `index` (a backslash): one character, or up to six
    hex digits and one white space (CSS Syntax § 4.3.7)."""
    found = _HEX_ESCAPE.match(text, index + 1)
    return found.end() if found else index + 2


_HEX_ESCAPE = re.compile(r"[0-9a-fA-F]{1,6}[ \t\n\r\f]?")


def unescape(text: str) -> str:
    def one(found: re.Match[str]) -> str:
        escaped = found.group(1)
        if re.fullmatch(r"[0-9a-fA-F]{1,6}\s?", escaped):
            code = int(escaped.strip(), 16)
            return chr(code) if 0 < code <= 0x10FFFF else "\ufffd"
        return escaped

    return _ESCAPE.sub(one, text) if "\\" in text else text


def split_list(text: str) -> list[str]:
    """A selector list's selectors: split at the commas outside brackets, parentheses and
    strings. Unsupported when these do not close."""
    if not _TRICKY.search(text):
        return [part.strip() for part in text.split(",")]
    parts, start = [], 0
    for index, char, depth in _chars(text):
        if char == "," and depth == 0:
            parts.append(text[start:index].strip())
            start = index + 1
    parts.append(text[start:].strip())
    return parts


def _chars(text: str, start: int = 0, depth: int = 0) -> Iterator[tuple[int, str, int]]:
    """Each character of `text` from `start` outside strings and escapes, with how deep in
    brackets and parentheses it is (counting itself when it opens or closes one). Unsupported
    when a string or a bracket is left open at the end."""
    quote, index, length = "", start, len(text)
    while index < length:
        char = text[index]
        if char == "\\":
            index = _escape_end(text, index)
            continue
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        else:
            if char in "([":
                depth += 1
            elif char in ")]":
                depth -= 1
            yield index, char, depth
        index += 1
    if quote or depth:
        raise Unsupported(text)


def parse(text: str) -> Selector | None:
    """One complex selector, or None when it is unsupported or selects a pseudo-element."""
    try:
        test, specificity = _complex(text.strip())
    except (Unsupported, NoElement):
        return None
    return Selector(text, specificity, test)


def selects_elements(text: str) -> bool:
    """False for a selector of a pseudo-element (it hides no element whatever it declares)."""
    if not _TRICKY.search(text):  # no strings or arguments: the name alone tells
        return not _PSEUDO_ELEMENT.search(text)
    try:
        _complex(text.strip())
    except NoElement:
        return False
    except Unsupported:
        return True
    return True


def subject_keys(text: str) -> tuple[str | None, str | None, tuple[str, ...]]:
    """What the rightmost compound requires of an element, whatever else it says: its id, its
    tag and its classes (None and () where it requires none). A necessary condition for a match,
    also for a selector `parse` cannot decide."""
    try:
        compounds = _compounds(text.strip())
    except Unsupported:
        return None, None, ()  # requires nothing that can be told: may match any element
    if not compounds:
        return None, None, ()
    last = compounds[-1][1]
    if "(" in last or "[" in last:
        last = _ARGUMENTS.sub("", last)  # arguments, attributes
    found = _SUBJECT_TAG.match(last)
    tag = found.group(1).lower() if found and found.group(1) and found.group(1) != "*" else None
    ids = _SUBJECT_IDS.findall(last) if "#" in last else []
    classes = tuple(unescape(c) for c in _SUBJECT_CLASSES.findall(last)) if "." in last else ()
    return (unescape(ids[0]) if ids else None), tag, classes


# subject_keys' patterns, compiled once (a large sheet asks for thousands of subjects)
_ARGUMENTS = re.compile(r"\([^()]*\)|\[[^\]]*\]")
_SUBJECT_TAG = re.compile(rf"({_IDENT}|\*)?")
_SUBJECT_IDS = re.compile(rf"#((?:[\w-]|[^\x00-\x7f]|{_ESC})+)")
_SUBJECT_CLASSES = re.compile(rf"\.({_IDENT})")


def _complex(text: str) -> tuple[Test, Specificity]:
    """A complex selector as compounds joined by combinators, tested right to left."""
    compounds: list[tuple[str, Test]] = []  # (the combinator before it, its test)
    totals = (0, 0, 0)
    for combinator, compound in _compounds(text):
        test, spec = _compound(compound)
        compounds.append((combinator, test))
        totals = (totals[0] + spec[0], totals[1] + spec[1], totals[2] + spec[2])
    if not compounds:
        raise Unsupported(text)
    return _chain(compounds), totals


def _compounds(text: str) -> list[tuple[str, str]]:
    """A complex selector's compounds, each with the combinator before it ("" for the first):
    split at whitespace and `>`, `+`, `~` outside brackets, parentheses and strings."""
    if not _TRICKY.search(text):  # no brackets, strings or escapes: split in one call
        parts = _PLAIN_SPLIT.split(text.strip())
        if parts[0] == "" or parts[-1] == "" or (len(parts) > 1 and parts[-1] in ">+~"):
            raise Unsupported(text)
        plain = [("", parts[0])]
        for index in range(1, len(parts), 2):
            combinator, compound = parts[index] or " ", parts[index + 1]
            if not compound:
                raise Unsupported(text)  # two combinators in a row
            plain.append((combinator, compound))
        return plain
    found: list[tuple[str, str]] = []
    start = 0
    pending = ""  # the combinator met since the last compound
    for index, char, depth in (*_chars(text), (len(text), " ", 0)):
        if depth or not (char.isspace() or char in ">+~"):
            continue
        if index > start:
            found.append((pending if found else "", text[start:index]))
            pending = ""
        if char in ">+~":
            if pending.strip() or not found:
                raise Unsupported(text)  # two combinators in a row, or one first
            pending = char
        elif not pending:
            pending = " "
        start = index + 1
    if pending.strip() and found:
        raise Unsupported(text)  # ending in a combinator
    return found


_PSEUDO_ELEMENT = re.compile(r"::|:(?:before|after|first-line|first-letter)(?![\w-])", re.I)
_TRICKY = re.compile(r"[(\[\"'\\]")
_PLAIN_SPLIT = re.compile(r"\s*([>+~])\s*|\s+")


def _chain(compounds: Sequence[tuple[str, Test]]) -> Test:
    """Compounds [(c0, t0), (c1, t1), ...] as one test of the last compound's subject."""
    test = compounds[0][1]
    for combinator, subject in compounds[1:]:
        test = _relate(combinator, subject, test)
    return test


def _relate(combinator: str, subject: Test, relative: Test) -> Test:
    if combinator == ">":
        return lambda e, d: subject(e, d) and (p := d.parent(e)) is not None and relative(p, d)
    if combinator == " ":

        def descendant(element: Element, document: Tree) -> bool:
            # `_ancestors` written out: this is the test most matching time goes to
            if not subject(element, document):
                return False
            parent = document.parent
            ancestor = parent(element)
            while ancestor is not None:
                if relative(ancestor, document):
                    return True
                ancestor = parent(ancestor)
            return False

        return descendant
    if combinator == "+":
        return lambda e, d: subject(e, d) and (s := _previous(e, d)) is not None and relative(s, d)
    if combinator == "~":
        return lambda e, d: subject(e, d) and any(relative(s, d) for s in _before(e, d))
    raise Unsupported(combinator)


def _closing(text: str, start: int) -> int:
    """The index of the parenthesis closing the one before `start`."""
    for index, char, depth in _chars(text, start, 1):
        if char == ")" and depth == 0:
            return index
    raise Unsupported(text)


_SIMPLE = re.compile(
    rf"""(?P<id>\#(?:[\w-]|[^\x00-\x7f]|{_ESC})+)|(?P<cls>\.{_IDENT})|(?P<attr>\[(?:[^\]"']|"[^"]*"|'[^']*')*\])
    |(?P<pseudo>::?{_IDENT})""",
    re.X,
)


def _compound(text: str) -> tuple[Test, Specificity]:
    """A compound selector: an optional type selector, then simple selectors, all required."""
    tests: list[Test] = []
    ids = classes = types = 0
    found = _TYPE.match(text)
    position = 0
    if found:
        if "|" in text[: found.end() + 1]:
            raise Unsupported(text)
        name = found.group()
        position = found.end()
        if name != "*":
            tag = unescape(name).lower()
            tests.append(lambda e, d: e.tag == tag)
            types += 1
    while position < len(text):
        simple = _SIMPLE.match(text, position)
        if simple is None:
            raise Unsupported(text)
        kind, value = simple.lastgroup, simple.group()
        position = simple.end()
        if kind == "id":
            tests.append(_has_id(unescape(value[1:])))
            ids += 1
        elif kind == "cls":
            tests.append(_has_class(unescape(value[1:])))
            classes += 1
        elif kind == "attr":
            tests.append(_attribute(value))
            classes += 1
        else:
            arguments = None
            if text.startswith("(", position):
                end = _closing(text, position + 1)
                arguments = text[position + 1 : end]
                position = end + 1
            test, spec = _pseudo(value, arguments)
            tests.append(test)
            ids, classes, types = ids + spec[0], classes + spec[1], types + spec[2]
    if not tests:
        return (lambda e, d: True), (0, 0, 0)
    if len(tests) == 1:
        return tests[0], (ids, classes, types)
    if len(tests) == 2:  # the most common compound of several (`div.menu`, `.a.b`)
        first, second = tests
        return (lambda e, d: first(e, d) and second(e, d)), (ids, classes, types)
    return (lambda e, d: all(t(e, d) for t in tests)), (ids, classes, types)


_TYPE = re.compile(rf"{_IDENT}|\*")


def _has_id(wanted: str) -> Test:
    return lambda e, d: e.attributes.get("id") == wanted


def _has_class(wanted: str) -> Test:
    def test(element: Element, document: Tree) -> bool:
        value = element.attributes.get("class")
        # a class is a substring of the attribute before it is one of its words
        return value is not None and wanted in value and wanted in value.split()

    return test


def _attribute(text: str) -> Test:
    found = _ATTRIBUTE.match(text)
    if found is None:
        raise Unsupported(text)
    name = unescape(found.group("name")).lower()
    op = found.group("op")
    if op is None:
        return lambda e, d: name in e.attributes
    raw = found.group("quoted")
    wanted = unescape(raw[1:-1] if raw else found.group("bare"))
    fold = (found.group("flag") or "").lower() == "i"
    if fold:
        wanted = wanted.lower()

    def test(element: Element, document: Tree) -> bool:
        value = element.attributes.get(name)
        if value is None:
            return False
        if fold:
            value = value.lower()
        return _compare(op, value, wanted)

    return test


def _compare(op: str, value: str, wanted: str) -> bool:
    if op == "=":
        return value == wanted
    if op == "~=":
        return wanted in value.split() if wanted and not any(c.isspace() for c in wanted) else False
    if op == "|=":
        return value == wanted or value.startswith(wanted + "-")
    if not wanted:  # ^= $= *= with an empty value match nothing
        return False
    if op == "^=":
        return value.startswith(wanted)
    if op == "$=":
        return value.endswith(wanted)
    return wanted in value


def _pseudo(name_text: str, arguments: str | None) -> tuple[Test, Specificity]:
    element_form = name_text.startswith("::")
    name = name_text.lstrip(":").lower()
    if element_form or name in _LEGACY_PSEUDO_ELEMENTS:
        raise NoElement(name)
    if name in _NEVER:
        return (lambda e, d: False), (0, 1, 0)
    if arguments is None:
        if name in _STRUCTURAL:
            return _structural(name), (0, 1, 0)
        if name in ("link", "any-link"):
            return (lambda e, d: e.tag in ("a", "area") and "href" in e.attributes), (0, 1, 0)
        if name == "checked":
            return _checked, (0, 1, 0)
        raise Unsupported(name)
    if name in _NTH_NAMES:
        return _nth(name, arguments), (0, 1, 0)
    if name in ("not", "is", "where", "matches", "-webkit-any"):
        if name in ("matches", "-webkit-any"):
            raise Unsupported(name)
        parts = [_complex(part) for part in split_list(arguments)]
        tests = [test for test, _ in parts]
        spec = (0, 0, 0) if name == "where" else max(spec for _, spec in parts)
        if name == "not":
            return (lambda e, d: not any(t(e, d) for t in tests)), spec
        return (lambda e, d: any(t(e, d) for t in tests)), spec
    raise Unsupported(name)


def _checked(element: Element, document: Tree) -> bool:
    if element.tag == "input":
        kind = (element.attributes.get("type") or "").strip().lower()
        return kind in ("checkbox", "radio") and "checked" in element.attributes
    return element.tag == "option" and "selected" in element.attributes


def _structural(name: str) -> Test:
    if name == "root":
        return lambda e, d: e is d.root
    if name == "empty":
        return lambda e, d: not e.children
    of_type = name.endswith("of-type")
    first, last = name.startswith(("first", "only")), name.startswith(("last", "only"))

    def test(element: Element, document: Tree) -> bool:
        siblings = _siblings(element, document, of_type)
        if not siblings:
            return False
        return (not first or siblings[0] is element) and (not last or siblings[-1] is element)

    return test


def _nth(name: str, arguments: str) -> Test:
    found = _NTH.match(arguments)
    if found is None:
        raise Unsupported(arguments)  # includes `An+B of S`
    if found.group("odd"):
        a, b = 2, 1
    elif found.group("even"):
        a, b = 2, 0
    elif found.group("only") is not None:
        a, b = 0, int(found.group("only"))
    else:
        coefficient = found.group("a")
        a = int(coefficient + "1") if coefficient in ("", "+", "-") else int(coefficient)
        b = int(found.group("b") or 0) * (-1 if found.group("sign") == "-" else 1)
    of_type, from_end = name.endswith("of-type"), "last" in name

    def test(element: Element, document: Tree) -> bool:
        siblings = _siblings(element, document, of_type)
        if not siblings:
            return False
        index = next(i for i, s in enumerate(siblings) if s is element)
        place = (len(siblings) - index) if from_end else index + 1
        if a == 0:
            return place == b
        return (place - b) % a == 0 and (place - b) // a >= 0

    return test


def _siblings(element: Element, document: Tree, of_type: bool) -> list[Element]:
    parent = document.parent(element)
    if parent is None:
        return [element]
    children = list(parent.elements)
    document.step(len(children))
    if of_type:
        children = [c for c in children if c.tag == element.tag]
    return children


def _ancestors(element: Element, document: Tree) -> Iterator[Element]:
    parent = document.parent(element)
    while parent is not None:
        yield parent
        parent = document.parent(parent)


def _before(element: Element, document: Tree) -> Iterator[Element]:
    """The element siblings before `element`, nearest first."""
    siblings = _siblings(element, document, False)
    index = next(i for i, s in enumerate(siblings) if s is element)
    return reversed(siblings[:index])


def _previous(element: Element, document: Tree) -> Element | None:
    return next(iter(_before(element, document)), None)
