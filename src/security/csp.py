"""Content-Security-Policy parsing as the Observatory does it (never raises).

A port of mdn/mdn-http-observatory `src/analyzer/cspParser.js`: every policy (header value or
`<meta http-equiv>` content) is split into directives and lower-cased sources; a directive
repeated inside one policy makes the whole set invalid, except `report-uri` and `report-to`,
which are only noted; a `-src` directive without sources means `'none'`; with several policies, a
source counts only if every policy allows it (compared path by path). Where the JavaScript throws,
`parse_csp` returns a `ParsedCsp` whose `invalid` says why, so any header string parses.

Several policies may arrive in one field value: RFC 9110 §5.3 lets a recipient combine repeated
`Content-Security-Policy` fields into one, comma-separated, and CSP3 §2.2 (parse a serialized
CSP list) splits on commas, which no directive value contains. `split_policies` is the test's
splitCspHeaders (`src/analyzer/tests/csp.js`): each value split on "," and trimmed, for header
values and meta contents alike, before the list reaches `parse_csp`.

One known divergence: the JavaScript sorts sources with `Intl.Collator("en")`, this port by code
point; the order only decides which of two adjacent sources is dropped as superfluous.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from common.js_string import js_split_whitespace, js_trim

# cspParser.js: "img-src" is the shortest directive the test accepts; shorter policies are invalid.
_SHORTEST_POLICY = len("img-src") - 1
_DISALLOWED_IN_META = ("frame-ancestors", "report-uri", "sandbox")
_ALLOWED_DUPLICATES = frozenset({"report-uri", "report-to"})
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


@dataclass(frozen=True, slots=True)
class ParsedCsp:
    """Directive -> its sources; `invalid` names why the policies could not be parsed."""

    directives: dict[str, set[str]] = field(default_factory=dict)
    duplicates: frozenset[str] = frozenset()  # allowed duplicates seen (report-uri, report-to)
    invalid: str | None = None

    def __bool__(self) -> bool:
        return bool(self.directives)


@dataclass(slots=True)
class _Source:
    source: str
    index: int
    keep: bool


def split_policies(values: Sequence[str]) -> list[str]:
    """The policies of header values or meta contents: each split on "," and trimmed."""
    return [js_trim(policy) for value in values for policy in value.split(",")]


def parse_csp(policies: Sequence[str]) -> ParsedCsp:
    """Parse header policies (parseCsp); `invalid` is set where the Observatory throws."""
    clean = [js_trim(re.sub(r"[\r\n]", "", policy)) for policy in policies]
    if not clean:
        return ParsedCsp()
    for policy in clean:
        if len(policy) < _SHORTEST_POLICY:
            return ParsedCsp(invalid=f"policy too short: {policy!r}")
    try:
        return _parse(clean, len(policies))
    except _Invalid as exc:
        return ParsedCsp(invalid=str(exc))


def parse_csp_meta(policies: Sequence[str]) -> ParsedCsp:
    """Parse `<meta http-equiv>` policies, dropping what only a header may set (parseCspMeta)."""
    parsed = parse_csp(policies)
    kept = {k: v for k, v in parsed.directives.items() if k not in _DISALLOWED_IN_META}
    return ParsedCsp(kept, parsed.duplicates, parsed.invalid)


class _Invalid(Exception):
    pass


def _parse(policies: list[str], count: int) -> ParsedCsp:
    csp: dict[str, list[_Source]] = {}
    duplicates: set[str] = set()
    for index, policy in enumerate(policies):
        seen: set[str] = set()
        for entry in policy.split(";"):
            words = js_split_whitespace(js_trim(entry))
            if not words[0]:
                continue
            directive = words[0].lower()
            if directive in seen:
                if directive not in _ALLOWED_DUPLICATES:
                    raise _Invalid(f"duplicate directive {directive} in policy {index}")
                duplicates.add(directive)
            seen.add(directive)
            csp[directive] = _combine(csp.get(directive, []), directive, words[1:], index)
            if index == 0 and count > 1:
                for source in csp[directive]:
                    source.keep = False
    directives = {
        directive: {source.source for source in sources} or {"'none'"}
        for directive, sources in csp.items()
    }
    return ParsedCsp(directives, frozenset(duplicates))


def _combine(earlier: list[_Source], directive: str, raw: list[str], index: int) -> list[_Source]:
    keep = index == 0
    values = [_Source(js_trim(source).lower(), index, keep) for source in raw]
    if not values and directive.endswith("-src"):
        values = [_Source("'none'", index, keep)]
    combined = values if index == 0 else earlier + values
    combined.sort(key=lambda source: source.source)
    for previous, current in pairwise(combined):
        # Same policy, longer source with the same start: superfluous.
        if current.index == previous.index and current.source.startswith(previous.source):
            current.keep = False
        # In two policies: allowed by both, so it stays.
        if current.index != previous.index and _path_part_match(previous.source, current.source):
            current.keep = True
    return [source for source in combined if source.keep]


def _path_part_match(path_a: str, path_b: str) -> bool:
    if not path_a:
        return True
    if path_a == "/" and not path_b:
        return True
    exact = not path_a.endswith("/")
    parts_a, parts_b = path_a.split("/"), path_b.split("/")
    if len(parts_a) > len(parts_b) or (exact and len(parts_a) != len(parts_b)):
        return False
    if not exact:
        parts_a.pop()
    return all(_decode(a) == _decode(b) for a, b in zip(parts_a, parts_b, strict=False))


def _decode(piece: str) -> str:
    # decodeURIComponent throws URIError on a stray "%" and on escapes that are not UTF-8
    # ("%aa"): the policy is then invalid.
    if _PERCENT.search(piece):
        raise _Invalid(f"malformed percent-encoding in {piece!r}")
    from urllib.parse import unquote

    try:
        return unquote(piece, errors="strict")
    except UnicodeDecodeError:
        raise _Invalid(f"percent-encoding that is not UTF-8 in {piece!r}") from None
