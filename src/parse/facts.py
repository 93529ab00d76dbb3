"""What the HTML extractor reports about one page: `PageFacts` and its parts.

These values cross Workflow-step and Durable-Object RPC boundaries, so every class is a frozen,
slotted dataclass whose `to_dict()` returns only dicts, lists, str, int, bool and None (the runtime
refuses tuples), and whose `from_dict()` rebuilds an equal object (tested as a round trip).

Definitions (the streaming extractor and the html5lib reference in `reference.py` both follow them;
where HTML tree construction could move content in ways a streamer cannot know, the definition is
chosen so that both agree):

* Source order. Every list is in the order the elements' start tags occur in the input. Tree order
  differs only where tree construction moves nodes (foster parenting out of tables, the adoption
  agency algorithm); the reference stamps elements with their token sequence number and sorts by it.
  An element cloned by tree construction (a formatting element such as `<a>` reopened after a
  misnested end tag) is the same source element: its clones' text counts towards the one fact.
* Excluded subtrees. Elements inside `<template>` (its content is inert) or inside foreign content
  (`<svg>`, `<math>`, including their HTML integration points) yield no facts, except that a
  `<meta charset>` anywhere still changes the decoding, as html5lib and browsers do.
* Visible text is the character data of the document, in source order, that is not inside
  `script, style, noscript, template, title, textarea, xmp, iframe, noembed, noframes, plaintext`
  or foreign content (`svg`, `math`): the raw-text elements, whose content is not markup
  (noscript is raw text because scripting is treated as enabled, like a browser). Character
  references are decoded, NUL characters are dropped (the HTML parser ignores them in body text),
  and the whole is joined *without* separators between elements (like the original's
  `bodyText`, cheerio's `.text()` and DOM `textContent`), then whitespace-collapsed: split on
  Python's `str.split()` whitespace (which includes U+00A0, as JavaScript's `\\s` does) and joined
  with single spaces. `word_count` counts those words and `content_hash` is the SHA-256 hex of the
  collapsed text, None when it is empty. Text is not restricted to `<body>`: in a parsed tree all
  non-whitespace character data outside the excluded elements ends up in body anyway.
* Element texts (title, heading, anchor) are the visible text inside that element (a title's own
  text, which is raw text), collapsed the same way and cut to `TEXT_CAP` characters (anchors:
  `ANCHOR_TEXT_CAP`), with no space left at the cut. A heading's text includes the text of
  headings nested in it.
* Attribute values are decoded the HTML way (character references with the attribute-value rule,
  CR/CRLF as LF, NUL as U+FFFD), names are lowercase, the first of duplicate attributes wins, and
  stored strings are cut to `ATTR_CAP` characters to bound memory.
* URLs are resolved against the document base URL (the first `<base href>`, itself resolved against
  the page URL) with the fragment dropped; `None` when the value cannot be resolved. Because the
  base applies to the whole document, the extractor resolves at `close()`.
* Known divergences (pages where the extractor and a browser's tree can differ, none of which
  occurs in the 128-page corpus): markup that is misplaced inside `<table>` (foster parenting
  moves text and elements out of the table, and table insertion modes close open headings or
  links); a `<meta charset>` that changes the encoding after the first `RETAIN_BYTES` of the page
  (the extractor switches decoders there instead of re-decoding); tags longer than `MAX_PENDING`
  (dropped); `<select>`, `<frameset>` and integration-point subtleties of foreign content; an
  end tag of a block element (`</div>`, `</section>`, ...) inside an open heading when no such
  element is open at all (the streamer does not track elements outside headings, so it closes the
  heading, where the parser ignores the stray tag). The
  reference's html5lib 1.1 also predates `<template>`: it parses template content as ordinary
  children, which implied end tags (say, a `<p>` inside closing a `<p>` outside) can close early,
  where the extractor follows the HTML spec and keeps everything up to `</template>` inert.
* Distinct items: `links` keeps the first link to each raw href (the original analyzer
  deduplicated links by target, first occurrence winning), the first `LINKS_CAP` of them, for the
  per-page rules; every distinct link, uncapped, also goes to the extractor's `on_links` (see
  parse.builder: resolved against the base known when it is sent, which is the final one unless a
  `<base href>` follows the first LINKS_CAP links; after a late `<meta charset>` restart, links
  already sent may be sent again, so consumers deduplicate), `images`, `scripts`, `social` and
  `hreflangs` keep the first of identical items, and `mixed_content` lists each (tag, URL) once;
  the `*_seen` counts and `images_missing_alt` count every occurrence.
* Fragment targets: `fragment_targets` holds the `fragment_key` (urls.fragment) of every
  non-empty `id` attribute of an element in the document tree (HTML or foreign, not inside
  `<template>`) and of every non-empty `name` of an HTML `<a>`: what a `#fragment` can point at
  (HTML spec, "find a potential indicated element"). Keys are distinct and sorted, so the order of
  tree construction does not matter; past `FRAGMENT_TARGETS_CAP` the set is dropped and
  `fragment_targets_capped` is set, as nothing can then be concluded about a missing fragment.
  Values are cut to `ATTR_CAP` like every attribute. `fragment_links` are the `<a href>`s that
  are a bare `#fragment` (left out of `links`), distinct by raw href, capped at `LINKS_CAP`.
* References: `references` lists every URL the page names besides its `<a href>`s (which are
  `links` and `fragment_links`, kept once), with its kind (`ReferenceKind`: the element and
  attribute it came from), in source order, distinct by (kind, raw value, rel), capped at
  `REFERENCES_CAP` (`references_seen` counts them all): `area` href, `link` href
  (with its rel, lowercased and whitespace-collapsed), `img` src, each candidate of an `img` or
  `source` srcset (HTML "parse a srcset attribute", parse.attr_urls), `script` src,
  `iframe`/`frame` src, `video`/`audio`/`source` src, `video` poster, `embed` src, `object`
  data, the URL of a `meta http-equiv=refresh` ("shared declarative refresh steps") and `form`
  action. Values that are empty or only whitespace name no resource and are left out. (The
  facts' lists are capped; a crawl takes every distinct `<a href>` and reference, uncapped, from
  the extractor's `on_links` and `on_references` streams: parse.builder.)
* Headings: `headings` keeps the level and text of the first `HEADINGS_CAP`, `heading_levels` the
  level of the first `HEADING_LEVELS_CAP` (the order rules and per-level counts read it).
* Generators: `generators` holds the `content` of every `<meta name=generator>` (the name
  compared case-insensitively after stripping whitespace; the content stripped), anywhere in the
  document tree, in source order, the first `LIST_CAP` of them (exposure.disclosure reads the
  software versions they name).
* Caps: lists of headings, links, images, scripts, forms, social tags, hreflangs, generators and
  mixed-content findings are cut at their caps below; most have a `*_seen` count of how many
  occurred. Titles, meta descriptions, robots, googlebot, viewports, refreshes and canonicals
  keep their first `SINGLETON_CAP`; forms keep each distinct action once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from common.wire import JsonRecord

TEXT_CAP = 1024  # a title/heading beyond 1 KiB is a defect either way; rules check 60 characters
ANCHOR_TEXT_CAP = 200  # the original analyzer's anchor-text limit
ATTR_CAP = 2048  # above the 2,000-character "link URL too long" check; bounds a page's memory
LINKS_CAP = 1000  # links kept in PageFacts (the original's 1,000); on_links gets them all
IMAGES_CAP = 1000  # the original analyzer's cap
# Heading texts kept (rules read H1 texts); every heading's level, for the heading order and the
# per-level counts, is kept in `heading_levels` up to HEADING_LEVELS_CAP, one byte each.
HEADINGS_CAP = 50
HEADING_LEVELS_CAP = 1000
SCRIPTS_CAP = 500  # "more than 100 JS/CSS files" is the largest check that reads this list
# Distinct ids and anchor names kept per page; a documentation index with thousands of entries
# stays far below it, and the set costs about 70 bytes a key while the page is parsed.
FRAGMENT_TARGETS_CAP = 50_000
# URLs a page names besides its <a href>s (LINKS_CAP): twice the original's 1,000-link cap.
REFERENCES_CAP = 2000
LIST_CAP = 100  # hreflangs, social tags, forms, generators, mixed content
# Elements a document should have once (title, meta description/robots/viewport/refresh,
# canonical): rules read the first and whether there is more than one, so ten is plenty and
# keeps a pathological page from holding hundreds of copies.
SINGLETON_CAP = 10
# JSON-LD bounds: the original's branch accumulator (25 blocks, 64,000 chars each, walk depth 12).
JSONLD_MAX_BLOCKS = 25
JSONLD_MAX_CHARS = 64_000
JSONLD_MAX_DEPTH = 12
JSONLD_MAX_TYPES = 50
# The blocks kept for validation (structured.page): 64,000 characters a page in all, one block's
# worth, so a page's facts never carry more than one full block's text to the audit. A page past
# it is validated on the blocks that fit, and its JsonLd says `truncated`.
JSONLD_MAX_KEPT_CHARS = 64_000


class EncodingSource(StrEnum):
    """Where the encoding used to decode the page came from (WHATWG "encoding sniffing")."""

    BOM = "bom"
    CONTENT_TYPE = "content-type"
    META_PRESCAN = "meta-prescan"  # a meta charset in the first 1,024 bytes
    META_LATE = "meta-late"  # a meta charset found while parsing; the page was re-decoded
    DEFAULT = "default"  # windows-1252, the fallback for unlabelled pages


@dataclass(frozen=True, slots=True)
class EncodingInfo(JsonRecord):
    name: str  # WHATWG encoding name (webencodings), e.g. "utf-8", "windows-1252"
    source: EncodingSource
    declared: str | None = None  # first charset label declared in the markup, as written


@dataclass(frozen=True, slots=True)
class UrlRef(JsonRecord):
    """A URL-valued attribute: `raw` as written (decoded), `url` resolved or None."""

    raw: str
    url: str | None


class ReferenceKind(StrEnum):
    """Where a referenced URL came from: the element and its URL-valued attribute."""

    AREA = "area"  # area href
    LINK = "link"  # link href, with its rel
    IMG = "img"  # img src
    SRCSET = "srcset"  # a candidate of img or source srcset
    SCRIPT = "script"  # script src
    IFRAME = "iframe"  # iframe src
    FRAME = "frame"  # frame src
    MEDIA = "media"  # video, audio or source src
    POSTER = "poster"  # video poster
    EMBED = "embed"  # embed src
    OBJECT = "object"  # object data
    REFRESH = "refresh"  # the URL of a meta refresh
    FORM = "form"  # form action


@dataclass(frozen=True, slots=True)
class Reference(JsonRecord):
    """One URL a page names; `rel` only for `link` (tokens lowercased, space-separated)."""

    kind: ReferenceKind
    href: UrlRef
    rel: str | None = None


@dataclass(frozen=True, slots=True)
class Hreflang(JsonRecord):
    lang: str
    href: UrlRef


@dataclass(frozen=True, slots=True)
class Heading(JsonRecord):
    level: int  # 1..6
    text: str


@dataclass(frozen=True, slots=True)
class Link(JsonRecord):
    """An `<a href>` that is not javascript:, mailto:, tel: or a bare #fragment.

    `image_alt`: the `alt` attribute of the first `<img>` inside the link that has one, collapsed
    and cut like the text (`ANCHOR_TEXT_CAP`); None when no image in it has an alt. An image
    link has no text of its own, and its image's alt is what names it (HTML §4.8.4.4.2, "A link
    or button containing nothing but the image"), so the link graph keeps it as its anchor."""

    href: UrlRef
    text: str
    nofollow: bool = False
    sponsored: bool = False
    ugc: bool = False
    image_alt: str | None = None


