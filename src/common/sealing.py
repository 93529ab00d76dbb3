"""Secrets at rest: sealed with AES-256-GCM under a key from a Worker secret, named by a key id so a
key can be rotated.

One format, whichever side seals or opens it (the Worker through WebCrypto, entry.py; the local
platform through `cryptography`, local_platform.cipher):

    sa1.<kid>.<base64url without padding of: nonce (12 bytes) | ciphertext | tag (16 bytes)>

* `kid` is the key's id: the first 8 bytes of SHA-256("siteaudit key id" NUL key), in hex. It names
  the key without revealing it, so `open` picks the key a value was sealed with, and rotation is a
  matter of setting a new key and keeping the old one as the previous key until every value is
  sealed again (`KeyRing.reseal`).
* The nonce is 96 random bits, the GCM IV length NIST SP 800-38D §8.2.2 recommends for random IVs;
  the few thousand values a deployment seals under one key stay far below its 2^32 bound.
* The associated data is `sa1.<kid>.<purpose>`: the version, the key id and what the value is for
  ("credentials"), so a value cannot be opened as another kind, nor its header edited.
* The tag is 128 bits, WebCrypto's default `tagLength` and what `cryptography`'s AESGCM appends.

A missing key is an error naming the secret (`KeyMissing`), a value sealed under a key neither
secret holds another (`KeyUnknown`), and a value whose tag does not verify a third (`SealBroken`):
there is never a plaintext fallback.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "KEY_BYTES",
    "NONCE_BYTES",
    "TAG_BYTES",
    "Cipher",
    "KeyMissing",
    "KeyRing",
    "KeyUnknown",
    "SealBroken",
    "SealingError",
    "key_id",
    "parse_key",
]

VERSION = "sa1"
KEY_BYTES = 32  # AES-256
NONCE_BYTES = 12
TAG_BYTES = 16
CURRENT_KEY_SECRET = "CREDENTIALS_KEY"
PREVIOUS_KEY_SECRET = "CREDENTIALS_KEY_PREVIOUS"
_KID_LABEL = b"siteaudit key id\x00"


class Cipher(Protocol):
    """AES-256-GCM, as the platform provides it. `encrypt` returns ciphertext then the 16-byte tag
    (the layout WebCrypto and `cryptography` both use); `decrypt` takes that and raises
    `SealBroken` when the tag does not verify."""

    async def encrypt(self, key: bytes, nonce: bytes, plaintext: bytes, aad: bytes) -> bytes: ...

    async def decrypt(self, key: bytes, nonce: bytes, sealed: bytes, aad: bytes) -> bytes: ...


class SealingError(Exception):
    """Base: a value cannot be sealed or opened. Messages name secrets, never hold them."""


class KeyMissing(SealingError):
    def __init__(self) -> None:
        super().__init__(
            f"the Worker secret {CURRENT_KEY_SECRET} is not set, so credentials cannot be sealed "
            f"or opened: set it to the base64 of 32 random bytes (openssl rand -base64 32; "
            f"wrangler secret put {CURRENT_KEY_SECRET})"
        )


class KeyUnknown(SealingError):
    def __init__(self, kid: str) -> None:
        super().__init__(
            f"the credentials were sealed under key {kid}, which is neither {CURRENT_KEY_SECRET} "
            f"nor {PREVIOUS_KEY_SECRET}: restore that key as {PREVIOUS_KEY_SECRET}, or send the "
            "credentials again"
        )
        self.kid = kid


class SealBroken(SealingError):
    def __init__(self, reason: str = "its authentication tag does not verify") -> None:
        super().__init__(
            f"sealed credentials cannot be opened ({reason}): the stored value was altered, or "
            f"{CURRENT_KEY_SECRET} changed without the old key kept as {PREVIOUS_KEY_SECRET}"
        )


def parse_key(text: str) -> bytes | None:
    """The 32 key bytes of a secret's base64 (standard or URL-safe alphabet), or None."""
    cleaned = text.strip()
    try:
        key = base64.b64decode(cleaned.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return None
    return key if len(key) == KEY_BYTES else None


def key_id(key: bytes) -> str:
    return hashlib.sha256(_KID_LABEL + key).hexdigest()[:16]


@dataclass(frozen=True, slots=True, repr=False)
class KeyRing:
    """The deployment's keys: `current` seals, both open."""

    current: bytes | None
    previous: bytes | None = None

    def __repr__(self) -> str:
        kids = [key_id(k) for k in (self.current, self.previous) if k is not None]
        return f"KeyRing({', '.join(kids) or 'no keys'})"

    async def seal(self, cipher: Cipher, plaintext: bytes, purpose: str) -> str:
        if self.current is None:
            raise KeyMissing
        kid = key_id(self.current)
        nonce = secrets.token_bytes(NONCE_BYTES)
        body = await cipher.encrypt(self.current, nonce, plaintext, _aad(kid, purpose))
        encoded = base64.urlsafe_b64encode(nonce + body).decode("ascii").rstrip("=")
        return f"{VERSION}.{kid}.{encoded}"

    async def open(self, cipher: Cipher, sealed: str, purpose: str) -> bytes:
        kid, payload = _parts(sealed)
        key = self._key(kid)
        if len(payload) < NONCE_BYTES + TAG_BYTES:
            raise SealBroken("it is too short")
        nonce, body = payload[:NONCE_BYTES], payload[NONCE_BYTES:]
        return await cipher.decrypt(key, nonce, body, _aad(kid, purpose))

    def is_current(self, sealed: str) -> bool:
        return self.current is not None and _parts(sealed)[0] == key_id(self.current)

    async def reseal(self, cipher: Cipher, sealed: str, purpose: str) -> str | None:
        """`sealed` under the current key, or None when it already is (so a second run of a
        rotation changes nothing)."""
        if self.is_current(sealed):
            return None
        return await self.seal(cipher, await self.open(cipher, sealed, purpose), purpose)

    def _key(self, kid: str) -> bytes:
        if self.current is None:
            raise KeyMissing
        for key in (self.current, self.previous):
            if key is not None and key_id(key) == kid:
                return key
        raise KeyUnknown(kid)


def _aad(kid: str, purpose: str) -> bytes:
    return f"{VERSION}.{kid}.{purpose}".encode("ascii")


def _parts(sealed: str) -> tuple[str, bytes]:
    version, _, rest = sealed.partition(".")
    kid, _, encoded = rest.partition(".")
    if version != VERSION or len(kid) != 16 or not encoded:
        raise SealBroken(f"it is not a {VERSION} sealed value")
    try:
        payload = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
    except (binascii.Error, ValueError):
        raise SealBroken("its payload is not base64") from None
    return kid, payload
