"""Structured-field Items (RFC 8941, as updated by RFC 9651): the parse a COOP or COEP value gets.

The Observatory reads `Cross-Origin-Opener-Policy` and `Cross-Origin-Embedder-Policy` as the HTML
standard does: the value must parse as one structured-field Item whose bare item is a Token; a
value that does not parse at all (`require-corp; report-to=coep endpoint`: an unquoted value with
a space) is invalid, not half-read (mdn/mdn-http-observatory `src/analyzer/utils.js`,
parseStructuredFieldToken, over the npm package `structured-headers` 2.x, `parseItem`).

This module follows RFC 9651 §4.2 ("Parsing Structured Fields") for an Item: §4.2.3 (Item),
§4.2.3.1 (Bare Item), §4.2.3.2 (Parameters), §4.2.3.3 (Key), §4.2.4 (Integer or Decimal),
§4.2.5 (String), §4.2.6 (Token), §4.2.7 (Byte Sequence), §4.2.8 (Boolean), §4.2.9 (Date) and
§4.2.10 (Display String). Sans-IO: a string in, an `Item` out or `StructuredFieldError`.

Where the npm package departs from the RFC the RFC is followed, and the departures are corners
no COOP/COEP value reaches in practice: the package reads a Date to the end of the input (so a
Date parameter followed by another parameter fails there, parses here), does not decode a Byte
Sequence (both accept any base64 alphabet text), and does not refuse non-ASCII text as a whole
(RFC 9651 §4.2 step 1; both refuse it anywhere a Token or String is read).
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = [
    "BareItem",
    "ByteSequence",
    "Date",
    "DisplayString",
    "Item",
    "StructuredFieldError",
    "Token",
    "parse_item",
    "token_of",
]

_DIGITS = frozenset(string.digits)
_ALPHA = frozenset(string.ascii_letters)
_TCHAR = _ALPHA | _DIGITS | frozenset("!#$%&'*+-.^_`|~")  # RFC 9110 §5.6.2
_TOKEN_CHARS = _TCHAR | frozenset(":/")  # RFC 9651 §3.3.4
_KEY_FIRST = frozenset(string.ascii_lowercase + "*")
_KEY_CHARS = _KEY_FIRST | _DIGITS | frozenset("_-.")
_BASE64 = frozenset(string.ascii_letters + string.digits + "+/=")
_LOWER_HEX = frozenset("0123456789abcdef")
# RFC 9651 §4.2.4: at most 15 integer digits; a Decimal has at most 12 + 3.
_MAX_INTEGER_DIGITS = 15
_MAX_DECIMAL_INTEGER_DIGITS = 12
_MAX_DECIMAL_FRACTION_DIGITS = 3


class StructuredFieldError(ValueError):
    """The text is not a structured-field Item (RFC 9651 "fail parsing")."""


@dataclass(frozen=True, slots=True)
class Token:
    value: str


@dataclass(frozen=True, slots=True)
class ByteSequence:
    base64: str  # as sent; the grade never needs the bytes


@dataclass(frozen=True, slots=True)
class Date:
    seconds: int  # since the Unix epoch


@dataclass(frozen=True, slots=True)
class DisplayString:
    value: str


type BareItem = int | float | str | bool | Token | ByteSequence | Date | DisplayString


@dataclass(frozen=True, slots=True)
class Item:
    value: BareItem
    parameters: dict[str, BareItem] = field(default_factory=dict)


def parse_item(text: str) -> Item:
    """The Item `text` holds (RFC 9651 §4.2 with field_type "item"), or StructuredFieldError."""
    if not text.isascii():
        raise StructuredFieldError("not ASCII")
    cursor = _Cursor(text)
    cursor.skip_spaces()
    item = Item(_bare_item(cursor), _parameters(cursor))
    cursor.skip_spaces()
    if not cursor.done():
        raise StructuredFieldError(f"unexpected {cursor.peek()!r} at {cursor.pos}")
    return item


def token_of(text: str) -> str | None:
    """The Token of an Item with any parameters; None when `text` is no Item or not a Token."""
    try:
        value = parse_item(text).value
    except StructuredFieldError:
        return None
    return value.value if isinstance(value, Token) else None


@dataclass(slots=True)
class _Cursor:
    text: str
    pos: int = 0

    def done(self) -> bool:
        return self.pos >= len(self.text)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self) -> str:
        if self.done():
            raise StructuredFieldError("unexpected end of input")
        char = self.text[self.pos]
        self.pos += 1
        return char

    def take_while(self, allowed: frozenset[str]) -> str:
        start = self.pos
        while not self.done() and self.text[self.pos] in allowed:
            self.pos += 1
        return self.text[start : self.pos]

    def skip_spaces(self) -> None:
        self.take_while(frozenset(" "))


def _bare_item(cursor: _Cursor) -> BareItem:
    first = cursor.peek()
    if first == "-" or first in _DIGITS:
        return _number(cursor)
    if first == '"':
        return _string(cursor)
    if first == "*" or first in _ALPHA:
        return Token(cursor.take_while(_TOKEN_CHARS))
    readers: dict[str, Callable[[_Cursor], BareItem]] = {
        ":": _byte_sequence,
        "?": _boolean,
        "@": _date,
        "%": _display_string,
    }
    if first in readers:
        return readers[first](cursor)
    raise StructuredFieldError(f"no bare item at {cursor.pos}")


def _parameters(cursor: _Cursor) -> dict[str, BareItem]:
    parameters: dict[str, BareItem] = {}
    while cursor.peek() == ";":
        cursor.take()
        cursor.skip_spaces()
        key = _key(cursor)
        value: BareItem = True
        if cursor.peek() == "=":
            cursor.take()
            value = _bare_item(cursor)
        parameters[key] = value  # a repeated key overwrites (§4.2.3.2)
    return parameters


def _key(cursor: _Cursor) -> str:
    if cursor.peek() not in _KEY_FIRST:  # also at the end: "" is in no set
        raise StructuredFieldError(f"no key at {cursor.pos}")
    return cursor.take_while(_KEY_CHARS)


def _number(cursor: _Cursor) -> int | float:
    sign = -1 if cursor.peek() == "-" else 1
    if sign < 0:
        cursor.take()
    if cursor.peek() not in _DIGITS:
        raise StructuredFieldError(f"no digit at {cursor.pos}")
    whole = cursor.take_while(_DIGITS)
    if cursor.peek() != ".":
        if len(whole) > _MAX_INTEGER_DIGITS:
            raise StructuredFieldError("integer too long")
        return sign * int(whole)
    cursor.take()
    fraction = cursor.take_while(_DIGITS)
    if len(whole) > _MAX_DECIMAL_INTEGER_DIGITS or not fraction:
        raise StructuredFieldError("malformed decimal")
    if len(fraction) > _MAX_DECIMAL_FRACTION_DIGITS:
        raise StructuredFieldError("too many decimal places")
    return sign * float(f"{whole}.{fraction}")


def _string(cursor: _Cursor) -> str:
    cursor.take()  # the opening quote
    out: list[str] = []
    while (char := cursor.take()) != '"':
        if char == "\\":
            char = cursor.take()
            if char not in ('"', "\\"):
                raise StructuredFieldError(f"bad escape at {cursor.pos}")
        elif not " " <= char <= "~":
            raise StructuredFieldError(f"control character at {cursor.pos}")
        out.append(char)
    return "".join(out)


def _byte_sequence(cursor: _Cursor) -> ByteSequence:
    cursor.take()
    content = cursor.take_while(_BASE64)
    if cursor.take() != ":":
        raise StructuredFieldError(f"unterminated byte sequence at {cursor.pos}")
    return ByteSequence(content)


def _boolean(cursor: _Cursor) -> bool:
    cursor.take()
    char = cursor.take()
    if char not in ("0", "1"):
        raise StructuredFieldError(f"bad boolean at {cursor.pos}")
    return char == "1"


def _date(cursor: _Cursor) -> Date:
    cursor.take()
    seconds = _number(cursor)
    if isinstance(seconds, float):
        raise StructuredFieldError("a date is an integer")
    return Date(seconds)


def _display_string(cursor: _Cursor) -> DisplayString:
    cursor.take()
    if cursor.take() != '"':
        raise StructuredFieldError(f"no quote after % at {cursor.pos}")
    raw = bytearray()
    while (char := cursor.take()) != '"':
        if not " " <= char <= "~":
            raise StructuredFieldError(f"control character at {cursor.pos}")
        if char == "%":
            hex_digits = cursor.take() + cursor.take()
            if not set(hex_digits) <= _LOWER_HEX:
                raise StructuredFieldError(f"bad percent-escape at {cursor.pos}")
            raw.append(int(hex_digits, 16))
        else:
            raw.append(ord(char))
    try:
        return DisplayString(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise StructuredFieldError("display string is not UTF-8") from None
