"""The element tree of a page, built from the streamed parse: decoded text in, `parse.tree` out.

Theory of operation. `TreeBuilder` is the extractor's text sink (`PageExtractor(on_text=...)`):
it receives the page's text as the extractor decodes it, chunk by chunk, so the two share the
byte cap, the encoding decision and its late-`<meta charset>` restart. It tokenizes the text
with the tokenizer's patterns (parse.tokenizer: `MARKUP`, the raw-text end patterns, script
data's escape states, comments and CDATA sections) and hands every token to
`parse.tree_construction.TreeConstruction`, which applies the HTML spec's insertion modes.

One pass for both. The tree needs every tag, and its tokenizer's state (raw text, the newline
after `<pre>`) comes from the insertion modes; the extractor alone skips most tags in one
regular-expression match. So the builder tokenizes, and the extractor listens
(`listen`, parse.tokenizer.TokenListener: every token goes to it first, attributes parsed once
for both), which spares the extractor's own scan: bench/tree_instructions.py measures the cut.
Where the extractor's rules for the tokenizer's state and the tree's differ (a start tag the
tree ignores, as `<script>` in a frameset; `<![CDATA[` where the two disagree on foreign
content), or the tree stops at its caps, the builder hands the rest of the text over and the
extractor tokenizes on by itself (`TokenListener.take_over`), so its facts are the same as
without a tree on every page.

Memory: the buffer holds what one feed could not finish (a cut tag, at most `MAX_PENDING`; a
partial character reference; a raw-text element's possibly cut end tag), and the tree is bounded
by `TreeConstruction`'s element and text caps; past them construction stops, tokenizing stops
with it (a listening extractor tokenizes on alone), and the result says `complete=False`.

Newlines are normalized (CR LF and CR to LF) as the input stream does (HTML § 13.2.3.5), with a
CR at the end of a feed held back until the next.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parse.extractor import MAX_PENDING, PageExtractor
from parse.facts import PageFacts
from parse.text import PARTIAL_CHARREF, decode_text
from parse.tokenizer import (
    BOGUS_END,
    CDATA_END,
    MARKUP,
    RAW_ELEMENTS,
    RAW_TAIL,
    RAWTEXT_END,
    RCDATA,
    SCRIPT_DATA,
    TokenizerState,
    TokenListener,
    is_self_closing,
    lower,
    markup_declaration,
    parse_attrs,
    script_end,
    text_end,
)
from parse.tree import DocumentOrder, Element, Namespace, StyleSheet
from parse.tree_construction import MAX_ELEMENTS, MAX_TEXT, TreeConstruction

__all__ = ["ParsedTree", "TreeBuilder", "page_tree"]

# The attributes of an end tag or a start tag without any, for a listener (which never changes
# them): one shared empty dict, where the tree gets a new one of its own.
_NO_ATTRS: dict[str, str] = {}
# Start tags after which the tree's tokenizer state and a listener's may differ (see `_agrees`).
_STATEFUL = RAW_ELEMENTS | {"pre", "listing"}
_DOCTYPE = re.compile(r"[dD][oO][cC][tT][yY][pP][eE][\t\n\f ]*([^\t\n\f >]*)")


@dataclass(frozen=True, slots=True)
class ParsedTree:
    """A page's tree: `root` is its `<html>` element; `complete` is False when the page was cut
    (the extractor's byte cap) or the tree was (its element and text caps). `order`: its
    elements in document order with their parents, where construction kept that order (most
    pages; parse.tree_construction.TreeConstruction.in_order), else None. `style_sheets`: the
    text of its `<style>` elements, whole (the tree keeps only their start)."""

    root: Element
    complete: bool
    elements: int
    order: DocumentOrder | None = None
    style_sheets: tuple[StyleSheet, ...] = ()


class TreeBuilder:
    """Feed decoded text in chunks (or let a `PageExtractor` do it), then `close()`.

    Never raises on any text."""

    def __init__(self, *, max_elements: int = MAX_ELEMENTS, max_text: int = MAX_TEXT) -> None:
        self._caps = (max_elements, max_text)
        self._start()

    def reset(self) -> None:
        """Start again, with no listener (parse.extractor listens again after its restart)."""
        self._tree.discard()
        self._start()

    def _start(self) -> None:
        self._tree = TreeConstruction(max_elements=self._caps[0], max_text=self._caps[1])
        self._listener: TokenListener | None = None
        self._buf = ""
        self._cr = False
        self._skip: re.Pattern[str] | None = None  # in a comment, bogus comment or CDATA
        self._script_state = SCRIPT_DATA
        self._raw_ended = False  # a raw-text element's end tag is next
        self._ended = False  # the input ended: what was held back is tokenized
        self._closed = False

    def listen(self, listener: TokenListener) -> None:
        """Report every token to `listener` too, before the tree gets it (parse.extractor's
        facts), and hand the rest of the text over to it where the tree stops at its caps or
        the two would tokenize on differently (`_agrees`, `_declaration`)."""
        self._listener = listener

    def feed(self, text: str) -> None:
        if self._closed or self._tree.stopped or not text:
            return
        if self._cr:
            text, self._cr = "\r" + text, False
        if text.endswith("\r"):
            text, self._cr = text[:-1], True
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self._buf += text
        self._run(False)

    def close(self, *, truncated: bool = False) -> ParsedTree:
        """The tree; `truncated`: the input was cut before its end (the byte cap)."""
        tree = self._tree
        if not self._closed:
            self._closed = True
            self.end_of_text()
            tree.eof()
        # The listener (a PageExtractor) holds this builder as its text sink: a reference cycle
        # through every fact and node of the page, which only the collector would free.
        self._listener = None
        root = tree.root()
        complete = tree.complete and not truncated
        return ParsedTree(root, complete, tree.elements, tree.order, tuple(tree.style_sheets))

    def end_of_text(self) -> None:
        """The input ended: tokenize what was held back for more (a listener's last tokens come
        now, before `close`)."""
        if not self._ended:
            self._ended = True
            if self._cr:
                self._buf += "\n"
            self._run(True)

    # -- tokenizing -------------------------------------------------------------------------

    def _run(self, eof: bool) -> None:
        buf, pos = self._buf, 0
        tree = self._tree
        while pos < len(buf) and not tree.stopped:
            if tree.drop_newline:
                tree.drop_newline = False
                if buf[pos] == "\n":
                    pos += 1
                continue
            if self._skip is not None:
                pos, wait = self._run_skip(buf, pos, eof)
            elif tree.raw is not None and not self._raw_ended:
                pos, wait = self._run_raw(buf, pos, eof)
            else:
                pos, wait = self._scan(buf, pos, eof)
            if wait:
                break
        if tree.stopped and self._listener is not None:
            state = TokenizerState(self._skip, self._script_state, tree.drop_newline)
            self._hand_over(buf[pos:], eof, state)
        self._buf = "" if tree.stopped else buf[pos:]

    def _hand_over(self, rest: str, eof: bool, state: TokenizerState | None) -> None:
        """The listener tokenizes from here on by itself (TokenListener.take_over)."""
        listener, self._listener = self._listener, None
        assert listener is not None
        if self._cr and not eof:
            rest += "\r"  # held back from this feed: the listener's copy of it
        listener.take_over(rest, eof, state)

    def _agrees(self, listener: TokenListener) -> bool:
        """Whether the listener would tokenize on as the tree does after a start tag that may
        switch the tokenizer's state: it may not, where the tree ignores the tag (`<script>`
        in a frameset, `<xmp>` in a select)."""
        raw, drop_newline, _ = listener.tokenizer_state()
        tree = self._tree
        if raw != tree.raw:
            return False
        return raw is not None or drop_newline == tree.drop_newline

    def _scan(self, buf: str, pos: int, eof: bool) -> tuple[int, bool]:
        """Text and tags until the tokenizer's state changes; (position, wait for input)."""
        tree, listener = self._tree, self._listener
        for m in MARKUP.finditer(buf, pos):
            start = m.start()
            if start > pos:
                piece = buf[pos:start]
                if listener is not None:
                    listener.text(piece)
                tree.characters(decode_text(piece) if "&" in piece else piece)
            slash, name, source, close, other = m.groups()
            if name is None:
                return self._declaration(buf, start, other, eof)
            if close is None:
                return self._unfinished_tag(buf, start, eof)
            pos = m.end()
            name = name.lower() if name.isascii() else lower(name)
            if slash:
                self._raw_ended = False
                if listener is not None:
                    listener.tag(True, name, source, _NO_ATTRS)
                tree.end_tag(name)
            else:
                if source:
                    attrs = parse_attrs(source)
                    if listener is not None:
                        listener.tag(False, name, source, attrs)
                    tree.start_tag(name, attrs, is_self_closing(source))
                else:
                    if listener is not None:
                        listener.tag(False, name, source, _NO_ATTRS)
                    tree.start_tag(name, {}, False)
                if listener is not None and name in _STATEFUL and not self._agrees(listener):
                    self._hand_over(buf[pos:], eof, None)
                    listener = None
            if tree.raw is not None or tree.drop_newline or tree.stopped:
                return pos, False
        return self._trailing_text(buf, pos, eof), True

    def _text(self, piece: str) -> None:
        if self._listener is not None:
            self._listener.text(piece)
        self._tree.characters(decode_text(piece) if "&" in piece else piece)

    def _trailing_text(self, buf: str, pos: int, eof: bool) -> int:
        """Text up to the end, holding back a possible `<` or character reference start."""
        end = text_end(buf, pos, eof)
        if end > pos:
            self._text(buf[pos:end])
        return end

    def _unfinished_tag(self, buf: str, start: int, eof: bool) -> tuple[int, bool]:
        if eof:
            return len(buf), False  # EOF in a tag: the spec drops it
        if len(buf) - start > MAX_PENDING:
            self._skip = BOGUS_END
            return start + 1, False
        return start, True

    def _declaration(self, buf: str, start: int, kind: str, eof: bool) -> tuple[int, bool]:
        if kind == "!" and buf[start + 2 : start + 3] in ("d", "D"):
            if not eof and buf.find(">", start) < 0:
                return start, True  # a doctype's name may be cut
            doctype = _DOCTYPE.match(buf, start + 2)
            if doctype is not None:
                self._tree.doctype(doctype.group(1))
        current = self._tree.stack[-1] if self._tree.stack else None
        foreign = current is not None and current.ns is not Namespace.HTML
        pos, skip = markup_declaration(buf, start, kind, eof, foreign)
        listener = self._listener
        if listener is not None and buf.startswith("<![", start):
            # Only a CDATA section depends on foreign content, which the listener tracks
            # by its own rules: where they differ, it goes on alone from here.
            theirs = markup_declaration(buf, start, kind, eof, listener.tokenizer_state()[2])
            if theirs != (pos, skip):
                self._hand_over(buf[start:], eof, None)
        self._skip = skip
        return pos, pos == start

    def _run_skip(self, buf: str, pos: int, eof: bool) -> tuple[int, bool]:
        skip = self._skip
        assert skip is not None
        m = skip.search(buf, pos)
        stop = m.start() if m is not None else len(buf) if eof else max(pos, len(buf) - 3)
        if skip is CDATA_END and stop > pos:
            self._tree.characters(buf[pos:stop])
        if m is None:
            return stop, True
        self._skip = None
        return m.end(), False

    def _run_raw(self, buf: str, pos: int, eof: bool) -> tuple[int, bool]:
        """A raw-text element's content, up to (not including) its end tag."""
        tree = self._tree
        name, end = tree.raw, len(buf)
        assert name is not None
        if name == "plaintext":
            self._raw_content(name, buf[pos:])
            return end, True
        safe = end if eof else max(pos, end - RAW_TAIL)
        if name == "script":
            stop, self._script_state = script_end(buf, pos, safe, self._script_state)
        else:
            m = RAWTEXT_END[name].search(buf, pos)
            stop = m.start() if m is not None else None
        if stop is not None:
            self._raw_content(name, buf[pos:stop])
            self._raw_ended = True
            if self._listener is not None:
                self._listener.raw_end()
            return stop, False
        if not eof and name in RCDATA:
            m = PARTIAL_CHARREF.search(buf, max(pos, safe - 40), safe)
            if m is not None:
                safe = m.start()
        self._raw_content(name, buf[pos:safe])
        return safe, not eof

    def _raw_content(self, name: str, text: str) -> None:
        if self._listener is not None and text:
            self._listener.raw_text(text)
        if name in RCDATA and "&" in text:
            text = decode_text(text)
        self._tree.characters(text)


def page_tree(
    data: bytes, page_url: str, *, content_type: str | None = None
) -> tuple[PageFacts, ParsedTree]:
    """A whole page's facts and tree from one decoding pass, as the crawl's page stream builds
    them."""
    builder = TreeBuilder()
    extractor = PageExtractor(page_url, content_type=content_type, on_text=builder)
    extractor.feed(data)
    facts = extractor.close()
    return facts, builder.close(truncated=facts.truncated)
