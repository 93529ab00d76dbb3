"""A compact set of string hashes, for per-page deduplication that may see 100,000s of keys.

A Python `set` of `hash(key)` ints costs about 70 bytes an entry (the int object and the table
slot); this open-addressing table of 64-bit hashes in an `array` costs 8 bytes a slot, kept at
most half full: 16 to 32 bytes an entry. Keys are hashed with Python's `hash` (SipHash, salted
per process), so two distinct keys collide with probability about n^2 / 2^65: for a page's
links, where a collision would drop one link of a page, that is far below one in a billion.
"""

from __future__ import annotations

from array import array

_MASK64 = (1 << 64) - 1
_INITIAL_SLOTS = 64  # a power of two


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
        code = (hash(key) & _MASK64) or 1  # 0 marks an empty slot
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
