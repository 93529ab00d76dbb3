"""The W3C Accessible Name and Description Computation 1.2 (https://www.w3.org/TR/accname-1.2/)
over the element tree, in the order and with the HTML-AAM native methods axe-core 4.14.1 uses
(lib/commons/text/accessible-text-virtual.js and its steps), so names agree with the engine the
rules are named after.

Steps, each tried in turn until one gives text: aria-labelledby (2B: not while already following
one, each referenced element named in its "labelledby context" where a hidden referent's hidden
content counts), aria-label (2C), the native alternative of the element's kind (2E, HTML-AAM:
alt, value, label elements, placeholder, caption, legend, figcaption, svg title, default button
labels), the value of an embedded control (2E inside a label), name from content (2F: for roles
that allow it, for elements without a role, and for every descendant once descending), and the
title attribute (2I). Hidden content (a11y.hidden) is skipped unless a labelledby referent is
itself hidden. CSS generated content (::before/::after) and whether an element is rendered as a
block (which decides a separating space) need layout: names here join block-level children with
a space by the element's content model instead, which changes spacing, never emptiness.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from a11y.aria import aria
from a11y.page import Page
from a11y.roles import PRESENTATIONAL, element_spec, input_type, role, tags_of_roles
from a11y.tree import Element

_SPACES = re.compile(r"[\s\u00a0]+")
_CONTROL_VALUE_ROLES = frozenset(
    {"textbox", "progressbar", "scrollbar", "slider", "spinbutton", "combobox", "listbox"}
)
_BUTTON_DEFAULTS = {"submit": "Submit", "image": "Submit", "reset": "Reset"}
_TEXTBOX_TYPES = frozenset({"text", "search", "tel", "url", "email", "password", "number"})


def sanitize(text: str) -> str:
    """Whitespace collapsed and trimmed (axe-core's sanitize)."""
    return _SPACES.sub(" ", text).strip()


@dataclass(slots=True)
class _Context:
    start: Element
    in_labelledby: bool = False
    in_control: bool = False
    include_hidden: bool | None = None
    descending: bool = False
    processed: set[int] = field(default_factory=set)
    # The elements whose aria-labelledby or labels the computation followed (out of the
    # subtree it descends): while there are none, only the subtree's own elements were read.
    referrals: list[int] = field(default_factory=list)

    def copy(self) -> _Context:
        """The same context (its `processed` set and `referrals` shared), for a step to change
        one field of; dataclasses.replace costs several times more, at every element a name
        descends to."""
        return _Context(
            self.start,
            self.in_labelledby,
            self.in_control,
            self.include_hidden,
            self.descending,
            self.processed,
            self.referrals,
        )


_Method = Callable[[Page, Element, _Context], str]


def accessible_name(page: Page, element: Element) -> str:
    """The element's accessible name, whitespace collapsed; memoised per page."""
    key = id(element)
    if key not in page.names:
        plain = _plain_link_name(page, element)
        # sanitized already: `_text` sanitizes what it finds for the start element
        found = _text(page, element, _Context(start=element)) if plain is None else plain
        page.names[key] = found
    return page.names[key]


# The attributes that can change a link's name or role, or make a step other than its text
# and title give it (2B, 2C, an explicit role).
_NAMING_ATTRIBUTES = frozenset({"role", "aria-label", "aria-labelledby"})
# Inline elements a link's text is often wrapped in (`<a href><code>x</code></a>`) whose own
# name, met while descending, is their text and nothing else: phrasing content (no space
# around their text, `_children_text`) with no naming method of their own (aria.json) and an
# implicit role that neither is presentational nor takes a control's value. Held to that by
# tests/a11y/test_accname.py.
_PLAIN_INLINE = frozenset(
    "span code em strong b i small kbd var samp cite sub sup mark u s bdi bdo time dfn ins "
    "del".split()
)
# Elements a link's content is often laid out in (`<a href><div>title</div>...</a>`, a card)
# whose own name, met while descending, is their text and nothing else, with a space around it:
# flow content that is not phrasing (`_children_text`), with no naming method of their own
# (aria.json) and an implicit role that neither is presentational nor takes a control's value,
# not embedded content. Held to that by tests/a11y/test_accname.py.
_PLAIN_BLOCK = frozenset("div p h1 h2 h3 h4 h5 h6".split())
# The only attributes such an element may carry for its text to be its name: any other (a
# title, an ARIA attribute, a role, a style) may change it, and the general steps decide.
_PLAIN_INLINE_ATTRIBUTES = frozenset({"class", "id", "lang", "dir", "translate", "datetime"})
# An image's attributes that change neither its name nor its role (no title, usemap, tabindex,
# role or ARIA attribute): its name is then its alt (`_plain_content_text`).
_PLAIN_IMG_ATTRIBUTES = _PLAIN_INLINE_ATTRIBUTES | frozenset(
    "src alt width height loading decoding srcset sizes crossorigin referrerpolicy "
    "fetchpriority".split()
)


def _plain_link_name(page: Page, element: Element) -> str | None:
    """The name of the commonest element a page names, `<a href>` holding only text, text in
    `_PLAIN_INLINE` and `_PLAIN_BLOCK` elements, and hidden elements, and without an attribute
    in `_NAMING_ATTRIBUTES`, as `_text` computes it, with none of its steps' look-ups; None for
    any other element. For such a link the steps reduce to: nothing when it is hidden (whatever
    it holds), else its text content (2F: the role `link` of `a[href]` is named from content,
    and its only naming method is subtreeText, aria.json; the plain elements add their text, the
    blocks with a space around it as `_children_text` adds one, hidden ones nothing), else its
    title (2I). A third of the rules' time on link-heavy pages went to the general steps;
    tests/a11y/test_accname.py holds the two equal."""
    if (
        element.tag != "a"
        or not element.is_html
        or "href" not in element.attributes
        or not _NAMING_ATTRIBUTES.isdisjoint(element.attributes)
    ):
        return None
    if page.hidden.to_assistive_tech(element):
        return ""
    children = element.children
    if all(type(child) is str for child in children):
        text = "".join(children)  # type: ignore[arg-type]  # every child is a str (above)
    else:
        found = _plain_content_text(page, element)
        if found is None:
            return None
        text = found
    page.contents[id(element)] = text  # as `_keep_content` keeps it for has-visible-text
    return sanitize(text) or sanitize(element.get("title") or "")


def _plain_content_text(page: Page, element: Element) -> str | None:
    """`_children_text` of `element` (descending, as a link's name reads its content) when every
    element under it is hidden (whose `_text` is empty, whatever it is), a `_PLAIN_INLINE` or
    `_PLAIN_BLOCK` one with only `_PLAIN_INLINE_ATTRIBUTES` (whose `_text` is its own
    `_children_text`) or an `img` with only `_PLAIN_IMG_ATTRIBUTES` (whose `_text` is its alt:
    `_native`'s altText, no other step giving any; its role is presentational only where the alt
    is empty, roles._img, so that gives nothing either); None otherwise. The spaces around a
    part that is not phrasing content are `_children_text`'s."""
    text = ""
    hidden = page.hidden
    for child in element.children:
        if type(child) is str:
            text += child
            continue
        assert isinstance(child, Element)
        if hidden.to_assistive_tech(child):
            continue  # `_ignored_hidden`: an empty part
        tag = child.tag
        if not child.is_html:
            return None
        if tag == "img":
            if not _PLAIN_IMG_ATTRIBUTES.issuperset(child.attributes):
                return None
            part = child.get("alt") or ""
        elif (tag in _PLAIN_INLINE or tag in _PLAIN_BLOCK) and _PLAIN_INLINE_ATTRIBUTES.issuperset(
            child.attributes
        ):
            found = _plain_content_text(page, child)
            if found is None:
                return None
            part = found
        else:
            return None
        if part and tag not in _phrasing():
            part = _spaced(text, part)
        text += part
    return text


def shows_text(page: Page, element: Element) -> bool:
    """Whether `subtree_name` is not empty, decided where it can be at once: by `content_text`
    (text met through elements whose part is their content's text, or surely none), else text
    (not only whitespace) the element holds itself or in shown `_PLAIN_INLINE` elements with
    only `_PLAIN_INLINE_ATTRIBUTES`, whose names are their text (`_children_text` only ever
    adds to what it found, so any such text makes the name non-empty); else the whole name
    decides. A heading of code and links needs no walk of its links' name steps."""
    found = content_text(page, element)
    if found is not None:  # the content's text found, or surely none
        return found
    return _shows_plain_text(page, element) or bool(subtree_name(page, element))


def link_named_at_once(page: Page, element: Element) -> bool | None:
    """link-name's verdict on a shown `<a href>` where its content tells it at once: True when
    it surely has a non-empty name and shows text, False when it surely has neither, None when
    the full computation decides. Read from its content's first text (not only whitespace) in
    document order. link-name's failures-only path decides most links so (tests/a11y/
    test_failures.py holds it equal to the outcomes).

    Without `aria-labelledby` (whose referents may name it emptily), with a role that is named
    from content (2F: `link`, whose one naming method is subtreeText, aria.json) and takes no
    control's value, the link's name reads its content, as `subtree_name` does; an element met
    on the way adds its own content's text to both (`_text`'s steps, each giving text before
    the next is tried, end in `_subtree`, which reads its children) when `content_text`
    finds it `_NAME_TRANSPARENT`, and a hidden one adds nothing. Text found so is in both.
    Content without text where nothing carries a name of its own (`_OWN_NAME`: no aria-label,
    title or role on the link or anything read) gives an empty name and no text: link-name's
    checks (has-visible-text, aria-label, aria-labelledby, title) all fail."""
    attributes = element.attributes
    if not element.is_html or "href" not in attributes or "aria-labelledby" in attributes:
        return None
    if "role" in attributes:
        found = role(page, element)
        if found in _CONTROL_VALUE_ROLES or not named_from_content(page, element):
            return None
    found_text = content_text(page, element)
    if found_text is False and not _OWN_NAME.isdisjoint(attributes):
        return None  # an aria-label, title or role of its own may name it
    return found_text


# The attributes that give an element met while descending (or the link) a name other than its
# content's (2C aria-label, 2I title) or change its role.
_OWN_NAME = frozenset({"aria-label", "title", "role"})


def content_text(page: Page, element: Element) -> bool | None:
    """Text (not only whitespace) under `element` that its content's name holds, found before
    any element whose part of the name this cannot tell: True when found, False when the
    content surely has none (every element read `_NAME_TRANSPARENT` or an image, hidden ones
    aside, none with an `_OWN_NAME` attribute), None otherwise. Read in document order: hidden
    elements are skipped (`_ignored_hidden`: an empty part), `_NAME_TRANSPARENT` ones read
    into, an image's alt is text and an image without one adds what cannot matter once text
    follows; anything else stops the scan with None. The parts before the text change nothing
    a later part reads: elements `_text` marks as `processed` or follows out of the subtree are
    met only through `aria-labelledby`, labels and the native methods of elements this does
    not read into."""
    children = element.children
    first = children[0] if children else None
    if type(first) is str and first.strip():
        return True  # the commonest link: its text first (what the loop below would find)
    hidden = page.hidden
    transparent = _name_transparent()
    quiet = True  # no element read has a name of its own
    pending: list[Element | str] = list(reversed(children))
    while pending:
        child = pending.pop()
        if type(child) is str:
            if child.strip():  # sanitize keeps it: the same whitespace as `_SPACES`
                return True
            continue
        assert isinstance(child, Element)
        if hidden.to_assistive_tech(child):
            continue
        attributes = child.attributes
        tag = child.tag
        if not child.is_html or "aria-labelledby" in attributes:
            return None
        quiet = quiet and _OWN_NAME.isdisjoint(attributes)
        if tag == "img":
            # Its steps (aria-label, altText, a role's value, title) mark nothing and follow
            # nothing out of it; without a role attribute a non-empty alt gives it the role
            # `img` and, unless an aria-label comes first, its name (roles._img, aria.json).
            # Without those attributes, its name is its alt: white space at most here.
            if "role" not in attributes and (attributes.get("alt") or "").strip():
                return True
            continue
        if tag not in transparent:
            return None
        if "role" in attributes and role(page, child) in _CONTROL_VALUE_ROLES:
            return None
        pending.extend(reversed(child.children))
    return False if quiet else None


_NAME_TRANSPARENT: frozenset[str] | None = None


def _name_transparent() -> frozenset[str]:
    """The HTML elements whose part of a name, met while descending, holds their content's
    text (aria.json, in every variant: no naming method but subtreeText, not embedded content,
    no implicit role that takes a control's value, roles.implicit_role's conditional ones
    included): `_subtree` reads their children, and a step before it gives text only where
    that is not empty either. tests/a11y/test_accname.py lists them."""
    global _NAME_TRANSPARENT
    if _NAME_TRANSPARENT is None:
        controls = tags_of_roles(_CONTROL_VALUE_ROLES)
        found = set()
        for tag, spec in aria().elements.items():
            variants = spec.get("variant")
            specs = [spec, *(variants.values() if isinstance(variants, dict) else ())]
            if tag not in controls and all(_transparent_spec(s) for s in specs):
                found.add(tag)
        _NAME_TRANSPARENT = frozenset(found)
    return _NAME_TRANSPARENT


def _transparent_spec(spec: dict[str, object]) -> bool:
    methods = spec.get("namingMethods") or []
    assert isinstance(methods, list)
    return set(methods) <= {"subtreeText"} and "embedded" not in _content_types(spec)


def _shows_plain_text(page: Page, element: Element) -> bool:
    """`shows_text`'s early answer: True when text is found at once, False when the whole name
    must decide."""
    pending: list[Element | str] = list(element.children)
    hidden = page.hidden
    while pending:
        child = pending.pop()
        if type(child) is str:
            if child.strip():  # sanitize keeps it: the same whitespace as `_SPACES`
                return True
            continue
        assert isinstance(child, Element)
        if (
            child.tag in _PLAIN_INLINE
            and child.is_html
            and _PLAIN_INLINE_ATTRIBUTES.issuperset(child.attributes)
            and not hidden.to_assistive_tech(child)
        ):
            pending.extend(child.children)
    return False


def subtree_name(page: Page, element: Element) -> str:
    """The element's text content as accname's name from content would read it (axe-core's
    visible text of a subtree, as `has-visible-text` takes it), hidden content left out. Read
    from `Page.contents` when the element's accessible name already computed the same text
    (a link's: link-name asks for both)."""
    known = page.contents.get(id(element))
    if known is not None:
        return sanitize(known)
    context = _Context(start=element, descending=True)
    return sanitize(_children_text(page, element, context))


def _text(page: Page, element: Element, context: _Context) -> str:
    if context.in_labelledby and context.include_hidden is None:
        context = context.copy()
        context.include_hidden = page.hidden.to_assistive_tech(element)
    if _ignored_hidden(page, element, context):
        return ""
    for step in _STEPS:
        found = step(page, element, context)
        if found and element is context.start:
            found = sanitize(found)
        if found:
            return found
    return ""


def _ignored_hidden(page: Page, element: Element, context: _Context) -> bool:
    if context.include_hidden and element.tag not in ("script", "style", "template", "noscript"):
        return False
    return page.hidden.to_assistive_tech(element)


def _labelledby(page: Page, element: Element, context: _Context) -> str:
    if context.in_labelledby or context.in_control or not element.get("aria-labelledby"):
        return ""
    context.referrals.append(id(element))
    parts = []
    for target in page.document.idrefs(element, "aria-labelledby"):
        inner = context.copy()
        inner.in_labelledby = True
        parts.append(_text(page, target, inner))
    return " ".join(part for part in parts if part) if any(parts) else ""


def _aria_label(page: Page, element: Element, context: _Context) -> str:
    return (element.get("aria-label") or "").strip()


def _native(page: Page, element: Element, context: _Context) -> str:
    if role(page, element) in PRESENTATIONAL:
        return ""
    methods = element_spec(page, element, match_name=False).get("namingMethods") or []
    assert isinstance(methods, list)
    for method in methods:
        found = _NATIVE_METHODS[method](page, element, context)
        if found:
            return found
    return ""


def _label_text(page: Page, element: Element, context: _Context) -> str:
    if context.in_control or context.in_labelledby or id(element) in context.processed:
        return ""
    context.processed.add(id(element))
    context.referrals.append(id(element))
    labels = labels_of(page, element)
    inner = context.copy()
    inner.in_control = True
    texts = (_text(page, label, inner) for label in labels)
    return " ".join(text for text in texts if text)


def labels_of(page: Page, element: Element) -> list[Element]:
    """The label elements of a form control: those whose `for` names its id, and the closest
    ancestor label, in document order."""
    labels: list[Element] = []
    element_id = element.get("id")
    if element_id:
        labels = list(page.document.labels_for(element_id))
    implicit = next((a for a in page.document.ancestors(element) if a.tag == "label"), None)
    if implicit is not None and implicit not in labels:
        labels.append(implicit)
        labels.sort(key=page.document.position)
    return labels


def _first_child_text(tag: str) -> _Method:
    """The first `tag` descendant's name, unless an element like the named one comes first
    (axe-core's descendantText: `querySelector('caption,table')`)."""

    def method(page: Page, element: Element, context: _Context) -> str:
        for candidate in page.document.descendants(element):
            if candidate.tag == tag:
                return _text(page, candidate, context)
            if candidate.tag == element.tag:
                return ""
        return ""

    return method


def _attribute(name: str) -> _Method:
    def method(page: Page, element: Element, context: _Context) -> str:
        return element.get(name) or ""

    return method


def _title(page: Page, element: Element, context: _Context) -> str:
    if element.tag != "iframe" and role(page, element) in PRESENTATIONAL:
        return ""
    return element.get("title") or ""


def _button_default(page: Page, element: Element, context: _Context) -> str:
    return _BUTTON_DEFAULTS.get(input_type(element), "")


def _control_value(page: Page, element: Element, context: _Context) -> str:
    found = role(page, element)
    if element is context.start or found not in _CONTROL_VALUE_ROLES:
        return ""
    if element.tag == "textarea":
        return "".join(c for c in element.children if isinstance(c, str))
    if element.tag == "input" and input_type(element) in _TEXTBOX_TYPES:
        return element.get("value") or ""
    if element.tag == "select":
        return _selected_options(page, element)
    if found in ("progressbar", "scrollbar", "slider", "spinbutton"):
        return _range_value(element)
    if found == "textbox":  # an ARIA textbox: its text (axe-core's ariaTextboxValue)
        return subtree_name(page, element)
    return ""


def _selected_options(page: Page, element: Element) -> str:
    options = [o for o in page.document.descendants(element) if o.tag == "option"]
    chosen = [o for o in options if o.has("selected")] or options[:1]
    return " ".join(subtree_name(page, option) for option in chosen)


def _range_value(element: Element) -> str:
    value = element.get("aria-valuenow")
    if value is None:
        return ""
    try:
        return format(float(value), "g")
    except ValueError:
        return "0"


def _subtree(page: Page, element: Element, context: _Context) -> str:
    if id(element) in context.processed:
        return ""
    context.processed.add(id(element))
    content_types = element_spec(page, element, match_name=False).get("contentTypes") or []
    assert isinstance(content_types, list)
    if "embedded" in content_types or role(page, element) in _CONTROL_VALUE_ROLES:
        return ""
    if not (context.descending or context.in_labelledby or named_from_content(page, element)):
        return ""
    descending = context.descending or not (context.in_control or context.in_labelledby)
    if descending != context.descending:
        context = context.copy()
        context.descending = descending
    alone = element is context.start and len(context.processed) == 1 and not context.referrals
    text = _children_text(page, element, context)
    if alone and not context.referrals and descending and not context.in_control:
        _keep_content(page, element, context, text)
    return text


def _keep_content(page: Page, element: Element, context: _Context, text: str) -> None:
    """Keep the text of an accessible name's start element taken from its content in
    `subtree_name`'s own context (descending, neither in a label nor a labelledby), when it read
    nothing out of the subtree and nothing was named before it: `subtree_name` then computes
    the same text (the one difference, the start element among `processed`, matters only to a
    reference back to it), so has-visible-text reads it instead of descending again."""
    if not context.in_labelledby and context.include_hidden is None:
        page.contents[id(element)] = text


def _children_text(page: Page, element: Element, context: _Context) -> str:
    text = ""
    for child in element.children:
        if isinstance(child, str):
            text += child
            continue
        part = _text(page, child, context)
        if part and child.tag not in _phrasing():
            part = _spaced(text, part)
        text += part
    return text


def _spaced(text: str, part: str) -> str:
    """A part that is not phrasing content, with a space after it and one before it unless
    the text so far ends with one (or is empty): the name reads block content as separate words."""
    part = part if part.startswith(" ") else part + " "
    return " " + part if text and not text.endswith(" ") else part


def named_from_content(page: Page, element: Element, *, strict: bool = False) -> bool:
    """Whether the element's role takes its name from content (axe-core's namedFromContents:
    unless strict, also an element without a role, or a presentational one)."""
    found = role(page, element)
    spec = aria().roles.get(found) if found else None
    if spec is not None and spec.get("nameFromContent"):
        return True
    return not strict and (spec is None or found in PRESENTATIONAL)


_PHRASING: frozenset[str] | None = None


def _phrasing() -> frozenset[str]:
    global _PHRASING
    if _PHRASING is None:
        _PHRASING = frozenset(
            tag for tag, spec in aria().elements.items() if "phrasing" in _content_types(spec)
        )
    return _PHRASING


def _content_types(spec: dict[str, object]) -> list[str]:
    found = spec.get("contentTypes")
    if isinstance(found, list):
        return found
    variants = spec.get("variant")
    default = variants.get("default", {}) if isinstance(variants, dict) else {}
    return list(default.get("contentTypes", []))


_NATIVE_METHODS: dict[str, _Method] = {
    "valueText": _attribute("value"),
    "buttonDefaultText": _button_default,
    "tableCaptionText": _first_child_text("caption"),
    "figureText": _first_child_text("figcaption"),
    "svgTitleText": _first_child_text("title"),
    "fieldsetLegendText": _first_child_text("legend"),
    "altText": _attribute("alt"),
    "tableSummaryText": _attribute("summary"),
    "titleText": _title,
    "subtreeText": _subtree,
    "labelText": _label_text,
    "singleSpace": lambda page, element, context: " ",
    "placeholderText": _attribute("placeholder"),
}
_STEPS = (_labelledby, _aria_label, _native, _control_value, _subtree, _title)
