"""The streaming extractor: bytes in, `PageFacts` out, no tree, bounded memory.

Theory of operation. `feed()` decodes the chunk (`decoding.Decoder`) and appends it to a buffer
holding only what earlier feeds could not finish (a cut tag, a partial character reference, the
tail of a raw-text element). `_run()` then walks the buffer with the tokenizer's patterns; for
each token it does the least work the facts need:

* character data goes, undecoded, to the visible-text list (and to open link/heading captures),
  with the uninteresting tags the region pattern skipped still in it; those tags are removed and
  character references decoded once per batch, which is exact because batches are joined with
  NUL, a character no reference or tag spans and visible text drops anyway;
* tags outside `ELEMENTS`, raw-text, heading, anchor and foreign names cost one dict lookup,
  unless a capture or foreign content is open (`_busy`), when `_tag()` keeps the small amount of
  tree-construction state the facts depend on;
* raw-text content (script, style, title, ...) is skipped by searching for its end tag, keeping
  only titles and JSON-LD (both capped).

What a streamer knows of tree construction is kept deliberately small (see facts.py for the
definitions this supports): the template depth, a stack of open foreign (svg/math) elements with
their integration points and the breakout rule, the open anchor (closed by `</a>`, the next `<a>`,
or the table cell around it), and open headings (closed by any heading end tag, by a heading start
tag when nothing opened inside is still open, or by the end tag of a block element around them).

Memory is bounded by the chunk size plus `MAX_PENDING` (a single unfinished tag) plus the capped
facts, whatever the page size; input beyond `max_bytes` is counted but not parsed. With
`on_links`, every distinct `<a href>` (bare `#fragment` ones included) is also handed over in
small batches as its text closes (parse.builder), at the cost of one compact hash per distinct
href; with `on_references`, every distinct reference (parse.facts, "References") likewise. With
`on_text`, the decoded text is handed on as it is decoded; a sink that tokenizes it anyway (a
`TokenSource`: the element tree's builder, parse.tree_builder) reports its tokens back instead,
and `_run` does not scan the text at all until the sink hands it over (see "tokens from a
TokenSource" below): one tokenizing pass serves the facts and the tree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Protocol, runtime_checkable

from parse.builder import (
    ELEMENT_HANDLERS,
    ELEMENTS,
    Attrs,
    Capture,
    FactsBuilder,
    LinkSink,
    ReferenceSink,
    declared_charset,
    is_jsonld,
)
from parse.decoding import Decoder
from parse.facts import ANCHOR_TEXT_CAP, JSONLD_MAX_CHARS, TEXT_CAP, PageFacts
from parse.text import PARTIAL_CHARREF, TextDigest, collapse, decode_text
from parse.tokenizer import (
    BOGUS_END,
    MARKUP,
    MAY_HAVE_ID,
    RAW_ELEMENTS,
    RAW_TAIL,
    RAWTEXT_END,
    RCDATA,
    SCRIPT_DATA,
    TAGS,
    TokenizerState,
    TokenListener,
    is_self_closing,
    lower,
    markup_declaration,
    parse_attrs,
    region_pattern,
    script_end,
    text_end,
)

# The byte cap. The original system stopped at 1 MiB (`MAX_HTML_BYTES`); the field's audits flag
# "HTML larger than 2 MB" as an error, so 2 MiB parses every page such a check still passes while
# bounding CPU per Workflow step. Pages above it are reported with `truncated=True`.
DEFAULT_MAX_BYTES = 2 * 1024 * 1024
# Large feeds are decoded and parsed a slice at a time: the decoded text held at once stays
# bounded, and a late `<meta charset>` is met before much input has been decoded the wrong way.
SLICE_BYTES = 64 * 1024
# One tag may not grow beyond this while waiting for its `>` (a million attributes, say); past it
# the tag is dropped and skipped to its end, which keeps buffered text bounded.
MAX_PENDING = 256 * 1024

# Headings nested deeper than this (only hostile pages nest them at all) get no text, which
# keeps the work per character of text bounded.
MAX_NESTED_CAPTURES = 32
HEADINGS = {f"h{n}": n for n in range(1, 7)}
VOID = frozenset(
    "area base basefont bgsound br col embed frame hr image img input keygen link meta param "
    "source track wbr".split()
)
# End tags that close elements *around* an open heading (they pop to their own element, which the
# heading is inside of): the HTML spec's in-body rules for these names, plus table-cell closure.
BLOCK_CLOSERS = frozenset(
    "address article aside blockquote button center details dialog dir div dl fieldset figcaption "
    "figure footer header hgroup listing main menu nav ol pre section summary ul li dd dt "
    "td th tr tbody thead tfoot table caption".split()
)
# Start tags that first "close a p element in button scope".
P_CLOSERS = frozenset(
    "address article aside blockquote center details dialog dir div dl fieldset figcaption figure "
    "footer header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre "
    "listing form plaintext table hr xmp".split()
)
# Active-formatting markers (an open `<a>` does not continue past their end) and table parts.
MARKERS = frozenset("td th caption object applet marquee template".split())
TABLE_PARTS = frozenset("tr tbody thead tfoot".split())
# Start tags that break out of foreign content (HTML spec "in foreign content").
BREAKOUT = frozenset(
    "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img "
    "li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul "
    "var".split()
)
_FONT_BREAKOUT = frozenset({"color", "face", "size"})  # <font> with these breaks out too
_SVG_INTEGRATION = frozenset({"foreignobject", "desc", "title"})
_MATH_INTEGRATION = frozenset({"mi", "mo", "mn", "ms", "mtext"})
# Names whose start tags need `_tag()` even when nothing is open.
_INTERESTING = frozenset(
    {*ELEMENTS, *RAW_ELEMENTS, *HEADINGS, "a", "template", "svg", "math", "pre", "listing"}
)
# Start tags whose attributes are read whatever they are (others only for a possible `id`).
_WANTS_ATTRS = frozenset({*ELEMENTS, "a"})
# Tags that matter to an open anchor when nothing else is open (see `_track_start/_track_end`).
_ANCHOR_START = MARKERS | {"table", "tr"}
_ANCHOR_END = MARKERS | TABLE_PARTS | {"a", "table"}
_REGION = region_pattern(_INTERESTING, frozenset())
_ANCHOR_REGION = region_pattern(_INTERESTING | _ANCHOR_START, _ANCHOR_END)
_SCRIPT, _RAW, _PLAIN = 0, 1, 2  # raw-text kinds


class TextSink(Protocol):
    """Takes the decoded text as the extractor decodes it (parse.tree_builder.TreeBuilder), so a
    second parse of the page shares its decoding; `reset` when a late `<meta charset>` makes the
    extractor decode the page again from its start."""

    def feed(self, text: str) -> None: ...

    def reset(self) -> None: ...


@runtime_checkable
class TokenSource(TextSink, Protocol):
    """A text sink that tokenizes the text itself (parse.tree_builder.TreeBuilder) and reports
    the tokens to the extractor (`listen`), so the extractor's own scan does not run: the page
    is tokenized once for both. `end_of_text` when the input has ended, before `close`."""

    def listen(self, listener: TokenListener) -> None: ...

    def end_of_text(self) -> None: ...


class _Restart(Exception):
    """A late `<meta charset>` changed the encoding: decode the retained bytes again."""

    def __init__(self, data: bytes, decoder: Decoder) -> None:
        self.data, self.decoder = data, decoder


class _Text:
    """Text of one element being captured, kept bounded by compacting as it grows."""

    __slots__ = ("capture", "cap", "done", "pieces", "size", "full", "inner", "markers", "tables")

    def __init__(self, capture: Capture | None, cap: int) -> None:
        self.capture, self.cap = capture, cap
        self.done = ""  # decoded, whitespace-compacted text so far
        self.pieces: list[str] = []  # undecoded pieces since
        self.size = 0
        self.full = False  # `done` holds more than `cap` characters: later text is dropped
        self.inner: list[str] = []  # headings: elements opened inside and still open
        self.markers = 0  # anchors: cells/markers opened inside
        self.tables = 0  # anchors: tables opened inside

    def add(self, piece: str) -> None:
        self.pieces.append(piece)
        self.size += len(piece)
        if self.size > 4 * self.cap + 256:
            self._compact()

    def _compact(self) -> None:
        if self.full:
            self.pieces, self.size = [], 0
            return
        text = self.done + _decode_pieces(self.pieces)
        words = collapse(text)
        if len(words) > self.cap:  # later text cannot change the first `cap` characters
            self.done, self.pieces, self.size, self.full = words[: self.cap + 1], [], 0, True
            return
        lead = " " if text[:1].isspace() else ""
        trail = " " if text[-1:].isspace() and words else ""
        self.done, self.pieces, self.size = lead + words + trail, [], 0

    def finish(self) -> None:
        capture = self.capture
        if capture is not None:
            pieces = self.pieces
            if self.full or not pieces:
                capture.text = self.done
            elif (
                len(pieces) == 1 and not self.done and "&" not in pieces[0] and "<" not in pieces[0]
            ):
                capture.text = pieces[0].replace("\0", "")  # nothing to decode or drop
            else:
                capture.text = self.done + _decode_pieces(pieces)
            capture.closed = True


def _decode_pieces(pieces: list[str]) -> str:
    """Character data pieces, decoded exactly as if one by one, without their tags and NULs.

    A piece is character data and complete tags (`_scan`'s regions), so no tag starts in one
    piece and ends in the next; a tag becomes NUL, which keeps it splitting references (text
    around a tag is not decoded as one reference) and is dropped with the rest. Tags go before
    references are decoded: `&lt;b>` is text, not a tag."""
    text = "\0".join(pieces)
    if "<" in text:
        text = TAGS.sub("\0", text)
    return decode_text(text).replace("\0", "")


class PageExtractor:
    """Feed a page's bytes in chunks, then `close()` for its `PageFacts`.

    Never raises on any input; never holds more than the current chunk, one unfinished token and
    the capped facts.
    """

    def __init__(
        self,
        page_url: str,
        *,
        content_type: str | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        on_links: LinkSink | None = None,
        on_references: ReferenceSink | None = None,
        on_text: TextSink | None = None,
    ) -> None:
        self.page_url = page_url
        self._on_text = on_text
        self.max_bytes = max_bytes
        self._on_links = on_links
        self._on_references = on_references
        self._bytes = 0
        self._truncated = False
        self._closed = False
        self._reset(Decoder(content_type))

    def _reset(self, decoder: Decoder) -> None:
        self._decoder = decoder
        sink = self._on_text
        self._source: TokenSource | None = None  # tokenizes for us (`TokenListener` below)
        if sink is not None:
            sink.reset()
            if isinstance(sink, TokenSource):
                sink.listen(self)
                self._source = sink
        self._builder = FactsBuilder(self.page_url, self._on_links, self._on_references)
        self._digest = TextDigest()
        self._buf = ""
        self._text: list[str] = []  # visible text pieces since the last flush
        self._raw: str | None = None  # open raw-text element
        self._raw_kind = _RAW
        self._script_state = SCRIPT_DATA
        self._raw_capture: list[str] | None = None  # title or JSON-LD content
        self._raw_size = 0
        self._jsonld_open = False  # the open raw-text element is a JSON-LD script
        self._skip: re.Pattern[str] | None = None  # inside a comment / bogus comment / CDATA
        self._waiting = False  # the scan stopped for want of input
        self._template = 0
        self._foreign: list[tuple[str, bool, str]] = []  # (name, integration point, namespace)
        self._anchor: _Text | None = None  # the innermost open <a>
        self._outer_anchors: list[_Text] = []  # <a>s around a table cell holding `_anchor`
        self._drop_newline = False  # just after <pre>/<listing>: a leading newline is dropped
        self._headings: list[_Text] = []
        self._captures: list[_Text] = []  # open captures that want text

    # -- public API -------------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        if self._closed or not data:
            return
        self._bytes += len(data)
        if self._truncated:
            return
        over = self._bytes - self.max_bytes
        if over > 0:
            data, self._truncated = data[: len(data) - over], True
        if len(data) <= SLICE_BYTES:  # the common case: no copy of the input
            self._guarded(lambda: self._decoder.feed(data), False)
            return
        view = memoryview(data)
        for start in range(0, len(data), SLICE_BYTES):
            piece = bytes(view[start : start + SLICE_BYTES])
            self._guarded(partial(self._decoder.feed, piece), False)

    def close(self) -> PageFacts:
        if not self._closed:
            self._closed = True
            self._guarded(self._decoder.finish, True)
            self._finish()
        return self._builder.build(
            self._decoder.info, self._bytes, self._truncated, *self._digest.result()
        )

    # -- driving ----------------------------------------------------------------------------

    def _guarded(self, decode: Callable[[], str], eof: bool) -> None:
        """Decode and parse, restarting from the retained bytes after a late charset change.

        Decoding happens here, not in the caller, so the decoded slice is freed once appended."""
        try:
            text = decode()
            source = self._source
            if source is not None:
                if text:
                    source.feed(text)
                if self._source is None:  # it handed the text over to us (`take_over`)
                    if eof:
                        self._run(True)
                    return
                if eof:
                    source.end_of_text()
                self._flush_text()  # per slice, as `_run` does
                return
            if self._on_text is not None and text:
                self._on_text.feed(text)
            self._buf += text
            self._run(eof)
        except _Restart as restart:
            decoder, data = restart.decoder, restart.data
            self._reset(decoder)
            self._guarded(lambda: decoder.feed(data), False)
            if eof:
                self._guarded(decoder.finish, True)

    def _run(self, eof: bool) -> None:
        buf, pos = self._buf, 0
        while pos < len(buf):
            if self._drop_newline:
                pos = self._newline_after_pre(buf, pos, eof)
                if self._drop_newline:
                    break
            if self._skip is not None:
                pos = self._run_skip(buf, pos, eof)
            elif self._raw is not None:
                pos = self._run_raw(buf, pos, eof)
            else:
                pos = self._scan(buf, pos, eof)
            if self._waiting:
                break
        self._waiting = False
        self._buf = buf[pos:]
        self._flush_text()  # per slice: the text held stays bounded by the slice size

    def _scan(self, buf: str, pos: int, eof: bool) -> int:
        """Text and markup until the state changes; returns the position reached (setting
        `_waiting` if more input is needed).

        Where nothing but a few tag names matters (no heading, template or foreign content open),
        a region pattern skips text and uninteresting tags in one match; otherwise every tag is
        looked at (`_scan_tokens`).
        """
        if self._headings or self._template or self._foreign:
            return self._scan_tokens(buf, pos, eof)
        anchor = self._anchor
        region = _region(anchor)
        end = len(buf)
        text_append = self._text.append
        captures = self._captures
        while True:
            m = region(buf, pos)  # the text and dull tags up to a markup token, and that token
            tag = m.start(1)
            stop = m.end() if tag < 0 else tag
            if stop == end and not eof:
                hold = PARTIAL_CHARREF.search(buf, max(pos, end - 40))
                if hold is not None:
                    stop = hold.start()
            if stop > pos:
                piece = buf[pos:stop]  # text and complete dull tags (`_decode_pieces` drops them)
                text_append(piece)
                for capture in captures:
                    capture.add(piece)
                pos = stop
            if tag < 0:  # the end of the buffer, a lone "<" or a character reference there
                self._waiting = True
                return self._trailing_text(buf, pos, eof)
            _, slash, name, source, close, other = m.groups()
            if name is None:
                pos = self._markup_declaration(buf, tag, other, eof)
                if pos == tag:
                    self._waiting = True
                return pos
            if close is None:
                return self._unfinished_tag(tag, end, eof)
            pos = m.end()
            name = name.lower() if name.isascii() else lower(name)
            if name == "a":  # the most frequent tag: with no heading open, its whole effect
                if slash:
                    self._close_anchor()
                else:
                    self._start_link(source)
                if self._anchor is not anchor:
                    anchor = self._anchor
                    region = _region(anchor)
                continue
            # No foreign content is open here (see above), so `_tag` would do just this.
            if slash:
                self._end_tag(name)
            else:
                self._start_tag(name, source)
            if self._raw is not None or self._drop_newline or self._headings:
                return pos
            if self._template or self._foreign:
                return pos
            if self._anchor is not anchor:
                anchor = self._anchor
                region = _region(anchor)

    def _unfinished_tag(self, start: int, end: int, eof: bool) -> int:
        if eof:
            return end  # EOF in a tag: the spec drops it
        if end - start > MAX_PENDING:
            self._skip = BOGUS_END
            return start + 1
        self._waiting = True
        return start

    def _scan_tokens(self, buf: str, pos: int, eof: bool) -> int:
        """Token by token, while headings, template or foreign content need every tag."""
        end = len(buf)
        text_append = self._text.append
        captures = self._captures
        interesting = _INTERESTING
        hidden = self._template or self._foreign
        busy = hidden or self._headings
        anchor = self._anchor is not None
        for m in MARKUP.finditer(buf, pos):
            start = m.start()
            if start > pos and not hidden:
                piece = buf[pos:start]
                text_append(piece)
                if captures:
                    for capture in captures:
                        capture.add(piece)
            slash, name, source, close, other = m.groups()
            if name is None:
                pos = self._markup_declaration(buf, start, other, eof)
                if pos == start:
                    self._waiting = True
                return pos  # `_run` resumes scanning after the declaration
            if close is None:  # the tag is not finished in this buffer
                return self._unfinished_tag(start, end, eof)
            pos = m.end()
            if busy:
                self._tag(slash == "/", name.lower() if name.isascii() else lower(name), source)
            elif slash:
                if not anchor or name.lower() not in _ANCHOR_END:
                    continue
                self._tag(True, lower(name), source)
            else:
                lname = name.lower()
                if lname not in interesting and (not anchor or lname not in _ANCHOR_START):
                    continue
                self._tag(False, lname if name.isascii() else lower(name), source)
            if self._raw is not None or self._drop_newline:
                return pos
            hidden = self._template or self._foreign
            busy = hidden or self._headings
            if not busy:
                return pos  # back to region scanning
            anchor = self._anchor is not None
        self._waiting = True
        return self._trailing_text(buf, pos, eof)

    def _newline_after_pre(self, buf: str, pos: int, eof: bool) -> int:
        """HTML drops a newline right after `<pre>` or `<listing>` (CRLF counts as one)."""
        if buf[pos] == "\r":
            if pos + 1 == len(buf) and not eof:
                return pos  # wait: "\r\n" may be cut
            pos += 2 if buf[pos + 1 : pos + 2] == "\n" else 1
        elif buf[pos] == "\n":
            pos += 1
        self._drop_newline = False
        return pos

    def _flush_text(self) -> None:
        if self._text:
            self._digest.feed(_decode_pieces(self._text))
            self._text.clear()

    def _trailing_text(self, buf: str, pos: int, eof: bool) -> int:
        """Emit text up to the end, holding back a possible `<` or character reference start."""
        end = text_end(buf, pos, eof)
        if end > pos and not (self._template or self._foreign):
            piece = buf[pos:end]
            self._text.append(piece)
            for capture in self._captures:
                capture.add(piece)
        return end

    def _markup_declaration(self, buf: str, start: int, kind: str, eof: bool) -> int:
        """`<!`, `<?` or `</` + non-letter at `start`; returns the new position (start = wait)."""
        pos, skip = markup_declaration(buf, start, kind, eof, bool(self._foreign))
        if skip is not None:
            self._skip = skip
        return pos

    def _run_skip(self, buf: str, pos: int, eof: bool) -> int:
        assert self._skip is not None
        m = self._skip.search(buf, pos)
        if m is not None:
            self._skip = None
            return m.end()
        self._waiting = True
        return len(buf) if eof else max(pos, len(buf) - 3)

    # -- raw text ---------------------------------------------------------------------------

    def _open_raw(self, name: str, capture: bool) -> None:
        self._raw = name
        self._raw_kind = _SCRIPT if name == "script" else _PLAIN if name == "plaintext" else _RAW
        self._script_state = SCRIPT_DATA
        self._raw_capture = [] if capture else None
        self._raw_size = 0

    def _run_raw(self, buf: str, pos: int, eof: bool) -> int:
        """Consume raw-text content; on its end tag, leave `pos` there for `_run()` to tokenize."""
        name, end = self._raw, len(buf)
        assert name is not None
        if self._raw_kind == _PLAIN:
            self._waiting = True
            return end
        safe = end if eof else max(pos, end - RAW_TAIL)
        if self._raw_kind == _SCRIPT:
            stop = self._script_end(buf, pos, safe)
        else:
            stop = self._rawtext_end(buf, pos)
        if stop is not None:
            self._raw_content(buf[pos:stop])
            self._close_raw()
            return stop
        if not eof and name in RCDATA and self._raw_capture is not None:
            # A character reference cut at `safe` (not at the end of the buffer: the tail after
            # `safe` is held back for the end tag) must wait for the rest of its name.
            m = PARTIAL_CHARREF.search(buf, max(pos, safe - 40), safe)
            if m is not None:
                safe = min(safe, m.start())
        self._raw_content(buf[pos:safe])
        if eof:
            self._close_raw()
        self._waiting = True
        return safe

    def _rawtext_end(self, buf: str, pos: int) -> int | None:
        assert self._raw is not None
        m = RAWTEXT_END[self._raw].search(buf, pos)
        return m.start() if m else None

    def _script_end(self, buf: str, pos: int, safe: int) -> int | None:
        """Script data: where the `</script` that ends it starts (tokenizer.script_end)."""
        stop, self._script_state = script_end(buf, pos, safe, self._script_state)
        return stop

    def _raw_content(self, piece: str) -> None:
        capture = self._raw_capture
        if capture is None or not piece:
            return
        self._raw_size += len(piece)
        if self._raw == "script":
            if self._raw_size > JSONLD_MAX_CHARS:
                self._raw_capture = None  # reported as an oversized block
                return
            capture.append(piece)
        elif self._raw_size <= 4 * TEXT_CAP + 256 or len(collapse("".join(capture))) <= TEXT_CAP:
            capture.append(decode_text(piece))

    def _close_raw(self) -> None:
        name, capture = self._raw, self._raw_capture
        self._raw, self._raw_capture = None, None
        if name == "script" and self._jsonld_open:
            self._jsonld_open = False
            self._builder.jsonld(None if capture is None else "".join(capture))
        elif name == "title" and capture is not None:
            self._builder.title("".join(capture).replace("\0", "\ufffd"))

    # -- tokens from a TokenSource (parse.tokenizer.TokenListener) ---------------------------
    #
    # What `_run` would do with each token, where the source's tokenizer, not `_scan`, found it:
    # the same handlers, reached for the same tags (a tag `_scan`'s region pattern skips has no
    # effect on the facts). Where the tree's tokenizer state would differ from `_run`'s (the
    # tree ignores `<script>` in a frameset, `<xmp>` in a select; foreign content decides what
    # `<![CDATA[` opens), the source hands the rest of the text over (`take_over`), so the facts
    # are what `_run` finds on every page.

    def text(self, piece: str) -> None:
        if self._template or self._foreign:
            return
        self._text.append(piece)
        for capture in self._captures:
            capture.add(piece)

    def tag(self, end: bool, name: str, source: str, attrs: Attrs) -> None:
        self._drop_newline = False  # the source dropped it, if it was there (`_start_pre`)
        if self._headings or self._template or self._foreign:
            self._tag(end, name, source, attrs)
        elif name == "a":
            if end:
                self._close_anchor()
            else:
                self._start_link(source, attrs)
        elif end:
            if self._anchor is not None and name in _ANCHOR_END:
                self._end_tag(name)
        elif (
            name in _INTERESTING
            or "id" in attrs
            or (self._anchor is not None and name in _ANCHOR_START)
        ):
            self._start_tag(name, source, attrs)

    def raw_text(self, piece: str) -> None:
        if self._raw is not None:
            self._raw_content(piece)

    def raw_end(self) -> None:
        if self._raw is not None:
            self._close_raw()

    def tokenizer_state(self) -> tuple[str | None, bool, bool]:
        return self._raw, self._drop_newline, bool(self._foreign)

    def take_over(self, rest: str, eof: bool, state: TokenizerState | None) -> None:
        """The source goes on without us: `_run` tokenizes from here on."""
        self._source = None
        if state is not None:
            self._skip, self._drop_newline = state.skip, state.drop_newline
            self._script_state = state.script_state
        self._buf = rest
        self._run(eof)

    # -- tags -------------------------------------------------------------------------------

    def _tag(self, end: bool, name: str, source: str, attrs: Attrs | None = None) -> None:
        """A tag while headings, template or foreign content are open; `attrs`: its attributes
        if they were parsed already (`parse_attrs(source)`)."""
        if self._foreign and self._foreign_tag(end, name, source):
            if end or self._template or (attrs is not None and "id" not in attrs):
                return
            if MAY_HAVE_ID.search(source):
                found = parse_attrs(source) if attrs is None else attrs
                self._builder.targets(name, found, html=False)
            return
        if end:
            self._end_tag(name)
        else:
            self._start_tag(name, source, attrs)

    def _foreign_tag(self, end: bool, name: str, source: str) -> bool:
        """Handle a tag inside svg/math; False when HTML rules must process it instead."""
        stack = self._foreign
        _, top_integration, namespace = stack[-1]
        if end:
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == name:
                    del stack[i:]
                    return True
            return not top_integration
        if top_integration:
            return False
        if name in BREAKOUT or (name == "font" and _FONT_BREAKOUT & parse_attrs(source).keys()):
            while stack and not stack[-1][1]:
                stack.pop()
            return False
        if not is_self_closing(source):
            stack.append((name, self._integration_point(name, source, namespace), namespace))
        return True

    @staticmethod
    def _integration_point(name: str, source: str, namespace: str) -> bool:
        if namespace == "svg":
            return name in _SVG_INTEGRATION
        if name == "annotation-xml":
            encoding = parse_attrs(source).get("encoding", "").lower()
            return encoding in ("text/html", "application/xhtml+xml")
        return name in _MATH_INTEGRATION

    def _start_tag(self, name: str, source: str, parsed: Attrs | None = None) -> None:
        template, foreign = self._template, self._foreign
        if name == "a" and foreign and self._anchor is not None and not template:
            # An <a> in an HTML integration point (svg <title>, <foreignObject>, ...) while an
            # <a> outside the svg is open: the adoption agency closes that outer <a>, popping the
            # svg with it, so the new link is ordinary HTML again.
            foreign.clear()
        hidden = bool(template or foreign)
        attrs: Attrs
        if parsed is not None:
            # Parsed already: the same attributes `parse_attrs` would give where they are read,
            # and an `id` only where MAY_HAVE_ID sees one, as below (`x="a"id=b` has none).
            wanted = name in _WANTS_ATTRS or ("id" in parsed and MAY_HAVE_ID.search(source))
            attrs = parsed if wanted else {}
        elif source and (name in _WANTS_ATTRS or MAY_HAVE_ID.search(source)):
            attrs = parse_attrs(source)
        else:
            attrs = {}
        if not template and ("id" in attrs or (name == "a" and "name" in attrs)):
            self._builder.targets(name, attrs, html=True)
        if not hidden and (self._anchor is not None or self._headings):
            self._track_start(name)
        start = _STARTS.get(name)
        if start is not None:
            start(self, name, source, attrs, hidden)

    def _start_link(self, source: str, parsed: Attrs | None = None) -> None:
        """`_start_tag("a", source)` where no template, foreign content or heading is open: there
        `_track_start("a")` changes nothing (only cells, tables and headings close or count)."""
        if parsed is not None:
            attrs = parsed
        else:
            attrs = parse_attrs(source) if source else {}
        if "id" in attrs or "name" in attrs:
            self._builder.targets("a", attrs, html=True)
        self._open_anchor(attrs)

    # Each start tag that does more than name fragment targets and close elements: its effect,
    # in or out of `hidden` (template or foreign) content. `_STARTS` maps the names to them.

    def _start_element(self, name: str, source: str, attrs: Attrs, hidden: bool) -> None:
        if not hidden:
            if name == "img" and self._anchor is not None and self._anchor.capture is not None:
                self._anchor.capture.image(attrs.get("alt"))  # an image link's name
            ELEMENT_HANDLERS[name](self._builder, name, attrs)

    def _start_meta(self, name: str, source: str, attrs: Attrs, hidden: bool) -> None:
        self._meta_charset(attrs)
        self._start_element(name, source, attrs, hidden)

    def _start_raw(self, name: str, source: str, attrs: Attrs, hidden: bool) -> None:
        if not self._foreign_html_only():
            capture = not hidden and (name == "title" or (name == "script" and is_jsonld(attrs)))
            self._jsonld_open = capture and name == "script"
            self._open_raw(name, capture)
        if name in ELEMENTS:  # script, iframe
            self._start_element(name, source, attrs, hidden)

    def _start_pre(self, name: str, source: str, attrs: Attrs, hidden: bool) -> None:
        self._drop_newline = True

    def _start_template(self, name: str, source: str, attrs: Attrs, hidden: bool) -> None:
        self._template += 1

    def _start_foreign(self, name: str, source: str, attrs: Attrs, hidden: bool) -> None:
        if not is_self_closing(source):
            self._foreign.append((name, False, name))

    def _start_anchor(self, name: str, source: str, attrs: Attrs, hidden: bool) -> None:
        if not hidden:
            self._open_anchor(attrs)

    def _start_heading(self, name: str, source: str, attrs: Attrs, hidden: bool) -> None:
        if not hidden:
            self._open_heading(HEADINGS[name])

    def _foreign_html_only(self) -> bool:
        """Whether raw-text switching is off: in foreign content, not at an integration point."""
        return bool(self._foreign) and not self._foreign[-1][1]

    def _meta_charset(self, attrs: Attrs) -> None:
        if self._decoder.certain:
            return
        if "charset" in attrs:
            label: str | None = attrs["charset"]
        elif attrs.get("http-equiv", "").strip().lower() == "content-type" and "content" in attrs:
            label = declared_charset(attrs)
        else:
            return
        retained = self._decoder.change_encoding(label)
        if retained is not None:
            raise _Restart(retained, Decoder(forced=self._decoder.encoding))

    def _end_tag(self, name: str) -> None:
        if name == "template":
            if self._template:
                self._template -= 1
            return
        if self._template or self._foreign:
            return
        if name in HEADINGS:
            if self._headings:
                self._close_heading()
            return
        if name == "a":
            self._close_anchor()
        self._track_end(name)

    # -- anchors and headings ---------------------------------------------------------------

    def _open_anchor(self, attrs: Attrs) -> None:
        outer = self._anchor
        if outer is not None:
            if outer.markers:  # inside a cell: the open <a> is beyond the cell's marker
                self._outer_anchors.append(outer)
                self._set_capturing(outer, False)
            else:
                self._close_anchor()  # a new <a> closes the open one (adoption agency)
        anchor = self._anchor = _Text(self._builder.anchor(attrs), ANCHOR_TEXT_CAP)
        if anchor.capture is not None:
            self._captures.append(anchor)

    def _close_anchor(self) -> None:
        """Close the innermost <a>; text then belongs to the one around it, if any."""
        anchor = self._anchor
        if anchor is not None:
            anchor.finish()
            captures = self._captures
            if captures and captures[-1] is anchor:  # the usual case: the last capture opened
                captures.pop()
            else:
                self._set_capturing(anchor, False)
            self._anchor = self._outer_anchors.pop() if self._outer_anchors else None
            if self._anchor is not None:
                self._set_capturing(self._anchor, True)

    def _set_capturing(self, text: _Text, on: bool) -> None:
        if text.capture is None:
            return
        if on:
            self._captures.append(text)
        elif text in self._captures:
            self._captures.remove(text)

    def _open_heading(self, level: int) -> None:
        heading = _Text(self._builder.heading(level), TEXT_CAP)
        self._headings.append(heading)
        if len(self._headings) <= MAX_NESTED_CAPTURES:
            self._set_capturing(heading, True)

    def _close_heading(self) -> None:
        heading = self._headings.pop()
        heading.finish()
        self._set_capturing(heading, False)

    def _track_start(self, name: str) -> None:
        """Tree-construction effects of a start tag on the open anchor and headings."""
        anchor = self._anchor
        if anchor is not None:
            if name in MARKERS:
                anchor.markers += 1
            elif name == "table":
                anchor.tables += 1
            elif name in ("tr", "td", "th") and not (anchor.markers or anchor.tables):
                self._close_anchor()
        if not self._headings:
            return
        inner = self._headings[-1].inner
        if name in P_CLOSERS and "p" in inner:
            del inner[_last(inner, "p") :]
        elif name == "a" and "a" in inner:  # the adoption agency closes the open <a>
            del inner[_last(inner, "a") :]
        if name in HEADINGS:
            if not inner:
                self._close_heading()
        elif name in ("li", "dd", "dt") and name in inner:
            del inner[_last(inner, name) :]
        if name not in VOID and name not in HEADINGS and len(inner) < 512:
            inner.append(name)

    @staticmethod
    def _anchor_end(anchor: _Text, name: str) -> bool:
        """Apply an end tag to an open <a>'s table bookkeeping; True if it closes the <a>."""
        if name == "table":
            if not anchor.tables:
                return True
            anchor.tables, anchor.markers = anchor.tables - 1, 0
        elif name in MARKERS:
            if anchor.markers:
                anchor.markers -= 1
            elif not anchor.tables:
                return True
        elif name in TABLE_PARTS and not anchor.tables:
            return True
        return False

    def _track_end(self, name: str) -> None:
        while self._anchor is not None and self._anchor_end(self._anchor, name):
            self._close_anchor()  # and let the end tag act on the <a> around it too
        while self._headings:
            inner = self._headings[-1].inner
            if name in inner:
                del inner[_last(inner, name) :]
                return
            if name not in BLOCK_CLOSERS:
                return
            self._close_heading()

    # -- end of input -----------------------------------------------------------------------

    def _finish(self) -> None:
        if self._raw is not None:
            self._close_raw()
        self._close_anchor()
        while self._headings:
            self._close_heading()
        self._flush_text()


_Start = Callable[[PageExtractor, str, str, Attrs, bool], None]
_STARTS: dict[str, _Start] = {
    **dict.fromkeys(ELEMENTS, PageExtractor._start_element),
    "meta": PageExtractor._start_meta,
    **dict.fromkeys(RAW_ELEMENTS, PageExtractor._start_raw),
    "pre": PageExtractor._start_pre,
    "listing": PageExtractor._start_pre,
    "template": PageExtractor._start_template,
    "svg": PageExtractor._start_foreign,
    "math": PageExtractor._start_foreign,
    "a": PageExtractor._start_anchor,
    **dict.fromkeys(HEADINGS, PageExtractor._start_heading),
}


def _region(anchor: _Text | None) -> Callable[[str, int], re.Match[str]]:
    """The region pattern's `match` while `anchor` is open (or none is): it always matches."""
    return (_ANCHOR_REGION if anchor is not None else _REGION).match  # type: ignore[return-value]


def _last(items: list[str], name: str) -> int:
    return len(items) - 1 - items[::-1].index(name)
