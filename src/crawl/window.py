"""The rolling fetch window's size: how many page fetches a crawl chunk keeps in flight.

Source: the original's `crawl-window.ts` (original system §4.5). The rule set is the one common to
all its versions, re-applied to every persisted sub-batch of n pages:

* a page is *troubled* when its fetch class is not `ok`, its response took ≥ 10 s, its body was
  heavy (≥ 1 MiB, V1's HEAVY_PAGE_BYTES) or truncated, its status was 401/403/429 (blocked
  answers, whatever class a caller gave them), or it needed a 429 retry first (V4);
* troubled × 3 ≥ n → halve the window (never below the minimum);
* no trouble, fast × 2 ≥ n (fast = `ok` in ≤ 1.5 s) and n ≥ 25 (V3's GROWTH_MIN_SAMPLE) → +5
  (never above the maximum);
* otherwise unchanged; and finally never above the byte bound (V2+): the in-flight HTML budget
  divided by the batch's mean body size, assumed at least 64 KiB, never below the minimum.

Limits: V1's 5–40 range (our workers run one audit per isolate and fetch through the platform),
with V3's memory machinery: an 8 MiB in-flight budget (the value V3 and V4 settled on after
exceededMemory deaths in the 128 MB isolate; a Pyodide page costs more than a JS one, since the
body is copied from JS into Python bytes and decoded again into str) and V3's retry profile
(a chunk's retry is its last attempt, and the first attempt usually died of memory).

Initial size: 10, not V1's 25. A new site's capacity is unknown until the first batches are
measured; 10 is V2/V3's start and near Scrapy's 8 requests per domain (docs/field.md §4.3),
and a site that answers fast earns +5 per 25-page batch up to 40.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from common.fetch_class import FetchClass
from common.wire import JsonRecord

__all__ = [
    "FAST_RESPONSE_MS",
    "GROWTH_STEP",
    "HEAVY_PAGE_BYTES",
    "MIN_ASSUMED_PAGE_BYTES",
    "RETRY_WINDOW_LIMITS",
    "SLOW_RESPONSE_MS",
    "WINDOW_LIMITS",
    "FetchWindow",
    "PageOutcome",
    "WindowLimits",
    "byte_bound",
    "next_window",
    "start_window",
    "window_limits",
]

KIB = 1024
MIB = 1024 * KIB
SLOW_RESPONSE_MS = 10_000  # crawl-window.ts SLOW_RESPONSE_MS
FAST_RESPONSE_MS = 1_500  # crawl-window.ts FAST_RESPONSE_MS
HEAVY_PAGE_BYTES = 1 * MIB  # crawl-window.ts V1 HEAVY_PAGE_BYTES (= the fetcher's body cap)
MIN_ASSUMED_PAGE_BYTES = 64 * KIB  # crawl-window.ts MIN_ASSUMED_PAGE_BYTES
GROWTH_STEP = 5
_BLOCKED_STATUSES = frozenset({401, 403, 429})


@dataclass(frozen=True, slots=True)
class PageOutcome:
    """What the window learns from one finished fetch."""

    fetch_class: FetchClass
    status: int
    response_time_ms: float
    html_bytes: int  # bodies of blocked and error pages count too (original §4.5)
    truncated: bool = False
    retried_after_429: bool = False

    @property
    def troubled(self) -> bool:
        return (
            self.fetch_class != FetchClass.OK
            or self.status in _BLOCKED_STATUSES
            or self.response_time_ms >= SLOW_RESPONSE_MS
            or self.html_bytes >= HEAVY_PAGE_BYTES
            or self.truncated
            or self.retried_after_429
        )

    @property
    def fast(self) -> bool:
        return self.fetch_class == FetchClass.OK and self.response_time_ms <= FAST_RESPONSE_MS


@dataclass(frozen=True, slots=True)
class WindowLimits(JsonRecord):
    """Bounds of the window; crosses step returns inside the chunk's window hint."""

    initial: int = 10
    minimum: int = 5
    maximum: int = 40
    budget_bytes: int = 8 * MIB
    growth_min_sample: int = 25  # crawl-window.ts V3 GROWTH_MIN_SAMPLE

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if type(value) is not int:
                raise TypeError(f"{field.name} must be an int, not {value!r}")
        if not 1 <= self.minimum <= self.initial <= self.maximum:
            raise ValueError(f"need 1 <= minimum <= initial <= maximum: {self}")
        if self.budget_bytes < 1 or self.growth_min_sample < 1:
            raise ValueError(f"budget_bytes and growth_min_sample must be positive: {self}")

    def clamp(self, size: int) -> int:
        return max(self.minimum, min(self.maximum, size))


WINDOW_LIMITS = WindowLimits()
# crawl-window.ts V3 retry profile: small enough that the last attempt survives the memory
# pressure that probably killed the first.
RETRY_WINDOW_LIMITS = WindowLimits(
    initial=3, minimum=2, maximum=5, budget_bytes=4 * MIB, growth_min_sample=25
)


def window_limits(*, is_retry: bool) -> WindowLimits:
    return RETRY_WINDOW_LIMITS if is_retry else WINDOW_LIMITS


def start_window(limits: WindowLimits, hint: int | None, *, is_retry: bool) -> int:
    """A chunk's first window: a retried chunk starts afresh at its limits' initial size; otherwise
    the previous chunk's final window (the hint) carries over, clamped (original §4.4)."""
    if is_retry or hint is None:
        return limits.initial
    return limits.clamp(hint)


def next_window(current: int, batch: Sequence[PageOutcome], limits: WindowLimits) -> int:
    """The window after a persisted sub-batch; always within [limits.minimum, limits.maximum]."""
    window = limits.clamp(current)
    n = len(batch)
    if n == 0:
        return window
    troubled = sum(page.troubled for page in batch)
    fast = sum(page.fast for page in batch)
    if troubled * 3 >= n:
        window = max(limits.minimum, window // 2)
    elif troubled == 0 and fast * 2 >= n and n >= limits.growth_min_sample:
        window = min(limits.maximum, window + GROWTH_STEP)
    return min(window, byte_bound(batch, limits))


def byte_bound(batch: Sequence[PageOutcome], limits: WindowLimits) -> int:
    """floor(budget / max(mean body bytes, 64 KiB)), never below the minimum; computed in integers
    as budget·n // max(total, 64 KiB·n) so no float rounding moves a boundary."""
    n = len(batch)
    if n == 0:
        return limits.maximum
    total = sum(max(0, page.html_bytes) for page in batch)
    return max(limits.minimum, limits.budget_bytes * n // max(total, MIN_ASSUMED_PAGE_BYTES * n))


@dataclass(slots=True)
class FetchWindow:
    """One chunk's window: its limits and its current size, re-sized after each sub-batch."""

    limits: WindowLimits
    size: int

    @classmethod
    def start(cls, hint: int | None, *, is_retry: bool) -> FetchWindow:
        limits = window_limits(is_retry=is_retry)
        return cls(limits, start_window(limits, hint, is_retry=is_retry))

    def has_room(self, in_flight: int) -> bool:
        return in_flight < self.size

    def learn(self, batch: Sequence[PageOutcome]) -> None:
        self.size = next_window(self.size, batch, self.limits)
