"""Version order as retire.js orders versions (its `isAtOrAbove`, node/lib/retire.js).

Both versions are split on `.` and `-`; parts are compared left to right, a missing part counts
as the number 0, an all-digit part compares as a number and any other part as a string, and a
number ranks above a string, so `1.0.0` is above `1.0.0-rc1` (the `rc1` part meets the number 0).
This is not semantic versioning: it is the order the vulnerability ranges were written against.
"""

from __future__ import annotations

import re

__all__ = ["is_at_or_above", "is_below"]

_SEPARATORS = re.compile(r"[.\-]")
_DIGITS = re.compile(r"[0-9]+")


def _comparable(part: str | None) -> int | str:
    if part is None:
        return 0
    return int(part) if _DIGITS.fullmatch(part) else part


def is_at_or_above(version: str, other: str) -> bool:
    """Whether `version` >= `other` in retire.js order."""
    left, right = _SEPARATORS.split(version), _SEPARATORS.split(other)
    for index in range(max(len(left), len(right))):
        a = _comparable(left[index] if index < len(left) else None)
        b = _comparable(right[index] if index < len(right) else None)
        if isinstance(a, int) != isinstance(b, int):
            return isinstance(a, int)
        if a > b:  # type: ignore[operator]  # same type, checked just above
            return True
        if a < b:  # type: ignore[operator]
            return False
    return True


def is_below(version: str, other: str) -> bool:
    return not is_at_or_above(version, other)
