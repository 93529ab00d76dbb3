"""Rate limits: requests per minute and audits started per hour for each API key, a ceiling on
running audits per owner, and one on the monitors an owner keeps (checked by service.monitors).
Settings come from wrangler.toml [vars] (`common.deployment.DeploymentVars`); 0 turns a limit off.

Each check is one atomic upsert on a fixed window (`auditdb.rate_limits`), so concurrent requests
on several isolates count exactly; a refused request still counts, as it cost a query. A refusal
is `RateLimited` with the seconds until the window ends, which the API sends as `Retry-After`.
"""

from __future__ import annotations

import math

from auditdb import rate_limits
from common import ports
from common.bindings import Env
from common.deployment import DeploymentVars
from service.errors import RateLimited

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
# Sent back when the running-audits ceiling refuses: audits end in minutes, not at a window edge.
RUNNING_RETRY_AFTER_S = 60


async def charge_request(env: Env, key_id: str) -> None:
    """Count one API request of the key; refuse it past the per-minute limit."""
    limit = DeploymentVars.from_env(env).requests_per_minute
    await _charge(env, f"requests:{key_id}", MINUTE_MS, limit, "requests per minute")


async def admit_audit(env: Env, owner: str, key_id: str) -> None:
    """Before an audit starts: the owner's running audits and the key's audits this hour."""
    limits = DeploymentVars.from_env(env)
    ceiling = limits.running_audits_per_owner
    if ceiling and await rate_limits.running_audits(env.DB, owner) >= ceiling:
        raise RateLimited(
            f"at most {ceiling} audits may run at once; wait for one to finish",
            RUNNING_RETRY_AFTER_S,
        )
    await _charge(env, f"audits:{key_id}", HOUR_MS, limits.audits_per_hour, "audits per hour")


async def delete_expired_windows(env: Env, limit: int) -> int:
    return await rate_limits.delete_expired(env.DB, int(ports.now_ms()), limit)


async def _charge(env: Env, bucket: str, window_ms: int, limit: int, what: str) -> None:
    if limit <= 0:
        return
    now = int(ports.now_ms())
    start = now - now % window_ms
    hits = await rate_limits.hit(env.DB, bucket, start, start + window_ms)
    if hits > limit:
        retry_after = max(1, math.ceil((start + window_ms - now) / 1000))
        raise RateLimited(f"rate limit of {limit} {what} reached", retry_after)
