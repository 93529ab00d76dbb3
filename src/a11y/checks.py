"""The checks axe-core's rules share (lib/checks/), each a predicate over one element: the
"any of these passes" alternatives of the naming rules and the facts several rules test."""

from __future__ import annotations

from a11y.accname import _Context, _labelledby, accessible_name, labels_of, sanitize, shows_text
from a11y.aria import aria
from a11y.page import Page
from a11y.roles import PRESENTATIONAL, explicit_role, has_global_aria, is_focusable, role
from a11y.tree import Element


def non_empty(element: Element, attribute: str) -> bool:
    """axe-core's attr-non-space-content: the attribute holds more than white space."""
    return bool(sanitize(element.get(attribute) or ""))


def aria_label(page: Page, element: Element) -> bool:
    return non_empty(element, "aria-label")


def aria_labelledby(page: Page, element: Element) -> bool:
    return bool(sanitize(_labelledby(page, element, _Context(start=element))))


def title(page: Page, element: Element) -> bool:
    return non_empty(element, "title")


def has_text(page: Page, element: Element) -> bool:
    """has-visible-text / button-has-visible-text: text from the element's content."""
    return shows_text(page, element)


def presentational(page: Page, element: Element) -> bool:
    """presentational-role: the element's role is none or presentation (an iframe with a title
    never counts)."""
    if (
        element.tag in ("iframe", "frame")
        and explicit_role(element) in PRESENTATIONAL
        and element.has("title")
    ):
        return False
    return role(page, element) in PRESENTATIONAL


def implicit_label(page: Page, element: Element) -> bool:
    label = next((a for a in page.document.ancestors(element) if a.tag == "label"), None)
    if label is None:
        return False
    return bool(_label_name(page, label, element))


def explicit_label(page: Page, element: Element) -> bool | None:
    """explicit-label: a `label for` names the element. A label not visible on screen passes in
    axe-core; the markup decides only the hidden cases a11y.hidden knows, so a label whose text
    is empty and whose visibility needs layout is undecided (None)."""
    element_id = element.get("id")
    if not element_id:
        return False
    labels = page.document.labels_for(element_id)
    if not labels:
        return False
    if any(page.hidden.to_everyone(label) for label in labels):
        return True
    return any(_label_name(page, label, element) for label in labels)


def _label_name(page: Page, label: Element, control: Element) -> str:
    from a11y.accname import _text

    return sanitize(_text(page, label, _Context(start=control, in_control=True)))


def hidden_explicit_label(page: Page, element: Element) -> bool:
    """hidden-explicit-label: the first `label for` is hidden from assistive technology and the
    element has no name."""
    element_id = element.get("id")
    if not element_id:
        return False
    label = next(iter(page.document.labels_for(element_id)), None)
    if label is None or not page.hidden.to_assistive_tech(label):
        return False
    return accessible_name(page, element) == ""


def all_labels(page: Page, element: Element) -> list[Element]:
    return labels_of(page, element)


def global_aria_or_focusable(page: Page, element: Element) -> bool:
    return has_global_aria(element) or is_focusable(page, element)


def role_type(page: Page, element: Element) -> str | None:
    found = role(page, element)
    spec = aria().roles.get(found) if found else None
    return spec.get("type") if spec else None


# The alternatives most naming rules accept: aria-labelledby, aria-label, title.
AUTHOR_NAME = (aria_label, aria_labelledby, title)
