"""A Durable Object's alarm as its storage keeps it (docs/platform.md §2.2).

The user side is `setAlarm`/`getAlarm`/`deleteAlarm`; the platform side (`arm_alarm`,
`take_alarm`, `forget_alarm`) is what the alarm runner (do_alarm_runner.py) uses to fire the alarm
and re-arm it with a retry count. Both live in `_cf_METADATA` rows `alarm` and `alarm_retry`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

from local_platform.do_storage_file import StorageFile
from local_platform.errors import js_type_error
from local_platform.rpc import js_number


class AlarmStorage(StorageFile):
    async def setAlarm(self, scheduled: Any, options: Any = None) -> None:
        ms = _alarm_ms(scheduled)
        await asyncio.sleep(0)
        self.arm_alarm(ms, retry=0)

    async def getAlarm(self, options: Any = None) -> int | float | None:
        await asyncio.sleep(0)
        return self.alarm_ms()

    async def deleteAlarm(self, options: Any = None) -> None:
        await asyncio.sleep(0)
        self._internal("DELETE FROM _cf_METADATA WHERE key = 'alarm'")

    def arm_alarm(self, ms: float, *, retry: int) -> None:
        """Platform side: set the alarm and how many retries have already happened."""
        self._set_metadata("alarm", ms)
        self._set_metadata("alarm_retry", retry)

    def take_alarm(self) -> int:
        """Platform side: unset the alarm before its handler runs; return its retry count."""
        retry = int(self.metadata("alarm_retry") or 0)
        self._internal("DELETE FROM _cf_METADATA WHERE key = 'alarm'")
        self._set_metadata("alarm_retry", 0)
        return retry

    def forget_alarm(self) -> None:
        self._internal("DELETE FROM _cf_METADATA WHERE key IN ('alarm', 'alarm_retry')")

    def alarm_ms(self) -> int | float | None:
        value = self.metadata("alarm")
        return None if value is None else js_number(value)


def _alarm_ms(scheduled: Any) -> int | float:
    if isinstance(scheduled, dt.datetime):
        aware = scheduled if scheduled.tzinfo else scheduled.replace(tzinfo=dt.UTC)
        return js_number(float(int(aware.timestamp() * 1000)))
    if isinstance(scheduled, (int, float)) and not isinstance(scheduled, bool):
        return js_number(scheduled)
    raise js_type_error("setAlarm() requires a number of milliseconds or a Date")
