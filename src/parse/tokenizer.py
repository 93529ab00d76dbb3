"""The HTML tokenizer's patterns: compiled regexes that a scanning loop applies to a buffer.

Theory of operation. The extractor never asks for one character at a time: it searches its buffer
with `MARKUP` for the next `<` that starts markup, treats what lies before as character data, and
for each tag gets the name and the raw attribute text in one match. Attributes are parsed (by
`parse_attrs`) only for the few tags whose facts need them. The patterns encode the HTML spec's
tokenizer states where they decide where a token ends:

* tag: name up to whitespace, `/` or `>`; attributes as in the "before/after attribute name" and
  "attribute value (double/single/unquoted)" states: a name may start with `=`, an unquoted value
  runs to whitespace or `>`, a quote only opens a value right after `=`. A tag is complete only at
  a `>` outside a quoted value; if the buffer ends first, `MARKUP` still matches but without the
  closing group, meaning "wait for more input" (or, at end of input, "drop the tag", as the spec's
  EOF-in-tag rule does). Possessive quantifiers keep the match linear on hostile input.
* `<!--` comments end at `-->` or `--!>`, `<!-->` and `<!--->` are empty comments; `<!...>`,
  `<?...>` and `</` + non-letter are bogus comments ending at the first `>`; `</>` is dropped;
  `<![CDATA[` is a bogus comment in HTML content and a CDATA section (to `]]>`) in foreign content.
* raw text: after `<script>`, `<style>`, `<title>` and the like the tokenizer looks only for the
  matching end tag (`RAWTEXT_END`); script data additionally has the escaped and double-escaped
  states entered by `<!--` and `<script` (`SCRIPT_SCAN`).

`TokenListener` is how one tokenizing loop (the element tree's, parse.tree_builder) reports its
tokens to a second consumer (the extractor), so a page with a tree is tokenized once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from parse.text import PARTIAL_CHARREF, decode_attr

_WS = r"\t\n\f\r "
_VALUE = rf"""(?:"[^"]*+"|'[^']*+'|[^{_WS}>"'][^{_WS}>]*+|(?=>))"""
_ATTRS = rf"(?:[{_WS}/]++|[^{_WS}/>][^{_WS}/>=]*+[{_WS}]*+(?:=[{_WS}]*+{_VALUE}|(?!=)))*+"
# The same, where no attribute is named `id` (any case).
_ATTRS_NO_ID = (
    rf"(?:[{_WS}/]++|(?:[^{_WS}/>iI]|[iI](?![dD](?:[{_WS}/>=]|\Z)))[^{_WS}/>=]*+[{_WS}]*+"
    rf"(?:=[{_WS}]*+{_VALUE}|(?!=)))*+"
)
# A tag's attribute text that may name an `id` (parse_attrs decides).
MAY_HAVE_ID = re.compile(rf"(?:^|[{_WS}/])[iI][dD](?=[{_WS}/>=]|\Z)")
# Groups: 1 "/" of an end tag, 2 tag name, 3 attribute text, 4 ">" if complete, 5 one of "!?/".
_MARKUP = rf"<(?:(/?)([A-Za-z][^{_WS}/>]*+)({_ATTRS})(>)?|([!?/]))"
MARKUP = re.compile(_MARKUP)
# Any complete tag, for removing uninteresting tags from a text region in one pass.
TAGS = re.compile(rf"</?[A-Za-z][^{_WS}/>]*+{_ATTRS}>")
# One attribute: name, then the value's double-quoted, single-quoted or unquoted text. Possessive:
# no character a quantifier gives back could start what follows it, so they never backtrack.
_ATTR = re.compile(
    rf"""([^{_WS}/>][^{_WS}/>=]*+)(?:[{_WS}]*+=[{_WS}]*+"""
    rf"""(?:"([^"]*+)"|'([^']*+)'|([^{_WS}>]*+)))?"""
)
COMMENT_END = re.compile(r"--!?>")
BOGUS_END = re.compile(r">")
CDATA_END = re.compile(r"\]\]>")
# Script data: `<!--` enters the escaped state, `-->` leaves it, `<script` inside it enters the
# double-escaped state (where `</script` only returns to escaped); `</script` ends the element.
# Outside the escaped states only `<!--` and `</script` matter, and a pattern that starts with a
# literal `<` (no IGNORECASE, which would disable the literal-prefix scan) is much faster there.
SCRIPT_DATA_SCAN = re.compile(r"<(?:(!--)|(/[sS][cC][rR][iI][pP][tT])(?=[\t\n\f\r />]))")
SCRIPT_SCAN = re.compile(
    r"(<!--)|(-->)|(</[sS][cC][rR][iI][pP][tT])(?=[\t\n\f\r />])"
    r"|(<[sS][cC][rR][iI][pP][tT])(?=[\t\n\f\r />])"
)
# The longest partial end tag or script token a chunk boundary can cut ("</noframes" + 1 char).
RAW_TAIL = len("</noframes")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

