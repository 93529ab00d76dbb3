"""One page's structured data checked, kept small: what the audit stores and reports of it.

The crawl hands the texts of a page's JSON-LD blocks (parse.facts.JsonLd.documents, already
bounded) to `check_json_ld` where it makes the page's observation, and keeps only this summary:
the schema.org types of the top-level items, the rich-result features the page is eligible for,
and the findings of both checks (structured.validate, structured.rich_results), at most
`MAX_FINDINGS` of them with the number seen. So a page's stored observation grows by a bounded
record, never by its blocks.

Microdata and RDFa are not extracted from the stream yet (docs/structured-data.md): the summary
is of JSON-LD only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from common.wire import JsonRecord
from structured.findings import Finding, RichResultFeature
from structured.nodes import Graph, from_json_ld
from structured.rich_results import evaluate
from structured.validate import root_label, validate

__all__ = ["MAX_FINDINGS", "MAX_TYPES", "PageStructuredData", "check_json_ld"]

# A page with hundreds of broken properties needs its first ones fixed first; the count says how
# many more there are.
MAX_FINDINGS: Final = 100
MAX_TYPES: Final = 50  # parse.facts.JSONLD_MAX_TYPES: the same bound as the parser's type list


@dataclass(frozen=True, slots=True)
class PageStructuredData(JsonRecord):
    types: tuple[str, ...]  # the top-level items' type names, first seen first, distinct
    eligible_features: tuple[RichResultFeature, ...]
    findings: tuple[Finding, ...]  # vocabulary findings, then Google's, in document order
    findings_seen: int  # before the MAX_FINDINGS cut


def check_json_ld(documents: Sequence[str]) -> PageStructuredData:
    """Validate the page's JSON-LD blocks (texts the parser already parsed once)."""
    graph = from_json_ld([_parsed(text) for text in documents])
    rich = evaluate(graph)
    findings = validate(graph) + rich.findings
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
