"""Value conversion across the JS boundary, as the `workers` SDK and the runtime perform it.

Every value that crosses a binding call, a Durable Object RPC, a workflow step result or a workflow
event travels Python -> `python_to_rpc` -> structured clone -> `python_from_rpc` -> Python.
`crossing()` reproduces that whole trip on CPython, so code tested here meets the same surprises as
in production: tuples and bytearrays refused, bytes arriving as memoryview, dicts as `JsDict`,
whole-number floats as int, datetimes as naive UTC datetimes with millisecond precision.
(docs/platform.md §0.2-0.3; the SDK's `rpc.py`.)
"""

from __future__ import annotations

import datetime as dt
import inspect
import json
import math
from typing import Any

from local_platform.errors import JsException

RPC_MAX_BYTES = 1 << 25  # 32 MiB: workerd `MAX_JS_RPC_MESSAGE_SIZE`
RPC_SIZE_ERROR = (
    "Serialized RPC arguments or return values are limited to 32MiB, "
    "but the size of this value was: "
)
MAX_SAFE_INTEGER = 2**53 - 1  # JS Number.MAX_SAFE_INTEGER: Pyodide sends larger ints as BigInt


class JsDict(dict):
    """A dict that also allows attribute access, as the SDK returns for JS objects.

    Like the SDK's class, keys that collide with dict methods (`values`, `items`, ...) return the
    method on attribute access; use `row["values"]`.
    """

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value


# Exact types that need no check: most of a payload (a crawl chunk's records hold thousands of
# strings). Subclasses take the general path, since one could be awaitable or callable.
_PLAIN = frozenset({str, int, float, bool, type(None)})


def refuse_disabled_types(value: Any) -> None:
    """Raise the SDK's TypeError for values `python_to_rpc` refuses, anywhere in the value."""
    kind = type(value)
    if kind in _PLAIN:
        return
    if kind is dict or kind is list:  # the containers records are made of
        for item in value.values() if kind is dict else value:
            if type(item) not in _PLAIN:
                refuse_disabled_types(item)
        return
    if callable(value) and not isinstance(value, type):
        return
    if isinstance(value, (tuple, bytearray)):
        raise TypeError(f"{type(value)} cannot be sent over RPC.")
    if inspect.isawaitable(value):
        raise TypeError(f"Awaitable {type(value)} cannot be sent over RPC.")
    if isinstance(value, dict):
        for item in value.values():
            refuse_disabled_types(item)
    elif isinstance(value, (list, set, frozenset)):
        for item in value:
            refuse_disabled_types(item)


def crossing(value: Any) -> Any:
    """What the other side of the boundary receives when Python sends `value`."""
    refuse_disabled_types(value)
    return _convert(value)


def rpc_crossing(value: Any) -> Any:
    """`crossing()` plus the 32 MiB cap that Durable Object RPC enforces on each message."""
    converted = crossing(value)
    if _clearly_under_cap(converted):
        return converted
    size = serialized_size(converted)
    if size > RPC_MAX_BYTES:
        # Assumption: the runtime raises a RangeError; only the message text is documented.
        raise JsException("RangeError", f"{RPC_SIZE_ERROR}{size} bytes.")
    return converted


def _clearly_under_cap(value: Any) -> bool:
    """Whether `value` is far enough under the cap that `serialized_size` need not walk it.

    Compact JSON spends at least one character on every value and key, and `serialized_size`
    charges each at most 9 bytes more than its JSON (a number: 9 bytes for one digit; a string:
    5 + its UTF-8 length, which the ASCII-only escapes never undercount; a container: 5 for 2),
    so 10 x the JSON length bounds the estimate. One C-level encode replaces a Python walk over
    every value of a crawl batch. Values JSON cannot hold (bytes, datetimes) take the walk.
    """
    try:
        text = json.dumps(value, separators=(",", ":"))
    except (TypeError, ValueError):
        return False
    return 10 * len(text) <= RPC_MAX_BYTES


def _convert(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is list:
        return [v if type(v) is str else _convert(v) for v in value]
    if kind is dict and all(type(k) is str for k in value):
        return JsDict({k: v if type(v) is str else _convert(v) for k, v in value.items()})
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return js_number(value)
    if isinstance(value, (bytes, memoryview)):
        return memoryview(bytes(value))
    if isinstance(value, dict):
        return JsDict(
            {str(k) if not isinstance(k, str) else k: _convert(v) for k, v in value.items()}
        )
    if isinstance(value, list):
        return [_convert(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return {_convert(v) for v in value}
    if isinstance(value, dt.datetime):
        return _date(value)
    if isinstance(value, Exception):
        return Exception(f"Error: {value}")
    if callable(value) and not isinstance(value, type):
        return value  # arrives as an RPC stub; calling it stays possible
    raise JsException("DataCloneError", f"{value!r} could not be cloned.")


def js_number(value: float) -> int | float:
    """A number as Python sees it after a trip through JS: a safe integer -> int, else float
    (Pyodide's rule, so a REAL 3.0 arrives as 3). Shared by RPC, D1 and Durable Object SQL."""
    if isinstance(value, int) and abs(value) <= MAX_SAFE_INTEGER:
        return value
    number = float(value)
    if math.isfinite(number) and number.is_integer() and abs(number) <= MAX_SAFE_INTEGER:
        return int(number)
    return number


def _date(value: dt.datetime) -> dt.datetime:
    # Naive datetimes are read as local time, which is UTC on Workers; JS Dates keep milliseconds.
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    millis = math.floor(value.timestamp() * 1000)
    return dt.datetime.fromtimestamp(millis / 1000, dt.UTC).replace(tzinfo=None)


def serialized_size(value: Any) -> int:
    """An estimate of V8's structured-clone size of an already converted value.

    Assumption: strings cost their UTF-8 length plus a small header and numbers 9 bytes; this is
    close to V8's wire format for the ASCII-heavy data we send and only needs to be right near the
    32 MiB cap, far above anything siteaudit sends on purpose.
    """
    stack: list[Any] = [value]
    total = 0
    while stack:
        item = stack.pop()
        if type(item) is str:  # the common case first; ASCII is one byte a character
            total += 5 + (len(item) if item.isascii() else _utf8_length(item))
        elif item is None or isinstance(item, bool):
            total += 1
        elif isinstance(item, (int, float)):
            total += 9
        elif isinstance(item, str):
            total += 5 + _utf8_length(item)
        elif isinstance(item, memoryview):
            total += 5 + item.nbytes
        elif isinstance(item, dict):
            total += 5
            for key, child in item.items():
                key = key if type(key) is str else str(key)
                total += 5 + (len(key) if key.isascii() else _utf8_length(key))
                stack.append(child)
        elif isinstance(item, (list, set)):
            total += 5
            stack.extend(item)
        else:
            total += 16
    return total


def _utf8_length(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))
