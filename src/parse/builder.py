"""Turns observed elements into `PageFacts`: shared by the streaming extractor and the reference.

Both parsers find elements and their text their own way and report them here in source order;
everything downstream of "this element, with these attributes and this text" (attribute caps,
meta/link/rel interpretation, URL resolution against the base, list caps, JSON-LD summary) lives in
this one place, so a parity mismatch always points at the parsing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import overload

from common.fast_record import maker
from common.seen import SeenHashes
from parse.attr_urls import refresh_url, srcset_urls
from parse.facts import (
    ANCHOR_TEXT_CAP,
    ATTR_CAP,
    FRAGMENT_TARGETS_CAP,
    HEADING_LEVELS_CAP,
    HEADINGS_CAP,
    IMAGES_CAP,
    JSONLD_MAX_BLOCKS,
    JSONLD_MAX_DEPTH,
    JSONLD_MAX_TYPES,
    LINKS_CAP,
    LIST_CAP,
    REFERENCES_CAP,
    SCRIPTS_CAP,
    SINGLETON_CAP,
    TEXT_CAP,
    EncodingInfo,
    Heading,
    Hreflang,
    Image,
    JsonLd,
    Link,
    MetaTag,
    MixedContent,
    PageFacts,
    Reference,
    ReferenceKind,
    Script,
    UrlRef,
)
from parse.text import cut
from parse.url_refs import UrlRefs
from urls.fragment import fragment_key
from urls.resolve import clean, document_base, is_http, resolve

Attrs = dict[str, str]

# Elements whose only fact is a sub-resource URL (mixed content): the attribute holding it, and
# the reference kind it makes.
_MEDIA = {
    "iframe": ("src", ReferenceKind.IFRAME),
    "source": ("src", ReferenceKind.MEDIA),
    "video": ("src", ReferenceKind.MEDIA),
    "audio": ("src", ReferenceKind.MEDIA),
    "embed": ("src", ReferenceKind.EMBED),
    "object": ("data", ReferenceKind.OBJECT),
}
_WS = " \t\n\r\f"
_SKIPPED_LINK_PREFIXES = ("javascript:", "mailto:", "tel:", "#")  # the original analyzer's filter
# What an href that may have one of those prefixes starts with (the empty string included).
_MAY_SKIP = "#jJmMtT" + _WS
_JSONLD_TYPES = ("application/ld+json",)
_WALK_BUDGET = 10_000  # JSON-LD nodes visited per block
# Built for every link and reference of every page: without the frozen __init__ (common.fast_record).
_link_record = maker(Link)
_reference_record = maker(Reference)


@overload
def _cap(value: str) -> str: ...
@overload
def _cap(value: str | None) -> str | None: ...
def _cap(value: str | None) -> str | None:
    return value if value is None or len(value) <= ATTR_CAP else value[:ATTR_CAP]


def _tokens(value: str | None) -> set[str]:
    return set(value.lower().split()) if value else set()


def is_jsonld(attrs: Attrs) -> bool:
    """Whether a `<script>` start tag opens a JSON-LD block (MIME essence, case-insensitive)."""
    kind = attrs.get("type")
    return kind is not None and kind.split(";", 1)[0].strip().lower() in _JSONLD_TYPES


class Capture:
    """Text of one link or heading, filled in when the element closes; for a link, also the alt
    of the first image inside it that has one (facts.Link.image_alt), as the attribute gave it;
    whether the facts keep the link, and if so the `Link` it became when it was streamed, with the
    base it was resolved against (the facts reuse it while the base is the same)."""

    __slots__ = ("text", "closed", "alt", "kept", "sent")

    def __init__(self) -> None:
        self.text = ""
        self.closed = False
        self.alt: str | None = None
        self.kept = False
        self.sent: tuple[str, Link] | None = None

    def image(self, alt: str | None) -> None:
        """An `<img>` inside the link: the first alt given is kept."""
        if self.alt is None and alt is not None:
            self.alt = _cap(alt)


LinkSink = Callable[[list[Link]], None]
ReferenceSink = Callable[[list[Reference]], None]
_RawReference = tuple[ReferenceKind, str, str | None]  # kind, raw URL, rel


def _never(key: Hashable) -> bool:
    return False


def _closed_capture() -> Capture:
    capture = Capture()
    capture.closed = True
    return capture


# The text of a bare #fragment link, which nothing reads: complete from the start, so it never
# holds back the links queued behind it (read only, never filled in).
_NO_TEXT = _closed_capture()
# Links handed to a `LinkSink` at a time once a page has more than LINKS_CAP of them: a bounded
# batch, so a page's links never pile up in memory whatever their number.
LINK_BATCH = 256
_RawLink = tuple[str, Capture, bool, bool, bool]  # href, text, nofollow, sponsored, ugc


class _Outbox[T]:
    """Distinct items on their way to a sink, uncapped: held until `hold` are pending (or the
    end), so a page of ordinary size resolves them against its final base as its facts do; past
    that, due in batches of LINK_BATCH. Keys are remembered in a plain set while there are at
    most `hold` of them (the held items keep their strings alive anyway, and a set lookup costs
    a twentieth of a hashed one), then as one compact hash per distinct key (common.seen)."""

    __slots__ = ("hold", "pending", "keys", "seen", "streaming")

    def __init__(self, hold: int) -> None:
        self.hold = hold
        self.pending: list[T] = []
        self.keys: set[str] | None = set()
        self.seen = SeenHashes()
        self.streaming = False

    def add(self, key: str, item: T) -> bool:
        """Queue `item` unless `key` came before; True if it was new."""
        keys = self.keys
        if keys is None:
            if not self.seen.add(key):
                return False
        elif key in keys:
            return False
        else:
            keys.add(key)
            if len(keys) > self.hold:
                for known in keys:
                    self.seen.add(known)
                self.keys = None
        self.pending.append(item)
        return True

    def due(self) -> bool:
        """Whether a batch should go now (and from now on, batch by batch)."""
        if len(self.pending) > (LINK_BATCH if self.streaming else self.hold):
            self.streaming = True
            return True
        return False


class _Kept[T]:
    """One list of the facts as the page fills it: the first `cap` items offered, in source order
    (given a `key`, only the first item of each key), and how many were offered (`seen`)."""

    __slots__ = ("items", "cap", "seen", "_keys")

    def __init__(self, cap: int = LIST_CAP) -> None:
        self.items: list[T] = []
        self.cap = cap
        self.seen = 0
        self._keys: set[Hashable] = set()

    def holds(self, key: Hashable) -> bool:
        """Whether an item of `key` was kept."""
        return key in self._keys

    def add(self, item: T, key: Hashable | None = None) -> bool:
        """Keep `item` unless the list is full or `key` (when not None) was kept before."""
        self.seen += 1
        if key is not None and key in self._keys:
            return False
        if len(self.items) >= self.cap:
            return False
        self.items.append(item)
        if key is not None:
            self._keys.add(key)
        return True


_RawImage = tuple[str | None, str | None, str | None, str | None]  # src, alt, width, height
# src, type, integrity, crossorigin
_RawScript = tuple[str | None, str | None, str | None, str | None]
_RawResource = tuple[int, str, str]  # order among sub-resources, tag, raw URL


@dataclass(slots=True)
class _Collected:
    """What a page collects for its `PageFacts`, one list per field (raw URLs: resolved against
    the final base in `build`). The caps are read when a page starts, so tests can lower them."""

    titles: _Kept[str] = field(default_factory=lambda: _Kept(SINGLETON_CAP))
    meta_descriptions: _Kept[str] = field(default_factory=lambda: _Kept(SINGLETON_CAP))
    meta_robots: _Kept[str] = field(default_factory=lambda: _Kept(SINGLETON_CAP))
    meta_googlebot: _Kept[str] = field(default_factory=lambda: _Kept(SINGLETON_CAP))
    viewports: _Kept[str] = field(default_factory=lambda: _Kept(SINGLETON_CAP))
    refreshes: _Kept[str] = field(default_factory=lambda: _Kept(SINGLETON_CAP))
    generators: _Kept[str] = field(default_factory=_Kept)
    canonicals: _Kept[str] = field(default_factory=lambda: _Kept(SINGLETON_CAP))
    hreflangs: _Kept[tuple[str, str]] = field(default_factory=_Kept)  # lang, raw href
    social: _Kept[MetaTag] = field(default_factory=_Kept)
    forms: _Kept[str | None] = field(default_factory=_Kept)  # raw actions
    scripts: _Kept[_RawScript] = field(default_factory=lambda: _Kept(SCRIPTS_CAP))
    images: _Kept[_RawImage] = field(default_factory=lambda: _Kept(IMAGES_CAP))
    links: _Kept[_RawLink] = field(default_factory=lambda: _Kept(LINKS_CAP))
    headings: _Kept[tuple[int, Capture]] = field(default_factory=lambda: _Kept(HEADINGS_CAP))
    http: _Kept[_RawResource] = field(default_factory=_Kept)  # http: sub-resources
    relative: _Kept[_RawResource] = field(default_factory=_Kept)  # relative ones
    fragment_links: _Kept[str] = field(default_factory=lambda: _Kept(LINKS_CAP))
    references: _Kept[_RawReference] = field(default_factory=lambda: _Kept(REFERENCES_CAP))

    def meta_named(self, name: str) -> _Kept[str] | None:
        """The list a `<meta name>` fills with its content, if it has one of its own."""
        match name:
            case "description":
                return self.meta_descriptions
            case "robots":
                return self.meta_robots
            case "googlebot":
                return self.meta_googlebot
            case "viewport":
                return self.viewports
        return None


class FactsBuilder:
    def __init__(
        self,
        page_url: str,
        on_links: LinkSink | None = None,
        on_references: ReferenceSink | None = None,
    ) -> None:
        self.page_url = page_url
        # Every distinct <a href> (by raw href; bare #fragment ones too, which `fragment_links`
        # keeps apart in the facts) also goes to `on_links`, uncapped, as its text closes; every
        # distinct reference (kind, URL, rel) to `on_references`, after the links at the end.
        self._on_links = on_links
        self._links = _Outbox[_RawLink](LINKS_CAP)
        self._on_references = on_references
        self._refs = _Outbox[_RawReference](REFERENCES_CAP)
        self._base_href: str | None = None
        self._urls = UrlRefs()  # each (base, raw URL) resolved once, streamed or kept
        self._lang: str | None = None
        self._declared: str | None = None
        self._kept = _Collected()
        self._targets: set[int] | None = set()  # fragment target keys; None once capped
        self._in_frameset = False
        self._missing_alt = 0
        self._heading_levels = bytearray()  # one byte a heading: the order of many stays cheap
        self._resources = 0  # sub-resource counter, orders mixed-content candidates
        self._jsonld_blocks = 0
        self._jsonld_errors = 0
        self._jsonld_types: list[str] = []
        self._jsonld_truncated = False

    # -- elements ---------------------------------------------------------------------------

    def element(self, name: str, attrs: Attrs) -> None:
        """A start tag in `ELEMENTS` outside template and foreign content."""
        ELEMENT_HANDLERS[name](self, name, attrs)

    def _html(self, name: str, attrs: Attrs) -> None:
        if self._lang is None and "lang" in attrs:
            self._lang = _cap(attrs["lang"])

    def _base(self, name: str, attrs: Attrs) -> None:
        if self._base_href is None and "href" in attrs:
            self._base_href = _cap(attrs["href"])

    def _meta(self, name: str, attrs: Attrs) -> None:
        content = _cap(attrs.get("content", ""))
        if self._declared is None:
            self._declared = declared_charset(attrs)
        key = attrs.get("name", "").strip().lower()
        named = self._kept.meta_named(key)
        if named is not None:
            named.add(content)
        elif key == "generator" and "content" in attrs:
            self._kept.generators.add(content.strip())
        prop = attrs.get("property", "").strip().lower()
        for social in (prop, key):
            if social.startswith(("og:", "twitter:")):
                tag = MetaTag(_cap(social), content)
                self._kept.social.add(tag, tag)  # a repeated identical tag adds nothing
                break
        if attrs.get("http-equiv", "").strip().lower() == "refresh":
            self._kept.refreshes.add(content)
            self._reference(ReferenceKind.REFRESH, refresh_url(content))

    def _link(self, name: str, attrs: Attrs) -> None:
        rel = _tokens(attrs.get("rel"))
        href = _cap(attrs.get("href"))
        if href is None:
            return
        rel_text = " ".join(attrs.get("rel", "").lower().split())
        self._reference(ReferenceKind.LINK, href, _cap(rel_text))
        if "canonical" in rel:
            self._kept.canonicals.add(href)
        if "alternate" in rel and "hreflang" in attrs:
            alternate = (_cap(attrs["hreflang"]), href)
            self._kept.hreflangs.add(alternate, alternate)
        if "stylesheet" in rel:
            self._resource("link", href)

    def _img(self, name: str, attrs: Attrs) -> None:
        src = _cap(attrs.get("src"))
        image = (src, _cap(attrs.get("alt")), _cap(attrs.get("width")), _cap(attrs.get("height")))
        self._missing_alt += image[1] is None
        self._kept.images.add(image, image)
        if src is not None:
            self._resource("img", src)
        self._reference(ReferenceKind.IMG, src)
        self._srcset(attrs)

    def _script(self, name: str, attrs: Attrs) -> None:
        src = _cap(attrs.get("src"))
        script = (
            src,
            _cap(attrs.get("type")),
            _cap(attrs.get("integrity")),
            _cap(attrs.get("crossorigin")),
        )
        self._kept.scripts.add(script, script)
        if src is not None:
            self._resource("script", src)
        self._reference(ReferenceKind.SCRIPT, src)

    def _form(self, name: str, attrs: Attrs) -> None:
        action = _cap(attrs.get("action"))
        self._kept.forms.add(action, action)  # the same form twice is one finding
        self._reference(ReferenceKind.FORM, action)

    def _area(self, name: str, attrs: Attrs) -> None:
        self._reference(ReferenceKind.AREA, _cap(attrs.get("href")))

    def _frameset(self, name: str, attrs: Attrs) -> None:
        self._in_frameset = True

    def _frame(self, name: str, attrs: Attrs) -> None:
        # The parser drops a <frame> outside a <frameset> (HTML "in body": ignore the token).
        if self._in_frameset:
            self._reference(ReferenceKind.FRAME, _cap(attrs.get("src")))

    def _media(self, name: str, attrs: Attrs) -> None:
        attribute, kind = _MEDIA[name]
        url = _cap(attrs.get(attribute))
        if url is not None:
            self._resource(name, url)
        self._reference(kind, url)
        if name == "video":
            self._reference(ReferenceKind.POSTER, _cap(attrs.get("poster")))
        elif name == "source":
            self._srcset(attrs)

    def _srcset(self, attrs: Attrs) -> None:
        value = attrs.get("srcset")
        if value:
            for url in srcset_urls(value):
                self._reference(ReferenceKind.SRCSET, _cap(url))

    def _reference(self, kind: ReferenceKind, raw: str | None, rel: str | None = None) -> None:
        """A URL the page names; empty or whitespace-only values name nothing."""
        if raw is not None and (raw[:1] not in _WS or raw.strip(_WS)):  # "" is in _WS
            item = (kind, raw, rel)
            self._kept.references.add(item, item)
            sent = self._on_references is not None
            if sent and self._refs.add(f"{kind}\0{rel}\0{raw}", item) and self._refs.due():
                self._send_references(final=False)

    def _send_references(self, *, final: bool) -> None:
        if self._on_references is None or not self._refs.pending:
            return
        ready, self._refs.pending = self._refs.pending, []
        base, ref = document_base(self.page_url, self._base_href), self._urls.ref
        # At the end, the facts ask again for the URLs they keep (not before: a page of more
        # references than the facts keep sends its first batch early, and holds nothing for it).
        kept = self._kept.references.holds if final else _never
        self._on_references(
            [
                _reference_record(k, ref(raw, base, keep=kept((k, raw, rel))), rel)
                for k, raw, rel in ready
            ]
        )

    def _resource(self, tag: str, raw: str) -> None:
        """Keep sub-resource URLs that are or may become http: (relative ones, if the base is)."""
        self._resources += 1
        url = clean(raw)
        scheme = url.split(":", 1)[0].lower() if ":" in url else ""
        # One finding per distinct (tag, URL): the same insecure image twice is one fix.
        if scheme == "http":
            self._kept.http.add((self._resources, tag, raw), (tag, raw))
        elif not scheme.isalpha() or "/" in scheme or "?" in scheme or "#" in scheme:
            self._kept.relative.add((self._resources, tag, raw), (tag, raw))

    def targets(self, name: str, attrs: Attrs, *, html: bool) -> None:
        """Any start tag in the document tree (HTML or foreign, outside template): its id, and
        an HTML `<a>`'s name, are fragment targets."""
        self._target(attrs.get("id"))
        if html and name == "a":
            self._target(attrs.get("name"))

    def _target(self, value: str | None) -> None:
        targets = self._targets
        if not value or targets is None:
            return
        targets.add(fragment_key(_cap(value)))
        if len(targets) > FRAGMENT_TARGETS_CAP:
            self._targets = None

    # -- elements with text -----------------------------------------------------------------

    def title(self, text: str) -> None:
        self._kept.titles.add(text)

    def heading(self, level: int) -> Capture:
        capture = Capture()
        self._kept.headings.add((level, capture))
        if len(self._heading_levels) < HEADING_LEVELS_CAP:
            self._heading_levels.append(level)
        return capture

    def anchor(self, attrs: Attrs) -> Capture | None:
        """An `<a>` start tag: a Capture for its text if it is a link that is kept."""
        href = attrs.get("href")
        if href is None:
            return None
        if href[:1] in _MAY_SKIP:  # else it neither is a #fragment nor has a skipped scheme
            lead = href.lstrip(" \t\n\r\f")[:11].lower()
            if lead.startswith("#"):
                href = _cap(href)
                self._kept.fragment_links.add(href, href)
                self._stream_link((href, _NO_TEXT, False, False, False))
                return None
            if lead.startswith(_SKIPPED_LINK_PREFIXES):
                return None
        rel = attrs.get("rel")
        capture = Capture()
        if rel:
            tokens = _tokens(rel)
            link = (
                _cap(href),
                capture,
                "nofollow" in tokens,
                "sponsored" in tokens,
                "ugc" in tokens,
            )
        else:
            link = (_cap(href), capture, False, False, False)
        kept = capture.kept = self._kept.links.add(link, link[0])
        streamed = self._on_links is not None and self._stream_link(link)
        return capture if streamed or kept else None

    def _stream_link(self, link: _RawLink) -> bool:
        """Queue a link for `on_links` unless its href came before; True if it was queued."""
        if self._on_links is None or not self._links.add(link[0], link):
            return False
        if self._links.due():
            self._send_links(final=False)
        return True

    def _send_links(self, *, final: bool) -> None:
        """Hand pending links to `on_links`: all of them at the end, else those whose text is
        complete (every one but, at most, a still open last few)."""
        pending = self._links.pending
        if self._on_links is None or not pending:
            return
        done = len(pending)
        while not final and done and not pending[done - 1][1].closed:
            done -= 1
        ready, self._links.pending = pending[:done], pending[done:]
        base = document_base(self.page_url, self._base_href)
        self._on_links([self._made_link(raw, base, final=final) for raw in ready])

    def _made_link(self, raw: _RawLink, base: str, *, final: bool = True) -> Link:
        """The `Link` a raw link makes against `base`; one the facts keep, made at the end, is
        remembered for them (the first batch of a long page, sent early, is not held)."""
        href, capture, nofollow, sponsored, ugc = raw
        sent = capture.sent
        if sent is not None and sent[0] == base:
            return sent[1]
        # A bare #fragment link's URL is asked again for the facts' fragment_links if kept there.
        keep = final and capture is _NO_TEXT and self._kept.fragment_links.holds(href)
        alt = capture.alt
        link = _link_record(
            self._urls.ref(href, base, keep=keep),
            cut(capture.text, ANCHOR_TEXT_CAP),
            nofollow,
            sponsored,
            ugc,
            None if alt is None else cut(alt, ANCHOR_TEXT_CAP),
        )
        if final and capture.kept:
            capture.sent = (base, link)
        return link

    def jsonld(self, text: str | None) -> None:
        """One JSON-LD block's content, or None when it exceeded JSONLD_MAX_CHARS."""
        self._jsonld_blocks += 1
        if text is None or self._jsonld_blocks > JSONLD_MAX_BLOCKS:
            self._jsonld_truncated = True
            return
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            self._jsonld_errors += 1
            return
        if not self._collect_types(data):
            self._jsonld_truncated = True

    def _collect_types(self, data: object) -> bool:
        """Gather @type strings breadth-first within the bounds; False if a bound was hit."""
        level, budget, types = [data], _WALK_BUDGET, self._jsonld_types
        for _depth in range(JSONLD_MAX_DEPTH):
            children: list[object] = []
            for node in level:
                budget -= 1
                if budget < 0:
                    return False
                if isinstance(node, dict):
                    found = node.get("@type")
                    for kind in found if isinstance(found, list) else [found]:
                        if isinstance(kind, str) and kind not in types:
                            if len(types) >= JSONLD_MAX_TYPES:
                                return False
                            types.append(kind[:ATTR_CAP])
                    children.extend(node.values())
                elif isinstance(node, list):
                    children.extend(node)
            level = [c for c in children if isinstance(c, (dict, list))]
            if not level:
                return True
        return False

    # -- result -----------------------------------------------------------------------------

    def build(
        self,
        encoding: EncodingInfo,
        html_bytes: int,
        truncated: bool,
        word_count: int,
        content_hash: str | None,
    ) -> PageFacts:
        self._send_links(final=True)
        self._send_references(final=True)
        base = document_base(self.page_url, self._base_href)
        kept = self._kept

        urls = self._urls

        def ref(raw: str) -> UrlRef:
            return urls.ref(raw, base)

        def maybe_ref(raw: str | None) -> UrlRef | None:
            return None if raw is None else ref(raw)

        if encoding.declared is None and self._declared is not None:
            encoding = EncodingInfo(encoding.name, encoding.source, self._declared)
        mixed, mixed_seen = self._mixed_content(base)
        return PageFacts(
            page_url=self.page_url,
            encoding=encoding,
            html_bytes=html_bytes,
            truncated=truncated,
            titles=tuple(cut(t, TEXT_CAP) for t in kept.titles.items),
            meta_descriptions=tuple(kept.meta_descriptions.items),
            meta_robots=tuple(kept.meta_robots.items),
            meta_googlebot=tuple(kept.meta_googlebot.items),
            viewports=tuple(kept.viewports.items),
            refreshes=tuple(kept.refreshes.items),
            generators=tuple(kept.generators.items),
            html_lang=self._lang,
            base_href=self._base_href,
            canonicals=tuple(ref(h) for h in kept.canonicals.items),
            hreflangs=tuple(Hreflang(lang, ref(h)) for lang, h in kept.hreflangs.items),
            headings=tuple(Heading(lv, cut(c.text, TEXT_CAP)) for lv, c in kept.headings.items),
            headings_seen=kept.headings.seen,
            heading_levels=tuple(self._heading_levels),
            links=tuple(self._made_link(raw, base) for raw in kept.links.items),
            links_seen=kept.links.seen,
            images=tuple(Image(maybe_ref(s), a, w, h) for s, a, w, h in kept.images.items),
            images_seen=kept.images.seen,
            images_missing_alt=self._missing_alt,
            scripts=tuple(Script(maybe_ref(s), t, i, c) for s, t, i, c in kept.scripts.items),
            scripts_seen=kept.scripts.seen,
            forms=tuple(self._form_action(a, base) for a in kept.forms.items),
            forms_seen=kept.forms.seen,
            social=tuple(kept.social.items),
            social_seen=kept.social.seen,
            mixed_content=tuple(mixed[:LIST_CAP]),
            mixed_content_seen=mixed_seen,
            json_ld=JsonLd(
                self._jsonld_blocks,
                self._jsonld_errors,
                tuple(self._jsonld_types),
                self._jsonld_truncated,
            ),
            fragment_targets=() if self._targets is None else tuple(sorted(self._targets)),
            fragment_targets_capped=self._targets is None,
            fragment_links=tuple(ref(h) for h in kept.fragment_links.items),
            fragment_links_seen=kept.fragment_links.seen,
            references=tuple(
                _reference_record(k, ref(raw), rel) for k, raw, rel in kept.references.items
            ),
            references_seen=kept.references.seen,
            word_count=word_count,
            content_hash=content_hash,
        )

    def _form_action(self, action: str | None, base: str) -> UrlRef:
        # HTML: an absent or empty action submits to the document's URL.
        raw = action or ""
        return UrlRef(raw, resolve(raw, base) if clean(raw) else resolve(self.page_url, base))

    def _mixed_content(self, base: str) -> tuple[list[MixedContent], int]:
        """http: sub-resources of an https page: absolute ones, and relative ones if the base is."""
        if self.page_url[:6].lower() != "https:":
            return [], 0
        candidates, seen = list(self._kept.http.items), self._kept.http.seen
        if is_http(base):
            candidates = sorted(candidates + self._kept.relative.items)
            seen += self._kept.relative.seen
        found = []
        for _index, tag, raw in candidates:
            url = resolve(raw, base)
            if is_http(url):
                assert url is not None
                found.append(MixedContent(tag, url))
        return found, seen