RAWTEXT = frozenset({"style", "xmp", "iframe", "noembed", "noframes", "noscript"})
RCDATA = frozenset({"title", "textarea"})
RAW_ELEMENTS = RAWTEXT | RCDATA | {"script", "plaintext"}
RAWTEXT_END = {
    name: re.compile("</" + "".join(f"[{c.upper()}{c}]" for c in name) + r"(?=[\t\n\f\r />])")
    for name in RAWTEXT | RCDATA
}


SCRIPT_DATA, SCRIPT_ESCAPED, SCRIPT_DOUBLE = 0, 1, 2  # script data states


@dataclass(frozen=True, slots=True)
class TokenizerState:
    """Where a tokenizing loop stopped: `skip` ends the comment, bogus comment or CDATA section
    it is in, if any; `script_state` is script data's escape state; `drop_newline`: a newline
    next is dropped (just after `<pre>`, `<listing>` or `<textarea>`)."""

    skip: re.Pattern[str] | None
    script_state: int
    drop_newline: bool


class TokenListener(Protocol):
    """What a tokenizing loop reports to a second consumer of the same tokens, so that one pass
    serves two (parse.tree_builder.TreeBuilder tokenizes, parse.extractor.PageExtractor
    listens). Text comes undecoded (character references are the listener's to decode) with
    newlines normalized; names are lowercased; `attrs` is `parse_attrs(source)`, which the
    listener reads and neither keeps nor changes (the tree keeps it)."""

    def text(self, piece: str) -> None:
        """Character data in the data state."""

    def tag(self, end: bool, name: str, source: str, attrs: dict[str, str]) -> None:
        """A complete start (`end` False) or end tag."""

    def raw_text(self, piece: str) -> None:
        """Part of a raw-text element's content (script, style, title, plaintext, ...)."""

    def raw_end(self) -> None:
        """The raw-text element's end tag is next: its content is over."""

    def tokenizer_state(self) -> tuple[str | None, bool, bool]:
        """The listener's own view of the tokenizer's state after the last token: the raw-text
        element it would read to its end tag, whether it would drop a newline next, and whether
        it is in foreign content (where `<![CDATA[` opens a CDATA section)."""

    def take_over(self, rest: str, eof: bool, state: TokenizerState | None) -> None:
        """The tokenizer goes on without the listener from here (the tree stopped at its caps,
        or the tree's tokenizer state and the listener's differ): the listener tokenizes `rest`,
        the text not yet tokenized, and all later text itself, from `state` (its own if None).
        `eof`: the input has ended."""


def script_end(buf: str, pos: int, safe: int, state: int) -> tuple[int | None, int]:
    """Script data from `pos`: where the `</script` that ends it starts (None if not before
    `safe`), and the escape state reached.

    Only tokens starting before `safe` are taken; the held-back tail is scanned again, from the
    state reached, once more input has arrived.
    """
    while True:
        if state == SCRIPT_DATA:
            m = SCRIPT_DATA_SCAN.search(buf, pos)
            if m is None or m.start() >= safe:
                return None, state
            if m.group(2):
                return m.start(), SCRIPT_DATA
            # Its dashes may begin `-->`, as in `<!-->`.
            state, pos = SCRIPT_ESCAPED, m.start() + 2
            continue
        m = SCRIPT_SCAN.search(buf, pos)
        if m is None or m.start() >= safe:
            return None, state
        if m.group(1):  # <!--
            pos = m.start() + 2
        elif m.group(2):  # -->
            state, pos = SCRIPT_DATA, m.end()
        elif m.group(3):  # </script
            if state != SCRIPT_DOUBLE:
                return m.start(), SCRIPT_DATA
            state, pos = SCRIPT_ESCAPED, m.end()
        else:  # <script
            state = SCRIPT_DOUBLE if state == SCRIPT_ESCAPED else state
            pos = m.end()


