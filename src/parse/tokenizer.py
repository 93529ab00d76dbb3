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
"""

from __future__ import annotations

import re

from parse.text import decode_attr

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
