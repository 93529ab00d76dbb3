"""When a monitor is due: its slots, the recency rule and the claim's lifetime. Pure functions.

A monitor's slots are its hour (UTC) on every day (daily), on Mondays (weekly) or on the 1st of
the month (monthly). `next_due_at` holds the first slot after the monitor was created or last
ran, so a slot the hourly cron missed (a late trigger, an outage) is served at the next cron
rather than skipped. The recency rule is the guard against a second run for one slot when
triggers or messages repeat: a monitor that ran less than 12 h (daily), 60 h (weekly) or 240 h
(monthly) ago does not run again, each a half-period or so, well under the period itself.
"""

from __future__ import annotations

import datetime as dt

from auditdb.frequency import Frequency
from auditdb.monitors import RecencyCutoffs
from common import ports

HOUR_MS = 3_600_000
RECENCY_HOURS = {Frequency.DAILY: 12, Frequency.WEEKLY: 60, Frequency.MONTHLY: 240}
# A claim outlives any start of a run (an audit starts in seconds); a crashed consumer's claim
# lapses by itself after this, and the next hourly cron enqueues the monitor again.
CLAIM_MS = 30 * 60 * 1000


def next_slot_ms(frequency: Frequency, hour: int, after_ms: float) -> int:
    """The first slot strictly after `after_ms` (epoch milliseconds)."""
    after = dt.datetime.fromtimestamp(after_ms / 1000, dt.UTC)
    day = after.date()
    while True:
        slot = dt.datetime.combine(day, dt.time(hour), dt.UTC)
        if slot > after and _is_slot_day(frequency, day):
            return int(slot.timestamp()) * 1000
        day += dt.timedelta(days=1)


def _is_slot_day(frequency: Frequency, day: dt.date) -> bool:
    match frequency:
        case Frequency.DAILY:
            return True
        case Frequency.WEEKLY:
            return day.weekday() == 0  # Monday
        case Frequency.MONTHLY:
            return day.day == 1


def next_due_at(frequency: Frequency, hour: int, after_ms: float) -> str:
    return ports.iso_from_ms(next_slot_ms(frequency, hour, after_ms))


def recency_cutoffs(now_ms: float) -> RecencyCutoffs:
    """The latest last run that lets each frequency run again at `now_ms`."""

    def cutoff(frequency: Frequency) -> str:
        return ports.iso_from_ms(now_ms - RECENCY_HOURS[frequency] * HOUR_MS)

    return RecencyCutoffs(
        daily=cutoff(Frequency.DAILY),
        weekly=cutoff(Frequency.WEEKLY),
        monthly=cutoff(Frequency.MONTHLY),
    )