@dataclass(frozen=True, slots=True)
class Image(JsonRecord):
    """An `<img>`: None means the attribute is absent (alt="" is a decorative image)."""

    src: UrlRef | None
    alt: str | None
    width: str | None
    height: str | None


@dataclass(frozen=True, slots=True)
class Script(JsonRecord):
    src: UrlRef | None
    type: str | None
    integrity: str | None
    crossorigin: str | None


@dataclass(frozen=True, slots=True)
class MetaTag(JsonRecord):
    """An Open Graph (`og:*`) or Twitter (`twitter:*`) meta; key lowercased."""

    key: str
    value: str


@dataclass(frozen=True, slots=True)
class MixedContent(JsonRecord):
    """A sub-resource requested over http: from an https page."""

    tag: str  # img, script, link, iframe, source, video, audio, embed, object
    url: str


@dataclass(frozen=True, slots=True)
class JsonLd(JsonRecord):
    """Summary of `<script type="application/ld+json">` blocks, computed with bounded work.

    Bounds follow the original's accumulator: at most `JSONLD_MAX_BLOCKS` blocks parsed, each at
    most `JSONLD_MAX_CHARS` characters, `@type` values gathered to depth `JSONLD_MAX_DEPTH`, at most
    `JSONLD_MAX_TYPES` of them. `truncated` is True when any bound cut the work short.

    `documents` are the texts of the blocks that parsed, in document order, kept for validation
    within `JSONLD_MAX_KEPT_CHARS` a page; the crawl validates them where it makes the page's
    observation (crawl.page_pipeline.observe) and drops them there, so they never reach storage.
    """

    blocks: int = 0
    parse_errors: int = 0
    types: tuple[str, ...] = ()
    truncated: bool = False
    documents: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PageFacts(JsonRecord):
    page_url: str
    encoding: EncodingInfo
    html_bytes: int  # bytes fed, including any beyond the cap
    truncated: bool  # input beyond max_bytes was not parsed
    titles: tuple[str, ...] = ()
    meta_descriptions: tuple[str, ...] = ()
    meta_robots: tuple[str, ...] = ()
    meta_googlebot: tuple[str, ...] = ()
    viewports: tuple[str, ...] = ()
    refreshes: tuple[str, ...] = ()
    generators: tuple[str, ...] = ()  # <meta name=generator> contents, stripped
    html_lang: str | None = None
    base_href: str | None = None
    canonicals: tuple[UrlRef, ...] = ()
    hreflangs: tuple[Hreflang, ...] = ()
    headings: tuple[Heading, ...] = ()
    headings_seen: int = 0
    heading_levels: tuple[int, ...] = ()  # levels of the first HEADING_LEVELS_CAP headings
    links: tuple[Link, ...] = ()
    links_seen: int = 0
    images: tuple[Image, ...] = ()
    images_seen: int = 0
    images_missing_alt: int = 0  # over every <img>, kept or not: alt attribute absent
    scripts: tuple[Script, ...] = ()
    scripts_seen: int = 0
    forms: tuple[UrlRef, ...] = ()  # form actions; an absent or empty action is the page URL
    forms_seen: int = 0
    social: tuple[MetaTag, ...] = ()
    social_seen: int = 0
    mixed_content: tuple[MixedContent, ...] = ()
    mixed_content_seen: int = 0
    json_ld: JsonLd = field(default_factory=JsonLd)
    fragment_targets: tuple[int, ...] = ()  # sorted distinct keys of ids and <a name>s
    fragment_targets_capped: bool = False
    fragment_links: tuple[UrlRef, ...] = ()  # <a href="#..."> (resolved without the fragment)
    fragment_links_seen: int = 0
    references: tuple[Reference, ...] = ()
    references_seen: int = 0
    word_count: int = 0
    content_hash: str | None = None
