"""Names of controls and headings (WCAG 4.1.2, 2.4.4, 3.3.2): button-name, input-button-name,
link-name, label, select-name, form-field-multiple-labels, empty-heading."""

from __future__ import annotations

from collections.abc import Iterator

from a11y import checks
from a11y.accname import accessible_name, content_text, link_named_at_once
from a11y.findings import Outcome
from a11y.page import Page
from a11y.roles import parse_tabindex, role
from a11y.rule_base import (
    HEADINGS,
    any_of,
    any_passes,
    failure,
    no_explicit_name_required,
    verdicts,
    visible,
)
from a11y.rule_ids import RuleId
from a11y.tree import Element

_NOT_LABELLED_INPUTS = frozenset({"hidden", "image", "button", "submit", "reset"})
# What names a button or a form control besides its own content or value.
_CONTROL_NAME = (
    *checks.AUTHOR_NAME,
    checks.implicit_label,
    checks.explicit_label,
    checks.presentational,
)


def button_name(page: Page) -> Iterator[Outcome]:
    buttons = (
        b
        for b in visible(page, page.document.by_tag("button"))
        if no_explicit_name_required(page, b)
    )
    return any_of(RuleId.BUTTON_NAME, page, buttons, checks.has_text, *_CONTROL_NAME)


def _value_if_present(page: Page, element: Element) -> bool:
    """non-empty-if-present: a submit or reset button without a value has its default label."""
    raw = (element.get("type") or "").lower()
    return raw in ("submit", "reset") and not element.has("value")


def _value(page: Page, element: Element) -> bool:
    return checks.non_empty(element, "value")


def input_button_name(page: Page) -> Iterator[Outcome]:
    # axe-core's selector, `input[type="button"]`, compares exactly (its own selector engine).
    inputs = (
        e
        for e in visible(page, page.document.by_tag("input"))
        if e.get("type") in ("button", "submit", "reset") and no_explicit_name_required(page, e)
    )
    return any_of(RuleId.INPUT_BUTTON_NAME, page, inputs, _value_if_present, _value, *_CONTROL_NAME)


def _raw_type(element: Element) -> str:
    """The type attribute lower-cased, as axe-core's label-matches reads it. (Its selectors,
    `input[type="button"]`, compare exactly: axe-core's own selector engine.)"""
    return (element.get("type") or "").lower()


def link_name(page: Page) -> Iterator[Outcome]:
    links = visible(page, page.document.by_tag("a"))
    decided = ((link, _link_named(page, link)) for link in links if link.has("href"))
    return verdicts(RuleId.LINK_NAME, decided)


def link_name_failures(page: Page) -> Iterator[Outcome]:
    """link-name's failures: most links are decided by their content at once
    (`link_named_at_once`), without their name computed."""
    for link in visible(page, page.document.by_tag("a")):
        if not link.has("href"):
            continue
        passed = link_named_at_once(page, link)
        if passed is None:
            passed = _link_named(page, link)
        if passed is False:
            yield failure(RuleId.LINK_NAME, link)


def _link_named(page: Page, link: Element) -> bool | None:
    in_tab_order = (parse_tabindex(link.get("tabindex")) or 0) > -1
    if in_tab_order and not accessible_name(page, link):
        return False  # focusable-no-name
    return any_passes(
        page, link, checks.has_text, checks.aria_label, checks.aria_labelledby, checks.title
    )


def _placeholder(page: Page, element: Element) -> bool:
    return checks.non_empty(element, "placeholder")


def _form_fields(page: Page, *tags: str) -> Iterator[Element]:
    """axe-core's label-matches: inputs other than hidden, image and the buttons."""
    for element in visible(page, page.document.by_tag(*tags)):
        if (
            element.tag != "input"
            or not element.has("type")
            or _raw_type(element) not in _NOT_LABELLED_INPUTS
        ):
            yield element


def label(page: Page) -> Iterator[Outcome]:
    decided = (
        (field, _labelled(page, field, True)) for field in _form_fields(page, "input", "textarea")
    )
    return verdicts(RuleId.LABEL, decided)


def select_name(page: Page) -> Iterator[Outcome]:
    selects = visible(page, page.document.by_tag("select"))
    return verdicts(RuleId.SELECT_NAME, ((s, _labelled(page, s, False)) for s in selects))


def _labelled(page: Page, field: Element, placeholder: bool) -> bool | None:
    if checks.hidden_explicit_label(page, field):
        return False
    extra = (_placeholder,) if placeholder else ()
    return any_passes(page, field, *_CONTROL_NAME, *extra)


def form_field_multiple_labels(page: Page) -> Iterator[Outcome]:
    """Passes with at most one label. More than one asks for a review in axe-core (the
    labels may be shown and read differently), so it is left undecided here too."""
    fields = _form_fields(page, "input", "select", "textarea")
    return verdicts(
        RuleId.FORM_FIELD_MULTIPLE_LABELS,
        ((field, _one_label(page, field)) for field in fields),
    )


def _one_label(page: Page, field: Element) -> bool | None:
    element_id = field.get("id")
    explicit = page.document.labels_for(element_id) if element_id is not None else []
    labels = [lb for lb in explicit if not page.hidden.to_everyone(lb)]
    labels += [a for a in page.document.ancestors(field) if a.tag == "label" and a not in labels]
    return True if len(labels) <= 1 else None


def empty_heading(page: Page) -> Iterator[Outcome]:
    headings = (h for h in page.shown_having(*HEADINGS) if role(page, h) == "heading")
    return any_of(RuleId.EMPTY_HEADING, page, headings, checks.has_text, *checks.AUTHOR_NAME)


def empty_heading_failures(page: Page) -> Iterator[Outcome]:
    """empty-heading's failures: a heading whose content shows text (`content_text`, as
    `subtree_name` reads it) passes has-visible-text, the first check, whatever its role, so
    neither its role nor its name is asked."""
    for heading in page.shown_having(*HEADINGS):
        if content_text(page, heading):
            continue
        if role(page, heading) == "heading" and (
            any_passes(page, heading, checks.has_text, *checks.AUTHOR_NAME) is False
        ):
            yield failure(RuleId.EMPTY_HEADING, heading)
