"""ARIA roles and attributes (WCAG 4.1.2, 1.3.1): aria-valid-attr, aria-valid-attr-value,
aria-roles, aria-allowed-attr, aria-required-attr, aria-required-children,
aria-required-parent, presentation-role-conflict, nested-interactive."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from functools import cache

from a11y.aria import aria
from a11y.findings import Outcome
from a11y.page import Page
from a11y.roles import (
    PRESENTATIONAL,
    element_spec,
    explicit_role,
    has_global_aria,
    implicit_role,
    is_focusable,
    is_valid_role,
    role,
    tags_of_roles,
)
from a11y.rule_base import failure, verdicts
from a11y.rule_ids import RuleId
from a11y.tree import Element

_DECIMAL = re.compile(r"^[-+]?([0-9]*)\.?([0-9]*)$")
_INT = re.compile(r"^[-+]?[0-9]+$")
# aria-required-children: roles whose empty content asks for a review (the check's options).
_REVIEW_EMPTY = frozenset(
    "doc-bibliography doc-endnotes grid list listbox menu menubar table tablist tree treegrid "
    "rowgroup".split()
)
_OWN_GROUP_ROLES = ("listitem", "treeitem")


def _aria_names(element: Element) -> list[str]:
    return [name for name in element.attributes if name.startswith("aria-")]


def _with_aria(page: Page) -> Iterator[Element]:
    return iter(page.with_aria())


def aria_valid_attr(page: Page) -> Iterator[Outcome]:
    known = aria().attributes
    decided = ((e, all(n in known for n in _aria_names(e))) for e in _with_aria(page))
    return verdicts(RuleId.ARIA_VALID_ATTR, decided)


def valid_value(page: Page, element: Element, name: str) -> bool:
    """axe-core's validateAttrValue: the value fits the attribute's type."""
    spec = aria().attributes.get(name)
    value = element.get(name) or ""
    if spec is None:
        return True
    if spec.get("allowEmpty") and not value.strip():
        return True
    kind = spec.get("type")
    values = spec.get("values") or []
    assert isinstance(values, list)
    if kind == "boolean":
        return value.lower() in ("true", "false")
    if kind == "nmtoken":
        return value.lower() in values
    if kind == "nmtokens":
        tokens = value.split()
        return bool(tokens) and all(token in values for token in tokens)
    if kind == "idref":
        return bool(value) and page.document.by_id(value) is not None
    if kind == "idrefs":
        return bool(page.document.idrefs(element, name))
    if kind == "string":
        return value.strip() != ""
    if kind == "decimal":
        found = _DECIMAL.match(value)
        return bool(found and (found.group(1) or found.group(2)))
    if kind == "int":
        minimum = spec.get("minValue")
        low = minimum if isinstance(minimum, int) else None
        return bool(_INT.match(value)) and (low is None or int(value) >= low)
    return True


def aria_valid_attr_value(page: Page) -> Iterator[Outcome]:
    return verdicts(
        RuleId.ARIA_VALID_ATTR_VALUE, ((e, _values_valid(page, e)) for e in _with_aria(page))
    )


def _values_valid(page: Page, element: Element) -> bool | None:
    review = False
    for name in _aria_names(element):
        if name == "aria-errormessage":
            continue
        valid = valid_value(page, element, name)
        counts, asks = _precheck(element, name, valid)
        review = review or asks
        if counts and not valid:
            spec = aria().attributes.get(name, {})
            if element.get(name) == "" and spec.get("type") != "string":
                review = True
            else:
                return False
    errormessage = _errormessage(page, element)
    if errormessage is False:
        return False
    level = _level_ok(element)
    if review or errormessage is None or level is None:
        return None
    return True


def _precheck(element: Element, name: str, valid: bool) -> tuple[bool, bool]:
    """(whether an invalid value counts as invalid, whether it asks for a review instead), as
    axe-core's preChecks for the attributes whose target may be created later by script."""
    if name == "aria-controls":
        popup = element.get("aria-haspopup") not in (None, "false")
        counts = (
            element.get("aria-expanded") != "false"
            and element.get("aria-selected") != "false"
            and not popup
        )
        return counts, popup and not valid
    if name in ("aria-current", "aria-describedby", "aria-labelledby"):
        return False, not valid
    if name == "aria-owns":
        return element.get("aria-expanded") != "false", False
    return True, False


def _errormessage(page: Page, element: Element) -> bool | None:
    invalid = element.get("aria-invalid")
    if invalid is None or invalid == "false" or not element.has("aria-errormessage"):
        return True
    value = element.get("aria-errormessage") or ""
    if not value.strip():
        return bool(aria().attributes["aria-errormessage"].get("allowEmpty"))
    tokens = value.split()
    if len(tokens) > 1:
        return False
    target = page.document.by_id(tokens[0])
    if target is None:
        return None
    if page.hidden.to_assistive_tech(target):
        return False
    described = (element.get("aria-describedby") or "").split()
    return (
        explicit_role(target) == "alert"
        or target.get("aria-live") in ("assertive", "polite")
        or tokens[0] in described
    )


