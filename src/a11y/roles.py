"""An element's role, as axe-core 4.14.1 resolves it (lib/commons/aria/get-role.js,
get-explicit-role.js, implicit-role.js, lib/commons/standards/implicit-html-roles.js), and the
element facts the roles depend on (focusable, the element's spec variant, input types)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Final

from a11y.aria import RoleSpec, aria
from a11y.page import Page
from a11y.tree import Element

PRESENTATIONAL = frozenset({"presentation", "none"})
_INPUT_TYPES = frozenset(
    "button checkbox color date datetime-local email file hidden image month number password "
    "radio range reset search submit tel text time url week".split()
)
# axe-core's get-role.js: an element whose required parent is presentational is presentational.
_INHERITS_PRESENTATION = {
    "td": ("tr",),
    "th": ("tr",),
    "tr": ("thead", "tbody", "tfoot", "table"),
    "thead": ("table",),
    "tbody": ("table",),
    "tfoot": ("table",),
    "li": ("ol", "ul"),
    "dt": ("dl", "div"),
    "dd": ("dl", "div"),
    "div": ("dl",),
}
_DISABLEABLE = frozenset(
    {"button", "fieldset", "optgroup", "option", "select", "textarea", "input"}
)
_SECTIONING = frozenset({"article", "aside", "nav", "section"})


def input_type(element: Element) -> str:
    """The input's type property: its lower-cased attribute, `text` when missing or unknown."""
    value = (element.get("type") or "").strip().lower()
    return value if value in _INPUT_TYPES else "text"


def is_valid_role(role: str, *, abstract: bool = False) -> bool:
    spec = aria().roles.get(role)
    return spec is not None and (abstract or spec.get("type") != "abstract")


def explicit_role(element: Element, *, dpub: bool = False) -> str | None:
    """The role attribute's value when it is one valid, non-abstract role. axe-core reads the
    whole attribute as one token (no fallback roles) and, unless asked (`dpub`), ignores the
    DPUB-ARIA `doc-` roles, so `getRole` gives such an element its implicit role."""
    value = element.attributes.get("role")
    if value is None:  # most elements: asked for every element by several rules
        return None
    value = value.strip().lower()
    if value.startswith("doc-") and not dpub:
        return None
    return value if is_valid_role(value) else None


def is_focusable(page: Page, element: Element) -> bool:
    """Focusable by the markup: natively, or through a tabindex (axe-core's isFocusable)."""
    if _focus_disabled(page, element):
        return False
    if _natively_focusable(element):
        return True
    return parse_tabindex(element.get("tabindex")) is not None


def _natively_focusable(element: Element) -> bool:
    tag = element.tag
    if not element.is_html:
        return False
    if tag in ("a", "area"):
        return element.has("href")
    if tag == "input":
        return input_type(element) != "hidden"
    if tag in ("textarea", "select", "summary", "button"):
        return True
    if tag == "details":
        return not any(child.tag == "summary" for child in element.elements)
    return False


def _focus_disabled(page: Page, element: Element) -> bool:
    if element.tag in _DISABLEABLE and element.has("disabled"):
        return True
    if page.hidden.to_everyone(element):
        return True
    # An inert element or ancestor: none on most pages, where the walk up is skipped (the
    # document's index lists every element carrying `inert`).
    if page.document.carrying("inert") and (
        element.has("inert") or any(a.has("inert") for a in page.document.ancestors(element))
    ):
        return True
    return _in_disabled_fieldset(page, element)


def _in_disabled_fieldset(page: Page, element: Element) -> bool:
    if element.tag not in _DISABLEABLE:
        return False
    for ancestor in page.document.ancestors(element):
        if ancestor.tag == "legend":
            return False
        if ancestor.tag == "fieldset" and ancestor.has("disabled"):
            return True
    return False


