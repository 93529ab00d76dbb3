"""The site audit workflow: phases as durable steps, each returning only counters.

`run_site_audit` is what `SiteAuditWorkflow.run` delegates to. It never imports the platform: the
shell passes the SDK's `step`, the Worker's `env` and the NonRetryableError class to raise for
failures that a retry cannot fix. Step names are durable checkpoint keys: renaming one makes
in-flight instances re-run that step after a deploy.
"""

from __future__ import annotations

from typing import Any

import ports
from auditdb import repository
from auditdb.records import AuditPhase, AuditStatus
from workflow import step_configs
from workflow.failures import classify_error, error_detail
from workflow.page_fetch import fetch_page_record
from workflow.params import AuditParams


async def run_site_audit(
    event: Any, step: Any, env: Any, non_retryable: type[Exception]
) -> dict[str, Any]:
    params = AuditParams.from_dict(dict(event["payload"]))
    try:
        return await _run_phases(params, step, env, non_retryable)
    except Exception as exc:
        await _record_failure(params, step, env, exc)
        raise


async def _run_phases(
    params: AuditParams, step: Any, env: Any, non_retryable: type[Exception]
) -> dict[str, Any]:
    @step.do("validate-context", config=step_configs.DB_STEP)
    async def validate_context() -> dict[str, Any]:
        audit = await repository.get_audit(env.DB, params.audit_id)
        if audit is None:
            raise non_retryable(f"audit {params.audit_id} does not exist")
        if audit.status is not AuditStatus.RUNNING:
            raise non_retryable(f"audit {params.audit_id} is {audit.status}, not running")
        await repository.set_phase(env.DB, params.audit_id, AuditPhase.CRAWLING)
        return {"ok": True}

    @step.do("crawl-chunk-1", config=step_configs.CRAWL_CHUNK_STEP)
    async def crawl_start_page() -> dict[str, Any]:
        page = await fetch_page_record(params.audit_id, params.start_url, depth=0)
        await repository.upsert_pages(env.DB, [page])
        await repository.update_progress(env.DB, params.audit_id, 1, 1)
        return {"attempted": 1, "status_code": page.status_code}

    @step.do("finalize", config=step_configs.FINALIZE_STEP)
    async def finalize() -> dict[str, Any]:
        await repository.set_phase(env.DB, params.audit_id, AuditPhase.FINALIZING)
        pages = await repository.count_pages(env.DB, params.audit_id)
        await repository.complete_audit(
            env.DB,
            params.audit_id,
            finished_at=ports.iso_now(),
            pages_crawled=pages,
            counts={"total": 0},
            health_score=_health_placeholder(pages),
        )
        return {"pages_crawled": pages}

    await validate_context()
    crawled = await crawl_start_page()
    summary = await finalize()
    return {"pages_crawled": summary["pages_crawled"], "start_status": crawled["status_code"]}


def _health_placeholder(pages: int) -> float | None:
    # Until the rules run at finalize, a crawl with pages has no known critical issue.
    return 100.0 if pages else None


async def _record_failure(params: AuditParams, step: Any, env: Any, exc: Exception) -> None:
    message = str(exc)

    @step.do("mark-failed", config=step_configs.DB_STEP)
    async def mark_failed() -> dict[str, Any]:
        audit = await repository.get_audit(env.DB, params.audit_id)
        phase = None if audit is None or audit.current_phase is None else str(audit.current_phase)
        changed = await repository.fail_audit(
            env.DB,
            params.audit_id,
            error_code=str(classify_error(message)),
            error_detail=error_detail(message),
            failed_phase=phase,
            finished_at=ports.iso_now(),
        )
        return {"changed": changed}

    await mark_failed()


