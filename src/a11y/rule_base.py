"""What every static rule shares: its signature, and the verdict helpers."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from a11y.aria import aria
from a11y.findings import Outcome
from a11y.page import Page
from a11y.roles import PRESENTATIONAL, explicit_role, is_focusable, tags_of_roles
from a11y.rule_ids import RuleId
from a11y.tree import Element
from common.fast_record import maker

Rule = Callable[[Page], Iterator[Outcome]]
Check = Callable[[Page, Element], bool | None]

# Where an element of role heading can be (Page.shown_having's arguments): a role attribute, or
# a tag whose implicit role is heading (h1-h6).
HEADINGS = (("role",), tags_of_roles(frozenset({"heading"})))


# An outcome for every decided element of every page: built without the frozen dataclass's
# generated __init__ (common.fast_record says why that costs).
_outcome = maker(Outcome)


def verdicts(rule: RuleId, decided: Iterable[tuple[Element, bool | None]]) -> Iterator[Outcome]:
    """Outcomes for the decided elements; None (the markup cannot decide) gives none."""
    for element, passed in decided:
        if passed is not None:
            yield _outcome(rule, element, passed)


def failure(rule: RuleId, element: Element) -> Outcome:
    """A failed outcome, for a rule's failures-only path (a11y.rules.failures)."""
    return _outcome(rule, element, False)


def visible(page: Page, elements: Iterable[Element]) -> Iterator[Element]:
    """The elements in the accessibility tree (axe-core's excludeHidden)."""
    return (e for e in elements if not page.hidden.to_assistive_tech(e))


def any_passes(page: Page, element: Element, *checks: Check) -> bool | None:
    """axe-core's `any` list: passes when one check passes; undecided when none passes and
    one is undecided."""
    undecided = False
    for check in checks:
        result = check(page, element)
        if result:
            return True
        undecided = undecided or result is None
    return None if undecided else False


def any_of(
    rule: RuleId, page: Page, elements: Iterable[Element], *checks: Check
) -> Iterator[Outcome]:
    """Each element passes when one of the checks passes (axe-core's `any` list)."""
    return verdicts(rule, ((e, any_passes(page, e, *checks)) for e in elements))


def no_explicit_name_required(page: Page, element: Element) -> bool:
    """axe-core's no-explicit-name-required-matches: no explicit role, a presentational one, or
    one that needs a name, or a focusable element."""
    found = explicit_role(element)
    if found is None or found in PRESENTATIONAL:
        return True
    spec = aria().roles.get(found, {})
    return bool(spec.get("accessibleNameRequired")) or is_focusable(page, element)


def in_svg(page: Page, element: Element) -> bool:
    """axe-core's svg-namespace-matches: an svg element or one inside one."""
    return element.tag == "svg" or any(a.tag == "svg" for a in page.document.ancestors(element))
