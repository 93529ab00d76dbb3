"""JavaScript regular expressions (as retire.js writes them) translated to Python `re`.

retire.js compiles its extractors with `new RegExp(source, 'g')`: no `u`, `m`, `s` or `i` flag.
Where that dialect and Python's differ, the translation keeps the JavaScript meaning
(ECMA-262 §22.2, "RegExp Objects"):

* `$` outside a class is the end of the input only (no `m` flag); Python's `$` also matches before
  a final newline, so it becomes `\\Z`.
* `.` excludes the four line terminators \\n, \\r, U+2028 and U+2029; Python's `.` excludes only
  \\n.
* `\\s` is JavaScript's WhiteSpace plus LineTerminator set (§22.2.2.9), written out; `\\S` is its
  complement outside a class, and inside a class it is accepted only beside `\\s` (`[\\s\\S]`,
  "any character"), the one use retire.js makes of it.
* `\\d`, `\\w`, `\\b` are ASCII in JavaScript without the `u` flag: compiled with `re.ASCII`.
* `(?<name>` becomes `(?P<name>`; a look-behind of bounded but variable width (`[0-9]{1,2}`),
  which JavaScript allows and `re` does not, is expanded into one fixed-width look-behind per
  width (alternatives for `(?<=`, a conjunction for `(?<!`).
* Inside a class `[`, `&`, `~` and `|` are escaped, so Python never reads them as the start of a
  nested set (its FutureWarning).

Anything else this module does not understand raises `UnsupportedRegex`, so a new construct in a
refreshed repository fails the vendoring test instead of matching something else silently.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

__all__ = ["UnsupportedRegex", "compile_js", "required_literal", "translate"]

# ECMA-262 WhiteSpace (TAB, VT, FF, SP, NBSP, ZWNBSP, Zs) and LineTerminator (LF, CR, LS, PS).
_JS_SPACE = (
    "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
_JS_DOT = "[^\\n\\r\\u2028\\u2029]"
_KEPT_LETTER_ESCAPES = frozenset("dDwWbBnrtfvxu0")
_CLASS_ESCAPED = frozenset("[&~|")
_BOUNDED = re.compile(r"\{(\d+),(\d+)\}")


class UnsupportedRegex(ValueError):
    """A JavaScript pattern uses a construct this translator does not handle."""


def compile_js(source: str) -> re.Pattern[str]:
    return re.compile(translate(source), re.ASCII)


def translate(source: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(source):
        piece, index = _next_piece(source, index)
        out.append(piece)
    return "".join(out)


def _next_piece(source: str, index: int) -> tuple[str, int]:
    char = source[index]
    if char == "\\":
        return _escape(source, index), index + 2
    if char == "[":
        return _char_class(source, index)
    if char == "(" and source.startswith(("(?<=", "(?<!"), index):
        return _lookbehind(source, index)
    if char == "(" and source.startswith("(?<", index):
        return "(?P<", index + 3
    if char == ".":
        return _JS_DOT, index + 1
    if char == "$":
        return "\\Z", index + 1
    return char, index + 1


def _escape(source: str, index: int) -> str:
    if index + 1 >= len(source):
        raise UnsupportedRegex(f"trailing backslash in {source!r}")
    char = source[index + 1]
    if char == "s":
        return f"[{_JS_SPACE}]"
    if char == "S":
        return f"[^{_JS_SPACE}]"
    if char.isdigit() or char in _KEPT_LETTER_ESCAPES or not char.isalnum():
        return "\\" + char
    raise UnsupportedRegex(f"escape \\{char} in {source!r}")


def _char_class(source: str, start: int) -> tuple[str, int]:
    members: list[str] = []
    index = start + 1
    if source.startswith("^", index):
        members.append("^")
        index += 1
    if source.startswith("]", index):
        raise UnsupportedRegex(f"empty or leading-']' class in {source!r}")
    while index < len(source) and source[index] != "]":
        char = source[index]
        if char == "\\":
            members.append(_class_escape(source, index))
            index += 2
            continue
        members.append("\\" + char if char in _CLASS_ESCAPED else char)
        index += 1
    if index >= len(source):
        raise UnsupportedRegex(f"unterminated class in {source!r}")
    body = "".join(members)
    if "\\S" in members and _JS_SPACE not in members:
        raise UnsupportedRegex(f"\\S inside a class without \\s in {source!r}")
    return f"[{body}]", index + 1


def _class_escape(source: str, index: int) -> str:
    char = source[index + 1] if index + 1 < len(source) else ""
    if char == "s":
        return _JS_SPACE
    if char == "S":
        # Only ever beside \s, where the union is every character in both dialects.
        return "\\S"
    if char in ("d", "w", "D", "W") or (char and not char.isalnum()):
        return "\\" + char
    if char in ("n", "r", "t", "f", "v", "x", "u"):
        return "\\" + char
    raise UnsupportedRegex(f"class escape \\{char} in {source!r}")


def _structure(source: str, start: int = 0) -> Iterator[tuple[int, str, int]]:
    """(index, character, group depth after it) of each unescaped character outside classes."""
    depth, index, in_class = 0, start, False
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        else:
            depth += {"(": 1, ")": -1}.get(char, 0)
            yield index, char, depth
        index += 1


def _group_end(source: str, start: int) -> int:
    """Index just past the `)` closing the group that opens at `start`."""
    for index, char, depth in _structure(source, start):
        if char == ")" and depth == 0:
            return index + 1
    raise UnsupportedRegex(f"unbalanced group in {source!r}")


def _lookbehind(source: str, start: int) -> tuple[str, int]:
    end = _group_end(source, start)
    opener, body = source[start : start + 4], source[start + 4 : end - 1]
    variants = _fixed_widths(body)
    translated = [f"{opener}{translate(variant)})" for variant in variants]
    if len(translated) == 1:
        return translated[0], end
    joined = "|".join(translated) if opener == "(?<=" else "".join(translated)
    return f"(?:{joined})", end


def _fixed_widths(body: str) -> list[str]:
    """`body` with every bounded quantifier `{m,n}` replaced by each count from m to n."""
    if any(token in body for token in ("*", "+", "?", "|")):
        raise UnsupportedRegex(f"unbounded or alternating look-behind {body!r}")
    pieces = _BOUNDED.split(body)
    literals, bounds = pieces[0::3], list(zip(pieces[1::3], pieces[2::3], strict=True))
    choices = [range(int(low), int(high) + 1) for low, high in bounds]
    variants = []
    for counts in itertools.product(*choices):
        parts = [literals[0]]
        for count, literal in zip(counts, literals[1:], strict=True):
            parts.append(f"{{{count}}}{literal}")
        variants.append("".join(parts))
    return variants


# Escapes wider than a backslash and one character (ECMA-262 §22.2.1: \xHH, \uHHHH, \cX).
_ESCAPE_WIDTH = {"x": 4, "u": 6, "c": 3}
_QUANTIFIERS = "?*+{"


def required_literal(source: str) -> str:
    """The longest run of literal characters every match of `source` contains ('' if unsure).

    Used as a prefilter: `re` finds a literal with a fast substring search, but a pattern that
    starts with a class or `.` is tried at every position of a long script. Groups, classes,
    escaped letters and quantified atoms end a run; a top-level `|` makes nothing certain.
    """
    if _has_top_level_alternation(source):
        return ""
    best, run, index = "", "", 0
    while index < len(source):
        piece, end = _atom(source, index)
        end, quantified = _skip_quantifier(source, end)
        if piece is None or quantified:
            best, run = max(best, run, key=len), ""
        else:
            run += piece
        index = end
    return max(best, run, key=len)


def _atom(source: str, index: int) -> tuple[str | None, int]:
    char = source[index]
    if char == "\\":
        following = source[index + 1 : index + 2]
        if following.isalnum():
            return None, index + _ESCAPE_WIDTH.get(following, 2)
        return following, index + 2
    if char == "[":
        return None, _class_end(source, index)
    if char == "(":
        return None, _group_end(source, index)
    if char in ".^$|":
        return None, index + 1
    return char, index + 1


def _skip_quantifier(source: str, index: int) -> tuple[int, bool]:
    if index >= len(source) or source[index] not in _QUANTIFIERS:
        return index, False
    if source[index] == "{":
        close = source.find("}", index)
        index = len(source) if close < 0 else close + 1
    else:
        index += 1
    if index < len(source) and source[index] == "?":
        index += 1  # lazy
    return index, True


def _class_end(source: str, start: int) -> int:
    index = start + 1
    while index < len(source) and source[index] != "]":
        index += 2 if source[index] == "\\" else 1
    return index + 1


def _has_top_level_alternation(source: str) -> bool:
    return any(char == "|" and depth == 0 for _, char, depth in _structure(source))
