"""Whether a literal value reads as one of schema.org's data types.

schema.org's data types (https://schema.org/DataType): Text (and URL, a subclass), Number (Integer,
Float), Boolean (`https://schema.org/True` / `False`; JSON `true` / `false`), Date, DateTime and
Time in ISO 8601 (https://schema.org/Date: "A date value in ISO 8601 date format"), and Quantity
(Duration, Distance, Energy, Mass), written as text ("7 ft", "PT30M"). The checks follow what the
formats say and no stricter: a Date given as a full date-time still names the date, so it passes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

__all__ = ["fits_data_type"]

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_INTEGER = re.compile(r"[+-]?\d+")
_ZONE = r"(Z|[+-]\d{2}(:?\d{2})?)?"
# ISO 8601 calendar dates, complete or reduced to year-month or year.
_DATE = re.compile(r"-?\d{4}(-\d{2}(-\d{2})?)?")
_TIME = re.compile(r"\d{2}:\d{2}(:\d{2}(\.\d+)?)?" + _ZONE)
_DATE_TIME = re.compile(r"-?\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?" + _ZONE + ")?")
_BOOLEAN: Final = frozenset(
    {
        "true",
        "false",
        "https://schema.org/true",
        "https://schema.org/false",
        "http://schema.org/true",
        "http://schema.org/false",
    }
)


def _is_text(value: str | int | float | bool) -> bool:
    # A JSON number or boolean where text is expected still reads as its text.
    return True


def _is_url(value: str | int | float | bool) -> bool:
    # Absolute or relative (JSON-LD and Microdata resolve against the page); no inner spaces.
    return (
        isinstance(value, str)
        and bool(value.strip())
        and not any(c.isspace() for c in value.strip())
    )


def _is_number(value: str | int | float | bool) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int | float) or bool(_NUMBER.fullmatch(value.strip()))


def _is_integer(value: str | int | float | bool) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return value.is_integer()
    return isinstance(value, int) or bool(_INTEGER.fullmatch(value.strip()))


def _is_boolean(value: str | int | float | bool) -> bool:
    return isinstance(value, bool) or (
        isinstance(value, str) and value.strip().casefold() in _BOOLEAN
    )


def _matches(pattern: re.Pattern[str]) -> Callable[[str | int | float | bool], bool]:
    def check(value: str | int | float | bool) -> bool:
        return isinstance(value, str) and bool(pattern.fullmatch(value.strip()))

    return check


def _is_date(value: str | int | float | bool) -> bool:
    return _matches(_DATE)(value) or _matches(_DATE_TIME)(value)


_CHECKS: Final[dict[str, Callable[[str | int | float | bool], bool]]] = {
    "Text": _is_text,
    "URL": _is_url,
    "Number": _is_number,
    "Float": _is_number,
    "Integer": _is_integer,
    "Boolean": _is_boolean,
    "Date": _is_date,
    "DateTime": _is_date,
    "Time": _matches(_TIME),
    "Quantity": _is_text,
}


def fits_data_type(value: str | int | float | bool, ancestry: tuple[str, ...]) -> bool:
    """`ancestry` is the data type and the classes above it, nearest first: a subclass without a
    check of its own (CssSelectorType, PronounceableText, Duration) is checked as its parent."""
    for name in ancestry:
        check = _CHECKS.get(name)
        if check is not None:
            return check(value)
    return False
