"""Re-sealing stored credentials under the current key: the second half of a key rotation.

Rotation (docs/deploy-cloudflare.md): the new key becomes CREDENTIALS_KEY and the old one
CREDENTIALS_KEY_PREVIOUS, so every stored value still opens (common.sealing picks the key by the
value's key id); then this rewrites each value sealed under another key, table by table
(auditdb.credential_rows), until none is left, and the previous key can go. It runs on the daily
cleanup trigger while CREDENTIALS_KEY_PREVIOUS is set, and on demand (`siteaudit credentials-key
reseal`, which the local `rotate` runs). Each rewrite is guarded by the value it replaces and a
value already under the current key is left alone, so a second run (or two at once) changes
nothing twice. A value no key opens is counted and logged by id, never by content, and stays.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from auditdb import credential_rows
from auditdb.credential_rows import SealedTable
from common import ports
from common.bindings import Env
from common.deployment import DeploymentVars
from common.sealing import KeyRing, SealingError, key_id
from common.wire import JsonRecord
from crawl.credentials import SEALED_PURPOSE

log = logging.getLogger("siteaudit.scheduled")

RESEAL_BATCH = 100


@dataclass(frozen=True, slots=True)
class ResealReport(JsonRecord):
    resealed: int = 0
    unopenable: int = 0  # sealed under a key neither secret holds, or altered: left as they are
    skipped: str | None = None  # why nothing was looked at


async def reseal_credentials(env: Env, *, batch: int = RESEAL_BATCH) -> ResealReport:
    """Re-seal every stored value not under the current key."""
    ring = DeploymentVars.from_env(env).key_ring()
    if ring.current is None:
        return ResealReport(skipped="CREDENTIALS_KEY is not set")
    resealed = unopenable = 0
    for table in SealedTable:
        done, failed = await _reseal_table(env, ring, table, batch)
        resealed, unopenable = resealed + done, unopenable + failed
    return ResealReport(resealed, unopenable)


async def _reseal_table(env: Env, ring: KeyRing, table: SealedTable, batch: int) -> tuple[int, int]:
    assert ring.current is not None
    kid, after = key_id(ring.current), ""
    resealed = unopenable = 0
    while rows := await credential_rows.stale_page(env.DB, table, kid, after, batch):
        for row in rows:
            try:
                value = await ring.reseal(ports.cipher(), row.sealed, SEALED_PURPOSE)
            except SealingError as exc:
                unopenable += 1
                log.warning("%s %s: credentials not re-sealed: %s", table, row.id, exc)
                continue
            if value is not None and await credential_rows.reseal(env.DB, table, row, value):
                resealed += 1
        after = rows[-1].id
    return resealed, unopenable


async def reseal_while_rotating(env: Env) -> ResealReport:
    """The daily trigger's share: only while a previous key is set (a rotation is under way),
    so a deployment that is not rotating reads nothing."""
    if DeploymentVars.from_env(env).credentials_key_previous is None:
        return ResealReport(skipped="no rotation under way (CREDENTIALS_KEY_PREVIOUS is not set)")
    return await reseal_credentials(env)
