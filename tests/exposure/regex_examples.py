"""A shortest string a regular expression matches, built from Python's own parse of the pattern.

Used to turn every retire.js `filecontent` pattern into a minimal script body: the version group
`(§§version§§)` is replaced by a literal marker first, so the example carries the version a test
chooses. Handles the constructs the retire.js patterns use; anything else raises, so a refreshed
repository with a new construct fails loudly rather than testing nothing.
"""

from __future__ import annotations

import re
import string
from re import _constants as c
from re import _parser
from typing import Any

from exposure.jsregex import translate

MARKER = "VERSIONMARKER"
_CANDIDATES = " aA0!\"'(,.;=_-/{}[]*\n\t" + string.ascii_letters + string.digits


def example(js_source: str, version: str) -> str:
    """A string the (JavaScript) pattern matches, with `version` where the version group is."""
    source = js_source.replace("(§§version§§)", f"({MARKER})")
    parsed = _parser.parse(translate(source), re.ASCII)
    groups: dict[int, str] = {}
    text = _emit(parsed, groups)
    return text.replace(MARKER, version)


# re._parser's operands differ per opcode (a code point, a tuple, a subpattern): `Any` is their type.
def _emit(items: Any, groups: dict[int, str]) -> str:
    return "".join(_one(op, arg, groups) for op, arg in items)


def _one(op: object, arg: Any, groups: dict[int, str]) -> str:
    if op is c.LITERAL:
        return chr(arg)
    if op is c.NOT_LITERAL:
        return next(ch for ch in _CANDIDATES if ord(ch) != arg)
    if op is c.ANY:
        return "a"
    if op is c.IN:
        return _member(arg)
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
        low, _high, item = arg
        return _emit(item, groups) * low if low else ""
    if op is c.SUBPATTERN:
        group, _add, _del, item = arg
        text = _emit(item, groups)
        if group is not None:
            groups[group] = text
        return text
    if op is c.BRANCH:
        return _emit(arg[1][0], groups)
    if op is c.GROUPREF:
        return groups[arg]
    if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
        return ""  # anchors and look-arounds: the examples are checked by matching afterwards
    raise ValueError(f"no example for {op}")


def _member(items: Any) -> str:
    pattern = re.compile(_class_source(items), re.ASCII)
    return next(ch for ch in _CANDIDATES if pattern.fullmatch(ch))


def _class_source(items: Any) -> str:
    parts, negate = [], False
    for op, arg in items:
        if op is c.NEGATE:
            negate = True
        elif op is c.LITERAL:
            parts.append(re.escape(chr(arg)))
        elif op is c.RANGE:
            parts.append(f"{re.escape(chr(arg[0]))}-{re.escape(chr(arg[1]))}")
        elif op is c.CATEGORY:
            parts.append(
                {
                    c.CATEGORY_SPACE: r"\s",
                    c.CATEGORY_NOT_SPACE: r"\S",
                    c.CATEGORY_DIGIT: r"\d",
                    c.CATEGORY_WORD: r"\w",
                }[arg]
            )
        else:
            raise ValueError(f"no class example for {op}")
    return f"[{'^' if negate else ''}{''.join(parts)}]"