def _level_ok(element: Element) -> bool | None:
    found = re.match(r"\s*[-+]?\d+", element.get("aria-level") or "")
    return None if found and int(found.group()) > 6 else True


def aria_roles(page: Page) -> Iterator[Outcome]:
    elements = (e for e in page.shown_having(("role",)) if (e.get("role") or "").strip())
    return verdicts(RuleId.ARIA_ROLES, ((e, _roles_ok(e)) for e in elements))


def _roles_ok(element: Element) -> bool:
    tokens = (element.get("role") or "").split()
    if all(not is_valid_role(t.lower(), abstract=True) for t in tokens):
        return False  # invalidrole
    if any(aria().roles.get(t, {}).get("type") == "abstract" for t in tokens):
        return False  # abstractrole
    first = next((t.lower() for t in tokens if is_valid_role(t.lower())), None)
    return not (first and aria().roles[first].get("unsupported"))


def allowed_attributes(found: str | None) -> set[str]:
    """axe-core's allowedAttr: the global attributes and the role's allowed and required."""
    allowed = set(aria().global_attributes)
    spec = aria().roles.get(found or "")
    if spec:
        allowed.update(spec.get("allowedAttrs", []))
        allowed.update(spec.get("requiredAttrs", []))
    return allowed


def aria_allowed_attr(page: Page) -> Iterator[Outcome]:
    return verdicts(
        RuleId.ARIA_ALLOWED_ATTR, ((e, _attrs_allowed(page, e)) for e in _with_aria(page))
    )


def _attrs_allowed(page: Page, element: Element) -> bool | None:
    found = role(page, element)
    allowed = allowed_attributes(found)
    known = aria().attributes
    invalid = [n for n in _aria_names(element) if n in known and n not in allowed]
    invalid = [n for n in invalid if not _ignored(element, n)]
    if invalid:
        if found is None and not element.is_html and not is_focusable(page, element):
            return None
        return False
    case = _case_sensitive(element)
    if case is not True:
        return case
    if not _allowed_on_element(page, element):
        return False
    if any(known.get(n, {}).get("deprecated") for n in _aria_names(element)):
        return None
    return True


def _ignored(element: Element, name: str) -> bool:
    value = element.get(name)
    if name == "aria-required" and value == "false":
        return True
    return name == "aria-multiline" and value == "false" and element.has("contenteditable")


_FALLBACK_VALUES = {"aria-current": "true", "aria-required": "true", "aria-readonly": "true"}


def _case_sensitive(element: Element) -> bool | None:
    review = False
    for name in _aria_names(element):
        spec = aria().attributes.get(name)
        value = element.get(name) or ""
        if spec is None or spec.get("caseInsensitive") is not False:
            continue
        if not value or value == value.lower():
            continue
        default = _FALLBACK_VALUES.get(name, spec.get("defaultValue"))
        if value.lower() == default:
            review = True
            continue
        return False
    return None if review else True


def _allowed_on_element(page: Page, element: Element) -> bool:
    """aria-allowed-attr-elm: elements that allow only some ARIA attributes (input hidden)."""
    allowed = element_spec(page, element).get("allowedAriaAttrs")
    if not isinstance(allowed, list) or explicit_role(element):
        return True
    present = (n for n in _aria_names(element) if n in aria().global_attributes)
    return all(name in allowed for name in present)


def aria_required_attr(page: Page) -> Iterator[Outcome]:
    elements = iter(page.shown_having(("role",)))
    return verdicts(RuleId.ARIA_REQUIRED_ATTR, ((e, _required(page, e)) for e in elements))


def _required(page: Page, element: Element) -> bool:
    found = explicit_role(element)
    spec = aria().roles.get(found or "", {})
    required = spec.get("requiredAttrs", [])
    if not found or not required:
        return True
    if found == "separator" and not is_focusable(page, element):
        return True
    if found == "combobox" and element.get("aria-expanded") == "false":
        return True
    if found == "slider" and element.get("aria-valuetext"):
        return True
    implicit = element_spec(page, element).get("implicitAttrs") or {}
    assert isinstance(implicit, dict)
    return all(element.get(name) or name in implicit for name in required)


def aria_required_children(page: Page) -> Iterator[Outcome]:
    elements = (
        e
        for e in page.shown_having(("role",))  # explicit_role needs one
        if aria().roles.get(explicit_role(e, dpub=True) or "", {}).get("requiredOwned")
    )
    return verdicts(RuleId.ARIA_REQUIRED_CHILDREN, ((e, _children_ok(page, e)) for e in elements))


def _owned(page: Page, element: Element) -> list[Element | str]:
    """The element's children, then the elements its aria-owns names (axe-core's
    getOwnedVirtual)."""
    owned: list[Element | str] = list(element.children)
    owned.extend(page.document.idrefs(element, "aria-owns"))
    return owned


