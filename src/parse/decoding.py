"""Bytes to text like a browser: BOM, then Content-Type charset, then the meta prescan, then
windows-1252, with the WHATWG label table; reuses html5lib's sniffing code and codecs. The
prescan's answer is html5lib's; plain heads (most pages) get it from a regular expression that
models html5lib's scan instead of from its byte-by-byte loop (see `_PLAIN_HEAD`).

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
from html5lib._inputstream import (
    ContentAttrParser,
    EncodingBytes,
    EncodingParser,
    lookupEncoding,
)

from parse.facts import EncodingInfo, EncodingSource

PRESCAN_BYTES = 1024  # HTML spec "prescan a byte stream"; html5lib's numBytesMeta
RETAIN_BYTES = 128 * 1024  # far beyond where pages declare their charset; bounds memory
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16le"),
    (codecs.BOM_UTF16_BE, "utf-16be"),
)
_CHARSET_PARAM = re.compile(r"""charset\s*=\s*["']?([^"';\s]+)""", re.IGNORECASE)
_FALLBACK = "windows-1252"

# The prescan of most pages, read by regular expressions instead of html5lib's byte-by-byte
# Python loop: markup that `EncodingParser` provably skips without effect, then the first `<meta`
# that may declare a charset, whose attributes `_meta_encoding` weighs as `handleMeta` does. Each
# token is modelled on what `EncodingParser.getEncoding` does at a `<`, in its order of tests:
# `<!--` jumps to `-->`; `<meta` + whitespace reads attributes (`handleMeta`), which change
# nothing unless one is named `charset` or a `content` value names one (`ContentAttrParser`
# looks for "charset"), so a `<meta` none of whose names and values holds "charset" is skipped;
# `</` + letters and digits ends at the `>`; `<!` and `<?` jump to `>`; `<` + a letter (not
# `<meta`) skips the name to whitespace or `<>`, then attributes as `getAttribute` reads them.
# Attributes are limited here to names without quotes or `=` that follow whitespace or `/` (see
# `_p_attr`). Any other markup before that meta (`a="x"b`, a lone `<`, ...), or a meta that
# leaves the question open, is not answered here: html5lib decides.
# tests/parse/test_prescan.py checks the two agree on the corpus and on generated heads.
_P_WS = r"\t\n\f\r "


def _p_attr(group: str, guard: str = "") -> str:
    """One attribute as `getAttribute` reads it: whitespace or "/", a name, optionally = and a
    value, quoted or not (an unquoted one ends at whitespace or `>` here; html5lib also ends it
    at `<`, where it reads on strangely). `group` "" captures the name and the double-quoted,
    single-quoted and unquoted value; every character matches `guard` first."""

    def char(cls: str) -> str:
        return f"(?:{guard}{cls})" if guard else cls

    name = char(rf"""[^{_P_WS}/<>="']""")
    double, single = char('[^"]'), char("[^']")
    unquoted = char(rf"""[^{_P_WS}<>"']""") + char(rf"[^{_P_WS}<>]") + "*+"
    return (
        rf"[{_P_WS}/]++({group}{name}++)(?:[{_P_WS}]*+=[{_P_WS}]*+"
        rf"""(?:"({group}{double}*+)"|'({group}{single}*+)'|({group}{unquoted})(?=[{_P_WS}>])))?+"""
    )


_P_ATTRS = rf"(?:{_p_attr('?:')})*+[{_P_WS}/]*+"
# The same, where no name or value holds "charset".
_P_META_ATTRS = rf"(?:{_p_attr('?:', '(?!charset)')})*+[{_P_WS}/]*+"
_P_SKIPPED = (
    r"(?s:<!--.*?-->)"
    rf"|<meta(?=[{_P_WS}]){_P_META_ATTRS}>"
    r"|</[a-z][a-z0-9]*+>|<!(?!--)[^>]*+>|<\?[^>]*+>"
    rf"|<(?!meta)[a-z][^{_P_WS}<>]*+{_P_ATTRS}>"
)
_PLAIN_HEAD = re.compile(
    rf"(?:[^<]*+(?:{_P_SKIPPED}))*+[^<]*+<meta(?=[{_P_WS}])({_P_ATTRS})>".encode()
)
_META_ATTR = re.compile(_p_attr("").encode())


def transport_label(content_type: str | None) -> str | None:
    """The charset label of a Content-Type header value, if any."""
    m = _CHARSET_PARAM.search(content_type or "")
    return m.group(1) if m else None


def lookup(label: str | bytes | None) -> webencodings.Encoding | None:
    """WHATWG label lookup (html5lib's), None for unknown or undecodable labels."""
    try:
        return lookupEncoding(label)
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
    head = head[:PRESCAN_BYTES].lower()  # html5lib reads the bytes lowercased (EncodingBytes)
    if b"<meta" not in head:  # and this is its own first test
        return None
    if b"charset" not in head:  # every answer is an attribute named so, or a value naming one
        return None
    encoding = _plain_meta_charset(head)
    if encoding is None:
        try:
            encoding = EncodingParser(head).getEncoding()
        except Exception:  # the byte scanner is html5lib's; never let odd bytes escape as errors
            return None
    if encoding is not None and encoding.name in ("utf-16be", "utf-16le"):
        return lookup("utf-8")
    return encoding


def _plain_meta_charset(head: bytes) -> webencodings.Encoding | None:
    """html5lib's prescan answer when `head` (lowercased, as html5lib reads it) is plain (see
    `_PLAIN_HEAD`) and its first meta that may declare a charset does, else None."""
    m = _PLAIN_HEAD.match(head)
    return None if m is None else _meta_encoding(head[m.start(1) : m.end()])


def _meta_encoding(attrs: bytes) -> webencodings.Encoding | None:
    """What html5lib's `handleMeta` finds in a meta's attribute text (with the closing `>`,
    which ends an unquoted value); None when it reads on."""
    pragma, pending = False, None
    for name, double, single, unquoted in _META_ATTR.findall(attrs):
        value = double or single or unquoted
        if name == b"http-equiv":
            pragma = value == b"content-type"
            if pragma and pending is not None:
                return pending
        elif name == b"charset":
            encoding = lookup(value)
            if encoding is not None:
                return encoding
        elif name == b"content":
            label = ContentAttrParser(EncodingBytes(value)).parse()
            encoding = None if label is None else lookup(label)
            if encoding is not None:
                if pragma:
                    return encoding
                pending = encoding
    return None


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
