"""Lossless JSON for values that have crossed the step/RPC boundary.

The workflow engine keeps step results, params and outputs in SQLite as text. Plain JSON would
lose what the boundary produces (memoryview, datetime, set, JsDict) and what JSON cannot spell
(NaN, infinities), so every non-JSON value is written as a one-key object whose key is a tag:
`{"$dict": {...}}`, `{"$bytes": "<base64>"}`, `{"$datetime": "<iso>"}`, `{"$set": [...]}`,
`{"$float": "nan"}`, `{"$error": "<text>"}`. Dicts are always tagged, so a user key such as
"$bytes" can never be mistaken for a tag. Dicts decode as `JsDict`: a stored value is what the
engine hands back after the boundary, where every JS object becomes a JsDict.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import math
from typing import Any

from local_platform.rpc import JsDict


def encode(value: Any) -> str:
    return json.dumps(_tagged(value), separators=(",", ":"), allow_nan=False)


def decode(text: str) -> Any:
    return _untagged(json.loads(text))


def _tagged(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"$float": repr(value)}
    if isinstance(value, dict):
        return {"$dict": {str(k): _tagged(v) for k, v in value.items()}}
    if isinstance(value, list):
        return [_tagged(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return {"$set": [_tagged(v) for v in value]}
    if isinstance(value, (bytes, memoryview)):
        return {"$bytes": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, dt.datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, Exception):
        return {"$error": str(value)}
    raise TypeError(f"{type(value)} cannot be stored by the workflow engine")


_DECODERS: dict[str, Any] = {
    "$dict": lambda body: JsDict({k: _untagged(v) for k, v in body.items()}),
    "$set": lambda body: {_untagged(v) for v in body},
    "$bytes": lambda body: memoryview(base64.b64decode(body)),
    "$datetime": dt.datetime.fromisoformat,
    "$float": float,
    "$error": Exception,
}


def _untagged(raw: Any) -> Any:
    if isinstance(raw, list):
        return [_untagged(v) for v in raw]
    if isinstance(raw, dict):
        ((tag, body),) = raw.items()
        return _DECODERS[tag](body)
    return raw
