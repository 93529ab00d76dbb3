"""Reading JSON that crossed RPC into typed values: one small reader per shape.

Wire integers are JS numbers, so they arrive as int when integral; SQLite flags arrive as 0/1 and
are read as booleans. A value of the wrong type is a `WireError`: a bug on one side of the call,
never user input, so it is raised rather than coerced.
"""

from __future__ import annotations

from common.bindings import JsonObject, JsonValue

__all__ = [
    "WireError",
    "flag",
    "integer",
    "items",
    "obj",
    "opt_integer",
    "opt_string",
    "string",
    "strings",
]


class WireError(TypeError):
    """An RPC value of the wrong shape."""


def integer(data: JsonObject, key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise WireError(f"{key!r} must be an integer, got {value!r}")
    return value


def opt_integer(data: JsonObject, key: str) -> int | None:
    return None if data.get(key) is None else integer(data, key)


def string(data: JsonObject, key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise WireError(f"{key!r} must be a string, got {value!r}")
    return value


def opt_string(data: JsonObject, key: str) -> str | None:
    return None if data.get(key) is None else string(data, key)


def flag(data: JsonObject, key: str) -> bool:
    """A boolean, or a SQLite 0/1 flag; absent means false."""
    value = data.get(key, False)
    if not isinstance(value, int):  # bool is an int
        raise WireError(f"{key!r} must be a boolean, got {value!r}")
    return bool(value)


def items(data: JsonObject, key: str) -> list[JsonValue]:
    """A list; absent means empty (batches leave out what they do not carry)."""
    value = data.get(key, [])
    if not isinstance(value, list):
        raise WireError(f"{key!r} must be a list, got {value!r}")
    return value


def obj(value: JsonValue) -> JsonObject:
    if not isinstance(value, dict):
        raise WireError(f"expected an object, got {value!r}")
    return value


def strings(data: JsonObject, key: str) -> tuple[str, ...]:
    values = items(data, key)
    if not all(isinstance(value, str) for value in values):
        raise WireError(f"{key!r} must be a list of strings")
    return tuple(str(value) for value in values)