def parse_tabindex(value: str | None) -> int | None:
    """HTML's rules for parsing integers, as axe-core's parseTabindex applies them."""
    if value is None:
        return None
    text = value.strip()
    digits = text.lstrip("+-")
    end = len(digits) - len(digits.lstrip("0123456789"))
    if end == 0:
        return None
    number = int(digits[:end] if end else "0")
    return -number if text.startswith("-") else number


def has_global_aria(element: Element) -> bool:
    return not aria().global_attributes.isdisjoint(element.attributes)


_UNKNOWN: Final = "?"  # no role is spelled so: not yet resolved


def role(page: Page, element: Element) -> str | None:
    """The element's role (axe-core's getRole): explicit, unless presentational with a conflict
    (focusable or a global ARIA attribute), then the implicit role."""
    key = id(element)
    found = page.roles.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        found = page.roles[key] = _resolve_role(page, element)
    return found


def _resolve_role(page: Page, element: Element) -> str | None:
    explicit = explicit_role(element)
    if explicit is None:
        return _implicit_resolved(page, element)
    if explicit not in PRESENTATIONAL:
        return explicit
    if has_global_aria(element) or is_focusable(page, element):
        return None if "-" in element.tag else _implicit_resolved(page, element)
    return explicit


def _implicit_resolved(page: Page, element: Element) -> str | None:
    implicit = implicit_role(page, element)
    if implicit is None:
        return None
    return _inherited_presentation(page, element) or implicit


def _inherited_presentation(page: Page, element: Element) -> str | None:
    parents = _INHERITS_PRESENTATION.get(element.tag)
    if parents is None:  # most elements: no parent lookup
        return None
    parent = page.document.parent(element)
    if parent is None or parent.tag not in parents:
        return None
    parent_role = explicit_role(parent)
    if parent_role in PRESENTATIONAL and not (
        has_global_aria(parent) or is_focusable(page, parent)
    ):
        return parent_role
    if parent_role:
        return None
    return _inherited_presentation(page, parent)


def implicit_role(page: Page, element: Element) -> str | None:
    """The HTML element's implicit role (HTML-AAM as axe-core's implicit-html-roles.js has it)."""
    if not element.is_html:
        return "graphics-document" if element.tag == "svg" else None
    known = aria().implicit_roles.get(element.tag)
    if isinstance(known, str):
        return known
    if known is None:
        return None
    return _CONDITIONAL[element.tag](page, element)


def _link(page: Page, element: Element) -> str | None:
    return "link" if element.has("href") else None


def _aside(page: Page, element: Element) -> str | None:
    inside = any(a.tag in _SECTIONING for a in page.document.ancestors(element))
    if inside and not _has_name(page, element, title=True):
        return None
    return "complementary"


def _header_footer(landmark: str) -> Callable[[Page, Element], str | None]:
    def decide(page: Page, element: Element) -> str | None:
        scoped = any(
            a.tag in _SECTIONING or a.tag == "main" or role(page, a) == "main"
            for a in page.document.ancestors(element)
        )
        return None if scoped else landmark

    return decide


def _named(landmark: str) -> Callable[[Page, Element], str | None]:
    def decide(page: Page, element: Element) -> str | None:
        return landmark if _has_name(page, element) else None

    return decide


def _img(page: Page, element: Element) -> str:
    empty_alt = element.get("alt") == ""
    if empty_alt and not has_global_aria(element) and not is_focusable(page, element):
        return "presentation"
    return "img"


def _input(page: Page, element: Element) -> str:
    kind = input_type(element)
    listed = element.has("list") and _is_datalist(page, element)
    fixed = {
        "checkbox": "checkbox",
        "number": "spinbutton",
        "radio": "radio",
        "range": "slider",
        "button": "button",
        "image": "button",
        "reset": "button",
        "submit": "button",
    }
    if kind in fixed:
        return fixed[kind]
    if kind == "search":
        return "combobox" if listed else "searchbox"
    if kind in ("text", "tel", "url", "email"):
        return "combobox" if listed else "textbox"
    return "textbox"


