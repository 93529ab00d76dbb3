"""AES-256-GCM on CPython for the local platform, and the key it seals with.

`cryptography`'s AESGCM returns the ciphertext with the 16-byte tag appended and takes it back the
same way, which is WebCrypto's layout (entry.py's `WebCryptoCipher`), so the two read each other's
values (common.sealing; tests/pyodide/sealing.test.mjs proves it both ways). It is a runtime
dependency of the CLI only (pyproject.toml, marked `sys_platform != 'emscripten'` like h11): it
has native code and no Pyodide wheel, and the Worker never imports this module.

The Worker's key is the secret CREDENTIALS_KEY. Locally it is a file in the state directory,
`credentials.key`, made with mode 0600 the first time the state directory is used, like the CLI's
API key (local_platform.cli_key): whoever holds the state directory holds the database anyway, and
the key keeps the database's sealed values unreadable without that directory (a copy of the D1
file alone reveals nothing). A CREDENTIALS_KEY given in the environment (`--var`) wins; rotation
moves the file's key to `credentials.key.previous` (cli.credentials_key).
"""

from __future__ import annotations

import base64
import os
import secrets
from pathlib import Path

from common.sealing import KEY_BYTES, SealBroken

KEY_FILE = "credentials.key"
PREVIOUS_KEY_FILE = "credentials.key.previous"


class LocalCipher:
    """`common.sealing.Cipher` over `cryptography`, imported on the first seal or open: every
    platform configures a cipher, and most runs (an audit without credentials, `--help`) never
    use it, so they do not pay its native module's import."""

    async def encrypt(self, key: bytes, nonce: bytes, plaintext: bytes, aad: bytes) -> bytes:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        return AESGCM(key).encrypt(nonce, plaintext, aad)

    async def decrypt(self, key: bytes, nonce: bytes, sealed: bytes, aad: bytes) -> bytes:
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        try:
            return AESGCM(key).decrypt(nonce, sealed, aad)
        except InvalidTag:
            raise SealBroken from None


def new_key_text() -> str:
    """A fresh key as the secret holds it: what `openssl rand -base64 32` prints."""
    return base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode("ascii")


def load_or_create_key(state_dir: Path) -> str:
    """The state directory's key (base64), made on first use."""
    path = state_dir / KEY_FILE
    if not path.exists():
        write_private(path, new_key_text())
    return path.read_text().strip()


def previous_key(state_dir: Path) -> str | None:
    path = state_dir / PREVIOUS_KEY_FILE
    return path.read_text().strip() if path.exists() else None


def write_private(path: Path, text: str) -> None:
    """Write `text` to a file only its owner can read, replacing any file there."""
    temporary = path.with_name(path.name + ".new")
    temporary.unlink(missing_ok=True)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(text + "\n")
    temporary.replace(path)
