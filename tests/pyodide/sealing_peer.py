"""`python -m tests.pyodide.sealing_peer seal|open KEY PURPOSE TEXT`: the CPython side of the
sealing cross-check (tests/pyodide/sealing.test.mjs).

`seal` prints TEXT sealed under KEY (base64 of 32 bytes) with `cryptography`'s AESGCM, the local
platform's cipher; `open` prints what a sealed TEXT opens to, or the `common.sealing` error's class
name when it does not open. Pyodide does the same with WebCrypto, and each side opens the other's.
"""

from __future__ import annotations

import asyncio
import sys

from common.sealing import KeyRing, SealingError, parse_key
from local_platform.cipher import LocalCipher


async def main(action: str, key_text: str, purpose: str, text: str) -> str:
    ring = KeyRing(parse_key(key_text))
    if action == "seal":
        return await ring.seal(LocalCipher(), text.encode(), purpose)
    try:
        return (await ring.open(LocalCipher(), text, purpose)).decode()
    except SealingError as exc:
        return type(exc).__name__


if __name__ == "__main__":
    print(asyncio.run(main(*sys.argv[1:5])))