def _is_datalist(page: Page, element: Element) -> bool:
    targets = page.document.idrefs(element, "list")
    return bool(targets) and targets[0].tag == "datalist"


def _select(page: Page, element: Element) -> str:
    size = (element.get("size") or "").strip()
    many = element.has("multiple") or (size.isdigit() and int(size) > 1)
    return "listbox" if many else "combobox"


def _td(page: Page, element: Element) -> str:
    table = next((a for a in page.document.ancestors(element) if a.tag == "table"), None)
    grid = table is not None and explicit_role(table) in ("grid", "treegrid")
    return "gridcell" if grid else "cell"


def _th(page: Page, element: Element) -> str | None:
    from a11y.tables import is_column_header, is_row_header

    if is_column_header(page, element):
        return "columnheader"
    if is_row_header(page, element):
        return "rowheader"
    return None


def _has_name(page: Page, element: Element, *, title: bool = False) -> bool:
    """axe-core's hasAccessibleName in implicit-html-roles.js: aria-labelledby or aria-label
    (and title when asked), never the full computation, which would ask for the role again."""
    from a11y.accname import _Context, _labelledby

    if (element.get("aria-label") or "").strip():
        return True
    if title and (element.get("title") or "").strip():
        return True
    return bool(_labelledby(page, element, _Context(start=element)).strip())


_CONDITIONAL: dict[str, Callable[[Page, Element], str | None]] = {
    "a": _link,
    "area": _link,
    "aside": _aside,
    "footer": _header_footer("contentinfo"),
    "header": _header_footer("banner"),
    "form": _named("form"),
    "section": _named("region"),
    "img": _img,
    "input": _input,
    "select": _select,
    "td": _td,
    "th": _th,
}


# The roles each of _CONDITIONAL's functions can give (read off them; a11y tests hold them to it).
CONDITIONAL_ROLES: dict[str, frozenset[str]] = {
    "a": frozenset({"link"}),
    "area": frozenset({"link"}),
    "aside": frozenset({"complementary"}),
    "footer": frozenset({"contentinfo"}),
    "header": frozenset({"banner"}),
    "form": frozenset({"form"}),
    "section": frozenset({"region"}),
    "img": frozenset({"img", "presentation"}),
    "input": frozenset(
        "checkbox spinbutton radio slider button combobox searchbox textbox".split()
    ),
    "select": frozenset({"listbox", "combobox"}),
    "td": frozenset({"gridcell", "cell"}),
    "th": frozenset({"columnheader", "rowheader"}),
}


@cache
def tags_of_roles(roles: frozenset[str]) -> frozenset[str]:
    """The tags whose implicit role can be one of `roles` (none of them presentational): an
    element without a role attribute has one of `roles` only if it has one of these tags, as
    its role is then its implicit role or a presentational one it inherits. So a rule judging
    the elements of some roles reads those tags and the elements with a role attribute."""
    assert not roles & PRESENTATIONAL
    tags = {
        tag
        for tag, implicit in aria().implicit_roles.items()
        if (isinstance(implicit, str) and implicit in roles)
        or CONDITIONAL_ROLES.get(tag, frozenset()) & roles
    }
    if "graphics-document" in roles:
        tags.add("svg")  # implicit_role's one element outside HTML
    return frozenset(tags)


def role_spec(page: Page, element: Element) -> RoleSpec | None:
    found = role(page, element)
    return None if found is None else aria().roles.get(found)


def element_spec(page: Page, element: Element, *, match_name: bool = True) -> dict[str, object]:
    """The element's entry in axe-core's htmlElms with its matching variants applied, in order,
    then the default variant's keys it lacks (axe-core's getElementSpec); memoised per page
    (accessible names ask for it at every element they descend through). Read-only."""
    key = (id(element), match_name)
    spec = page.specs.get(key)
    if spec is None:
        spec = page.specs[key] = _element_spec(page, element, match_name)
    return spec


_NO_SPEC: dict[str, object] = {"contentTypes": []}


