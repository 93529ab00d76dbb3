"""What rendering did in one audit (issue 30, docs/rendering.md): the audits row's
`render_summary` (migration 0027), written by the finalize step from the render queue's tally
(durable.render_queue, workflow.render_step.render_summary) and read by the report.

`would_find_more` is the "rendering would find more" finding's substance: app shells the audit
did not render (the option was `never`, no renderer was configured, or their renders failed), how
many, and why; `note` is the sentence every report shows for it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from common.bindings import D1Database
from common.wire import JsonRecord, as_object, as_str
from render.records import RenderCounts, RenderMode

__all__ = ["RenderSummary", "read_render_summary", "record_render_summary"]

_WRITE_SQL = "UPDATE audits SET render_summary = ? WHERE id = ? AND status = 'running'"
_READ_SQL = "SELECT render_summary FROM audits WHERE id = ?"


@dataclass(frozen=True, slots=True)
class RenderSummary(JsonRecord):
    """The audit's `render` option and its render queue's counts at the end."""

    mode: RenderMode
    counts: RenderCounts = field(default_factory=RenderCounts)

    @property
    def would_find_more(self) -> bool:
        """App shells were left unrendered: their content and links were never seen."""
        return self.counts.shells_not_rendered > 0

    @property
    def note(self) -> str:
        """One line for the report: what rendering found, or that it would find more."""
        if self.would_find_more:
            pages = "page looks" if self.counts.shells_not_rendered == 1 else "pages look"
            why = f" ({self.counts.reason})" if self.counts.reason else ""
            return (
                f"rendering would find more: {self.counts.shells_not_rendered} {pages} like an app "
                f"shell and {'was' if self.counts.shells_not_rendered == 1 else 'were'} not "
                f"rendered{why}"
            )
        return (
            f"{self.counts.rendered} pages rendered ({self.counts.failed} failed), {self.counts.script_links} links "
            "found only after script"
        )


async def record_render_summary(db: D1Database, audit_id: str, summary: RenderSummary) -> None:
    """Store the summary while the audit runs (a cancelled audit is left alone)."""
    text = json.dumps(summary.to_dict(), sort_keys=True)
    await db.prepare(_WRITE_SQL).bind(text, audit_id).run()


async def read_render_summary(db: D1Database, audit_id: str) -> RenderSummary | None:
    """The stored summary; None before finalize and for audits from before migration 0027."""
    row = await db.prepare(_READ_SQL).bind(audit_id).first()
    text = (row or {}).get("render_summary")
    return None if text is None else RenderSummary.from_dict(as_object(json.loads(as_str(text))))
