"""The DOM reference: html5lib builds the tree, and facts are read off the tree.

It plays the part cheerio played for the original analyzer's parity test: a slow, obviously
faithful implementation that the streaming extractor must agree with page for page. html5lib
decodes (BOM, transport charset, meta prescan, reparse on a late meta charset), tokenizes and
builds the tree; this module only walks the tree and reports elements and texts to the shared
`FactsBuilder` in source order.

Source order comes from a minimal tree builder that stamps each node with a sequence number when
html5lib creates it; clones made by the adoption agency algorithm keep their original's number,
so a reopened `<a>` is still the one source element (see facts.py). Scripting is enabled, so
`<noscript>` is raw text, as in browsers and in the extractor.
"""

from __future__ import annotations

import itertools

import html5lib
import webencodings
from html5lib.treebuilders import base

from parse.builder import ELEMENTS, FactsBuilder, is_jsonld
from parse.decoding import lookup, prescan, sniff_bom, transport_label
from parse.facts import JSONLD_MAX_CHARS, EncodingInfo, EncodingSource, PageFacts
from parse.text import TextDigest

HTML_NS = "http://www.w3.org/1999/xhtml"
# Elements whose text is not visible text (facts.py, "Visible text").
INVISIBLE = frozenset(
    "script style noscript template title textarea xmp iframe noembed noframes plaintext".split()
)
HEADINGS = {f"h{n}": n for n in range(1, 7)}
_sequence = itertools.count()


class _Text:
    __slots__ = ("data", "seq", "parent")

    def __init__(self, data: str) -> None:
        self.data, self.seq, self.parent = data, next(_sequence), None


# An attribute's name: a string, or (namespace, local name) for foreign attributes.
type _AttrName = str | tuple[str | None, str]


class _ClonedAttrs(dict):  # type: ignore[type-arg]
    """Attributes of a clone; html5lib builds reconstructed elements from them (keeps `seq`)."""

    seq = 0


class _Node(base.Node):  # type: ignore[misc]
    """An element, document or other node; text is kept as separate `_Text` children."""

    childNodes: list[_Child]  # noqa: N815 - html5lib's attribute (set by base.Node)

    def __init__(self, name: str | None, namespace: str | None = None) -> None:
        super().__init__(name)
        self.namespace = namespace
        self.nameTuple = (namespace or HTML_NS, name)  # html5lib's scope checks read this
        self.seq = next(_sequence)

    def appendChild(self, node: _Child) -> None:  # noqa: N802 - html5lib's interface
        node.parent = self
        self.childNodes.append(node)

    def insertText(self, data: str, insertBefore: _Child | None = None) -> None:  # noqa: N802, N803
        text = _Text(data)
        if insertBefore is None:
            self.appendChild(text)
        else:
            self.insertBefore(text, insertBefore)

    def insertBefore(self, node: _Child, refNode: _Child) -> None:  # noqa: N802, N803
        node.parent = self
        self.childNodes.insert(self.childNodes.index(refNode), node)

    def removeChild(self, node: _Child) -> None:  # noqa: N802
        self.childNodes.remove(node)
        node.parent = None

    def reparentChildren(self, newParent: _Node) -> None:  # noqa: N802, N803
        for child in self.childNodes:
            newParent.appendChild(child)
        self.childNodes = []

    @property
    def attributes(self) -> dict[_AttrName, str]:
        return self._attributes

    @attributes.setter
    def attributes(self, value: dict[_AttrName, str]) -> None:
        self._attributes = value
        if isinstance(value, _ClonedAttrs):
            self.seq = value.seq  # a formatting element reopened by tree construction

    def cloneNode(self) -> _Node:  # noqa: N802
        clone = _Node(self.name, self.namespace)
        attributes = _ClonedAttrs(self.attributes)
        attributes.seq = self.seq  # the same source element
        clone.attributes = attributes
        return clone

    def hasContent(self) -> bool:  # noqa: N802
        return bool(self.childNodes)


class _Other(_Node):
    """Document, doctype, comment or fragment: html5lib's constructors differ only in arguments."""

    def __init__(self, name: str | None = None, *args: object) -> None:
        super().__init__(name)


type _Child = _Node | _Text


class _TreeBuilder(base.TreeBuilder):  # type: ignore[misc]
    # html5lib's attribute names.
    documentClass = _Other  # noqa: N815
    elementClass = _Node  # noqa: N815
    commentClass = _Other  # noqa: N815
    doctypeClass = _Other  # noqa: N815
    fragmentClass = _Other  # noqa: N815

    def getDocument(self) -> _Node:  # noqa: N802
        document: _Node = self.document
        return document


def reference_facts(
    data: bytes, page_url: str, *, content_type: str | None = None, max_bytes: int | None = None
) -> PageFacts:
    """The facts of a whole page, via html5lib; `max_bytes` cuts the input like the extractor."""
    truncated = max_bytes is not None and len(data) > max_bytes
    parsed = data[:max_bytes] if truncated else data
    label = transport_label(content_type)
    parser = html5lib.HTMLParser(tree=_TreeBuilder, namespaceHTMLElements=True)
    document = parser.parse(parsed, transport_encoding=label, useChardet=False, scripting=True)
    builder = FactsBuilder(page_url)
    digest = TextDigest()
    _report(document, builder, digest)
    encoding = _encoding(parsed, label, parser.tokenizer.stream.charEncoding[0])
    return builder.build(encoding, len(data), truncated, *digest.result())


