"""A compact set of string hashes, for per-page deduplication that may see 100,000s of keys.

A Python `set` of `hash(key)` ints costs about 70 bytes an entry (the int object and the table
slot); this open-addressing table of 64-bit hashes in an `array` costs 8 bytes a slot, kept at
most half full: 16 to 32 bytes an entry. Keys are hashed with Python's `hash` (SipHash, salted
per process), so two distinct keys collide with probability about n^2 / 2^65: for a page's
links, where a collision would drop one link of a page, that is far below one in a billion.
Where `hash` is 32 bits wide (Pyodide is wasm32: `sys.hash_info.width` is 32), n^2 / 2^33 would
be near one for a page of 100,000 links, so there the other 32 bits are the key's CRC-32.
"""

from __future__ import annotations

import sys
import zlib
from array import array

_MASK32 = (1 << 32) - 1
_MASK64 = (1 << 64) - 1
_INITIAL_SLOTS = 64  # a power of two


def _code64(key: str) -> int:
    return hash(key) & _MASK64


def _code32x2(key: str) -> int:
    return (hash(key) & _MASK32) << 32 | zlib.crc32(key.encode("utf-8", "surrogatepass"))


_code = _code64 if sys.hash_info.width >= 64 else _code32x2


class SeenHashes:
    __slots__ = ("_count", "_mask", "_slots")

    def __init__(self) -> None:
        self._slots = array("Q", bytes(8 * _INITIAL_SLOTS))
        self._mask = _INITIAL_SLOTS - 1
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def add(self, key: str) -> bool:
        """Remember `key`; True if it was not seen before."""
        code = _code(key) or 1  # 0 marks an empty slot
        slots, mask = self._slots, self._mask
        index = code & mask
        while (held := slots[index]) != 0:
            if held == code:
                return False
            index = (index + 1) & mask
        slots[index] = code
        self._count += 1
        if 2 * self._count > mask:
            self._grow()
        return True

    def _grow(self) -> None:
        old = self._slots
        self._slots = array("Q", bytes(16 * len(old)))
        self._mask = 2 * len(old) - 1
        slots, mask = self._slots, self._mask
        for code in old:
            if code:
                index = code & mask
                while slots[index] != 0:
                    index = (index + 1) & mask
                slots[index] = code
