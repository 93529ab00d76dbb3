"""A request body as JSON, read under limits: the one reader of the REST bodies (`api.schemas`)
and of /mcp's JSON-RPC messages (`api.mcp.jsonrpc`), so both refuse the same bodies.

    loads(raw) -> JsonValue       raises UnreadableBody(problem, message)

Checked before parsing: the size (`MAX_BODY_BYTES`; `api.hardening` answers 413 for it before
routing, and this repeats it for any caller that did not) and the nesting depth (`MAX_DEPTH`),
counted over the bytes outside strings, so `[[[[...` is refused without recursing into it:
CPython's `json` recurses once per level and a body of 10,000 brackets would otherwise end in a
RecursionError (a 500). Checked while parsing: strict JSON (RFC 8259), so no NaN or Infinity
(section 6 has no such numbers) and no string holding a lone surrogate (section 8.2: such
strings cannot be encoded as UTF-8, which D1 and every response need).

No pydantic here: /mcp runs in Pyodide, where pydantic cannot load (tests/pyodide/README.md).
"""

from __future__ import annotations

import json
import re
from enum import StrEnum
from itertools import accumulate

from common.wire import JsonValue

MAX_BODY_BYTES = 64 * 1024
# The deepest body the API takes is 4 levels (an MCP message: params > arguments > include >
# a string); 32 leaves room for clients and stays far below the recursion limit, which is
# lower in Pyodide than in CPython.
MAX_DEPTH = 32
# A JSON string (RFC 8259 section 7): quotes around unescaped characters and escapes. Bytes
# outside strings are all the depth count needs; a malformed string is json's to report.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class BodyProblem(StrEnum):
    TOO_LARGE = "too_large"
    TOO_DEEP = "too_deep"
    NOT_JSON = "not_json"


class UnreadableBody(ValueError):
    """A body refused before or while parsing; `problem` says which rule it broke."""

    def __init__(self, problem: BodyProblem, message: str) -> None:
        super().__init__(message)
        self.problem = problem
        self.message = message


def loads(raw: bytes) -> JsonValue:
    """The body's JSON value; raises `UnreadableBody`."""
    if len(raw) > MAX_BODY_BYTES:
        raise UnreadableBody(
            BodyProblem.TOO_LARGE, f"the body is {len(raw)} bytes; the limit is {MAX_BODY_BYTES}"
        )
    if depth(raw) > MAX_DEPTH:
        raise UnreadableBody(
            BodyProblem.TOO_DEEP, f"the body nests arrays and objects deeper than {MAX_DEPTH}"
        )
    try:
        value: JsonValue = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        json.dumps(value, ensure_ascii=False).encode()  # UnicodeEncodeError: a lone surrogate
    # UnicodeError is a ValueError: not UTF-8 (RFC 8259 section 8.1), or a lone surrogate.
    except ValueError as exc:
        raise UnreadableBody(BodyProblem.NOT_JSON, f"the body is not valid JSON: {exc}") from exc
    return value


def depth(raw: bytes) -> int:
    """How deep arrays and objects nest in `raw`, counting brackets outside strings."""
    outside = _STRING.sub(b"", raw)
    return max(accumulate(_STEP.get(byte, 0) for byte in outside), default=0)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")