def _element_spec(page: Page, element: Element, match_name: bool) -> dict[str, object]:
    # axe-core looks the spec up by node name, whatever the namespace (an <svg> has one).
    tag = element.tag.lower()
    standard = aria().elements.get(tag)
    if standard is None:
        return _NO_SPEC
    variants = standard.get("variant")
    if not isinstance(variants, dict):
        return standard
    plan = _attribute_variants(tag)
    if plan is not None:
        attributes = element.attributes
        return _merged_spec(tag, tuple(name for name, wanted in plan if wanted in attributes))
    matched = tuple(
        name
        for name, variant in variants.items()
        if name != "default" and _variant_matches(page, element, variant, match_name)
    )
    return _merged_spec(tag, matched)


@cache
def _attribute_variants(tag: str) -> tuple[tuple[str, str], ...] | None:
    """(variant, attribute) for a tag whose every variant but the default matches on one
    attribute's presence (`a`'s `[href]`, `video`'s `[controls]`...), so `_element_spec` tests the
    attributes straight; None for the tags with other matchers (input's types...)."""
    variants = aria().elements[tag]["variant"]
    assert isinstance(variants, dict)
    plan = []
    for name, variant in variants.items():
        if name == "default":
            continue
        matches = variant["matches"]
        if not isinstance(matches, str):
            return None
        plan.append((name, matches.strip("[]")))
    return tuple(plan)


def _variant_matches(
    page: Page, element: Element, variant: dict[str, object], match_name: bool
) -> bool:
    matches = variant["matches"]
    return any(
        _matches(page, element, matcher)
        for matcher in (matches if isinstance(matches, list) else [matches])
        if match_name or not (isinstance(matcher, dict) and "hasAccessibleName" in matcher)
    )


@cache
def _merged_spec(tag: str, matched: tuple[str, ...]) -> dict[str, object]:
    """The tag's spec with the `matched` variants applied in order, then the default variant's
    keys it lacks: the same few combinations recur on every page."""
    standard = aria().elements[tag]
    variants = standard["variant"]
    assert isinstance(variants, dict)
    spec = {key: value for key, value in standard.items() if key != "variant"}
    for name in matched:
        spec.update({k: v for k, v in variants[name].items() if k != "matches"})
    for key, value in variants.get("default", {}).items():
        spec.setdefault(key, value)
    return spec


def _matches(page: Page, element: Element, matcher: object) -> bool:
    if isinstance(matcher, str):  # the data's selectors are all `[attribute]`
        return element.has(matcher.strip("[]"))
    assert isinstance(matcher, dict)
    return all(_match_one(page, element, kind, expected) for kind, expected in matcher.items())


def _match_one(page: Page, element: Element, kind: str, expected: object) -> bool:
    if kind == "properties":
        assert isinstance(expected, dict)
        return all(_value_matches(input_type(element), want) for want in expected.values())
    if kind == "attributes":
        assert isinstance(expected, dict)
        return all(_value_matches(element.get(n), want) for n, want in expected.items())
    if kind == "hasChild":
        return any(child.tag == expected for child in element.elements)
    if kind == "isSummaryForDetails":
        parent = page.document.parent(element)
        return parent is not None and parent.tag == "details" and next(parent.elements) is element
    if kind == "hasAccessibleName":
        return _has_name(page, element) == expected
    raise ValueError(f"unknown axe-core element matcher {kind!r}")


@cache
def _pattern(source: str) -> re.Pattern[str]:
    """The data's few regular expressions, compiled once (re's own cache is shared, and small)."""
    return re.compile(source)


def _value_matches(value: str | None, want: object) -> bool:
    """axe-core's fromPrimitive: a list includes, `/re/` searches, else equality."""
    if isinstance(want, list):
        return value in want
    if isinstance(want, str) and len(want) > 1 and want.startswith("/") and want.endswith("/"):
        return value is not None and _pattern(want[1:-1]).search(value) is not None
    return value == want