def _children_ok(page: Page, element: Element) -> bool | None:
    parent_role = explicit_role(element, dpub=True) or ""
    required = aria().roles[parent_role].get("requiredOwned", [])
    owned_roles: list[tuple[str | None, Element | str]] = []
    queue: deque[Element | str] = deque(_owned(page, element))
    while queue:
        node = queue.popleft()
        if isinstance(node, str):
            owned_roles.append((None, node))
            continue
        if page.hidden.to_assistive_tech(node):
            continue
        found = role(page, node)
        found = None if found in PRESENTATIONAL else found
        conflict = has_global_aria(node) or is_focusable(page, node)
        if (found is None and not conflict) or (
            found in ("group", "rowgroup") and found in required
        ):
            queue.extend(node.children)
        else:
            owned_roles.append((found, node))
    for found, node in owned_roles:
        if isinstance(node, Element) and found not in required:
            context = aria().roles.get(found or "", {}).get("requiredContext") or []
            if parent_role not in context:
                return False
    if any(found in required for found, _ in owned_roles if found):
        return True
    if element.get("aria-busy") == "true":
        return True
    if parent_role in _REVIEW_EMPTY and not any(_is_content(n) for _, n in owned_roles):
        return None
    return False


def _is_content(node: Element | str) -> bool:
    """Owned content that makes an empty required-children container definite: text, or an
    element (axe-core's hasContentVirtual needs its layout, so any element counts here)."""
    return node.strip() != "" if isinstance(node, str) else True


def aria_required_parent(page: Page) -> Iterator[Outcome]:
    elements = (
        e
        for e in page.shown_having(("role",))  # explicit_role needs one
        if aria().roles.get(explicit_role(e) or "", {}).get("requiredContext")
    )
    return verdicts(RuleId.ARIA_REQUIRED_PARENT, ((e, _parent_ok(page, e)) for e in elements))


def _missing_context(
    page: Page, element: Element, context: list[str], include_self: bool
) -> list[str] | None:
    own = explicit_role(element)
    node: Element | None = element if include_self else page.document.parent(element)
    while node is not None:
        found = role(page, node)
        found = None if found in PRESENTATIONAL else found
        if found is None:
            node = page.document.parent(node)
        elif found == "group" and "group" in context:
            if own in _OWN_GROUP_ROLES:
                context = [*context, own or ""]
            context = [r for r in context if r != "group"]
            node = page.document.parent(node)
        elif found in context:
            return None
        else:
            return context
    return context


def _parent_ok(page: Page, element: Element) -> bool:
    context = list(aria().roles[explicit_role(element) or ""].get("requiredContext", []))
    missing = _missing_context(page, element, context, include_self=False)
    if missing is None:
        return True
    for owner in _owners(page, element):
        missing = _missing_context(page, owner, missing, include_self=True)
        if missing is None:
            return True
    return False


def _owners(page: Page, element: Element) -> list[Element]:
    """The first element whose aria-owns names the element or each of its ancestors."""
    owners = []
    node: Element | None = element
    while node is not None:
        node_id = node.get("id")
        if node_id:
            owner = page.document.owner(node_id)
            if owner is not None:
                owners.append(owner)
        node = page.document.parent(node)
    return owners


def presentation_role_conflict(page: Page) -> Iterator[Outcome]:
    """Elements marked presentational (role none/presentation, or img alt="") with an implicit
    role must not be focusable nor carry a global ARIA attribute, which undo the marking."""
    elements = (
        e
        for e in page.shown_having(("alt", "role"))
        if ((e.tag == "img" and e.get("alt") == "") or (e.get("role") in ("none", "presentation")))
        and implicit_role(page, e) is not None
    )
    decided = ((e, not (is_focusable(page, e) or has_global_aria(e))) for e in elements)
    return verdicts(RuleId.PRESENTATION_ROLE_CONFLICT, decided)


def nested_interactive(page: Page) -> Iterator[Outcome]:
    """Controls whose children are presentational (buttons, checkboxes, ...) must not hold
    focusable content, which assistive technology cannot reach."""
    elements = (
        e
        for e in page.shown_having(("role",), tags_of_roles(_children_presentational()))
        if aria().roles.get(role(page, e) or "", {}).get("childrenPresentational")
    )
    return verdicts(
        RuleId.NESTED_INTERACTIVE, ((e, not _focusable_inside(page, e)) for e in elements)
    )


def nested_interactive_failures(page: Page) -> Iterator[Outcome]:
    """nested-interactive's failures: an element holding no element (an image, a button of
    text) has nothing focusable inside and passes without its role asked."""
    for element in page.shown_having(("role",), tags_of_roles(_children_presentational())):
        if all(type(child) is str for child in element.children):
            continue
        found = role(page, element) or ""
        if aria().roles.get(found, {}).get("childrenPresentational") and _focusable_inside(
            page, element
        ):
            yield failure(RuleId.NESTED_INTERACTIVE, element)


@cache
def _children_presentational() -> frozenset[str]:
    """The roles whose children are presentational (button, checkbox, img, ...)."""
    return frozenset(r for r, spec in aria().roles.items() if spec.get("childrenPresentational"))


def _focusable_inside(page: Page, element: Element) -> bool:
    """A focusable descendant with a widget role (axe-core's getFocusableDescendants)."""
    for child in element.elements:
        found = role(page, child)
        widget = aria().roles.get(found or "", {}).get("type") == "widget"
        if (widget and is_focusable(page, child)) or _focusable_inside(page, child):
            return True
    return False