# The start tags the builder wants to see (besides a, h1-h6 and title, which carry text), each
# with the method that reads it (`element`, or the extractor straight from its own tag table).
ELEMENT_HANDLERS: dict[str, Callable[[FactsBuilder, str, Attrs], None]] = {
    "html": FactsBuilder._html,
    "base": FactsBuilder._base,
    "meta": FactsBuilder._meta,
    "link": FactsBuilder._link,
    "img": FactsBuilder._img,
    "script": FactsBuilder._script,
    "form": FactsBuilder._form,
    "area": FactsBuilder._area,
    "frameset": FactsBuilder._frameset,
    "frame": FactsBuilder._frame,
    **dict.fromkeys(_MEDIA, FactsBuilder._media),
}
ELEMENTS = frozenset(ELEMENT_HANDLERS)


def declared_charset(attrs: Attrs) -> str | None:
    """The charset label a `<meta>` declares (charset=, or http-equiv Content-Type content)."""
    if "charset" in attrs:
        return _cap(attrs["charset"].strip())
    if attrs.get("http-equiv", "").strip().lower() == "content-type" and "content" in attrs:
        return content_type_charset(attrs["content"])
    return None


def content_type_charset(content: str) -> str | None:
    """The charset parameter of a Content-Type value, via html5lib's WHATWG algorithm."""
    from html5lib._inputstream import ContentAttrParser, EncodingBytes

    try:
        label = ContentAttrParser(EncodingBytes(content.encode("utf-8", "replace"))).parse()
    except Exception:  # html5lib's byte parser signals "no charset" with assorted errors
        return None
    return _cap(label.decode("utf-8", "replace")) if label else None
