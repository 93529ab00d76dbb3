"""A streaming, sans-IO sitemap parser: bytes in by `feed()`, a `SitemapDocument` out of `close()`.

Theory of operation
-------------------
The caller owns the network. It feeds body chunks as they arrive and calls `close()` at the end;
`needs_more` turns False once nothing further can change the result (the byte cap was crossed, or a
gzip stream ended), so the caller can stop reading. Content never raises: every outcome, including
malformed XML, a broken gzip stream and a refused DTD, is a field of the returned document. Feeding
after `close()` is the caller's bug and raises `SitemapUsageError`.

The bytes go through three stages:

1. gzip, recognised by its magic number (RFC 1952 §2.3.1: 0x1f 0x8b) whatever the URL or headers
   say (`sitemap.xml.gz` is often served as `application/octet-stream`, or decoded once already by
   the fetch layer). Inflation is incremental and bounded with `max_length`, so the byte cap applies
   to *decompressed* bytes and a gzip bomb costs at most the cap in memory and work. Only the first
   gzip member is read; bytes after it are ignored.
2. sniffing: a UTF-8 BOM and leading whitespace are dropped (whitespace before `<?xml` is a common
   plugin bug that search engines tolerate); a UTF-16 BOM or a first byte `<` means XML, anything
   else is a plain-text sitemap (sitemaps.org "Text file": one URL per line, UTF-8).
3. XML through expat, namespace-agnostic: only local names matter, so `urlset`, `sm:urlset` and a
   `urlset` in any namespace are alike, while `image:loc` inside `image:image` is not a page `loc`
   because only direct children of `url`/`sitemap` count. A DOCTYPE is refused outright, which
   also refuses every entity declaration: no billion laughs, no XXE (sitemaps.org defines no DTD,
   so a valid sitemap never has one). A DOCTYPE that names something other than a sitemap root
   (a soft-404 HTML page) is reported as "not a sitemap" instead.

Precedence, fixed so the result is the same for every chunking of the same bytes: oversized beats
everything (the original reads the body up to `MAX_SITEMAP_BYTES` before parsing and skips an
oversized document whole, docs/original-system.md §4.8), then a broken gzip stream (entries decoded
before it cannot be trusted, and how many were decoded depends on chunking), then the XML or text
result, which keeps the entries completed before any error.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from enum import StrEnum
from xml.parsers import expat
from xml.parsers.expat import XMLParserType

from common.wire import JsonRecord

__all__ = [
    "MAX_LOC_CHARS",
    "MAX_SITEMAP_BYTES",
    "MAX_URLS_PER_SITEMAP",
    "ParseError",
    "SitemapDocument",
    "SitemapEntry",
    "SitemapKind",
    "SitemapParser",
    "SitemapUsageError",
]

# The original's MAX_SITEMAP_BYTES (docs/original-system.md §4.8). The protocol itself allows 50 MB
# uncompressed (sitemaps.org; Semrush flags "sitemap too large" above 50 MB, docs/field.md §1.2).
MAX_SITEMAP_BYTES = 10 * 1024 * 1024
# sitemaps.org: "no more than 50,000 URLs"; Semrush's "sitemap too large" threshold too.
MAX_URLS_PER_SITEMAP = 50_000
# sitemaps.org asks for fewer than 2,048 characters; browsers and Google accept longer URLs, so a
# loc is kept up to 8 KiB and dropped (counted as invalid) beyond that, bounding one entry's memory.
MAX_LOC_CHARS = 8192
MAX_LINE_BYTES = 4 * MAX_LOC_CHARS  # a text-sitemap line: MAX_LOC_CHARS in UTF-8's worst case
MAX_LASTMOD_CHARS = 64  # a W3C datetime is at most 35 characters; the rest is junk
MAX_ERROR_CHARS = 200

GZIP_MAGIC = b"\x1f\x8b"
UTF8_BOM = b"\xef\xbb\xbf"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
BOMS = (UTF8_BOM, *UTF16_BOMS)
XML_WHITESPACE = b" \t\r\n"
ROOTS = {"urlset": "url", "sitemapindex": "sitemap"}  # root element -> its item element


class SitemapKind(StrEnum):
    URLSET = "urlset"  # <urlset><url><loc>: page URLs
    INDEX = "sitemapindex"  # <sitemapindex><sitemap><loc>: more sitemaps
    TEXT = "text"  # one page URL per line
    UNKNOWN = "unknown"  # empty, not a sitemap, or undecodable


class ParseError(StrEnum):
    """Why a document was not parsed to its end; the detail string says where."""

    EMPTY = "empty"
    NOT_A_SITEMAP = "not_a_sitemap"  # root is not urlset/sitemapindex, or text that is not URLs
    DTD_REFUSED = "dtd_refused"  # a DOCTYPE naming a sitemap root: entities are never expanded
    MALFORMED_XML = "malformed_xml"
    BAD_GZIP = "bad_gzip"


class SitemapUsageError(RuntimeError):
    """The caller used the parser out of order (fed it after `close()`)."""


@dataclass(frozen=True, slots=True)
class SitemapEntry(JsonRecord):
    loc: str  # as written, XML-decoded and stripped; not yet resolved or normalised
    lastmod: str | None = None


@dataclass(frozen=True, slots=True)
class SitemapDocument(JsonRecord):
    kind: SitemapKind
    entries: tuple[SitemapEntry, ...]  # the first `max_urls` entries, in document order
    url_count: int  # entries seen, including those beyond `max_urls`
    invalid_entries: int  # empty or over-long locs, text lines that are not URLs
    size: int  # decoded bytes; max_bytes + 1 when oversized
    gzipped: bool
    oversized: bool  # over the byte cap: skipped whole, so no entries
    error: ParseError | None = None
    error_detail: str | None = None

    @property
    def truncated(self) -> bool:
        """More entries than `max_urls` (sitemaps.org's 50,000 limit by default)."""
        return self.url_count > len(self.entries)


class _Stop(Exception):
    """Raised inside an expat handler to abandon the document (never leaves this module)."""

    def __init__(self, error: ParseError, detail: str) -> None:
        super().__init__(detail)
        self.error = error
        self.detail = detail


def _local_name(name: str) -> str:
    return name.rpartition(":")[2]


def _is_url_line(line: str) -> bool:
    lowered = line[:8].lower()
    has_scheme = lowered.startswith(("http://", "https://"))
    return has_scheme and not any(ch.isspace() for ch in line)


class _Entries:
    """The entries of one document, capped, with counters; shared by the XML and text readers."""

    def __init__(self, max_urls: int) -> None:
        self.max_urls = max_urls
        self.items: list[SitemapEntry] = []
        self.count = 0
        self.invalid = 0

    def add(self, loc: str | None, lastmod: str | None) -> None:
        if not loc or len(loc) > MAX_LOC_CHARS:
            self.invalid += 1
            return
        self.count += 1
        if len(self.items) < self.max_urls:
            self.items.append(SitemapEntry(loc, lastmod))


class _Reader:
    """What the XML and text readers share: entries, the kind found, the error that stopped them."""

    def __init__(self, entries: _Entries, kind: SitemapKind) -> None:
        self.entries = entries
        self.kind = kind
        self.error: ParseError | None = None
        self.detail: str | None = None

    def feed(self, data: bytes, final: bool = False) -> None:
        raise NotImplementedError

    def _fail(self, error: ParseError, detail: str) -> None:
        self.error, self.detail = error, detail[:MAX_ERROR_CHARS]


# Longest run of bytes without a `>` held back from expat (a long text node or a broken file).
_MAX_HELD = 64 * 1024


class _XmlReader(_Reader):
    """Expat callbacks for depths 1-3: root, item (`url`/`sitemap`), field (`loc`/`lastmod`)."""

    def __init__(self, entries: _Entries) -> None:
        super().__init__(entries, SitemapKind.UNKNOWN)
        self._item = ""  # local name of the item element for this root
        self._depth = 0
        self._in_item = False
        self._field: str | None = None
        self._text: list[str] = []
        self._text_len = 0
        self._loc: str | None = None
        self._loc_seen = False
        self._lastmod: str | None = None
        self._parser: XMLParserType | None = self._make_parser()
        self._held = b""  # bytes after the last `>` fed, waiting for the rest of their token

    def _make_parser(self) -> XMLParserType:
        parser = expat.ParserCreate()  # no namespace processing: undeclared prefixes are common
        # Reparse deferral (expat 2.6) makes *when* events fire depend on chunk sizes; without it
        # the events after each chunk depend only on the bytes fed so far.
        if hasattr(parser, "SetReparseDeferralEnabled"):
            parser.SetReparseDeferralEnabled(False)
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartDoctypeDeclHandler = self._doctype
        parser.EntityDeclHandler = self._entity
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._chars
        return parser

    def feed(self, data: bytes, final: bool = False) -> None:
        if self.error is not None or self._parser is None:
            return
        data, self._held = self._aligned(self._held + data, final)
        if not data and not final:
            return
        try:
            self._parser.Parse(data, final)
        except _Stop as stop:
            self._fail(stop.error, stop.detail)
        except expat.ExpatError as exc:
            message = expat.errors.messages[exc.code]
            where = f"line {exc.lineno}, column {exc.offset + 1}"  # expat counts columns from 0
            self._fail(ParseError.MALFORMED_XML, f"{message} ({where})")

    def _fail(self, error: ParseError, detail: str) -> None:
        super()._fail(error, detail)
        self._parser = None  # release expat's buffers; nothing more is parsed

    @staticmethod
    def _aligned(data: bytes, final: bool) -> tuple[bytes, bytes]:
        """(what to give expat now, what to hold): input up to the last `>`.

        Expat's diagnostics depend on where a feed ends inside a token ("junk after document
        element" for a lone byte, "invalid token" for the same byte with its successor), so
        feeding whole tags makes errors, like events, independent of the chunking. The held tail
        is bounded: past `_MAX_HELD` bytes without a `>` it is fed as it is.
        """
        if final:
            return data, b""
        cut = data.rfind(b">") + 1
        if len(data) - cut > _MAX_HELD:
            return data, b""
        return data[:cut], data[cut:]

    def _doctype(self, name: str, *_: object) -> None:
        if _local_name(name) in ROOTS:
            detail = f"DOCTYPE {name[:40]} refused: entities are not expanded"
            raise _Stop(ParseError.DTD_REFUSED, detail)
        raise _Stop(ParseError.NOT_A_SITEMAP, f"DOCTYPE {name[:40]} is not a sitemap")

    def _entity(self, name: str, *_: object) -> None:  # unreachable while DOCTYPEs are refused
        raise _Stop(ParseError.DTD_REFUSED, f"entity {name[:40]} refused")

    def _start(self, name: str, _attrs: dict[str, str]) -> None:
        self._depth += 1
        local = _local_name(name)
        if self._depth == 1:
            self._root(local, name)
        elif self._depth == 2:
            self._in_item = local == self._item
            self._loc = self._lastmod = None
            self._loc_seen = False
        elif self._depth == 3 and self._in_item and local in ("loc", "lastmod"):
            self._field, self._text, self._text_len = local, [], 0

    def _root(self, local: str, name: str) -> None:
        if local not in ROOTS:
            raise _Stop(ParseError.NOT_A_SITEMAP, f"root element <{name[:40]}> is not a sitemap")
        self.kind = SitemapKind(local)
        self._item = ROOTS[local]

    def _end(self, _name: str) -> None:
        if self._depth == 3 and self._field is not None:
            self._end_field()
        elif self._depth == 2 and self._in_item:
            self.entries.add(self._loc, self._lastmod)
            self._in_item = False
        self._depth -= 1

    def _end_field(self) -> None:
        text = "".join(self._text).strip(" \t\r\n")
        if self._field == "loc" and not self._loc_seen:
            self._loc_seen = True
            self._loc = text if self._text_len <= MAX_LOC_CHARS else None  # None: counted invalid
        elif self._field == "lastmod" and self._lastmod is None:
            self._lastmod = text[:MAX_LASTMOD_CHARS] or None
        self._field = None
        self._text = []

    def _chars(self, data: str) -> None:
        # Stop storing past the cap, but keep counting so an over-long loc is known to be one.
        if self._field is not None:
            if self._text_len <= MAX_LOC_CHARS:
                self._text.append(data)
            self._text_len += len(data)


class _TextReader(_Reader):
    """sitemaps.org text format: one URL per line; a first line that is not a URL: not a sitemap."""

    def __init__(self, entries: _Entries) -> None:
        super().__init__(entries, SitemapKind.TEXT)
        self._pending: list[bytes] = []  # the current line, kept only up to MAX_LINE_BYTES
        self._pending_len = 0

    def feed(self, data: bytes, final: bool = False) -> None:
        parts = data.split(b"\n")
        for i, part in enumerate(parts):
            if self._pending_len <= MAX_LINE_BYTES:
                self._pending.append(part)
            self._pending_len += len(part)
            if i < len(parts) - 1 or final:
                self._end_line()

    def _end_line(self) -> None:
        raw, too_long = b"".join(self._pending), self._pending_len > MAX_LINE_BYTES
        self._pending, self._pending_len = [], 0
        line = raw.decode("utf-8", "replace").strip()
        if self.error is not None or not line:
            return
        if not too_long and _is_url_line(line):
            self.entries.add(line, None)
        elif self.entries.count == 0 and self.entries.invalid == 0:
            self.kind = SitemapKind.UNKNOWN
            self._fail(ParseError.NOT_A_SITEMAP, "first line is not a URL")
        else:
            self.entries.invalid += 1


class _Gunzip:
    """Incremental inflate of the first gzip member, never more than `budget` bytes per call."""

    def __init__(self) -> None:
        self._inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.broken: str | None = None

    @property
    def ended(self) -> bool:
        return self._inflate.eof

    def inflate(self, data: bytes, budget: int) -> list[bytes]:
        """Decompress `data`, stopping once `budget` bytes came out (the caller: oversized)."""
        out: list[bytes] = []
        try:
            while data and budget > 0 and not self._inflate.eof:
                piece = self._inflate.decompress(data, budget)
                out.append(piece)
                budget -= len(piece)
                data = self._inflate.unconsumed_tail
        except zlib.error as exc:
            self.broken = str(exc)
        return out

    def finish(self) -> None:
        if self.broken is None and not self._inflate.eof:
            self.broken = "gzip stream is truncated"


class SitemapParser:
    """Streaming parser for one sitemap document (XML urlset or index, plain text, gzipped or not).

    `max_bytes` caps the decoded size; a larger document is skipped whole (`oversized`, no entries).
    `max_urls` caps the entries kept; `url_count` still counts them all.
    """

    def __init__(
        self, max_bytes: int = MAX_SITEMAP_BYTES, max_urls: int = MAX_URLS_PER_SITEMAP
    ) -> None:
        self.max_bytes = max_bytes
        self._entries = _Entries(max_urls)
        self._raw_head = b""  # up to one byte, until gzip can be told apart
        self._gunzip: _Gunzip | None = None
        self._sniffed = False
        self._bom_checked = False
        self._head = b""  # decoded bytes held until XML can be told from text
        self._reader: _Reader | None = None
        self._size = 0
        self._oversized = False
        self._closed = False

    @property
    def needs_more(self) -> bool:
        """False once further bytes cannot change the result: the caller may stop reading."""
        gunzip = self._gunzip
        gzip_done = gunzip is not None and (gunzip.ended or gunzip.broken is not None)
        return not (self._closed or self._oversized or gzip_done)

    def feed(self, data: bytes) -> None:
        if self._closed:
            raise SitemapUsageError("feed() after close()")
        if data and self.needs_more:
            self._feed_raw(data, final=False)

    def close(self) -> SitemapDocument:
        if self._closed:
            raise SitemapUsageError("close() called twice")
        if not self._oversized:
            self._feed_raw(b"", final=True)
        self._closed = True
        return self._document()

    def _feed_raw(self, data: bytes, final: bool) -> None:
        if self._gunzip is None and not self._sniffed:
            data = self._raw_head + data
            if len(data) < len(GZIP_MAGIC) and not final:
                self._raw_head = data
                return
            self._raw_head = b""
            self._sniffed = True
            if data.startswith(GZIP_MAGIC):
                self._gunzip = _Gunzip()
        if self._gunzip is None:
            self._feed_decoded(data, final)
        else:
            self._feed_gzip(data, final)

    def _feed_gzip(self, data: bytes, final: bool) -> None:
        assert self._gunzip is not None
        for piece in self._gunzip.inflate(data, self.max_bytes + 1 - self._size):
            self._feed_decoded(piece, final=False)
        if final:
            self._gunzip.finish()
            self._feed_decoded(b"", final=True)

    def _feed_decoded(self, data: bytes, final: bool) -> None:
        if self._oversized:
            return
        room = self.max_bytes - self._size
        self._size += len(data)
        if len(data) > room:
            self._oversized = True
            self._reader = None  # drop everything parsed: the document is skipped whole
            return
        self._route(data, final)

    def _route(self, data: bytes, final: bool) -> None:
        if self._reader is None:
            data = self._sniff(self._head + data, final)
            if self._reader is None:
                self._head = data  # at most a BOM prefix: whitespace is dropped as it comes
                return
        self._reader.feed(data, final)

    def _sniff(self, data: bytes, final: bool) -> bytes:
        """Choose the reader once the first significant byte is known; return the bytes left."""
        if not self._bom_checked:
            if not final and len(data) < len(UTF8_BOM) and any(b.startswith(data) for b in BOMS):
                return data
            self._bom_checked = True
            if data.startswith(UTF16_BOMS):
                self._reader = _XmlReader(self._entries)  # expat decodes UTF-16 from its BOM
                return data
            data = data.removeprefix(UTF8_BOM)
        body = data.lstrip(XML_WHITESPACE)
        if body:
            reader_type = _XmlReader if body.startswith(b"<") else _TextReader
            self._reader = reader_type(self._entries)
        return body

    def _document(self) -> SitemapDocument:
        gzipped, size = self._gunzip is not None, self._size
        if self._oversized:
            return SitemapDocument(SitemapKind.UNKNOWN, (), 0, 0, self.max_bytes + 1, gzipped, True)
        if self._gunzip is not None and self._gunzip.broken is not None:
            detail = self._gunzip.broken[:MAX_ERROR_CHARS]
            return _failed(size, gzipped, ParseError.BAD_GZIP, detail)
        if self._reader is None:
            return _failed(size, gzipped, ParseError.EMPTY, "no content")
        e, r = self._entries, self._reader
        items = tuple(e.items)
        return SitemapDocument(
            r.kind, items, e.count, e.invalid, size, gzipped, False, r.error, r.detail
        )


def _failed(size: int, gzipped: bool, error: ParseError, detail: str) -> SitemapDocument:
    return SitemapDocument(SitemapKind.UNKNOWN, (), 0, 0, size, gzipped, False, error, detail)
