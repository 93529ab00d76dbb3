"""The HTML report's Lighthouse section: one table row per sampled page, mobile beside desktop
(docs/lighthouse.md). Kept apart from html_report so that file only places the section.

Values are numbers the provider reported or the fixed error text of a failed run; the page URL
goes through the report's own link renderer (escaped, http(s) only), the error through `escape`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from auditdb.lighthouse import LighthouseRow
from auditdb.records import AuditRecord
from lighthouse.records import FieldData, LighthouseRun, LighthouseStatus, Strategy

__all__ = ["VITALS_COLUMNS", "vitals_section"]

VITALS_COLUMNS = (
    "Page",
    "Performance (mobile / desktop)",
    "LCP ms",
    "CLS",
    "TTFB ms",
    "Field LCP / INP / CLS (p75)",
    "Errors",
)
_NOT_RUN = {
    LighthouseStatus.DISABLED: "Lighthouse was not run for this audit (option none).",
    LighthouseStatus.SKIPPED_NO_KEY: "Lighthouse was skipped: no PSI_API_KEY is configured.",
    LighthouseStatus.SKIPPED_CREDENTIALS: "Lighthouse was skipped: the audit's credentials were "
    "to go with it, and PageSpeed Insights cannot send credentials.",
}


def vitals_section(
    audit: AuditRecord, rows: Sequence[LighthouseRow], link: Callable[[str], str]
) -> str:
    """The section, or "" for an audit whose phase was never reached."""
    status = audit.lighthouse_status
    if status is None:
        return ""
    head = (
        '<section aria-labelledby="vitals-h"><h2 id="vitals-h">Lighthouse and Core Web Vitals</h2>'
    )
    if status in _NOT_RUN:
        return f'{head}<p class="note">{_NOT_RUN[status]}</p></section>'
    pages: dict[str, dict[Strategy, LighthouseRow]] = {}
    for row in rows:
        pages.setdefault(row.page_url or row.page_id, {})[row.run.strategy] = row
    heads = "".join(f'<th scope="col">{c}</th>' for c in VITALS_COLUMNS)
    body = "".join(_row(url, by_strategy, link) for url, by_strategy in sorted(pages.items()))
    return (
        f'{head}<p class="note">{audit.lighthouse_total} runs planned, '
        f"{audit.lighthouse_failed} failed ({status}).</p>"
        '<div class="wide" tabindex="0" role="region" aria-labelledby="vitals-h">'
        f"<table><thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table></div></section>"
    )


def _row(url: str, runs: dict[Strategy, LighthouseRow], link: Callable[[str], str]) -> str:
    mobile, desktop = (runs.get(s) for s in (Strategy.MOBILE, Strategy.DESKTOP))
    pair = [None if r is None else r.run for r in (mobile, desktop)]
    errors = "; ".join(
        f"{r.strategy}: {r.error_message}" for r in pair if r is not None and r.error_message
    )
    field = next((r.field_url or r.field_origin for r in pair if r is not None), None)
    return (
        f"<tr><td>{link(url)}</td><td>{_both(pair, 'performance_score')}</td>"
        f"<td>{_both(pair, 'lcp_ms')}</td><td>{_both(pair, 'cls')}</td>"
        f"<td>{_both(pair, 'ttfb_ms')}</td><td>{_field(field)}</td><td>{escape(errors)}</td></tr>"
    )


def _both(runs: list[LighthouseRun | None], name: str) -> str:
    return " / ".join(_value(None if r is None else getattr(r, name)) for r in runs)


def _value(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def _field(data: FieldData | None) -> str:
    if data is None:
        return "-"
    values = [None if m is None else m.percentile for m in (data.lcp_ms, data.inp_ms, data.cls)]
    return f"{' / '.join(_value(v) for v in values)} ({data.scope})"
