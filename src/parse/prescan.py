"""The HTML spec's "prescan a byte stream to determine its encoding", ported from html5lib 1.1.

`EncodingParser` (a page's first bytes to the encoding its `<meta>` declares), `ContentAttrParser`
(the charset parameter of a `content` attribute) and `lookup_encoding` (a WHATWG label to its
`webencodings` encoding), from html5lib's `_inputstream.py`
(https://github.com/html5lib/html5lib-python/blob/1.1/html5lib/_inputstream.py), typed and
renamed, step for step. Importing them from html5lib loaded html5lib's whole parser with them
(its package imports it), which cost every audit's start-up more than the rest of `parse/`;
tests/parse/test_prescan.py checks that both give the same answers. html5lib stays the reference
parser of the parity tests (`parse.reference`).

Where html5lib's code fails with an exception on odd bytes (a `TypeError` from a position before
the start), this port raises one at the same points; callers treat any exception as "no
encoding", as they did with html5lib's.

html5lib's licence, which covers the code below:

Copyright (c) 2006-2013 James Graham and other contributors

Permission is hereby granted, free of charge, to any person obtaining
a copy of this software and associated documentation files (the
"Software"), to deal in the Software without restriction, including
without limitation the rights to use, copy, modify, merge, publish,
distribute, sublicense, and/or sell copies of the Software, and to
permit persons to whom the Software is furnished to do so, subject to
the following conditions:

The above copyright notice and this permission notice shall be
included in all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE
LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION
OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION
WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
"""

from __future__ import annotations

import string
from collections.abc import Callable

import webencodings

__all__ = ["ContentAttrParser", "EncodingBytes", "EncodingParser", "lookup_encoding"]

_SPACES = frozenset(c.encode("ascii") for c in "\t\n\u000c \r")
_LETTERS = frozenset(c.encode("ascii") for c in string.ascii_letters)
_UPPERCASE = frozenset(c.encode("ascii") for c in string.ascii_uppercase)
_SPACES_ANGLE_BRACKETS = _SPACES | {b">", b"<"}
_SPACES_SLASH = _SPACES | {b"/"}


class EncodingBytes(bytes):
    """Lowercased bytes with a read position (-1 before the first byte); reading at or past the
    end raises StopIteration, reading before the start TypeError."""

    _position: int

    def __new__(cls, value: bytes) -> EncodingBytes:
        return bytes.__new__(cls, value.lower())

    def __init__(self, value: bytes) -> None:
        self._position = -1

    def __iter__(self) -> EncodingBytes:  # type: ignore[override]  # html5lib iterates bytes
        return self

    def __next__(self) -> bytes:
        p = self._position = self._position + 1
        if p >= len(self):
            raise StopIteration
        if p < 0:
            raise TypeError("before the start")
        return self[p : p + 1]

    def previous(self) -> bytes:
        p = self._position
        if p >= len(self):
            raise StopIteration
        if p < 0:
            raise TypeError("before the start")
        self._position = p = p - 1
        return self[p : p + 1]

    def start(self) -> int | None:
        """html5lib's `position`: None before the first byte (where slicing and arithmetic fail,
        and `startswith`/`index` start from 0)."""
        if self._position >= len(self):
            raise StopIteration
        return self._position if self._position >= 0 else None

    def position(self) -> int:
        """The position where html5lib uses it in arithmetic (None there raised TypeError)."""
        p = self.start()
        if p is None:
            raise TypeError("no position before the start")
        return p

    def move_to(self, position: int) -> None:
        if self._position >= len(self):
            raise StopIteration
        self._position = position

    def current_byte(self) -> bytes:
        p = self.position()
        return self[p : p + 1]

    def skip(self, chars: frozenset[bytes] = _SPACES) -> bytes | None:
        """Skip past `chars`; the first other byte, or None at the end."""
        p = self.position()
        while p < len(self):
            c = self[p : p + 1]
            if c not in chars:
                self._position = p
                return c
            p += 1
        self._position = p
        return None

    def skip_until(self, chars: frozenset[bytes]) -> bytes | None:
        p = self.position()
        while p < len(self):
            c = self[p : p + 1]
            if c in chars:
                self._position = p
                return c
            p += 1
        self._position = p
        return None

    def match_bytes(self, prefix: bytes) -> bool:
        """Whether `prefix` starts at the position; if so, move past it."""
        matched = self.startswith(prefix, self.start())
        if matched:
            self.move_to(self.position() + len(prefix))
        return matched

    def jump_to(self, needle: bytes) -> bool:
        """Move to the last byte of the next `needle`; StopIteration when there is none."""
        try:
            self._position = self.index(needle, self.start()) + len(needle) - 1
        except ValueError:
            raise StopIteration from None
        return True


