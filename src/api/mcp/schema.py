"""The JSON Schemas of the tools' arguments, and the checker that holds arguments to them.

A tool's `inputSchema` (what `tools/list` publishes) is also what its arguments are checked
against, so the published contract and the enforced one cannot drift apart. The schemas use a
small subset of JSON Schema 2020-12 (https://json-schema.org/draft/2020-12/json-schema-validation):
`type` object, string, integer, boolean, array; `properties`, `required`,
`additionalProperties: false`, or a map: `additionalProperties: <schema>` with `maxProperties`;
`minLength`/`maxLength`, `pattern`, `enum`, `minimum`/`maximum`, `items`, `maxItems`. `check`
knows exactly that subset; a schema using anything else is a programming error caught by
tests/api/mcp/test_schema.py, which checks every tool's schema against the official metaschema.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from common.wire import JsonObject, JsonValue


class InvalidArguments(ValueError):
    """Arguments that do not fit a tool's schema; the message names the argument."""


def string(
    description: str,
    *,
    min_length: int | None = None,
    max_length: int | None = None,
    pattern: str | None = None,
    enum: Sequence[str] | None = None,
) -> JsonObject:
    schema: JsonObject = {"type": "string", "description": description}
    if min_length is not None:
        schema["minLength"] = min_length
    if max_length is not None:
        schema["maxLength"] = max_length
    if pattern is not None:
        schema["pattern"] = pattern
    if enum is not None:
        schema["enum"] = list(enum)
    return schema


def integer(
    description: str, *, minimum: int, maximum: int, default: int | None = None
) -> JsonObject:
    schema: JsonObject = {
        "type": "integer",
        "description": description,
        "minimum": minimum,
        "maximum": maximum,
    }
    if default is not None:
        schema["default"] = default
    return schema


def number(description: str, *, above: float, maximum: float) -> JsonObject:
    """A number greater than `above` and at most `maximum` (JSON Schema's exclusiveMinimum)."""
    return {
        "type": "number",
        "description": description,
        "exclusiveMinimum": above,
        "maximum": maximum,
    }


def boolean(description: str) -> JsonObject:
    return {"type": "boolean", "description": description}


def array(description: str, items: JsonObject, *, max_items: int) -> JsonObject:
    return {"type": "array", "description": description, "items": items, "maxItems": max_items}


def obj(
    properties: dict[str, JsonObject],
    required: Sequence[str] = (),
    *,
    description: str | None = None,
) -> JsonObject:
    schema: JsonObject = {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
    }
    if description is not None:
        schema["description"] = description
    return schema


def mapping(description: str, values: JsonObject, *, max_properties: int) -> JsonObject:
    """An object of any names, each value held to `values` (headers, cookies)."""
    return {
        "type": "object",
        "description": description,
        "additionalProperties": values,
        "maxProperties": max_properties,
    }


def check(schema: JsonObject, value: JsonValue, where: str = "arguments") -> None:
    """Raise `InvalidArguments` naming the first place where `value` breaks `schema`."""
    kind = schema["type"]
    if not _is_type(kind, value):
        raise InvalidArguments(f"{where} must be {_ARTICLE[str(kind)]}, not {_json_kind(value)}")
    if isinstance(value, dict):
        _check_object(schema, value, where)
    elif isinstance(value, list):
        _check_array(schema, value, where)
    elif isinstance(value, str):
        _check_string(schema, value, where)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if kind == "number":
            _check_number(schema, value, where)
        else:
            _check_integer(schema, value, where)  # an integral float too: 5000.0 is over 1000


_ARTICLE = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
}


def _is_type(kind: JsonValue, value: JsonValue) -> bool:
    match kind:
        case "object":
            return isinstance(value, dict)
        case "array":
            return isinstance(value, list)
        case "string":
            return isinstance(value, str)
        case "boolean":
            return isinstance(value, bool)
        case "number":
            return isinstance(value, int | float) and not isinstance(value, bool)
        case "integer":  # JSON Schema: 3.0 is an integer too (a number with zero fractional part)
            if isinstance(value, float):
                return value.is_integer()  # False for inf and nan too
            return isinstance(value, int) and not isinstance(value, bool)
    raise TypeError(f"schema type {kind!r} is outside the subset `check` knows")


def _json_kind(value: JsonValue) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number")


def _check_object(schema: JsonObject, value: dict[str, JsonValue], where: str) -> None:
    if "properties" not in schema:
        _check_mapping(schema, value, where)
        return
    properties = _object_of(schema["properties"])
    unknown = sorted(set(value) - set(properties))
    if unknown:
        raise InvalidArguments(
            f"{where} has unknown fields {unknown}; expected some of {sorted(properties)}"
        )
    for name in _strings(schema.get("required", [])):
        if name not in value:
            raise InvalidArguments(f"{where} lacks the required field {name!r}")
    for name, item in value.items():
        check(
            _object_of(properties[name]), item, name if where == "arguments" else f"{where}.{name}"
        )


def _check_mapping(schema: JsonObject, value: dict[str, JsonValue], where: str) -> None:
    most = schema.get("maxProperties")
    if isinstance(most, int) and len(value) > most:
        raise InvalidArguments(f"{where} may hold at most {most} entries")
    for name, item in value.items():
        check(_object_of(schema["additionalProperties"]), item, f"{where}.{name}")


def _check_array(schema: JsonObject, value: list[JsonValue], where: str) -> None:
    most = schema.get("maxItems")
    if isinstance(most, int) and len(value) > most:
        raise InvalidArguments(f"{where} may hold at most {most} items")
    for index, item in enumerate(value):
        check(_object_of(schema["items"]), item, f"{where}[{index}]")


def _check_string(schema: JsonObject, value: str, where: str) -> None:
    least, most = schema.get("minLength"), schema.get("maxLength")
    if isinstance(least, int) and len(value) < least:
        raise InvalidArguments(f"{where} must be at least {least} characters long")
    if isinstance(most, int) and len(value) > most:
        raise InvalidArguments(f"{where} must be at most {most} characters long")
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and re.search(pattern, value) is None:
        raise InvalidArguments(f"{where} must match {pattern}, not {value!r}")
    choices = schema.get("enum")
    if isinstance(choices, list) and value not in choices:
        raise InvalidArguments(f"{where} must be one of {choices}, not {value!r}")


def _check_integer(schema: JsonObject, value: int | float, where: str) -> None:
    least, most = schema["minimum"], schema["maximum"]
    assert isinstance(least, int) and isinstance(most, int)  # `integer` always sets both
    if not least <= value <= most:
        raise InvalidArguments(f"{where} must be an integer from {least} to {most}, not {value}")


def _check_number(schema: JsonObject, value: int | float, where: str) -> None:
    above, most = schema["exclusiveMinimum"], schema["maximum"]
    assert isinstance(above, int | float) and isinstance(most, int | float)  # `number` sets both
    if not (above < value <= most) or value != value:  # nan compares false everywhere
        raise InvalidArguments(f"{where} must be a number above {above:g} and at most {most:g}")


def _object_of(value: JsonValue) -> JsonObject:
    assert isinstance(value, dict)  # the builders above only nest objects here
    return value


def _strings(value: JsonValue) -> list[str]:
    assert isinstance(value, list)
    return [str(item) for item in value]
