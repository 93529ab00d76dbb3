"""API keys: create, list, revoke, and authenticate a caller by the key it presents.

A key is `sa_` followed by 32 random bytes in URL-safe base64 (43 characters). It is returned
once, by `create_key`; the table keeps its SHA-256 (hex) and its first characters for display.
Authentication hashes the presented key and looks the hash up (a unique index), so the only
comparison of secrets is the database's equality on hashes, and a leaked table holds no key.

`last_used_at` is written at most once a minute per key (`LAST_USED_RESOLUTION_MS`): the read
that authenticates a request decides whether it is stale, and the UPDATE repeats that guard, so
concurrent requests seeing the same stale value still write once. No D1 write per request.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from dataclasses import dataclass

from auditdb import keys as key_table
from auditdb.keys import ApiKeyRecord
from common import ports
from common.bindings import Env
from service.errors import InvalidKeyFields, KeyNotFound, NotAuthenticated

KEY_PREFIX = "sa_"
KEY_BYTES = 32
DISPLAY_PREFIX_CHARS = len(KEY_PREFIX) + 8  # "sa_" and 48 of the key's 256 bits
LAST_USED_RESOLUTION_MS = 60_000
_KEY_SHAPE = re.compile(rf"{KEY_PREFIX}[A-Za-z0-9_-]{{43}}")  # 32 bytes, unpadded base64
OWNER_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._@-]{0,99}"
_OWNER_SHAPE = re.compile(OWNER_PATTERN)
MAX_NAME_CHARS = 100
_REFUSED = "the API key is not valid (malformed, unknown or revoked)"


@dataclass(frozen=True, slots=True)
class CreatedKey:
    """A new key's row and the key itself, which nothing can show again."""

    key: ApiKeyRecord
    secret: str


def hash_key(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


async def create_key(env: Env, owner: str, name: str = "") -> CreatedKey:
    _check_fields(owner, name)
    secret = KEY_PREFIX + base64.urlsafe_b64encode(secrets.token_bytes(KEY_BYTES)).decode()[:43]
    record = ApiKeyRecord(
        id=f"key_{secrets.token_hex(8)}",
        owner=owner,
        name=name,
        prefix=secret[:DISPLAY_PREFIX_CHARS],
        created_at=ports.iso_now(),
    )
    await key_table.insert_key(env.DB, record, hash_key(secret))
    return CreatedKey(record, secret)


def _check_fields(owner: str, name: str) -> None:
    if not _OWNER_SHAPE.fullmatch(owner):
        raise InvalidKeyFields(
            "owner must be 1-100 characters of letters, digits and . _ @ -, "
            "starting with a letter or digit"
        )
    if len(name) > MAX_NAME_CHARS or not name.isprintable():
        raise InvalidKeyFields(f"name must be at most {MAX_NAME_CHARS} printable characters")


async def list_keys(env: Env) -> list[ApiKeyRecord]:
    """Every key, newest first, revoked ones included (they say so)."""
    return await key_table.list_keys(env.DB)


async def revoke_key(env: Env, key_id: str) -> None:
    """Revoke a key; revoking a revoked key changes nothing. An unknown id is refused."""
    if not await key_table.revoke_key(env.DB, key_id, ports.iso_now()):
        raise KeyNotFound(key_id)


async def authenticate(env: Env, secret: str) -> ApiKeyRecord:
    """The live key this secret is, its use recorded (at most once a minute); refuses a
    malformed, unknown or revoked key alike."""
    if not _KEY_SHAPE.fullmatch(secret):
        raise NotAuthenticated(_REFUSED)
    key = await key_table.key_by_hash(env.DB, hash_key(secret))
    if key is None or key.revoked:
        raise NotAuthenticated(_REFUSED)
    now_ms = ports.now_ms()
    stale_before = ports.iso_from_ms(now_ms - LAST_USED_RESOLUTION_MS)
    if key.last_used_at is None or key.last_used_at < stale_before:
        await key_table.touch_key(env.DB, key.id, ports.iso_from_ms(now_ms), stale_before)
    return key
