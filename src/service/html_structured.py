"""The HTML report's structured-data section (issue 32 item 5, docs/structured-data.md "In the
product"): pages with structured data, the types found and the rich-result features pages are
eligible for, with their pages, then what is wrong, per finding kind and per issue type. Kept
apart from html_report so that file only places the section.

Type names come from the crawled pages (hostile text): they go through `escape`. The section's
tables are what `auditdb.structured_data.StructuredSummary` holds, already bounded.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from auditdb.structured_data import StructuredSummary, counted
from service.issue_locating import type_title

__all__ = ["structured_section"]

_HEADING = '<section aria-labelledby="structured-h"><h2 id="structured-h">Structured data</h2>'


def structured_section(audit_id: str, summary: StructuredSummary | None) -> str:
    """The section, or "" for an audit that has no summary (not finalized, or finalized before
    siteaudit kept one)."""
    if summary is None:
        return ""
    if summary.pages == 0:
        return f'{_HEADING}<p class="note">No page has structured data.</p></section>'
    types = [(escape(t.name), f"{t.pages:,}") for t in summary.types]
    features = [(escape(str(f.feature)), f"{f.pages:,}") for f in summary.features]
    kinds = [(escape(str(k.kind)), f"{k.pages:,}", f"{k.findings:,}") for k in summary.kinds]
    issues = [
        (
            escape(type_title(i.issue_type)),
            escape(str(i.severity)),
            f"{i.pages:,}",
            f"{i.findings:,}",
        )
        for i in summary.issue_types
    ]
    return (
        f"{_HEADING}<p>{_headline(summary)}</p>"
        + _table(
            "sd-types",
            _more("Types found", len(types), summary.types_total),
            ("Type", "Pages"),
            types,
        )
        + _table(
            "sd-features",
            _more("Rich results the pages are eligible for", len(features), summary.features_total),
            ("Feature", "Pages"),
            features,
        )
        + _table("sd-kinds", "Findings by kind", ("Kind", "Pages", "Findings"), kinds)
        + _table(
            "sd-issues",
            "Findings by issue type",
            ("Issue", "Severity", "Pages", "Findings"),
            issues,
        )
        + f'<p class="note">{_filters_note(audit_id)}</p></section>'
    )


def _headline(summary: StructuredSummary) -> str:
    have = "has" if summary.pages == 1 else "have"
    return f"{counted(summary.pages, 'page')} {have} structured data: {summary.problems}."


def _more(caption: str, listed: int, total: int) -> str:
    return f"{caption} (the first {listed} of {total:,})" if total > listed else caption


def _table(key: str, caption: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    if not rows:
        return f'<p class="note">{escape(caption)}: none.</p>'
    heads = "".join(f'<th scope="col">{c}</th>' for c in columns)
    body = "".join(
        "<tr>"
        + f'<th scope="row">{row[0]}</th>'
        + "".join(f"<td>{v}</td>" for v in row[1:])
        + "</tr>"
        for row in rows
    )
    return (
        f'<div class="wide" tabindex="0" role="region" aria-labelledby="{key}-c">'
        f'<table><caption id="{key}-c">{escape(caption)}</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def _filters_note(audit_id: str) -> str:
    path = escape(f"/api/audits/{audit_id}/pages")
    return (
        f"Every page of a type, feature or finding kind: <code>{path}?structured_type=Product</code>, "
        "<code>?eligible_feature=product-snippet</code> or "
        "<code>?structured_finding=missing-required</code> (the issue list and the exports take "
        "them too)."
    )
