"""One audit driven without the API (pydantic stays out of Pyodide), on either platform.

Imported as `audit_driver` inside Pyodide and as `tests.pyodide.audit_driver` on CPython: it inserts
the audit row and creates the SiteAuditWorkflow instance as `service.audits.create_audit` does,
then reads the D1 rows back, without timing fields, for the parity comparison.
"""

from __future__ import annotations

import json
from typing import Any

from auditdb import repository
from auditdb.records import AuditOptions, AuditRecord
from common import ports
from crawl.credentials import seal_credentials
from urls.credentials import Credentials
from urls.private_hosts import PrivateHosts
from workflow.params import AuditParams

TIMING = frozenset(
    {"response_time_ms", "crawled_at", "created_at", "started_at", "finished_at", "timing_summary"}
)

# `slow-response` is the one issue decided by wall-clock time. It is judged on pages measured again
# after the crawl, quietly (audit.timing), but under a loaded machine Pyodide's single thread can
# still take longer than the product's 1.5 s threshold to see an ordinary page's headers, which
# would add timing-only differences to a parity check about logic. The parity run raises the
# threshold on both platforms and the fixture server slows the one slow page past it instead.
PARITY_SLOW_RESPONSE_MS = 5000
PARITY_SLOW_DELAY_S = 5.5
# The external link checks' timeout likewise: the other site's slow page (delayed by
# PARITY_SLOW_DELAY_S) must time out, its other pages must not.
PARITY_EXTERNAL_TIMEOUT_S = 3.0


def tolerate_load() -> None:
    """Use the parity run's slow-response threshold and external timeout in this interpreter's
    audits."""
    import dataclasses

    from audit import timing
    from common import settings

    timing.SLOW_RESPONSE_MS = PARITY_SLOW_RESPONSE_MS  # type: ignore[attr-defined]  # set where it is read
    settings.EXTERNAL = dataclasses.replace(settings.EXTERNAL, timeout_s=PARITY_EXTERNAL_TIMEOUT_S)


async def start_audit(
    env: Any,
    audit_id: str,
    start_url: str,
    max_pages: int = 300,
    credentials: Credentials | None = None,
) -> None:
    """Insert the audit and start its instance; `credentials` are sealed first, as the service
    seals them (crawl.credentials: WebCrypto in Pyodide)."""
    sealed = None if credentials is None else await seal_credentials(env, credentials)
    options = AuditOptions(
        max_pages=max_pages,
        private_hosts=PrivateHosts.LOOPBACK,
        check_external=True,
        credentials=None if sealed is None else sealed.shown,
    )
    now = ports.iso_now()
    audit = AuditRecord(
        id=audit_id,
        start_url=start_url,
        created_at=now,
        started_at=now,
        options=options,
        workflow_instance_id=audit_id,
        pages_total=max_pages,
    )
    sealed_text = None if sealed is None else sealed.sealed
    await repository.insert_audit(env.DB, audit, sealed_text)
    params = AuditParams(audit_id, start_url, options, credentials_sealed=sealed_text)
    await env.SITE_AUDIT_WORKFLOW.create(id=audit_id, params=params.to_dict())


def _row(row: Any) -> dict[str, Any]:
    out = {key: value for key, value in dict(row).items() if key not in TIMING}
    if out.get("details_json"):
        details = json.loads(out["details_json"])
        if isinstance(details, dict):
            out["details_json"] = details
    return out


async def snapshot(env: Any, audit_id: str) -> str:
    """JSON of the audit row, its pages (by url) and issues (by page, type, id)."""
    db = env.DB
    audit = await db.prepare("SELECT * FROM audits WHERE id = ?").bind(audit_id).first()
    pages = (
        await db.prepare("SELECT * FROM audit_pages WHERE audit_id = ? ORDER BY url")
        .bind(audit_id)
        .all()
    )
    issues = (
        await db.prepare(
            "SELECT * FROM audit_issues WHERE audit_id = ? ORDER BY page_url, issue_type, id"
        )
        .bind(audit_id)
        .all()
    )
    return json.dumps(
        {
            "audit": _row(audit),
            "pages": [_row(r) for r in pages["results"]],
            "issues": [_row(r) for r in issues["results"]],
        },
        sort_keys=True,
    )