class EncodingParser:
    """Mini parser for detecting character encoding from meta elements."""

    def __init__(self, data: bytes) -> None:
        self.data = EncodingBytes(data)
        self.encoding: webencodings.Encoding | None = None

    def get_encoding(self) -> webencodings.Encoding | None:
        if self.data.find(b"<meta") < 0:
            return None
        dispatch: tuple[tuple[bytes, Callable[[], bool]], ...] = (
            (b"<!--", self.handle_comment),
            (b"<meta", self.handle_meta),
            (b"</", self.handle_possible_end_tag),
            (b"<!", self.handle_other),
            (b"<?", self.handle_other),
            (b"<", self.handle_possible_start_tag),
        )
        for _ in self.data:
            keep_parsing = True
            try:
                self.data.jump_to(b"<")
            except StopIteration:
                break
            for key, method in dispatch:
                if self.data.match_bytes(key):
                    try:
                        keep_parsing = method()
                    except StopIteration:
                        keep_parsing = False
                    break
            if not keep_parsing:
                break
        return self.encoding

    def handle_comment(self) -> bool:
        return self.data.jump_to(b"-->")

    def handle_meta(self) -> bool:
        if self.data.current_byte() not in _SPACES:
            return True  # "<meta" not followed by a space: keep going
        has_pragma = False
        pending: webencodings.Encoding | None = None
        while True:
            attr = self.get_attribute()
            if attr is None:
                return True
            name, value = attr
            if name == b"http-equiv":
                has_pragma = value == b"content-type"
                if has_pragma and pending is not None:
                    self.encoding = pending
                    return False
            elif name == b"charset":
                codec = lookup_encoding(value)
                if codec is not None:
                    self.encoding = codec
                    return False
            elif name == b"content":
                tentative = ContentAttrParser(EncodingBytes(value)).parse()
                if tentative is not None:
                    codec = lookup_encoding(tentative)
                    if codec is not None:
                        if has_pragma:
                            self.encoding = codec
                            return False
                        pending = codec

    def handle_possible_start_tag(self) -> bool:
        return self.handle_possible_tag(False)

    def handle_possible_end_tag(self) -> bool:
        next(self.data)
        return self.handle_possible_tag(True)

    def handle_possible_tag(self, end_tag: bool) -> bool:
        data = self.data
        if data.current_byte() not in _LETTERS:
            # Not a tag: ignored (a possible start tag), or skipped like "<!" (an end tag).
            if end_tag:
                data.previous()
                self.handle_other()
            return True
        c = data.skip_until(_SPACES_ANGLE_BRACKETS)
        if c == b"<":
            data.previous()  # the "<" is read again by the main loop
        else:
            attr = self.get_attribute()
            while attr is not None:
                attr = self.get_attribute()
        return True

    def handle_other(self) -> bool:
        return self.data.jump_to(b">")

    def get_attribute(self) -> tuple[bytes, bytes] | None:
        """The next attribute's (name, value), or None when there is none."""
        data = self.data
        c = data.skip(_SPACES_SLASH)  # step 1
        if c in (b">", None):  # step 2
            return None
        name: list[bytes] = []  # step 3
        value: list[bytes] = []
        while True:  # step 4: the name
            if c == b"=" and name:
                break
            if c in _SPACES:
                c = data.skip()  # step 6
                break
            if c in (b"/", b">"):
                return b"".join(name), b""
            name.append(c.lower() if c in _UPPERCASE else c)
            c = next(data)  # step 5
        if c != b"=":  # step 7
            data.previous()
            return b"".join(name), b""
        next(data)  # step 8
        c = data.skip()  # step 9
        if c in (b"'", b'"'):  # step 10
            quote = c
            while True:
                c = next(data)
                if c == quote:
                    next(data)
                    return b"".join(name), b"".join(value)
                value.append(c.lower() if c in _UPPERCASE else c)
        if c == b">":
            return b"".join(name), b""
        if c is None:
            return None
        value.append(c.lower() if c in _UPPERCASE else c)
        while True:  # step 11
            c = next(data)
            if c in _SPACES_ANGLE_BRACKETS:
                return b"".join(name), b"".join(value)
            value.append(c.lower() if c in _UPPERCASE else c)


class ContentAttrParser:
    """The charset parameter of a `content` attribute's value, or None."""

    def __init__(self, data: EncodingBytes) -> None:
        self.data = data

    def parse(self) -> bytes | None:
        data = self.data
        try:
            data.jump_to(b"charset")
            data.move_to(data.position() + 1)
            data.skip()
            if data.current_byte() != b"=":
                return None  # no "=": not a charset parameter
            data.move_to(data.position() + 1)
            data.skip()
            if data.current_byte() in (b'"', b"'"):  # quoted
                quote = data.current_byte()
                data.move_to(data.position() + 1)
                start = data.position()
                data.jump_to(quote)
                return data[start : data.position()]
            start = data.position()  # unquoted
            try:
                data.skip_until(_SPACES)
                return data[start : data.position()]
            except StopIteration:
                return data[start:]  # the whole remaining value
        except StopIteration:
            return None


def lookup_encoding(label: bytes | str | None) -> webencodings.Encoding | None:
    """The encoding a WHATWG label names, or None (unknown, or bytes that are not ASCII)."""
    if isinstance(label, bytes):
        try:
            label = label.decode("ascii")
        except UnicodeDecodeError:
            return None
    if label is None:
        return None
    try:
        found: webencodings.Encoding | None = webencodings.lookup(label)
    except AttributeError:
        return None
    return found
