"""The static rules, by axe-core rule id, and running them over a page."""

from __future__ import annotations

from collections.abc import Sequence

from a11y import rules_aria, rules_document, rules_names, rules_structure, rules_text
from a11y.findings import Finding, Outcome, finding
from a11y.page import Page
from a11y.rule_base import Rule
from a11y.rule_ids import RuleId
from a11y.tree import DocumentOrder, Element, StyleSheet

RULES: dict[RuleId, Rule] = {
    RuleId.IMAGE_ALT: rules_text.image_alt,
    RuleId.INPUT_IMAGE_ALT: rules_text.input_image_alt,
    RuleId.AREA_ALT: rules_text.area_alt,
    RuleId.OBJECT_ALT: rules_text.object_alt,
    RuleId.SVG_IMG_ALT: rules_text.svg_img_alt,
    RuleId.ROLE_IMG_ALT: rules_text.role_img_alt,
    RuleId.BUTTON_NAME: rules_names.button_name,
    RuleId.INPUT_BUTTON_NAME: rules_names.input_button_name,
    RuleId.LINK_NAME: rules_names.link_name,
    RuleId.LABEL: rules_names.label,
    RuleId.SELECT_NAME: rules_names.select_name,
    RuleId.FORM_FIELD_MULTIPLE_LABELS: rules_names.form_field_multiple_labels,
    RuleId.FRAME_TITLE: rules_text.frame_title,
    RuleId.DOCUMENT_TITLE: rules_document.document_title,
    RuleId.HTML_HAS_LANG: rules_document.html_has_lang,
    RuleId.HTML_LANG_VALID: rules_document.html_lang_valid,
    RuleId.VALID_LANG: rules_document.valid_lang,
    RuleId.HTML_XML_LANG_MISMATCH: rules_document.html_xml_lang_mismatch,
    RuleId.DUPLICATE_ID_ARIA: rules_document.duplicate_id_aria,
    RuleId.ARIA_VALID_ATTR: rules_aria.aria_valid_attr,
    RuleId.ARIA_VALID_ATTR_VALUE: rules_aria.aria_valid_attr_value,
    RuleId.ARIA_ROLES: rules_aria.aria_roles,
    RuleId.ARIA_ALLOWED_ATTR: rules_aria.aria_allowed_attr,
    RuleId.ARIA_REQUIRED_ATTR: rules_aria.aria_required_attr,
    RuleId.ARIA_REQUIRED_CHILDREN: rules_aria.aria_required_children,
    RuleId.ARIA_REQUIRED_PARENT: rules_aria.aria_required_parent,
    RuleId.ARIA_HIDDEN_BODY: rules_document.aria_hidden_body,
    RuleId.PRESENTATION_ROLE_CONFLICT: rules_aria.presentation_role_conflict,
    RuleId.NESTED_INTERACTIVE: rules_aria.nested_interactive,
    RuleId.META_REFRESH: rules_document.meta_refresh,
    RuleId.META_VIEWPORT: rules_document.meta_viewport,
    RuleId.LIST: rules_structure.list_rule,
    RuleId.LISTITEM: rules_structure.listitem,
    RuleId.DEFINITION_LIST: rules_structure.definition_list,
    RuleId.DLITEM: rules_structure.dlitem,
    RuleId.TD_HEADERS_ATTR: rules_structure.td_headers_attr,
    RuleId.TH_HAS_DATA_CELLS: rules_structure.th_has_data_cells,
    RuleId.SCOPE_ATTR_VALID: rules_structure.scope_attr_valid,
    RuleId.TABINDEX: rules_document.tabindex,
    RuleId.ACCESSKEYS: rules_document.accesskeys,
    RuleId.SERVER_SIDE_IMAGE_MAP: rules_text.server_side_image_map,
    RuleId.MARQUEE: rules_text.marquee,
    RuleId.BLINK: rules_text.blink,
    RuleId.EMPTY_HEADING: rules_names.empty_heading,
    RuleId.HEADING_ORDER: rules_document.heading_order,
    RuleId.PAGE_HAS_HEADING_ONE: rules_document.page_has_heading_one,
    RuleId.LANDMARK_ONE_MAIN: rules_document.landmark_one_main,
    RuleId.AUTOCOMPLETE_VALID: rules_document.autocomplete_valid,
}


# The rules with a failures-only path: the same failures as RULES' outcomes without the
# passes, found with less work (most of the rules' work went to the passes, which the crawl
# drops). tests/a11y/test_failures.py holds each equal to its rule's failed outcomes.
FAILURES: dict[RuleId, Rule] = {
    RuleId.LINK_NAME: rules_names.link_name_failures,
    RuleId.LIST: rules_structure.list_failures,
    RuleId.LISTITEM: rules_structure.listitem_failures,
    RuleId.IMAGE_ALT: rules_text.image_alt_failures,
    RuleId.EMPTY_HEADING: rules_names.empty_heading_failures,
    RuleId.NESTED_INTERACTIVE: rules_aria.nested_interactive_failures,
}


def outcomes(page: Page, only: tuple[RuleId, ...] = tuple(RuleId)) -> list[Outcome]:
    """Every decided outcome of the chosen rules, rule by rule in document order."""
    return [outcome for rule in only for outcome in RULES[rule](page)]


def failures(page: Page, only: tuple[RuleId, ...] = tuple(RuleId)) -> list[Outcome]:
    """The failed outcomes of the chosen rules, as `outcomes` orders them: a rule's
    failures-only path where it has one (FAILURES), else its outcomes without the passes."""
    found: list[Outcome] = []
    for rule in only:
        fast = FAILURES.get(rule)
        if fast is not None:
            found += fast(page)
        else:
            found += [o for o in RULES[rule](page) if not o.passed]
    return found


def audit(
    root: Element,
    order: DocumentOrder | None = None,
    style_sheets: Sequence[StyleSheet] | None = None,
) -> list[Finding]:
    """The failures of every rule on the document rooted at `root` (`order`, `style_sheets`: as
    `Page` takes them)."""
    return first_failures(root, None, order, style_sheets)[0]


def first_failures(
    root: Element,
    keep: int | None,
    order: DocumentOrder | None = None,
    style_sheets: Sequence[StyleSheet] | None = None,
) -> tuple[list[Finding], int]:
    """The first `keep` failures (all, with None) as findings, and how many failed in all: a
    finding's selector and snippet are made only for those a record keeps. `order`: the tree's
    elements in document order with their parents, where its construction kept them (`Page`)."""
    page = Page(root, order=order, style_sheets=style_sheets)
    failed = failures(page)
    return [finding(page.document, o) for o in failed[:keep]], len(failed)