def markup_declaration(
    buf: str, start: int, kind: str, eof: bool, foreign: bool
) -> tuple[int, re.Pattern[str] | None]:
    """`<!`, `<?` or `</` + non-letter at `start` (MARKUP's group 5 is `kind`): the position to
    go on from (`start` itself: wait for more input) and the pattern that ends what is to be
    skipped from there, if any (a comment, a bogus comment, a CDATA section where `foreign`)."""
    rest = buf[start + 2 : start + 9]
    if kind == "/":
        if not rest:
            return (len(buf) if eof else start), None
        if rest[0] == ">":
            return start + 3, None  # `</>` is dropped
        return start + 2, BOGUS_END
    if kind == "!":
        if rest[:2] == "--":
            tail = buf[start + 4 : start + 6]
            if tail[:1] == ">":
                return start + 5, None
            if tail == "->":
                return start + 6, None
            if tail in ("", "-") and not eof:
                return start, None
            return start + 4, COMMENT_END
        if not eof and len(rest) < 2 and "--".startswith(rest):
            return start, None
        if foreign:
            if rest == "[CDATA[":
                return start + 9, CDATA_END
            if not eof and len(rest) < 7 and "[CDATA[".startswith(rest):
                return start, None
    return start + 2, BOGUS_END


def text_end(buf: str, pos: int, eof: bool) -> int:
    """Where the character data from `pos` to the buffer's end may be taken up to: before a
    final `<` or a character reference the end may have cut, unless the input has ended."""
    end = len(buf)
    if eof:
        return end
    if buf.endswith("<"):
        return end - 1
    m = PARTIAL_CHARREF.search(buf, max(pos, end - 40))
    return end if m is None else m.start()


def lower(name: str) -> str:
    """ASCII lowercase, as the tokenizer lowercases names (non-ASCII letters stay as they are)."""
    return name.lower() if name.isascii() else name.translate(_ASCII_LOWER)


def fix_value(value: str) -> str:
    """An attribute value as the tokenizer and input stream deliver it."""
    if "&" in value:
        value = decode_attr(value)
    if "\r" in value:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    if "\0" in value:
        value = value.replace("\0", "\ufffd")
    return value


def parse_attrs(source: str) -> dict[str, str]:
    """Attributes from a tag's attribute text (group 3 of MARKUP); the first duplicate wins."""
    attrs: dict[str, str] = {}
    if source.isascii() and "&" not in source and "\r" not in source and "\0" not in source:
        # The common case: nothing to decode or replace (`in` is a C-level scan, `isascii` O(1)).
        for name, double, single, unquoted in _ATTR.findall(source):
            name = name.lower()
            if name not in attrs:
                attrs[name] = double or single or unquoted
        return attrs
    for name, double, single, unquoted in _ATTR.findall(source):
        name = name.lower() if name.isascii() else lower(name)
        if "\0" in name:
            name = name.replace("\0", "\ufffd")
        if name in attrs:
            continue
        # findall gives "" for unmatched groups; only one of the three can be non-empty.
        value = double or single or unquoted
        attrs[name] = fix_value(value) if value else value
    return attrs


def is_self_closing(source: str) -> bool:
    """Whether the attribute text ends with the self-closing `/` (not a slash inside a value)."""
    if not source.endswith("/"):
        return False
    last = None
    for last in _ATTR.finditer(source):  # noqa: B007 - the loop only finds the last match
        pass
    return last is None or last.end() < len(source)


def region_pattern(start_names: frozenset[str], end_names: frozenset[str]) -> re.Pattern[str]:
    """A run of text and tags whose names are not in the given sets, stopping before any other
    markup (a tag of those names, a start tag with an `id` attribute, which is a fragment
    target, a comment or declaration, or a tag cut by the buffer's end), then that markup token
    if there is one: group 1, whose groups 2-6 are MARKUP's 1-5.

    It lets the extractor skip, in one C-level match, the stretches of a page where no tag
    matters, and read the next tag that does; `TAGS.sub` then leaves the stretch's character
    data. Names compare ASCII-case-insensitively.
    """

    def tag(prefix: str, group: frozenset[str], attrs: str) -> str:
        exclude = rf"(?!{_trie(group)}(?=[{_WS}/>]|\Z))" if group else ""
        return rf"{prefix}{exclude}[A-Za-z][^{_WS}/>]*+{attrs}>"

    boring = rf"{tag('<', start_names, _ATTRS_NO_ID)}|{tag('</', end_names, _ATTRS)}"
    return re.compile(rf"(?:[^<]++|{boring}|<(?![A-Za-z!?/]|\Z))*+({_MARKUP})?")


def _trie(names: frozenset[str]) -> str:
    """An ASCII-case-insensitive regex for exactly `names`, factored by prefix (the regex engine
    does not factor alternations, and this is tried at every tag)."""
    first: dict[str, set[str]] = {}
    whole = False
    for name in names:
        if name:
            first.setdefault(name[0], set()).add(name[1:])
        else:
            whole = True
    branches = []
    for char in sorted(first):
        cls = f"[{char.upper()}{char}]" if char.isalpha() else re.escape(char)
        branches.append(cls + _trie(frozenset(first[char])))
    if not branches:
        return ""
    body = "(?:" + "|".join(branches) + ")"
    return body + "?" if whole else body
