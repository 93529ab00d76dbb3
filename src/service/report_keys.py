"""Where an audit's full report lives in R2, and deleting it.

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
from urllib.parse import quote

from common.bindings import Env
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
    key = report_key(owner, audit_id)
    try:
        await env.REPORTS.delete(key)
    except Exception as exc:  # the binding raises JsException, whose type core code cannot name
        log.warning("could not delete report %s: %s", key, exc)
        raise StorageUnavailable(f"could not delete the audit's stored report: {exc}") from exc