def _encoding(data: bytes, label: str | None, used: webencodings.Encoding) -> EncodingInfo:
    """Where html5lib's encoding came from, using the same sniffing steps it takes."""
    if sniff_bom(data) is not None:
        source = EncodingSource.BOM
    elif lookup(label) is not None:
        source = EncodingSource.CONTENT_TYPE
    else:
        found = prescan(data)
        if found is not None:
            source = EncodingSource.META_PRESCAN if found == used else EncodingSource.META_LATE
        elif used.name == "windows-1252":
            source = EncodingSource.DEFAULT
        else:
            source = EncodingSource.META_LATE
    return EncodingInfo(used.name, source)


class _Walk:
    """One pass over the tree collecting fact-bearing elements and visible texts."""

    def __init__(self) -> None:
        self.elements: list[tuple[int, str, _Node]] = []  # (seq, name, node), facts elements
        self.visible: list[_Text] = []
        self.anchor_texts: dict[int, list[_Text]] = {}  # anchor seq -> texts
        self.anchor_alts: dict[int, str] = {}  # anchor seq -> its first image's alt
        self.heading_texts: dict[_Node, list[_Text]] = {}
        self.in_tree: list[_Node] = []  # every element in the document tree (fragment targets)

    def run(self, root: _Node) -> None:
        # (node, hidden, invisible, anchor seq, open headings, inert): iterative, for deep
        # documents. `inert`: inside an HTML <template>, whose content is not in the tree.
        stack: list[tuple[_Child, bool, bool, int | None, tuple[_Node, ...], bool]] = [
            (root, False, False, None, (), False)
        ]
        while stack:
            node, hidden, invisible, anchor, headings, inert = stack.pop()
            if isinstance(node, _Text):
                if not (hidden or invisible):
                    self.visible.append(node)
                    if anchor is not None:
                        self.anchor_texts.setdefault(anchor, []).append(node)
                    for heading in headings:
                        self.heading_texts[heading].append(node)
                continue
            name = node.name
            if isinstance(node, _Node) and not isinstance(node, _Other):
                if not inert:
                    self.in_tree.append(node)
                if node.namespace != HTML_NS:
                    hidden = True
                elif not hidden:
                    if name in INVISIBLE:
                        invisible = True
                    self._element(node, invisible)
                    if name == "a" and not invisible:
                        anchor = node.seq
                    elif name == "img" and anchor is not None and not invisible:
                        self._image(anchor, node)
                    elif name in HEADINGS and not invisible:
                        self.heading_texts[node] = []
                        headings = (*headings, node)
                if name == "template":
                    hidden = True
                    inert = inert or node.namespace == HTML_NS
            for child in reversed(node.childNodes):
                stack.append((child, hidden, invisible, anchor, headings, inert))

    def _image(self, anchor: int, node: _Node) -> None:
        """An `<img>` inside a link: its alt names the link unless an earlier image's did."""
        alt = node.attributes.get("alt")
        if isinstance(alt, str) and anchor not in self.anchor_alts:
            self.anchor_alts[anchor] = alt

    def _element(self, node: _Node, invisible: bool) -> None:
        name = node.name
        if name in ELEMENTS or name in HEADINGS or name in ("a", "title"):
            self.elements.append((node.seq, name, node))


def _report(document: _Node, builder: FactsBuilder, digest: TextDigest) -> None:
    walk = _Walk()
    walk.run(document)
    for text in sorted(walk.visible, key=lambda t: t.seq):
        digest.feed(text.data)
    for node in walk.in_tree:
        attrs = {k: v for k, v in node.attributes.items() if isinstance(k, str)}
        builder.targets(node.name, attrs, html=node.namespace == HTML_NS)
    seen_anchors: set[int] = set()
    for seq, name, node in sorted(walk.elements, key=lambda e: e[0]):
        attrs = {k: v for k, v in node.attributes.items() if isinstance(k, str)}
        if name == "a":
            if seq in seen_anchors:
                continue  # a clone made by tree construction
            seen_anchors.add(seq)
            capture = builder.anchor(attrs)
            if capture is not None:
                capture.text = _joined(walk.anchor_texts.get(seq, []))
                capture.image(walk.anchor_alts.get(seq))
        elif name in HEADINGS:
            builder.heading(HEADINGS[name]).text = _joined(walk.heading_texts[node])
        elif name == "title":
            builder.title(_joined([c for c in node.childNodes if isinstance(c, _Text)]))
        else:
            builder.element(name, attrs)
            if name == "script" and is_jsonld(attrs):
                script = _joined([c for c in node.childNodes if isinstance(c, _Text)])
                builder.jsonld(script if len(script) <= JSONLD_MAX_CHARS else None)


def _joined(texts: list[_Text]) -> str:
    return "".join(t.data for t in sorted(texts, key=lambda t: t.seq))
