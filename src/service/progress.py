"""The live progress of an audit: the newest crawled URLs while it runs, read from its scratchpad.

The original system kept this feed in KV; here the audit's scratchpad holds it beside the frontier
(`durable.scratchpad`, table `recent_pages`), so it costs no extra binding and is wiped with the
rest of the crawl state. Only a running audit's scratchpad is read: a finished audit's has been
destroyed, and reading it would create an empty object.
"""

from __future__ import annotations

from dataclasses import dataclass

from auditdb.records import AuditRecord
from auditdb.repository import is_running
from common.bindings import Env
from durable.client import Scratchpad
from durable.records import CrawledEntry, ExternalProgress, FrontierStats
from service.audits import read_audit

MAX_RECENT = 300


@dataclass(frozen=True, slots=True)
class AuditProgress:
    audit: AuditRecord
    recent: tuple[CrawledEntry, ...]  # newest first; empty once the audit has ended
    frontier: FrontierStats | None  # None once the audit has ended
    external: ExternalProgress | None = None  # the external checks' counts (check_external)

    @property
    def pages_expected(self) -> int | None:
        """The pages the crawl will reach as far as it knows; None once the audit has ended."""
        if self.frontier is None:
            return None
        return expected_pages(
            self.frontier.seen, self.frontier.crawled, self.audit.options.max_pages
        )


def expected_pages(seen: int, crawled: int, max_pages: int) -> int:
    """The URLs the frontier has seen, capped at the audit's `max_pages` (the crawl never fetches
    more, so "98 of 521" with a maximum of 400 promised pages it would never crawl), and never
    fewer than the pages already crawled."""
    return max(min(seen, max_pages), crawled)


async def audit_progress(env: Env, owner: str, audit_id: str, limit: int) -> AuditProgress:
    """The audit (reconciled if it claims to run) and, while it runs, its newest crawled URLs."""
    audit = await read_audit(env, owner, audit_id)
    if not is_running(audit):
        return AuditProgress(audit, (), None)
    feed = await Scratchpad.for_audit(env, audit.id).recent_pages(min(limit, MAX_RECENT))
    return AuditProgress(audit, feed.recent, feed.stats, feed.external)
