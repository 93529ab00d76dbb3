"""Where an audit's full report lives in R2, and deleting it (and its Lighthouse payloads, whose
keys auditdb.lighthouse owns because the workflow writes them).

Key scheme: `reports/<owner>/<audit id>.json.gz`, each part percent-encoded (RFC 3986 §2.1, with
no safe characters) so that neither part can add a "/" level: an owner's objects all sit under
`reports/<owner>/` and no other owner's prefix, listable by that prefix. Owners (1-100 characters, service.keys)
and audit ids (at most 100) keep keys far below R2's 1,024 bytes (docs/platform.md §7). One object
per audit; a monitor run is one audit, so it is also one object per run.

This module is a leaf of `service` so that `service.audits.delete_audit` can remove the object
without importing the report builder (which reads through `service.lists`, above `audits`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from urllib.parse import quote

from auditdb import lighthouse
from common.bindings import R2_MAX_DELETE_KEYS, Env
from service.errors import StorageUnavailable

log = logging.getLogger("siteaudit.reports")

REPORTS_PREFIX = "reports/"
REPORT_SUFFIX = ".json.gz"


def owner_prefix(owner: str) -> str:
    """The prefix under which every report of `owner` is stored."""
    return f"{REPORTS_PREFIX}{quote(owner, safe='')}/"


def report_key(owner: str, audit_id: str) -> str:
    return f"{owner_prefix(owner)}{quote(audit_id, safe='')}{REPORT_SUFFIX}"


async def delete_report(env: Env, owner: str, audit_id: str) -> None:
    """Delete the audit's report object; deleting a missing key succeeds, so this is idempotent.

    R2 refusing is raised as `StorageUnavailable`: the caller deletes its D1 rows only after this
    returns, so a failure leaves the audit in place for a retry instead of an orphaned object.
    """
    await _delete(env, report_key(owner, audit_id))


MAX_DELETE_KEYS = R2_MAX_DELETE_KEYS


async def delete_reports(env: Env, reports: Sequence[tuple[str, str]]) -> None:
    """Delete the reports of several (owner, audit id) pairs in one R2 call, with the same
    guarantees as `delete_report`; more than `MAX_DELETE_KEYS` pairs is the caller's bug."""
    if len(reports) > MAX_DELETE_KEYS:
        raise ValueError(f"at most {MAX_DELETE_KEYS} reports can be deleted at once")
    if reports:
        await _delete(env, [report_key(owner, audit_id) for owner, audit_id in reports])


async def _delete(env: Env, keys: str | list[str]) -> None:
    try:
        await env.REPORTS.delete(keys)
    except Exception as exc:  # the binding raises JsException, whose type core code cannot name
        log.warning("could not delete report %s: %s", keys, exc)
        raise StorageUnavailable(f"could not delete the audit's stored report: {exc}") from exc


async def delete_lighthouse_payloads(env: Env, audit_ids: Sequence[str]) -> None:
    """Delete the audits' Lighthouse payloads (`lighthouse/<audit id>/...`, keys read from their
    rows), with the guarantees of `delete_report`: call it before deleting the rows."""
    keys = [
        key for audit_id in audit_ids for key in await lighthouse.payload_keys(env.DB, audit_id)
    ]
    try:
        await lighthouse.delete_payloads(env.REPORTS, keys)
    except Exception as exc:  # the binding raises JsException, whose type core code cannot name
        log.warning("could not delete Lighthouse payloads of %s: %s", list(audit_ids), exc)
        raise StorageUnavailable(
            f"could not delete the audit's Lighthouse payloads: {exc}"
        ) from exc
