"""Bytes to text like a browser: BOM, then Content-Type charset, then the meta prescan, then
windows-1252, with the WHATWG label table; html5lib's sniffing code (ported: parse.prescan) and
webencodings' codecs.

The decision needs the first `PRESCAN_BYTES` of the page (the HTML spec's prescan window, the
number html5lib uses), so output starts once they have arrived. A decision from the prescan or
the default is *tentative*: if the parser later meets a `<meta charset>` naming another encoding,
the page must be decoded again from the start, as browsers and html5lib do. To allow that without
holding whole pages, the raw bytes are retained only up to `RETAIN_BYTES`; a later change switches
the decoder for the rest of the input instead (a documented divergence from html5lib).
"""

from __future__ import annotations

import codecs
import re

import webencodings

from parse.facts import EncodingInfo, EncodingSource
from parse.prescan import EncodingParser, lookup_encoding

PRESCAN_BYTES = 1024  # HTML spec "prescan a byte stream"; html5lib's numBytesMeta
RETAIN_BYTES = 128 * 1024  # far beyond where pages declare their charset; bounds memory
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16le"),
    (codecs.BOM_UTF16_BE, "utf-16be"),
)
_CHARSET_PARAM = re.compile(r"""charset\s*=\s*["']?([^"';\s]+)""", re.IGNORECASE)
_FALLBACK = "windows-1252"


def transport_label(content_type: str | None) -> str | None:
    """The charset label of a Content-Type header value, if any."""
    m = _CHARSET_PARAM.search(content_type or "")
    return m.group(1) if m else None


def lookup(label: str | bytes | None) -> webencodings.Encoding | None:
    """WHATWG label lookup (html5lib's), None for unknown or undecodable labels."""
    try:
        return lookup_encoding(label)
    except (UnicodeError, TypeError):
        return None


def sniff_bom(head: bytes) -> tuple[webencodings.Encoding, int] | None:
    """(encoding, BOM length) when `head` starts with a UTF-8 or UTF-16 byte order mark."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            encoding = lookup(name)
            assert encoding is not None
            return encoding, len(bom)
    return None


def prescan(head: bytes) -> webencodings.Encoding | None:
    """The meta prescan over the first bytes (html5lib's EncodingParser); UTF-16 means UTF-8."""
    try:
        encoding = EncodingParser(head[:PRESCAN_BYTES]).get_encoding()
    except Exception:  # the byte scanner (html5lib's) fails on odd bytes; never let that escape
        return None
    if encoding is not None and encoding.name in ("utf-16be", "utf-16le"):
        return lookup("utf-8")
    return encoding


class Decoder:
    """Incremental bytes-to-str decoding with the encoding chosen as above."""

    def __init__(
        self, content_type: str | None = None, *, forced: webencodings.Encoding | None = None
    ) -> None:
        self._transport = lookup(transport_label(content_type))
        self._pending: bytearray | None = bytearray()  # bytes before the decision
        self._retained: bytearray | None = None  # raw bytes kept while tentative
        self._decoder: codecs.IncrementalDecoder | None = None
        self.encoding: webencodings.Encoding = lookup(_FALLBACK)
        self.source = EncodingSource.DEFAULT
        self.certain = False
        if forced is not None:  # a restart after a late meta charset
            self._start(forced, EncodingSource.META_LATE, True)

    @property
    def info(self) -> EncodingInfo:
        return EncodingInfo(self.encoding.name, self.source)

    def feed(self, data: bytes) -> str:
        if self._retained is not None:
            self._retained += data
            if len(self._retained) > RETAIN_BYTES:
                self._retained = None
        if self._decoder is None:
            assert self._pending is not None
            self._pending += data
            if len(self._pending) < PRESCAN_BYTES:
                return ""
            data = self._decide()
        assert self._decoder is not None
        return self._decoder.decode(data)

    def finish(self) -> str:
        data = self._decide() if self._decoder is None else b""
        assert self._decoder is not None
        return self._decoder.decode(data, True)

    def _decide(self) -> bytes:
        head = bytes(self._pending or b"")
        self._pending = None
        bom = sniff_bom(head)
        if bom is not None:
            self._start(bom[0], EncodingSource.BOM, True)
            return head[bom[1] :]
        if self._transport is not None:
            self._start(self._transport, EncodingSource.CONTENT_TYPE, True)
            return head
        found = prescan(head)
        if found is not None:
            self._start(found, EncodingSource.META_PRESCAN, False)
        else:
            self._start(self.encoding, EncodingSource.DEFAULT, False)
        if len(head) <= RETAIN_BYTES:
            self._retained = bytearray(head)
        return head

    def _start(
        self, encoding: webencodings.Encoding, source: EncodingSource, certain: bool
    ) -> None:
        self.encoding, self.source, self.certain = encoding, source, certain
        self._decoder = encoding.codec_info.incrementaldecoder("replace")
        if certain:
            self._retained = None

    def change_encoding(self, label: str | None) -> bytes | None:
        """A `<meta>` declared `label` while parsing (html5lib's `changeEncoding`).

        Returns the bytes to decode again from the start with a fresh `Decoder(forced=...)` when
        the encoding changed and the input is still retained; otherwise None (switching the
        decoder in place if the input is no longer retained).
        """
        if self.certain or self._decoder is None:
            return None
        encoding = lookup(label)
        if encoding is None or encoding.name in ("utf-16be", "utf-16le"):
            return None  # html5lib ignores these (and stays tentative)
        if encoding == self.encoding:
            self.certain, self._retained = True, None
            return None
        retained = self._retained
        self._start(encoding, EncodingSource.META_LATE, True)
        return bytes(retained) if retained is not None else None
