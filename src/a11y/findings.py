"""What a static rule decides about one element (`Outcome`) and what the audit keeps of a
failure (`Finding`: the axe-core rule id, WCAG success criteria, axe's impact, a short CSS
selector and an HTML snippet of the element)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from enum import StrEnum

from a11y.aria import aria
from a11y.rule_ids import RuleId
from a11y.tree import Document, Element
from common.wire import JsonRecord

SNIPPET_CHARS = 250
_IDENT = re.compile(r"^-?[A-Za-z_][A-Za-z0-9_-]*$")


class Impact(StrEnum):
    """axe-core's impact levels, least to most severe."""

    MINOR = "minor"
    MODERATE = "moderate"
    SERIOUS = "serious"
    CRITICAL = "critical"


@dataclass(frozen=True, slots=True)
class Outcome:
    """A rule's definite verdict on one element. An element a rule cannot decide without
    layout, the cascade or script gets no outcome."""

    rule: RuleId
    element: Element
    passed: bool


@dataclass(frozen=True, slots=True)
class Finding(JsonRecord):
    rule: RuleId
    impact: Impact
    wcag: tuple[str, ...]  # success criteria, e.g. ("1.1.1",); empty for best practices
    selector: str
    snippet: str


def finding(document: Document, outcome: Outcome) -> Finding:
    meta = aria().rules[outcome.rule]
    return Finding(
        rule=outcome.rule,
        impact=Impact(meta["impact"]),
        wcag=tuple(meta["wcag"]),
        selector=selector(document, outcome.element),
        snippet=snippet(outcome.element),
    )


def selector(document: Document, element: Element) -> str:
    """A short CSS selector that finds only this element: `#id` when the id is unique, else
    `tag:nth-child(n)` steps up to the nearest ancestor with a unique id (or `html`)."""
    steps: list[str] = []
    node: Element | None = element
    while node is not None:
        unique = _unique_id(document, node)
        if unique is not None:
            steps.append(unique)
            break
        parent = document.parent(node)
        if parent is None:
            steps.append(node.tag)
            break
        siblings = list(parent.elements)
        index = next(i for i, child in enumerate(siblings) if child is node) + 1
        same = sum(1 for child in siblings if child.tag == node.tag)
        steps.append(node.tag if same == 1 else f"{node.tag}:nth-child({index})")
        node = parent
    return " > ".join(reversed(steps))


def _unique_id(document: Document, element: Element) -> str | None:
    value = element.get("id")
    if value and _IDENT.match(value) and document.id_counts.get(value) == 1:
        return f"#{value}"
    return None


def snippet(element: Element) -> str:
    """The element's start tag (and `…</tag>` when it has content), at most SNIPPET_CHARS."""
    attributes = "".join(
        f' {name}="{html.escape(value, quote=True)}"' if value else f" {name}"
        for name, value in element.attributes.items()
    )
    text = f"<{element.tag}{attributes}>"
    if element.children:
        text += f"…</{element.tag}>"
    if len(text) > SNIPPET_CHARS:
        text = text[: SNIPPET_CHARS - 1] + "…"
    return text
