"""Sealing at rest (common.sealing) with the local platform's cipher: the format, rotation, and a
clear error for every way a value cannot be opened; never a plaintext fallback.

WebCrypto's side, and each side opening the other's values, is proven in real Pyodide by
tests/pyodide/sealing.test.mjs."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import given
from hypothesis import strategies as st

from common.sealing import (
    NONCE_BYTES,
    TAG_BYTES,
    KeyMissing,
    KeyRing,
    KeyUnknown,
    SealBroken,
    key_id,
    parse_key,
)
from local_platform.cipher import LocalCipher

OLD, NEW = bytes(range(32)), bytes(range(100, 132))
CIPHER = LocalCipher()


def payload(sealed: str) -> bytes:
    encoded = sealed.split(".")[2]
    return base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))


async def test_a_sealed_value_is_version_key_id_and_nonce_ciphertext_tag() -> None:
    sealed = await KeyRing(NEW).seal(CIPHER, b"hello", "credentials")
    version, kid, _ = sealed.split(".")
    assert (version, kid) == ("sa1", key_id(NEW))
    body = payload(sealed)
    assert len(body) == NONCE_BYTES + len(b"hello") + TAG_BYTES
    # Plain AES-256-GCM: any implementation with the key, nonce and associated data opens it.
    nonce, sealed_body = body[:NONCE_BYTES], body[NONCE_BYTES:]
    aad = f"sa1.{kid}.credentials".encode()
    assert AESGCM(NEW).decrypt(nonce, sealed_body, aad) == b"hello"
    assert b"hello" not in body


async def test_each_seal_takes_a_fresh_nonce() -> None:
    ring = KeyRing(NEW)
    first = await ring.seal(CIPHER, b"same", "credentials")
    second = await ring.seal(CIPHER, b"same", "credentials")
    assert payload(first)[:NONCE_BYTES] != payload(second)[:NONCE_BYTES]


@given(st.binary(max_size=2000))
async def test_what_is_sealed_opens_to_the_same_bytes(plain: bytes) -> None:
    ring = KeyRing(NEW)
    assert await ring.open(
        CIPHER, await ring.seal(CIPHER, plain, "credentials"), "credentials"
    ) == (plain)


@given(st.data())
async def test_any_altered_byte_is_refused(data: st.DataObject) -> None:
    ring = KeyRing(NEW)
    sealed = await ring.seal(CIPHER, b'{"cookies": {"s": "1"}}', "credentials")
    body = bytearray(payload(sealed))
    index = data.draw(st.integers(0, len(body) - 1))
    body[index] ^= data.draw(st.integers(1, 255))
    altered = sealed.rsplit(".", 1)[0] + "." + base64.urlsafe_b64encode(body).decode()
    with pytest.raises(SealBroken, match="does not verify"):
        await ring.open(CIPHER, altered, "credentials")


async def test_a_value_sealed_for_one_purpose_does_not_open_as_another() -> None:
    ring = KeyRing(NEW)
    sealed = await ring.seal(CIPHER, b"x", "credentials")
    with pytest.raises(SealBroken):
        await ring.open(CIPHER, sealed, "webhook")


async def test_without_a_key_nothing_is_sealed_or_opened_and_the_error_names_the_secret() -> None:
    sealed = await KeyRing(NEW).seal(CIPHER, b"x", "credentials")
    for attempt in (
        KeyRing(None).seal(CIPHER, b"x", "credentials"),
        KeyRing(None).open(CIPHER, sealed, "credentials"),
    ):
        with pytest.raises(
            KeyMissing, match=r"CREDENTIALS_KEY is not set.*openssl rand -base64 32"
        ):
            await attempt


async def test_a_value_under_an_unknown_key_names_both_secrets() -> None:
    sealed = await KeyRing(OLD).seal(CIPHER, b"x", "credentials")
    with pytest.raises(KeyUnknown) as caught:
        await KeyRing(NEW).open(CIPHER, sealed, "credentials")
    assert key_id(OLD) in str(caught.value)
    assert "CREDENTIALS_KEY_PREVIOUS" in str(caught.value)


@pytest.mark.parametrize(
    "sealed",
    ["", "plain text", "sa2.0123456789abcdef.AAAA", "sa1.short.AAAA", "sa1.0123456789abcdef.A"],
)
async def test_what_is_not_a_sealed_value_is_refused(sealed: str) -> None:
    with pytest.raises(SealBroken):
        await KeyRing(NEW).open(CIPHER, sealed, "credentials")


async def test_rotation_opens_old_values_and_reseals_them_once() -> None:
    before = await KeyRing(OLD).seal(CIPHER, b"secret", "credentials")
    rotating = KeyRing(NEW, previous=OLD)
    assert await rotating.open(CIPHER, before, "credentials") == b"secret"
    assert not rotating.is_current(before)
    after = await rotating.reseal(CIPHER, before, "credentials")
    assert after is not None and rotating.is_current(after)
    assert await rotating.reseal(CIPHER, after, "credentials") is None  # safe to run twice
    # Once the previous key is dropped, the resealed value still opens; the old one does not.
    assert await KeyRing(NEW).open(CIPHER, after, "credentials") == b"secret"
    with pytest.raises(KeyUnknown):
        await KeyRing(NEW).open(CIPHER, before, "credentials")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (base64.b64encode(NEW).decode(), NEW),
        (base64.urlsafe_b64encode(NEW).decode(), NEW),
        (" " + base64.b64encode(NEW).decode() + "\n", NEW),
        (base64.b64encode(NEW[:16]).decode(), None),
        (base64.b64encode(NEW + b"x").decode(), None),
        ("!!", None),
    ],
)
def test_a_key_is_the_base64_of_exactly_32_bytes(text: str, key: bytes | None) -> None:
    assert parse_key(text) == key


def test_a_key_ring_s_repr_shows_key_ids_only() -> None:
    assert repr(KeyRing(NEW, OLD)) == f"KeyRing({key_id(NEW)}, {key_id(OLD)})"
