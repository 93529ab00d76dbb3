"""The document as a whole and attributes any element may carry: document-title, html-has-lang,
html-lang-valid, valid-lang, html-xml-lang-mismatch, meta-refresh, meta-viewport,
aria-hidden-body, page-has-heading-one, landmark-one-main, heading-order, duplicate-id-aria,
tabindex, accesskeys, autocomplete-valid."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache

from a11y.accname import sanitize
from a11y.aria import aria
from a11y.findings import Outcome
from a11y.page import Page
from a11y.roles import explicit_role, input_type, parse_tabindex, role
from a11y.rule_base import HEADINGS, verdicts, visible
from a11y.rule_ids import RuleId
from a11y.tree import Element, text_content

_REFRESH_DELAY = re.compile(r"^[0-9.]+$")
_REFRESH_SEPARATOR = re.compile(r"[;,\s]")
_LEVELS = {f"h{n}": n for n in range(1, 7)}


def _root(page: Page) -> list[Element]:
    root = page.document.root
    return [root] if root.tag == "html" else []


def document_title(page: Page) -> Iterator[Outcome]:
    """document.title: the first HTML `<title>` in the document, white space collapsed."""
    title = page.document.first("title")  # the HTML ones: by_tag indexes no other
    has_title = title is not None and bool(sanitize(text_content(title)))
    return verdicts(RuleId.DOCUMENT_TITLE, ((root, has_title) for root in _root(page)))


def _has_value(value: str | None) -> bool:
    return bool((value or "").strip())


def html_has_lang(page: Page) -> Iterator[Outcome]:
    return verdicts(RuleId.HTML_HAS_LANG, ((root, _has_lang(root)) for root in _root(page)))


def _has_lang(root: Element) -> bool:
    # An HTML (not XHTML) document needs `lang`: `xml:lang` alone does not count.
    return _has_value(root.get("lang"))


def base_lang(value: str) -> str:
    return value.strip().split("-")[0].lower()


def valid_language(value: str) -> bool:
    """axe-core's valid-lang test for one attribute value: its primary subtag is a known
    language (ISO 639 as axe-core lists it) and the value is not only white space."""
    base = base_lang(value)
    if base and base not in aria().languages:
        return False
    return not (value and not sanitize(value))


def _lang_attributes(element: Element) -> list[str]:
    return [v for v in (element.get("lang"), element.get("xml:lang")) if v is not None]


def html_lang_valid(page: Page) -> Iterator[Outcome]:
    roots = (
        root
        for root in _root(page)
        if (root.get("lang") or "") != "" or (root.get("xml:lang") or "") != ""
    )
    decided = ((root, all(valid_language(v) for v in _lang_attributes(root))) for root in roots)
    return verdicts(RuleId.HTML_LANG_VALID, decided)


def valid_lang(page: Page) -> Iterator[Outcome]:
    elements = (e for e in page.shown_having(("lang", "xml:lang")) if e is not page.document.root)
    decided = ((e, _valid_lang(page, e)) for e in elements)
    return verdicts(RuleId.VALID_LANG, decided)


def _valid_lang(page: Page, element: Element) -> bool:
    if all(valid_language(v) for v in _lang_attributes(element)):
        return True
    return not _has_lang_text(page, element)


def _has_lang_text(page: Page, element: Element) -> bool:
    """Text the element's language applies to: its own text, or a descendant's without a lang
    of its own and not hidden."""
    if any(isinstance(c, str) and c.strip() for c in element.children):
        return True
    return any(
        not child.has("lang") and not page.hidden.to_everyone(child) and _has_lang_text(page, child)
        for child in element.elements
    )


def html_xml_lang_mismatch(page: Page) -> Iterator[Outcome]:
    decided = (
        (root, base_lang(root.get("lang") or "") == base_lang(root.get("xml:lang") or ""))
        for root in _root(page)
        if root.has("lang")
        and root.has("xml:lang")
        and base_lang(root.get("lang") or "") in aria().languages
        and base_lang(root.get("xml:lang") or "") in aria().languages
    )
    return verdicts(RuleId.HTML_XML_LANG_MISMATCH, decided)


def meta_refresh(page: Page) -> Iterator[Outcome]:
    metas = (
        m
        for m in page.document.by_tag("meta")
        if (m.get("http-equiv") or "").lower() == "refresh" and m.has("content")
    )
    return verdicts(RuleId.META_REFRESH, ((m, _refresh_ok(m)) for m in metas))


def _refresh_ok(meta: Element) -> bool:
    """A refresh passes when immediate (0 s) or over 20 hours away (axe-core's options)."""
    first = _REFRESH_SEPARATOR.split((meta.get("content") or "").strip())[0]
    if not _REFRESH_DELAY.match(first):
        return True
    try:
        delay = float(first)
    except ValueError:  # "1.2.3" matches the pattern; JavaScript's parseFloat reads 1.2
        delay = float(re.match(r"[0-9]*\.?[0-9]*", first).group() or "nan")  # type: ignore[union-attr]
    return delay <= 0 or delay > 72000


def meta_viewport(page: Page) -> Iterator[Outcome]:
    metas = (m for m in page.document.by_tag("meta") if m.get("name") == "viewport")
    return verdicts(RuleId.META_VIEWPORT, ((m, _zoomable(m)) for m in metas))


def _js_float(text: str) -> float | None:
    """JavaScript's parseFloat: the longest leading decimal number, or None (NaN)."""
    found = re.match(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", text)
    return float(found.group()) if found else None


def _zoomable(meta: Element) -> bool:
    for item in re.split(r"[;,]", (meta.get("content") or "").lower()):
        key, _, value = (part.strip() for part in item.partition("="))
        if not key or not value:
            continue
        number = _js_float(value)
        if key == "user-scalable":
            bad_word = number is None and value not in ("yes", "device-width", "device-height")
            if bad_word or (number is not None and -1 < number < 1):
                return False
        if key == "maximum-scale":
            if number is not None and number < 0:
                continue
            bad_word = number is None and value not in ("device-width", "device-height")
            if bad_word or (number is not None and number < 2):
                return False
    return True


def aria_hidden_body(page: Page) -> Iterator[Outcome]:
    bodies = page.document.by_tag("body")
    return verdicts(RuleId.ARIA_HIDDEN_BODY, ((b, b.get("aria-hidden") != "true") for b in bodies))


def _page_has(page: Page, found: bool) -> bool | None:
    """axe-core passes these page rules while a modal is open (passForModal): a dialog shown
    on screen, which needs layout, so a page without the element but with a dialog the markup
    does not hide is undecided. Shown on screen is axe-core's `isVisibleOnScreen`, which reads
    what is drawn, not the accessibility tree: a dialog marked `aria-hidden="true"` (as closed
    modals often are, hidden by a style sheet besides) still counts. (axe-core also counts a
    positioned element covering 75% of the viewport as a modal: only layout shows that.)"""
    if found:
        return True
    hidden = page.hidden
    dialogs = (
        e
        for e in page.document.having(("role", "aria-*"), ("dialog",))
        if (e.tag == "dialog" or e.get("role") == "dialog" or e.get("aria-modal") == "true")
        and not hidden.to_everyone(e)
    )
    return None if any(True for _ in dialogs) else False


def page_has_heading_one(page: Page) -> Iterator[Outcome]:
    found = any(_level_one(e) for e in page.shown_having(("role",), _LEVELS))
    decided = _page_has(page, found)
    return verdicts(RuleId.PAGE_HAS_HEADING_ONE, ((root, decided) for root in _root(page)))


def _level_one(element: Element) -> bool:
    if not element.is_html:
        return False
    if element.tag == "h1" and not element.has("role") and not element.has("aria-level"):
        return True
    if element.tag in _LEVELS and not element.has("role") and element.get("aria-level") == "1":
        return True
    return element.get("role") == "heading" and element.get("aria-level") == "1"


def landmark_one_main(page: Page) -> Iterator[Outcome]:
    found = any(
        (e.tag == "main" and e.is_html and not e.has("role")) or e.get("role") == "main"
        for e in page.shown_having(("role",), ("main",))
    )
    decided = _page_has(page, found)
    return verdicts(RuleId.LANDMARK_ONE_MAIN, ((root, decided) for root in _root(page)))


def heading_level(page: Page, heading: Element) -> int:
    """axe-core's getLevel: a tag's level unless aria-level is given; an aria-level parsed as
    JavaScript's parseInt does, when 1 or more; else the tag's level, else 2."""
    value = heading.get("aria-level")
    tag_level = _LEVELS.get(heading.tag) if heading.is_html else None
    if tag_level is not None and not value:
        return tag_level
    found = re.match(r"\s*([-+]?\d+)", value or "")
    level = int(found.group(1)) if found else 0
    if level < 1:
        return tag_level or 2
    return level


def heading_order(page: Page) -> Iterator[Outcome]:
    """Each heading's level is at most one more than the previous heading's (the first always
    passes). Headings inside iframes are outside this document (axe-core walks into frames)."""
    headings = [h for h in page.shown_having(*HEADINGS) if role(page, h) == "heading"]
    decided = (
        (h, index == 0 or heading_level(page, h) - heading_level(page, headings[index - 1]) <= 1)
        for index, h in enumerate(headings)
    )
    return verdicts(RuleId.HEADING_ORDER, decided)


def duplicate_id_aria(page: Page) -> Iterator[Outcome]:
    """Ids that ARIA or a label refers to must be unique (hidden elements count). Like
    axe-core, only the first element of each id is judged. axe-core reports a failure of this
    rule as needing review (reviewOnFail); the duplicate itself is certain, so it fails here."""
    ids = page.document.ids
    # The first element of each referenced id, in document order (`ids` keeps its first
    # element; a later one of the same id is skipped): the few referenced ids sorted, not a
    # pass over every id of the page.
    values = sorted((v for v in _accessible_refs(page) if v in ids), key=_first_place(page))
    judged: set[str] = set()
    decided = []
    for value in values:
        element = ids[value]
        if value.strip() in judged:
            continue
        judged.add(value.strip())
        decided.append((element, not value.strip() or page.document.id_counts[value] == 1))
    return verdicts(RuleId.DUPLICATE_ID_ARIA, decided)


def _first_place(page: Page) -> Callable[[str], int]:
    """An id's place: its first element's position in document order."""
    ids, position = page.document.ids, page.document.position
    return lambda value: position(ids[value])


@cache
def _ref_attributes() -> frozenset[str]:
    """The ARIA attributes whose value is an ID reference or a list of them."""
    attributes = aria().attributes.items()
    return frozenset(name for name, spec in attributes if spec.get("type") in ("idref", "idrefs"))


def _accessible_refs(page: Page) -> set[str]:
    """The ids a `label for` or an ID-reference ARIA attribute names (axe-core's
    getAccessibleRefs)."""
    ref_attributes = _ref_attributes()
    found: set[str] = set()
    for element in page.document.having(("for",)):
        if element.tag == "label":
            found.add(element.get("for") or "")
    # the ARIA references are aria-* attributes (tests/a11y/test_aria_data.py holds the data to it)
    for element in page.document.with_aria:
        for name, value in element.attributes.items():
            if name in ref_attributes:
                found.update(value.split())
    return found


def tabindex(page: Page) -> Iterator[Outcome]:
    elements = iter(page.shown_having(("tabindex",)))
    decided = ((e, (parse_tabindex(e.get("tabindex")) or 0) <= 0) for e in elements)
    return verdicts(RuleId.TABINDEX, decided)


def accesskeys(page: Page) -> Iterator[Outcome]:
    """Each accesskey value (case-insensitively) is used once among shown elements. Like
    axe-core, only the first element of each value is judged: it fails when another shares it."""
    first: dict[str, Element] = {}
    repeated: set[str] = set()
    for element in page.document.having(("accesskey",)):
        if page.hidden.to_everyone(element):
            continue
        key = (element.get("accesskey") or "").upper()
        if key in first:
            repeated.add(key)
        else:
            first[key] = element
    return verdicts(RuleId.ACCESSKEYS, ((e, key not in repeated) for key, e in first.items()))


def autocomplete_valid(page: Page) -> Iterator[Outcome]:
    fields = (
        e
        for e in visible(page, page.document.by_tag("input", "select", "textarea"))
        if _autocomplete_applies(page, e)
    )
    decided = ((e, valid_autocomplete(e.get("autocomplete") or "")) for e in fields)
    return verdicts(RuleId.AUTOCOMPLETE_VALID, decided)


def _autocomplete_applies(page: Page, element: Element) -> bool:
    """axe-core's autocomplete-matches."""
    if not sanitize(element.get("autocomplete") or ""):
        return False
    if element.has("readonly") or (element.get("aria-readonly") or "").lower() == "true":
        return False
    if element.tag == "input" and input_type(element) in ("submit", "reset", "button", "hidden"):
        return False
    if element.has("disabled") or (element.get("aria-disabled") or "").lower() == "true":
        return False
    tab = parse_tabindex(element.get("tabindex"))
    if tab is not None and tab < 0 and element.has("role"):
        spec = aria().roles.get(explicit_role(element) or "")
        if spec is None or spec.get("type") != "widget":
            return False
    return True


_STATE_TERMS = ("none", "false", "true", "disabled", "enabled", "undefined", "null", "xoff", "xon")
_IGNORED = ("text", "pronouns", "gender", "message", "content")


def valid_autocomplete(value: str) -> bool | None:
    """axe-core's isValidAutocomplete with the autocomplete-valid check's options (WHATWG
    "autofill detail tokens"); None for the purposes axe-core asks a review of."""
    terms_data = aria().autocomplete
    text = value.lower().strip()
    if text in (*_STATE_TERMS, *terms_data["stateTerms"]) or text == "":
        return True
    terms = text.split()
    if terms[-1] == "webauthn":
        terms.pop()
        if not terms:
            return False
    if len(terms[0]) > 8 and terms[0].startswith("section-"):
        terms.pop(0)
    if terms and terms[0] in terms_data["locations"]:
        terms.pop(0)
    if terms and terms[0] in terms_data["qualifiers"]:
        terms.pop(0)
        purpose = terms_data["qualifiedTerms"]
    else:
        purpose = [*terms_data["qualifiedTerms"], *terms_data["standaloneTerms"]]
    if len(terms) != 1:
        return False
    if terms[0] in _IGNORED:
        return None
    return terms[0] in purpose
