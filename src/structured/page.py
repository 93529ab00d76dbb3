"""One page's structured data checked, kept small: what the audit stores and reports of it.

The crawl checks a page where it makes the page's observation (crawl.page_pipeline.observe) and
keeps only this summary: the schema.org types of the top-level items, the rich-result features
the page is eligible for, and the findings of both checks (structured.validate,
structured.rich_results), at most `MAX_FINDINGS` of them with the number seen. So a page's
stored observation grows by a bounded record, never by its markup.

`check_json_ld` checks the texts of a page's JSON-LD blocks (parse.facts.JsonLd.documents,
already bounded); `check_page` adds the Microdata and RDFa read from its element tree
(structured.microdata, structured.rdfa), so the same checks cover all three syntaxes. The crawl
calls `check_page` for a page whose bytes show such markup (structured.markup_scan) and
`check_json_ld` for the others. Where that markup could not be read, or not all of it (no tree,
a tree cut at its caps, the reading's bounds), the first finding says so
(`FindingKind.MARKUP_UNCHECKED`, its term the `Unread` reason): the check never stays silent
about markup it did not read.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from common.wire import JsonRecord
from parse.tree import Element
from structured.findings import Finding, FindingKind, RichResultFeature, Severity
from structured.microdata import extract_microdata
from structured.nodes import Graph, Syntax, from_extruct, from_json_ld
from structured.rdfa import extract_rdfa
from structured.rich_results import evaluate
from structured.validate import root_label, validate

__all__ = [
    "MAX_FINDINGS",
    "MAX_TYPES",
    "PageStructuredData",
    "Unread",
    "check_json_ld",
    "check_page",
    "unread_note",
]

# A page with hundreds of broken properties needs its first ones fixed first; the count says how
# many more there are.
MAX_FINDINGS: Final = 100
MAX_TYPES: Final = 50  # parse.facts.JSONLD_MAX_TYPES: the same bound as the parser's type list


@dataclass(frozen=True, slots=True)
class PageStructuredData(JsonRecord):
    types: tuple[str, ...]  # the top-level items' type names, first seen first, distinct
    eligible_features: tuple[RichResultFeature, ...]
    # The unread note (if any), then the vocabulary findings, then Google's, in document order.
    findings: tuple[Finding, ...]
    findings_seen: int  # before the MAX_FINDINGS cut


def check_json_ld(documents: Sequence[str]) -> PageStructuredData:
    """Validate the page's JSON-LD blocks (texts the parser already parsed once)."""
    return _checked(from_json_ld([_parsed(text) for text in documents]))


class Unread(StrEnum):
    """Why a page's Microdata and RDFa were not checked, or not all of them."""

    NO_TREE = "no-tree"  # the page has such markup, but no element tree was built for it
    TREE_CUT = "tree-cut"  # the tree stops at its caps or the parser's byte cap: items past it
    # Reading them reached a bound: structured.markup.MAX_WORK, or Microdata items nested deeper
    # than structured.markup.MAX_NESTING.
    READ_BOUND = "read-bound"


_UNREAD_MESSAGES: Final = {
    Unread.NO_TREE: "The page has Microdata or RDFa, but no element tree was built for it, so "
    "that markup was not checked.",
    Unread.TREE_CUT: "The page is larger than the element tree the audit builds, so its "
    "Microdata and RDFa were checked only up to the cut: items past it were not.",
    Unread.READ_BOUND: "Reading the page's Microdata and RDFa reached its bounds (the work a "
    "page may take, or items nested too deep), so what lies past them was not checked.",
}


def unread_note(reason: Unread) -> Finding:
    """The finding that says the page's Microdata and RDFa were not all checked, and why."""
    return Finding(
        kind=FindingKind.MARKUP_UNCHECKED,
        severity=Severity.WARNING,
        path=(),
        term=reason.value,
        message=_UNREAD_MESSAGES[reason],
    )


def check_page(
    documents: Sequence[str], root: Element | None, base: str, *, complete: bool = True
) -> PageStructuredData:
    """Validate the page's JSON-LD blocks, and the Microdata and RDFa of its element tree `root`
    (the `<html>` element) with URLs resolved against `base`, the document's base URL: items of
    the three syntaxes in that order, each syntax's in document order. `complete`: whether the
    tree holds the whole page (parse.tree_builder.ParsedTree.complete). Without a tree, only the
    JSON-LD is checked, and a note says the markup was not."""
    items: dict[str, list[object]] = {Syntax.JSON_LD.value: [_parsed(t) for t in documents]}
    if root is None:
        return _checked(from_extruct(items), Unread.NO_TREE)
    microdata, rdfa = extract_microdata(root, base), extract_rdfa(root, base)
    items[Syntax.MICRODATA.value] = list(microdata.items)
    items[Syntax.RDFA.value] = list(rdfa.nodes)
    unread = None
    if not complete:
        unread = Unread.TREE_CUT
    elif microdata.truncated or rdfa.truncated:
        unread = Unread.READ_BOUND
    return _checked(from_extruct(items), unread)


def _checked(graph: Graph, unread: Unread | None = None) -> PageStructuredData:
    rich = evaluate(graph)
    note = () if unread is None else (unread_note(unread),)
    findings = note + validate(graph) + rich.findings
    return PageStructuredData(
        types=_types(graph),
        eligible_features=rich.eligible_features,
        findings=findings[:MAX_FINDINGS],
        findings_seen=len(findings),
    )


def _parsed(text: str) -> object:
    # The parser kept only blocks that parsed; a text that no longer does is skipped, not fatal.
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _types(graph: Graph) -> tuple[str, ...]:
    names = dict.fromkeys(root_label(node) for node in graph.roots)
    return tuple(names)[:MAX_TYPES]
