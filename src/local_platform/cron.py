"""Cron Triggers for the local platform: expressions, the controller, a scheduler.

Behaviour: docs/platform.md §5.

Expressions are standard five-field cron in UTC: minute, hour, day of month, month, day of week;
numbers, `*`, ranges `a-b`, lists `a,b`, steps `*/n`, `a-b/n` and `a/n`, month names JAN-DEC and
day names SUN-SAT (0 and 7 are both Sunday). As in Vixie cron, when both day fields are restricted
(neither starts with `*`) a day matches if EITHER matches; otherwise both must. Quartz extensions
(`L`, `W`, `#`, `?`) are refused with ValueError.

The scheduler fires each cron at most once per `due()` call: after a long sleep (a suspended
laptop, a stopped `siteaudit serve`) it reports only the latest missed firing, never a catch-up
storm. Production has no catch-up either; a handler that needs to know what it missed should read
its own state, not count firings.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from local_platform.clock import Clock

__all__ = ["CronExpr", "CronScheduler", "ScheduledController", "next_fire_ms", "parse_cron"]

_MONTHS = {name.upper(): i for i, name in enumerate(calendar.month_abbr) if name}
_DAYS = {"SUN": 0, "MON": 1, "TUE": 2, "WED": 3, "THU": 4, "FRI": 5, "SAT": 6}
# Feb 29 on a chosen weekday can take 28 years to recur; beyond that an expression never fires.
_SEARCH_YEARS = 29


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    low: int
    high: int
    names: dict[str, int] | None = None


_FIELDS = (
    _Field("minute", 0, 59),
    _Field("hour", 0, 23),
    _Field("day-of-month", 1, 31),
    _Field("month", 1, 12, _MONTHS),
    _Field("day-of-week", 0, 7, _DAYS),
)


@dataclass(frozen=True, slots=True)
class CronExpr:
    """A parsed expression: the allowed values of each field, and the day-matching rule."""

    source: str
    minutes: frozenset[int]
    hours: frozenset[int]
    days: frozenset[int]
    months: frozenset[int]
    weekdays: frozenset[int]  # 0 = Sunday
    days_or: bool  # both day fields restricted: cron's OR rule

    def matches_day(self, day: dt.date) -> bool:
        if day.month not in self.months:
            return False
        by_dom = day.day in self.days
        by_dow = (day.isoweekday() % 7) in self.weekdays
        return (by_dom or by_dow) if self.days_or else (by_dom and by_dow)


def parse_cron(expr: str) -> CronExpr:
    """Parse a five-field expression; ValueError names the offending field."""
    parts = expr.split()
    if len(parts) != 5:
        raise ValueError(f"cron expression {expr!r} must have 5 fields, not {len(parts)}")
    values = [_parse_field(part, field) for part, field in zip(parts, _FIELDS, strict=True)]
    weekdays = frozenset(day % 7 for day in values[4])
    days_or = not parts[2].startswith("*") and not parts[4].startswith("*")
    minutes, hours, days, months = (frozenset(v) for v in values[:4])
    return CronExpr(expr, minutes, hours, days, months, weekdays, days_or)


def _parse_field(text: str, field: _Field) -> set[int]:
    values: set[int] = set()
    for item in text.split(","):
        try:
            values |= _parse_item(item, field)
        except ValueError as exc:
            raise ValueError(f"invalid {field.name} field {text!r}: {exc}") from None
    return values


def _parse_item(item: str, field: _Field) -> set[int]:
    base, slash, step_text = item.partition("/")
    step = _number(step_text, None) if slash else 1
    if step < 1:
        raise ValueError("step must be at least 1")
    if base == "*":
        low, high = field.low, field.high
    elif "-" in base:
        start, _, end = base.partition("-")
        low, high = _number(start, field), _number(end, field)
    else:
        low = _number(base, field)
        high = field.high if slash else low  # `a/n` runs from a to the field's end
    if low > high:
        raise ValueError(f"range {low}-{high} is backwards")
    return set(range(low, high + 1, step))


def _number(text: str, field: _Field | None) -> int:
    if field is not None and field.names and text.upper() in field.names:
        return field.names[text.upper()]
    if not text.isdigit():
        raise ValueError(
            f"{text!r} is not a number" + (" or a name" if field and field.names else "")
        )
    value = int(text)
    if field is not None and not field.low <= value <= field.high:
        raise ValueError(f"{value} is outside {field.low}-{field.high}")
    return value


def next_fire_ms(expr: str | CronExpr, after_ms: float) -> int:
    """The first firing strictly after `after_ms` (epoch milliseconds, UTC)."""
    cron = parse_cron(expr) if isinstance(expr, str) else expr
    start = _to_datetime(after_ms).replace(second=0, microsecond=0) + dt.timedelta(minutes=1)
    day = start.date()
    limit = day.replace(day=1, month=1, year=day.year + _SEARCH_YEARS)
    while day < limit:
        if cron.matches_day(day):
            first = start.time() if day == start.date() else dt.time(0, 0)
            found = _first_time_on(cron, first)
            if found is not None:
                return _to_ms(dt.datetime.combine(day, found, dt.UTC))
        day += dt.timedelta(days=1)
    raise ValueError(f"cron expression {cron.source!r} never fires")


def _first_time_on(cron: CronExpr, earliest: dt.time) -> dt.time | None:
    for hour in sorted(h for h in cron.hours if h >= earliest.hour):
        floor = earliest.minute if hour == earliest.hour else 0
        minutes = [m for m in cron.minutes if m >= floor]
        if minutes:
            return dt.time(hour, min(minutes))
    return None


def _to_datetime(ms: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC)


def _to_ms(when: dt.datetime) -> int:
    return int(when.timestamp()) * 1000


class ScheduledController:
    """What `scheduled(self, controller, env, ctx)` receives: `.cron`, `.scheduledTime`, `.noRetry()`."""

    def __init__(self, cron: str, scheduledTime: float) -> None:
        self.cron = cron
        self.scheduledTime = scheduledTime
        self.retry_allowed = True

    def noRetry(self) -> None:
        """Ask the platform not to retry this invocation if the handler fails."""
        self.retry_allowed = False


class CronScheduler:
    """Which crons are due since the previous check (the platform asks on every `tick()`)."""

    def __init__(self, crons: Iterable[str], clock: Clock) -> None:
        self._crons = {source: parse_cron(source) for source in crons}
        self._last_check_ms = clock.now_ms()
        for cron in self._crons.values():
            next_fire_ms(cron, self._last_check_ms)  # refuse "0 0 30 2 *" now, not at first wake

    def due(self, now_ms: float) -> list[tuple[str, int]]:
        """`(cron, scheduled_ms)` for each cron with a firing in (last check, now]; at most one each."""
        fired = [
            (source, when)
            for source, cron in self._crons.items()
            if (when := _latest_fire(cron, self._last_check_ms, now_ms)) is not None
        ]
        self._last_check_ms = max(self._last_check_ms, now_ms)
        return fired


def _latest_fire(cron: CronExpr, after_ms: float, upto_ms: float) -> int | None:
    """The last firing in (after_ms, upto_ms], or None.

    Scans forward from the start of ever wider windows ending at `upto_ms`, so an every-minute cron
    after a month asleep costs a day's worth of steps, not a month's.
    """
    for window_ms in (86_400_000, 32 * 86_400_000, 366 * 86_400_000, None):
        start = after_ms if window_ms is None else max(after_ms, upto_ms - window_ms)
        latest = None
        when = next_fire_ms(cron, start)
        while when <= upto_ms:
            latest = when
            when = next_fire_ms(cron, when)
        if latest is not None or start == after_ms:
            return latest
    return None
