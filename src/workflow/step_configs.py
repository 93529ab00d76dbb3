"""Retry and timeout policy of every workflow step, sized for its work.

Without an explicit config a step inherits the platform default (10-minute timeout, 5 retries with
exponential back-off), and the original system burned ~65 minutes replaying doomed steps that way
(docs/original-system.md §4.3). Values below follow that system's `auditStepConfigs.ts`.
Configs are plain dicts: they cross into the Workflows engine as JS objects.
"""

from __future__ import annotations

from common.wire import JsonObject


def _config(limit: int, delay_ms: int, backoff: str, timeout: str) -> JsonObject:
    return {"retries": {"limit": limit, "delay": delay_ms, "backoff": backoff}, "timeout": timeout}


# Reads and writes of a few D1 rows: fast, and safe to retry a few times.
DB_STEP = _config(3, 5_000, "exponential", "2 minutes")
# check-network: two reference fetches of a few seconds each, asked at once (workflow.network_step).
NETWORK_STEP = _config(1, 5_000, "constant", "1 minute")
# The robots.txt override's re-check (workflow.robots_step): one proof looked up (two DoH
# questions, or a fetch of at most 4 hops, 10 s each) and two D1 writes; one retry. A step that
# still fails fails the audit, which then has obeyed robots.txt all along (nothing was crawled).
ROBOTS_CHECK_STEP = _config(1, 5_000, "constant", "3 minutes")
# robots.txt, sitemaps and seeding the scratchpad: network-bound, bounded by its own caps.
DISCOVERY_STEP = _config(2, 5_000, "exponential", "4 minutes")
# ~200 fetches under a 90 s soft deadline plus persistence; a retry is its last attempt.
CRAWL_CHUNK_STEP = _config(1, 10_000, "constant", "5 minutes")
# Cross-page SQL inside the scratchpad and the issue inserts.
FINALIZE_STEP = _config(2, 5_000, "exponential", "5 minutes")
# A keep-links-N step (workflow.links_step): 5,000 pages' lists read from the scratchpad and
# written to D1, a few dozen RPC calls and D1 batches; rewrites are harmless, so retries are too.
LINKS_STEP = _config(2, 5_000, "exponential", "5 minutes")
# The security grade: two entry points followed hop by hop (security.observe: at most 10 hops of
# 15 s each per entry point, plus the CORS probe); one retry, then the site stays ungraded.
SECURITY_STEP = _config(1, 5_000, "constant", "6 minutes")
# The timing check (workflow.timing_step): requests one at a time or two, none started after
# settings.TIMING.soft_deadline_s (60 s), each at most twice the page bar and never more than the
# fetch timeout; one retry, then the audit goes on without its timing issues.
TIMING_STEP = _config(1, 5_000, "constant", "5 minutes")
# The exposure checks: same-site scripts read one by one (at most settings.EXPOSURE's
# script_max_count of script_timeout_s each) and DoH questions in rounds (doh_timeout_s each);
# one retry, then the audit goes on without them.
EXPOSURE_STEP = _config(1, 5_000, "constant", "10 minutes")
# One sampled page's two Lighthouse calls (workflow.lighthouse_step). No retries: a replayed or
# retried step would issue calls that already counted against the provider's quota (the original's
# LIGHTHOUSE_FETCH_STEP). The calls' own timeouts and 429 waits fit well inside the 5 minutes.
LIGHTHOUSE_FETCH_STEP = _config(0, 0, "constant", "5 minutes")
# One render-N-K step (workflow.render_step): at most 8 pages, two at a time, each within its
# 20 s budget, then their rows written. No retries, as for Lighthouse: a render is charged
# browser time, and a replay must hand back the stored counters instead of rendering again.
RENDER_STEP = _config(0, 0, "constant", "5 minutes")
# A group's rows, issues and counters: D1 writes only, idempotent, so they retry like DB_STEP.
LIGHTHOUSE_PERSIST_STEP = _config(3, 5_000, "exponential", "5 minutes")
# One batch of external link checks (workflow.external_step): launches stop at
# settings.EXTERNAL.step_soft_deadline_s (90 s), and a request launched just before may take its
# timeout at each of its hops; one retry, which gets back the same leased URLs.
EXTERNAL_STEP = _config(1, 5_000, "constant", "10 minutes")
