"""Tree construction: tokens in, the document's element tree out (WHATWG HTML § 13.2.6).

Theory of operation. `TreeConstruction` receives the tokens of parse.tree_builder (start tags
with their attributes, end tags, character data, the end of input) and applies the spec's
insertion modes to a stack of open elements, building mutable `Node`s that `root()` freezes into
`parse.tree.Element`s. It follows the spec where the structure the accessibility rules read
depends on it:

* the insertion modes from "initial" to "after after body": `<html>`, `<head>` and `<body>`
  implied, head elements after `</head>` put back in the head, text and tags after `</body>` in
  the body;
* implied end tags (`p`, `li`, `dd`/`dt`, `option`/`optgroup`, ruby, table parts and cells),
  scopes, void elements, and the tokenizer switches to raw text (script, style, title,
  textarea, ...), which the builder carries out;
* the list of active formatting elements: reconstruction and the adoption agency algorithm;
* tables: the table modes, implied `tbody`/`tr`/`colgroup`, foster parenting of misplaced
  content before the table (with table text buffered as the spec's "in table text" mode does);
* `select`, templates (the template modes stack), framesets;
* foreign content: `svg` and `math` namespaces, SVG tag-name case, XLink attributes,
  integration points and the breakout rule.

Approximated, each for a documented reason: the document's quirks mode is "quirks" only when no
`<!DOCTYPE html>` came first (the spec's public-identifier lists only matter to `<p><table>`);
scripting is on, as in the browser the agreement harness runs (`<noscript>` holds text);
comments and the doctype are not part of the tree (no rule reads them); `<select>` follows the pre-2025
parsing that html5lib implements (the tree the rules were checked against).

Bounded: at most `max_elements` elements and `max_text` characters of text are kept, and no
element is nested deeper than `MAX_DEPTH`; past a bound construction stops and `complete` is
False. The content of `<script>` and `<style>` is kept only up to `RAW_KEEP` characters: no rule
reads more than whether a cell or an object has text.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Final

from common.fast_record import maker
from parse import html_names
from parse.tree import DocumentOrder, Element, Namespace, StyleSheet

_H, _S, _M = Namespace.HTML, Namespace.SVG, Namespace.MATHML
_WS = "\t\n\f\r "

MAX_ELEMENTS: Final = 25_000  # 14x the largest corpus page's tags (1,737)
MAX_TEXT: Final = 500_000  # characters of text kept
MIN_ELEMENTS: Final = 2  # `<html>` and the `<head>` every document implies
MAX_DEPTH: Final = 512  # html5lib and browsers have none; deeper is hostile
RAW_KEEP: Final = 64
# Characters of `<style>` text kept for `style_sheets`, a page's sheets together: 4x the largest
# corpus page's (1.0 MB); past it a sheet is cut and marked so.
STYLE_KEEP: Final = 4_000_000


_element = maker(Element)  # a page's every element is built through it (common.fast_record)


class Mode(StrEnum):
    INITIAL = "initial"
    BEFORE_HEAD = "before head"
    IN_HEAD = "in head"
    AFTER_HEAD = "after head"
    IN_BODY = "in body"
    IN_TABLE = "in table"
    IN_CAPTION = "in caption"
    IN_COLUMN_GROUP = "in column group"
    IN_TABLE_BODY = "in table body"
    IN_ROW = "in row"
    IN_CELL = "in cell"
    IN_SELECT = "in select"
    IN_SELECT_IN_TABLE = "in select in table"
    IN_TEMPLATE = "in template"
    AFTER_BODY = "after body"
    IN_FRAMESET = "in frameset"
    AFTER_FRAMESET = "after frameset"
    TEXT = "text"


class Node:
    """A mutable element while the tree is built."""

    __slots__ = ("attrs", "children", "frozen", "joined", "key", "ns", "parent", "tag")

    def __init__(self, tag: str, attrs: dict[str, str], ns: Namespace = _H) -> None:
        self.tag, self.attrs, self.ns = tag, attrs, ns
        # An HTML element's name, or a foreign element's (namespace, name): the name sets of
        # html_names test it at once (`key in SCOPE`), with no namespace test first.
        self.key: str | tuple[Namespace, str] = tag if ns is _H else (ns, tag)
        self.children: list[Node | str] = []
        self.parent: Node | None = None
        # Whether two text children may be adjacent (merged when frozen): set where text goes
        # after text or a child leaves from between two; most elements never need the merge.
        self.joined = False
        self.frozen: Element | None = None  # this node frozen (`_freeze`, `_freeze_in_order`)

    def append(self, child: Node) -> None:
        child.parent = self
        self.children.append(child)

    def insert_before(self, child: Node | str, before: Node) -> None:
        if isinstance(child, Node):
            child.parent = self
        else:
            self.joined = True
        self.children.insert(self.children.index(before), child)

    def detach(self) -> None:
        if self.parent is not None:
            self.parent.children.remove(self)
            self.parent.joined = True
            self.parent = None

    def is_html(self, *names: str) -> bool:
        return self.key in names

    def html_integration_point(self) -> bool:
        if self.ns is _S:
            return self.tag in html_names.SVG_HTML_INTEGRATION
        if self.ns is _M and self.tag == "annotation-xml":
            encoding = self.attrs.get("encoding", "").lower()
            return encoding in ("text/html", "application/xhtml+xml")
        return False

    def mathml_text_integration_point(self) -> bool:
        return self.ns is _M and self.tag in html_names.MATHML_TEXT_INTEGRATION


StartTag = tuple[str, dict[str, str], bool]  # name, attributes, self-closing


class TreeConstruction:
    """Feed tokens; `raw` names the raw-text element the tokenizer must now read, if any."""

    def __init__(self, *, max_elements: int = MAX_ELEMENTS, max_text: int = MAX_TEXT) -> None:
        if max_elements < MIN_ELEMENTS:
            # With room for `<html>` alone, text the spec puts in the implied body has no
            # element left to go in (an IndexError on the empty stack, bench/tree_differential.py).
            raise ValueError(f"max_elements must be at least {MIN_ELEMENTS}, got {max_elements}")
        self.max_elements, self.text_room = max_elements, max_text
        self.elements = 0
        self.complete = True
        self.stopped = False
        self.quirks = True
        self.raw: str | None = None  # a raw-text element the tokenizer must read to its end tag
        self.drop_newline = False  # a newline right after <pre>, <listing>, <textarea> goes
        self.mode = Mode.INITIAL
        self.original_mode = Mode.IN_BODY
        self.template_modes: list[Mode] = []
        self.stack: list[Node] = []
        self.formatting: list[Node | None] = []  # None: a marker
        self.html: Node | None = None
        # Every node `_insert` made, in order. A node's parent was made before it, so freezing
        # them last to first freezes children before their parents without walking the tree,
        # unless the adoption agency moved nodes under newer clones (`moved`).
        self.nodes: list[Node] = []
        self.moved = False
        # Whether `nodes` is also document order: every element so far was appended to the
        # current node, and the stack of open elements runs down one line of ancestors, so a
        # node comes after every node before it in the tree and before every later one (its
        # descendants, or nodes appended to an ancestor once it was popped). Foster parenting
        # (inserting before a table or under a node below the current one), a body detached
        # for a frameset, a template (whose content is no part of the document's order) and
        # the adoption agency's moves end that (`order`).
        self.in_order = True
        self.order: DocumentOrder | None = None  # set by `root()` where `in_order` held
        self.head: Node | None = None
        self.form: Node | None = None
        self.foster = False
        self.frameset_ok = True
        self.table_text: list[str] = []
        self.raw_room = 0  # characters of the open script/style still kept
        # The page's `<style>` sheets, whole (`StyleSheet`), and the open one's parts.
        self.style_sheets: list[StyleSheet] = []
        self.style_parts: list[str] | None = None
        self.style_attrs: dict[str, str] = {}
        self.style_room = STYLE_KEEP

    # -- the tokens -------------------------------------------------------------------------

    def doctype(self, name: str) -> None:
        if self.mode is Mode.INITIAL and self.html is None:
            self.quirks = name.strip(_WS).lower() != "html"

    # Most tokens of a page arrive "in body" with an HTML element current, and most start tags
    # there are "any other start tag" (or a block that closes a `p`): those paths skip the
    # dispatch tables, the same steps the full path takes for them (bench/parse_bench.py).

    def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool = False) -> None:
        if self.stopped:
            return
        if self.table_text:
            self._flush_table_text()
        stack = self.stack
        if stack and stack[-1].ns is not _H and self._foreign_applies(name):
            self._foreign_start((name, attrs, self_closing))
        elif self.mode is not Mode.IN_BODY:
            self._start((name, attrs, self_closing))
        elif name in _SPECIAL_IN_BODY:
            self._start_in_body((name, attrs, self_closing))
        elif name in html_names.CLOSES_P:
            self._close_p()
            self._insert(name, attrs)
        else:
            self._reconstruct()
            self._insert(name, attrs)

    def end_tag(self, name: str) -> None:
        if self.stopped:
            return
        if self.table_text:
            self._flush_table_text()
        if self.raw is not None:
            self._end_text()
            return
        stack = self.stack
        if stack and stack[-1].ns is not _H:
            self._foreign_end(name)
        elif self.mode is Mode.IN_BODY:
            _BODY_ENDS.get(name, _T._any_other_end)(self, name)
        else:
            _END[self.mode](self, name)

    def characters(self, text: str) -> None:
        if self.stopped or not text:
            return
        if self.raw is not None:
            self._raw_text(text)
            return
        if self.mode is Mode.IN_BODY and self.stack[-1].ns is _H:
            self._chars_in_body(text)
            return
        if self.mode in _TABLE_TEXT_MODES and self.stack[-1].is_html(
            *html_names.TABLE_CONTEXT_NAMES
        ):
            self.table_text.append(text)
            return
        current = self._adjusted_current()
        if current is not None and current.ns is not _H and not self._html_text_at(current):
            self._insert_text(text.replace("\0", "\ufffd"))
        else:
            self._chars(text)

    def eof(self) -> None:
        if self.stopped:
            return
        self._flush_table_text()
        if self.raw is not None:
            self._end_text()
        if self.html is None:
            self._insert_html({})
        if self.mode in (Mode.BEFORE_HEAD, Mode.INITIAL):
            self._start_before_head(("head", {}, False))
        if self.mode is Mode.IN_HEAD:
            self._pop()  # the head
            self.mode = Mode.AFTER_HEAD
        if self.mode is Mode.AFTER_HEAD:
            self._insert_body({})

    def root(self) -> Element:
        """The frozen tree, rooted at `<html>` (which `eof` creates if the input had none)."""
        self._end_style()  # a sheet the input ended in
        if self.html is None:
            self.html = Node("html", {})
            self.html.append(Node("head", {}))
            self.html.append(Node("body", {}))
        elif not self.moved:
            nodes = self.nodes
            if not self.in_order:
                return _freeze_in_order(nodes, self.html)
            # Each node's parent, read before the freeze cuts the links: the root (`nodes[0]`,
            # `_insert_html` makes it first) has none, and no node was detached (`in_order`).
            ups: list[Node] = [node.parent for node in nodes[1:]]  # type: ignore[misc]
            root = _freeze_in_order(nodes, self.html)
            frozen = [node.frozen for node in nodes]
            self.order = DocumentOrder(frozen, [up.frozen for up in ups])  # type: ignore[arg-type, misc]
            return root
        return _freeze(self.html)

    def discard(self) -> None:
        """Give up this tree (a parse restarted in another encoding): its parent links are
        cut, so its nodes go with it rather than wait for the collector (`_unlink`)."""
        if self.html is not None:
            _unlink(_nodes(self.html))

    # -- dispatch ---------------------------------------------------------------------------

    def _adjusted_current(self) -> Node | None:
        return self.stack[-1] if self.stack else None

    def _foreign_applies(self, name: str) -> bool:
        """§ 13.2.6 "tree construction dispatcher" for a start tag."""
        if not self.stack:
            return False
        node = self.stack[-1]
        if node.ns is _H:
            return False
        if node.mathml_text_integration_point() and name not in ("mglyph", "malignmark"):
            return False
        if node.ns is _M and node.tag == "annotation-xml" and name == "svg":
            return False
        return not node.html_integration_point()

    def _html_text_at(self, node: Node) -> bool:
        return node.mathml_text_integration_point() or node.html_integration_point()

    def _start(self, token: StartTag) -> None:
        _START[self.mode](self, token)

    def _chars(self, text: str) -> None:
        _CHARS[self.mode](self, text)

    # -- insertion --------------------------------------------------------------------------

    def _stop(self) -> None:
        """A bound is reached: construction stops here (`complete` False)."""
        self.complete, self.stopped = False, True

    def _place(self, override: Node | None = None) -> tuple[Node, Node | None]:
        """The appropriate place for inserting a node: a parent, and the child to insert before
        (§ 13.2.6.1), with foster parenting."""
        target = override or self.stack[-1]
        if not (
            self.foster
            and target.is_html(*html_names.TABLE_CONTEXT_NAMES)
            and target.tag != "template"
        ):
            return target, None
        self.in_order = False  # foster parenting: before a table, or under an older node
        table = template = -1
        for i in range(len(self.stack) - 1, -1, -1):
            node = self.stack[i]
            if node.is_html("template") and template < 0:
                template = i
            if node.is_html("table") and table < 0:
                table = i
        if template > table:
            return self.stack[template], None
        if table < 0:
            return self.stack[0], None
        table_node = self.stack[table]
        if table_node.parent is not None:
            return table_node.parent, table_node
        return self.stack[table - 1], None

    def _insert(self, name: str, attrs: dict[str, str], ns: Namespace = _H) -> Node | None:
        if self.elements >= self.max_elements or len(self.stack) >= MAX_DEPTH:
            self._stop()
            return None
        self.elements += 1
        node = Node(name, attrs, ns)
        self.nodes.append(node)
        if self.foster:
            parent, before = self._place()
        else:  # `_place` without foster parenting: the current node, appended to
            parent, before = self.stack[-1], None
        if before is None:
            node.parent = parent
            parent.children.append(node)
        else:
            parent.insert_before(node, before)
        self.stack.append(node)
        return node

    def _void(self, name: str, attrs: dict[str, str]) -> None:
        if self._insert(name, attrs) is not None:
            self.stack.pop()

    def _insert_text(self, text: str) -> None:
        if not text:
            return
        if len(text) > self.text_room:
            text = text[: self.text_room]
            self._stop()
        self.text_room -= len(text)
        parent, before = self._place() if self.foster else (self.stack[-1], None)
        if before is None:
            children = parent.children
            if children and type(children[-1]) is str:
                parent.joined = True
            children.append(text)
        else:
            parent.insert_before(text, before)

    def _raw_text(self, text: str) -> None:
        node = self.stack[-1]
        if self.style_parts is not None:
            self.style_parts.append(text[: max(self.style_room, 0)])
            self.style_room -= len(text)
        if node.is_html("script", "style"):
            if self.raw_room <= 0:
                return
            text = text[: self.raw_room]
            self.raw_room -= len(text)
        self._insert_text(text.replace("\0", "\ufffd"))

    def _pop(self) -> Node:
        return self.stack.pop()

    def _pop_until(self, *names: str) -> None:
        while self.stack:
            if self.stack.pop().key in names:
                return

    def _insert_html(self, attrs: dict[str, str]) -> None:
        self.html = Node("html", attrs)
        self.nodes.append(self.html)
        self.elements += 1
        self.stack = [self.html]
        self.mode = Mode.BEFORE_HEAD

    def _insert_body(self, attrs: dict[str, str]) -> None:
        self._insert("body", attrs)
        self.mode = Mode.IN_BODY

    def _open_raw(self, token: StartTag) -> None:
        """§ 13.2.6.2 the generic raw text and RCDATA element parsing algorithms."""
        name, attrs, _ = token
        if self._insert(name, attrs) is None:
            return
        self.raw, self.raw_room = name, RAW_KEEP
        if name == "style" and not any(n.is_html("template") for n in self.stack):
            self.style_parts, self.style_attrs = [], attrs
        self.original_mode, self.mode = self.mode, Mode.TEXT
        if name == "textarea":
            self.drop_newline = True

    def _end_text(self) -> None:
        self._pop()
        self._end_style()
        self.raw = None
        self.mode = self.original_mode

    def _end_style(self) -> None:
        """A `<style>` element's text is all read (its end tag, or the end of the input)."""
        parts, attrs = self.style_parts, self.style_attrs
        if parts is None:
            return
        text = "".join(parts)
        complete = self.style_room >= 0
        self.style_sheets.append(StyleSheet(text, attrs.get("media"), attrs.get("type"), complete))
        self.style_parts = None

    # -- scopes and implied end tags --------------------------------------------------------

    def _in_scope(self, names: tuple[str, ...], scope: html_names.Scope) -> bool:
        for node in reversed(self.stack):
            key = node.key
            if key in names:
                return True
            if key in scope:
                return False
        return False

    def _in_select_scope(self, name: str) -> bool:
        for node in reversed(self.stack):
            if node.is_html(name):
                return True
            if not node.is_html("optgroup", "option"):
                return False
        return False

    def _implied_end(self, exclude: str = "", thorough: bool = False) -> None:
        names = html_names.IMPLIED_END_THOROUGH if thorough else html_names.IMPLIED_END
        while self.stack:
            key = self.stack[-1].key
            if key not in names or key == exclude:
                return
            self.stack.pop()

    def _close_p(self) -> None:
        if self._in_scope(("p",), html_names.BUTTON_SCOPE):
            self._implied_end("p")
            self._pop_until("p")

    def _clear_back_to(self, *names: str) -> None:
        while not self.stack[-1].is_html(*names, "html", "template"):
            self.stack.pop()

    def _reset_mode(self) -> None:
        """§ 13.2.4.1 "reset the insertion mode appropriately"."""
        for i in range(len(self.stack) - 1, -1, -1):
            node, last = self.stack[i], i == 0
            if node.ns is not _H:
                continue
            tag = node.tag
            if tag == "select":
                self.mode = Mode.IN_SELECT
                for ancestor in reversed(self.stack[:i]):
                    if ancestor.is_html("template"):
                        break
                    if ancestor.is_html("table"):
                        self.mode = Mode.IN_SELECT_IN_TABLE
                        break
                return
            mode = _RESET.get(tag)
            if tag in ("td", "th") and not last:
                mode = Mode.IN_CELL
            if tag == "template":
                mode = self.template_modes[-1] if self.template_modes else Mode.IN_BODY
            if tag == "head" and last:
                mode = None
            if tag == "html":
                mode = Mode.BEFORE_HEAD if self.head is None else Mode.AFTER_HEAD
            if mode is not None:
                self.mode = mode
                return
            if last:
                break
        self.mode = Mode.IN_BODY

    # -- active formatting elements ---------------------------------------------------------

    def _push_formatting(self, node: Node) -> None:
        same = 0
        for i in range(len(self.formatting) - 1, -1, -1):
            entry = self.formatting[i]
            if entry is None:
                break
            if entry.tag == node.tag and entry.ns is node.ns and entry.attrs == node.attrs:
                same += 1
                if same == 3:  # the Noah's Ark clause
                    del self.formatting[i]
                    break
        self.formatting.append(node)

    def _reconstruct(self) -> None:
        entries = self.formatting
        if not entries or entries[-1] is None or entries[-1] in self.stack:
            return
        i = len(entries) - 1
        while i > 0:
            entry = entries[i - 1]
            if entry is None or entry in self.stack:
                break
            i -= 1
        for j in range(i, len(entries)):
            old = entries[j]
            assert old is not None
            node = self._insert(old.tag, dict(old.attrs))
            if node is None:
                return
            entries[j] = node

    def _clear_formatting_to_marker(self) -> None:
        while self.formatting and self.formatting.pop() is not None:
            pass

    def _adoption_agency(self, subject: str) -> bool:
        """§ 13.2.6.4.7 the adoption agency algorithm; False: act as "any other end tag"."""
        current = self.stack[-1]
        if current.key == subject:
            if current not in self.formatting:
                self.stack.pop()
                return True
            if current is self._formatting_element(subject):
                # The outer loop's first pass, for the current node: in scope, no furthest
                # block above it. The usual `<a href=..>text</a>` ends here.
                self.stack.pop()
                self.formatting.remove(current)
                return True
        for _ in range(8):
            element = self._formatting_element(subject)
            if element is None:
                return False
            if element not in self.stack:
                self.formatting.remove(element)
                return True
            if not self._node_in_scope(element):
                return True
            index = self.stack.index(element)
            furthest = next((n for n in self.stack[index + 1 :] if _special(n)), None)
            if furthest is None:
                del self.stack[index:]
                self.formatting.remove(element)
                return True
            self._adopt(element, index, furthest)
        return True

    def _formatting_element(self, subject: str) -> Node | None:
        for entry in reversed(self.formatting):
            if entry is None:
                return None
            if entry.tag == subject and entry.ns is _H:
                return entry
        return None

    def _node_in_scope(self, target: Node) -> bool:
        for node in reversed(self.stack):
            if node is target:
                return True
            if node.key in html_names.SCOPE:
                return False
        return False

    def _adopt(self, element: Node, index: int, furthest: Node) -> None:
        self.moved = True  # older nodes go under newer clones: `root` walks the tree
        self.in_order = False
        common = self.stack[index - 1]
        bookmark = self.formatting.index(element)
        node = last = furthest
        position = self.stack.index(furthest)
        counter = 0
        while True:
            counter += 1
            position -= 1
            node = self.stack[position]
            if node is element:
                break
            if counter > 3 and node in self.formatting:
                self.formatting.remove(node)
            if node not in self.formatting:
                del self.stack[position]
                continue
            clone = Node(node.tag, dict(node.attrs), node.ns)
            self.formatting[self.formatting.index(node)] = clone
            self.stack[position] = clone
            node = clone
            if last is furthest:
                bookmark = self.formatting.index(clone) + 1
            last.detach()
            node.append(last)
            last = node
        last.detach()
        parent, before = self._place(common)
        if before is None:
            parent.append(last)
        else:
            parent.insert_before(last, before)
        clone = Node(element.tag, dict(element.attrs), element.ns)
        clone.children, furthest.children = furthest.children, []
        clone.joined, furthest.joined = furthest.joined, False
        for child in clone.children:
            if isinstance(child, Node):
                child.parent = clone
        furthest.append(clone)
        old = self.formatting.index(element)
        self.formatting.insert(bookmark, clone)
        del self.formatting[old if old < bookmark else old + 1]
        self.stack.remove(element)
        self.stack.insert(self.stack.index(furthest) + 1, clone)

    # -- foreign content --------------------------------------------------------------------

    def _foreign_start(self, token: StartTag) -> None:
        name, attrs, self_closing = token
        if name in html_names.BREAKOUT or (
            name == "font" and html_names.FONT_BREAKOUT_ATTRS & attrs.keys()
        ):
            while self.stack and not (
                self.stack[-1].ns is _H
                or self.stack[-1].mathml_text_integration_point()
                or self.stack[-1].html_integration_point()
            ):
                self.stack.pop()
            self._start(token)
            return
        self._insert_foreign(self.stack[-1].ns, name, attrs, self_closing)

    def _insert_foreign(
        self, ns: Namespace, name: str, attrs: dict[str, str], self_closing: bool
    ) -> None:
        if ns is _S:
            name = html_names.SVG_TAG_NAMES.get(name, name)
        attrs = _foreign_attrs(
            attrs, html_names.SVG_ATTR_NAMES if ns is _S else html_names.MATHML_ATTR_NAMES
        )
        node = self._insert(name, attrs, ns)
        if node is not None and self_closing:
            self.stack.pop()

    def _foreign_end(self, name: str) -> None:
        """§ 13.2.6.5 "any other end tag" in foreign content."""
        i = len(self.stack) - 1
        while i > 0:
            if self.stack[i].tag.lower() == name:
                del self.stack[i:]
                return
            i -= 1
            if self.stack[i].ns is _H:
                break
        if i > 0:
            _END[self.mode](self, name)

    # -- table text -------------------------------------------------------------------------

    def _flush_table_text(self) -> None:
        if not self.table_text:
            return
        text = "".join(self.table_text)
        self.table_text = []
        if text.strip(_WS):
            self.foster = True
            self._chars_in_body(text)
            self.foster = False
        else:
            self._insert_text(text)

    # -- the modes: initial to after head ---------------------------------------------------

    def _start_initial(self, token: StartTag) -> None:
        name, attrs, _ = token
        self._insert_html(attrs if name == "html" else {})
        if name != "html":
            self._start(token)

    def _end_initial(self, name: str) -> None:
        if name in ("head", "body", "html", "br"):
            self._insert_html({})
            self.end_tag(name)

    def _chars_initial(self, text: str) -> None:
        text = text.lstrip(_WS)
        if text:
            self._insert_html({})
            self._chars(text)

    def _start_before_head(self, token: StartTag) -> None:
        name, attrs, _ = token
        if name == "html":
            self._start_in_body(token)
            return
        self.head = self._insert("head", attrs if name == "head" else {})
        self.mode = Mode.IN_HEAD
        if name != "head":
            self._start(token)

    def _end_before_head(self, name: str) -> None:
        if name in ("head", "body", "html", "br"):
            self._start_before_head(("head", {}, False))
            self.end_tag(name)

    def _chars_before_head(self, text: str) -> None:
        text = text.lstrip(_WS)
        if text:
            self._start_before_head(("head", {}, False))
            self._chars(text)

    def _start_in_head(self, token: StartTag) -> None:
        name, attrs, _ = token
        if name == "html":
            self._start_in_body(token)
        elif name in ("base", "basefont", "bgsound", "link", "meta"):
            self._void(name, attrs)
        elif name in ("title", "noscript", "noframes", "style", "script"):
            self._open_raw(token)
        elif name == "template":
            self.in_order = False  # its content is no part of the document's order
            if self._insert(name, attrs) is not None:
                self.formatting.append(None)
                self.mode = Mode.IN_TEMPLATE
                self.template_modes.append(Mode.IN_TEMPLATE)
        elif name != "head":
            self._pop()
            self.mode = Mode.AFTER_HEAD
            self._start(token)

    def _end_in_head(self, name: str) -> None:
        if name == "head":
            self._pop()
            self.mode = Mode.AFTER_HEAD
        elif name in ("body", "html", "br"):
            self._pop()
            self.mode = Mode.AFTER_HEAD
            self.end_tag(name)
        elif name == "template":
            self._end_template()

    def _chars_in_head(self, text: str) -> None:
        rest = text.lstrip(_WS)
        self._insert_text(text[: len(text) - len(rest)])
        if rest:
            self._pop()
            self.mode = Mode.AFTER_HEAD
            self._chars(rest)

    def _end_template(self) -> None:
        if not any(node.is_html("template") for node in self.stack):
            return
        self._implied_end(thorough=True)
        self._pop_until("template")
        self._clear_formatting_to_marker()
        if self.template_modes:
            self.template_modes.pop()
        self._reset_mode()

    def _start_after_head(self, token: StartTag) -> None:
        name, attrs, _ = token
        if name == "html":
            self._start_in_body(token)
        elif name == "body":
            self._insert_body(attrs)
        elif name == "frameset":
            self._insert(name, attrs)
            self.mode = Mode.IN_FRAMESET
        elif name in html_names.HEAD_ELEMENTS and self.head is not None:
            self.stack.append(self.head)
            self._start_in_head(token)
            if self.head in self.stack:
                self.stack.remove(self.head)
        elif name != "head":
            self._insert_body({})
            self._start(token)

    def _end_after_head(self, name: str) -> None:
        if name == "template":
            self._end_template()
        elif name in ("body", "html", "br"):
            self._insert_body({})
            self.end_tag(name)

    def _chars_after_head(self, text: str) -> None:
        rest = text.lstrip(_WS)
        self._insert_text(text[: len(text) - len(rest)])
        if rest:
            self._insert_body({})
            self._chars(rest)

    # -- in body ----------------------------------------------------------------------------

    def _chars_in_body(self, text: str) -> None:
        if "\0" in text:
            text = text.replace("\0", "")
        if text:
            if self.frameset_ok and text.strip(_WS):
                self.frameset_ok = False
            entries = self.formatting  # `_reconstruct`'s first test, without the call
            if entries and entries[-1] is not None and entries[-1] not in self.stack:
                self._reconstruct()
            self._insert_text(text)

    def _start_in_body(self, token: StartTag) -> None:
        name = token[0]
        if name in _FRAMESET_NOT_OK and self.frameset_ok:
            hidden = name == "input" and token[1].get("type", "").lower() == "hidden"
            self.frameset_ok = hidden
        # One look-up instead of a chain of tests (`_BODY_START_STEPS`).
        _BODY_START_STEPS.get(name, _T._body_other)(self, token)

    def _body_closes_p(self, token: StartTag) -> None:  # html_names.CLOSES_P
        self._close_p()
        self._insert(token[0], token[1])

    def _body_heading(self, token: StartTag) -> None:
        self._close_p()
        if self.stack[-1].key in html_names.HEADINGS:
            self._pop()
        self._insert(token[0], token[1])

    def _body_formatting(self, token: StartTag) -> None:
        self._reconstruct()
        node = self._insert(token[0], token[1])
        if node is not None:
            self._push_formatting(node)

    def _body_stray(self, token: StartTag) -> None:  # html_names.STRAY_TABLE_TAGS: ignored
        return

    def _body_void(self, token: StartTag) -> None:
        self._reconstruct()
        self._void(token[0], token[1])

    def _body_other(self, token: StartTag) -> None:  # "any other start tag"
        self._reconstruct()
        self._insert(token[0], token[1])

    def _body_html(self, token: StartTag) -> None:
        if self.html is not None and not any(n.is_html("template") for n in self.stack):
            for key, value in token[1].items():
                self.html.attrs.setdefault(key, value)

    def _body_body(self, token: StartTag) -> None:
        if len(self.stack) > 1 and self.stack[1].is_html("body"):
            for key, value in token[1].items():
                self.stack[1].attrs.setdefault(key, value)

    def _body_block_raw(self, token: StartTag) -> None:  # pre, listing
        self._close_p()
        self._insert(token[0], token[1])
        self.drop_newline = True

    def _body_form(self, token: StartTag) -> None:
        template = any(n.is_html("template") for n in self.stack)
        if self.form is not None and not template:
            return
        self._close_p()
        node = self._insert("form", token[1])
        if not template:
            self.form = node

    def _body_list_item(self, token: StartTag) -> None:
        name = token[0]
        closes = ("li",) if name == "li" else ("dd", "dt")
        for node in reversed(self.stack):
            key = node.key
            if key in closes:
                self._implied_end(node.tag)
                self._pop_until(node.tag)
                break
            if key in html_names.SPECIAL and key not in ("address", "div", "p"):
                break
        self._close_p()
        self._insert(name, token[1])

    def _body_plaintext(self, token: StartTag) -> None:
        self._close_p()
        if self._insert("plaintext", token[1]) is not None:
            self.raw = "plaintext"
            self.original_mode, self.mode = self.mode, Mode.TEXT

    def _body_button(self, token: StartTag) -> None:
        if self._in_scope(("button",), html_names.SCOPE):
            self._implied_end()
            self._pop_until("button")
        self._reconstruct()
        self._insert("button", token[1])

    def _body_a(self, token: StartTag) -> None:
        element = self._formatting_element("a")
        if element is not None:
            self._adoption_agency("a")
            if element in self.formatting:
                self.formatting.remove(element)
            if element in self.stack:
                self.stack.remove(element)
        self._reconstruct()
        node = self._insert("a", token[1])
        if node is not None:
            self._push_formatting(node)

    def _body_nobr(self, token: StartTag) -> None:
        self._reconstruct()
        if self._in_scope(("nobr",), html_names.SCOPE):
            self._adoption_agency("nobr")
            self._reconstruct()
        node = self._insert("nobr", token[1])
        if node is not None:
            self._push_formatting(node)

    def _body_marker(self, token: StartTag) -> None:  # applet, marquee, object
        self._reconstruct()
        if self._insert(token[0], token[1]) is not None:
            self.formatting.append(None)

    def _body_table(self, token: StartTag) -> None:
        if not self.quirks:
            self._close_p()
        if self._insert("table", token[1]) is not None:
            self.mode = Mode.IN_TABLE

    def _body_hr(self, token: StartTag) -> None:
        self._close_p()
        self._void("hr", token[1])

    def _body_image(self, token: StartTag) -> None:
        self._reconstruct()
        self._void("img", token[1])

    def _body_textarea(self, token: StartTag) -> None:
        self._open_raw(token)

    def _body_rawtext(self, token: StartTag) -> None:  # xmp, iframe, noembed, noscript
        if token[0] == "xmp":
            self._close_p()
            self._reconstruct()
        self._open_raw(token)

    def _body_select(self, token: StartTag) -> None:
        self._reconstruct()
        if self._insert("select", token[1]) is not None:
            table_modes = (Mode.IN_TABLE, Mode.IN_CAPTION, Mode.IN_TABLE_BODY, Mode.IN_ROW)
            in_table = self.mode in table_modes or self.mode is Mode.IN_CELL
            self.mode = Mode.IN_SELECT_IN_TABLE if in_table else Mode.IN_SELECT

    def _body_option(self, token: StartTag) -> None:
        if self.stack[-1].is_html("option"):
            self._pop()
        self._reconstruct()
        self._insert(token[0], token[1])

    def _body_ruby(self, token: StartTag) -> None:
        name = token[0]
        if self._in_scope(("ruby",), html_names.SCOPE):
            self._implied_end("rtc" if name in ("rp", "rt") else "")
        self._insert(name, token[1])

    def _body_foreign(self, token: StartTag) -> None:
        name, attrs, self_closing = token
        self._reconstruct()
        self._insert_foreign(_S if name == "svg" else _M, name, attrs, self_closing)

    def _body_frameset(self, token: StartTag) -> None:
        """A frameset replaces a body that has nothing yet that forbids it (frameset-ok)."""
        if not self.frameset_ok or len(self.stack) < 2 or not self.stack[1].is_html("body"):
            return
        self.stack[1].detach()
        self.in_order = False  # the detached body's nodes stay in `nodes`
        del self.stack[1:]
        self._insert("frameset", token[1])
        self.mode = Mode.IN_FRAMESET

    def _end_in_body(self, name: str) -> None:
        # One look-up instead of a chain of tests: most end tags are "any other end tag".
        _BODY_ENDS.get(name, _T._any_other_end)(self, name)

    def _end_body(self, name: str) -> None:  # body, html
        if self._in_scope(("body",), html_names.SCOPE):
            self.mode = Mode.AFTER_BODY
            if name == "html":
                self.end_tag(name)

    def _end_block(self, name: str) -> None:  # html_names.BLOCK_ENDS
        if self.stack[-1].key == name:
            # The steps below where it is the current node: in scope, and no end tag implied
            # above it (none of these is in IMPLIED_END).
            self.stack.pop()
        elif self._in_scope((name,), html_names.SCOPE):
            self._implied_end()
            self._pop_until(name)

    def _end_p(self, name: str) -> None:
        if not self._in_scope(("p",), html_names.BUTTON_SCOPE):
            self._insert("p", {})
        self._close_p()

    def _end_li(self, name: str) -> None:
        if self.stack[-1].key == "li":  # as `_end_block`
            self.stack.pop()
        elif self._in_scope(("li",), html_names.LIST_ITEM_SCOPE):
            self._implied_end("li")
            self._pop_until("li")

    def _end_dd(self, name: str) -> None:  # dd, dt
        if self.stack[-1].key == name:  # as `_end_block`
            self.stack.pop()
        elif self._in_scope((name,), html_names.SCOPE):
            self._implied_end(name)
            self._pop_until(name)

    def _end_heading(self, name: str) -> None:
        if self.stack[-1].key in html_names.HEADINGS:  # as `_end_block`, any heading
            self.stack.pop()
        elif self._in_scope(_HEADINGS, html_names.SCOPE):
            self._implied_end()
            self._pop_until(*html_names.HEADINGS)

    def _end_formatting(self, name: str) -> None:
        if not self._adoption_agency(name):
            self._any_other_end(name)

    def _end_marker(self, name: str) -> None:  # applet, marquee, object
        if self._in_scope((name,), html_names.SCOPE):
            self._implied_end()
            self._pop_until(name)
            self._clear_formatting_to_marker()

    def _end_br(self, name: str) -> None:
        self._reconstruct()
        self._void("br", {})

    def _end_form_tag(self, name: str) -> None:
        self._end_form()

    def _end_template_tag(self, name: str) -> None:
        self._end_template()

    def _end_form(self) -> None:
        if any(n.is_html("template") for n in self.stack):
            if self._in_scope(("form",), html_names.SCOPE):
                self._implied_end()
                self._pop_until("form")
            return
        node, self.form = self.form, None
        if node is None or not self._node_in_scope(node):
            return
        self._implied_end()
        self.stack.remove(node)

    def _any_other_end(self, name: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            key = self.stack[i].key
            if key == name:
                self._implied_end(name)
                del self.stack[i:]
                return
            if key in html_names.SPECIAL:
                return

    # -- tables -----------------------------------------------------------------------------

    def _chars_in_table(self, text: str) -> None:
        """Text in a table whose current node is not a table part: fostered (§ 13.2.6.4.9)."""
        self.foster = True
        self._chars_in_body(text)
        self.foster = False

    def _start_in_table(self, token: StartTag) -> None:
        name, attrs, _ = token
        if name == "caption":
            self._clear_back_to("table")
            self.formatting.append(None)
            self._insert(name, attrs)
            self.mode = Mode.IN_CAPTION
        elif name in ("colgroup", "col"):
            self._clear_back_to("table")
            self._insert("colgroup", attrs if name == "colgroup" else {})
            self.mode = Mode.IN_COLUMN_GROUP
            if name == "col":
                self._start(token)
        elif name in html_names.TABLE_PARTS or name in ("td", "th", "tr"):
            self._clear_back_to("table")
            self._insert(
                name if name in html_names.TABLE_PARTS else "tbody",
                attrs if name in html_names.TABLE_PARTS else {},
            )
            self.mode = Mode.IN_TABLE_BODY
            if name not in html_names.TABLE_PARTS:
                self._start(token)
        elif name == "table":
            if self._in_scope(("table",), html_names.TABLE_SCOPE):
                self._pop_until("table")
                self._reset_mode()
                self._start(token)
        elif name in ("style", "script", "template"):
            self._start_in_head(token)
        elif name == "input" and attrs.get("type", "").lower() == "hidden":
            self._void(name, attrs)
        elif name == "form":
            if self.form is None and not any(n.is_html("template") for n in self.stack):
                self.form = self._insert(name, attrs)
                self._pop()
        else:
            self.foster = True
            self._start_in_body(token)
            self.foster = False

    def _end_in_table(self, name: str) -> None:
        if name == "table":
            if self._in_scope(("table",), html_names.TABLE_SCOPE):
                self._pop_until("table")
                self._reset_mode()
        elif name == "template":
            self._end_template()
        elif name not in _TABLE_IGNORED_ENDS:
            self.foster = True
            self._end_in_body(name)
            self.foster = False

    def _start_in_caption(self, token: StartTag) -> None:
        if token[0] in _CAPTION_CLOSERS:
            if self._close_caption():
                self._start(token)
        else:
            self._start_in_body(token)

    def _end_in_caption(self, name: str) -> None:
        if name == "caption":
            self._close_caption()
        elif name == "table":
            if self._close_caption():
                self.end_tag(name)
        elif name not in _TABLE_IGNORED_ENDS:
            self._end_in_body(name)

    def _close_caption(self) -> bool:
        if not self._in_scope(("caption",), html_names.TABLE_SCOPE):
            return False
        self._implied_end()
        self._pop_until("caption")
        self._clear_formatting_to_marker()
        self.mode = Mode.IN_TABLE
        return True

    def _start_in_column_group(self, token: StartTag) -> None:
        name = token[0]
        if name == "html":
            self._start_in_body(token)
        elif name == "col":
            self._void(name, token[1])
        elif name == "template":
            self._start_in_head(token)
        elif self.stack[-1].is_html("colgroup"):
            self._pop()
            self.mode = Mode.IN_TABLE
            self._start(token)

    def _end_in_column_group(self, name: str) -> None:
        if name == "template":
            self._end_template()
        elif name == "col":
            return
        elif self.stack[-1].is_html("colgroup"):
            self._pop()
            self.mode = Mode.IN_TABLE
            if name != "colgroup":
                self.end_tag(name)

    def _chars_in_column_group(self, text: str) -> None:
        rest = text.lstrip(_WS)
        self._insert_text(text[: len(text) - len(rest)])
        if rest and self.stack[-1].is_html("colgroup"):
            self._pop()
            self.mode = Mode.IN_TABLE
            self._chars(rest)

    def _start_in_table_body(self, token: StartTag) -> None:
        name = token[0]
        if name == "tr":
            self._clear_back_to(*html_names.TABLE_PARTS)
            self._insert("tr", token[1])
            self.mode = Mode.IN_ROW
        elif name in ("td", "th"):
            self._clear_back_to(*html_names.TABLE_PARTS)
            self._insert("tr", {})
            self.mode = Mode.IN_ROW
            self._start(token)
        elif name in ("caption", "col", "colgroup", "tbody", "tfoot", "thead"):
            if self._close_table_body():
                self._start(token)
        else:
            self._start_in_table(token)

    def _end_in_table_body(self, name: str) -> None:
        if name in html_names.TABLE_PARTS:
            if self._in_scope((name,), html_names.TABLE_SCOPE):
                self._clear_back_to(*html_names.TABLE_PARTS)
                self._pop()
                self.mode = Mode.IN_TABLE
        elif name == "table":
            if self._close_table_body():
                self.end_tag(name)
        elif name not in ("body", "caption", "col", "colgroup", "html", "td", "th", "tr"):
            self._end_in_table(name)

    def _close_table_body(self) -> bool:
        if not self._in_scope(tuple(html_names.TABLE_PARTS), html_names.TABLE_SCOPE):
            return False
        self._clear_back_to(*html_names.TABLE_PARTS)
        self._pop()
        self.mode = Mode.IN_TABLE
        return True

    def _start_in_row(self, token: StartTag) -> None:
        name = token[0]
        if name in ("td", "th"):
            self._clear_back_to("tr")
            self._insert(name, token[1])
            self.mode = Mode.IN_CELL
            self.formatting.append(None)
        elif name in ("caption", "col", "colgroup", "tbody", "tfoot", "thead", "tr"):
            if self._close_row():
                self._start(token)
        else:
            self._start_in_table(token)

    def _end_in_row(self, name: str) -> None:
        if name == "tr":
            self._close_row()
        elif name == "table":
            if self._close_row():
                self.end_tag(name)
        elif name in html_names.TABLE_PARTS:
            if self._in_scope((name,), html_names.TABLE_SCOPE) and self._close_row():
                self.end_tag(name)
        elif name not in ("body", "caption", "col", "colgroup", "html", "td", "th"):
            self._end_in_table(name)

    def _close_row(self) -> bool:
        if not self._in_scope(("tr",), html_names.TABLE_SCOPE):
            return False
        self._clear_back_to("tr")
        self._pop()
        self.mode = Mode.IN_TABLE_BODY
        return True

    def _start_in_cell(self, token: StartTag) -> None:
        if token[0] in _CAPTION_CLOSERS:
            if self._in_scope(("td", "th"), html_names.TABLE_SCOPE):
                self._close_cell()
                self._start(token)
        else:
            self._start_in_body(token)

    def _end_in_cell(self, name: str) -> None:
        if name in ("td", "th"):
            if self._in_scope((name,), html_names.TABLE_SCOPE):
                self._implied_end()
                self._pop_until(name)
                self._clear_formatting_to_marker()
                self.mode = Mode.IN_ROW
        elif name in ("table", "tbody", "tfoot", "thead", "tr"):
            if self._in_scope((name,), html_names.TABLE_SCOPE):
                self._close_cell()
                self.end_tag(name)
        elif name not in ("body", "caption", "col", "colgroup", "html"):
            self._end_in_body(name)

    def _close_cell(self) -> None:
        self._implied_end()
        self._pop_until("td", "th")
        self._clear_formatting_to_marker()
        self.mode = Mode.IN_ROW

    # -- select -----------------------------------------------------------------------------

    def _chars_in_select(self, text: str) -> None:
        self._insert_text(text.replace("\0", ""))

    def _start_in_select(self, token: StartTag) -> None:
        name = token[0]
        current = self.stack[-1]
        if name == "html":
            self._start_in_body(token)
        elif name in ("option", "optgroup", "hr"):
            if current.is_html("option"):
                self._pop()
            if name != "option" and self.stack[-1].is_html("optgroup"):
                self._pop()
            if name == "hr":
                self._void(name, token[1])
            else:
                self._insert(name, token[1])
        elif name in ("select", "input", "keygen", "textarea"):
            if self._in_select_scope("select"):
                self._pop_until("select")
                self._reset_mode()
                if name != "select":
                    self._start(token)
        elif name in ("script", "template"):
            self._start_in_head(token)

    def _end_in_select(self, name: str) -> None:
        stack = self.stack
        if name == "optgroup":
            if stack[-1].is_html("option") and len(stack) > 1 and stack[-2].is_html("optgroup"):
                self._pop()
            if stack[-1].is_html("optgroup"):
                self._pop()
        elif name == "option":
            if stack[-1].is_html("option"):
                self._pop()
        elif name == "select":
            if self._in_select_scope("select"):
                self._pop_until("select")
                self._reset_mode()
        elif name == "template":
            self._end_template()

    def _start_in_select_in_table(self, token: StartTag) -> None:
        if token[0] in _SELECT_TABLE_TAGS:
            self._pop_until("select")
            self._reset_mode()
            self._start(token)
        else:
            self._start_in_select(token)

    def _end_in_select_in_table(self, name: str) -> None:
        if name in _SELECT_TABLE_TAGS:
            if self._in_scope((name,), html_names.TABLE_SCOPE):
                self._pop_until("select")
                self._reset_mode()
                self.end_tag(name)
        else:
            self._end_in_select(name)

    # -- template, after body, frameset -----------------------------------------------------

    def _start_in_template(self, token: StartTag) -> None:
        name = token[0]
        if name in html_names.HEAD_ELEMENTS:
            self._start_in_head(token)
            return
        mode = _TEMPLATE_MODES.get(name, Mode.IN_BODY)
        if self.template_modes:
            self.template_modes[-1] = mode
        self.mode = mode
        self._start(token)

    def _end_in_template(self, name: str) -> None:
        if name == "template":
            self._end_template()

    def _start_after_body(self, token: StartTag) -> None:
        if token[0] == "html":
            self._start_in_body(token)
            return
        self.mode = Mode.IN_BODY
        self._start(token)

    def _end_after_body(self, name: str) -> None:
        if name != "html":
            self.mode = Mode.IN_BODY
            self.end_tag(name)

    def _chars_after_body(self, text: str) -> None:
        if text.strip(_WS):
            self.mode = Mode.IN_BODY
        self._chars_in_body(text)

    def _start_in_frameset(self, token: StartTag) -> None:
        name, attrs, _ = token
        if name == "frameset" and self.mode is Mode.IN_FRAMESET:
            self._insert(name, attrs)
        elif name == "frame" and self.mode is Mode.IN_FRAMESET:
            self._void(name, attrs)
        elif name == "noframes":
            self._open_raw(token)
        elif name == "html":
            self._start_in_body(token)

    def _end_in_frameset(self, name: str) -> None:
        if name == "frameset" and self.mode is Mode.IN_FRAMESET and len(self.stack) > 1:
            self._pop()
            if not self.stack[-1].is_html("frameset"):
                self.mode = Mode.AFTER_FRAMESET

    def _chars_in_frameset(self, text: str) -> None:
        self._insert_text("".join(c for c in text if c in _WS))

    def _text_start(self, token: StartTag) -> None:
        return  # unreachable: the tokenizer reads raw text to its end tag

    def _text_chars(self, text: str) -> None:
        self._raw_text(text)

    def _text_end(self, name: str) -> None:
        self._end_text()


# In body: start tags after which a `<frameset>` no longer replaces the body.
_FRAMESET_NOT_OK = frozenset(
    "pre listing li dd dt button applet marquee object table area br embed img keygen wbr input "
    "hr image iframe textarea xmp select".split()
)
_TABLE_TEXT_MODES = frozenset({Mode.IN_TABLE, Mode.IN_TABLE_BODY, Mode.IN_ROW})
_TABLE_IGNORED_ENDS = frozenset("body caption col colgroup html tbody td tfoot th thead tr".split())
_CAPTION_CLOSERS = frozenset("caption col colgroup tbody td tfoot th thead tr".split())
_SELECT_TABLE_TAGS = frozenset("caption table tbody tfoot thead tr td th".split())
_TEMPLATE_MODES = {
    "caption": Mode.IN_TABLE,
    "colgroup": Mode.IN_TABLE,
    "tbody": Mode.IN_TABLE,
    "tfoot": Mode.IN_TABLE,
    "thead": Mode.IN_TABLE,
    "col": Mode.IN_COLUMN_GROUP,
    "tr": Mode.IN_TABLE_BODY,
    "td": Mode.IN_ROW,
    "th": Mode.IN_ROW,
}
_RESET = {
    "tr": Mode.IN_ROW,
    "tbody": Mode.IN_TABLE_BODY,
    "thead": Mode.IN_TABLE_BODY,
    "tfoot": Mode.IN_TABLE_BODY,
    "caption": Mode.IN_CAPTION,
    "colgroup": Mode.IN_COLUMN_GROUP,
    "table": Mode.IN_TABLE,
    "head": Mode.IN_HEAD,
    "body": Mode.IN_BODY,
    "frameset": Mode.IN_FRAMESET,
}

_T = TreeConstruction
_HEADINGS = tuple(html_names.HEADINGS)
# "in body" end tags with steps of their own; any other is `_any_other_end`.
_BODY_ENDS: dict[str, Callable[[_T, str], None]] = {
    **dict.fromkeys(html_names.BLOCK_ENDS, _T._end_block),
    **dict.fromkeys(html_names.HEADINGS, _T._end_heading),
    **dict.fromkeys(html_names.FORMATTING, _T._end_formatting),
    **dict.fromkeys(("applet", "marquee", "object"), _T._end_marker),
    **dict.fromkeys(("dd", "dt"), _T._end_dd),
    "body": _T._end_body,
    "html": _T._end_body,
    "form": _T._end_form_tag,
    "p": _T._end_p,
    "li": _T._end_li,
    "br": _T._end_br,
    "template": _T._end_template_tag,
}
_StartHandler = Callable[[_T, StartTag], None]
_BODY_STARTS: dict[str, _StartHandler] = {
    "html": _T._body_html,
    "body": _T._body_body,
    "frameset": _T._body_frameset,
    "pre": _T._body_block_raw,
    "listing": _T._body_block_raw,
    "form": _T._body_form,
    "li": _T._body_list_item,
    "dd": _T._body_list_item,
    "dt": _T._body_list_item,
    "plaintext": _T._body_plaintext,
    "button": _T._body_button,
    "a": _T._body_a,
    "nobr": _T._body_nobr,
    "applet": _T._body_marker,
    "marquee": _T._body_marker,
    "object": _T._body_marker,
    "table": _T._body_table,
    "hr": _T._body_hr,
    "image": _T._body_image,
    "textarea": _T._body_textarea,
    "xmp": _T._body_rawtext,
    "iframe": _T._body_rawtext,
    "noembed": _T._body_rawtext,
    "noscript": _T._body_rawtext,
    "select": _T._body_select,
    "option": _T._body_option,
    "optgroup": _T._body_option,
    "rb": _T._body_ruby,
    "rtc": _T._body_ruby,
    "rp": _T._body_ruby,
    "rt": _T._body_ruby,
    "svg": _T._body_foreign,
    "math": _T._body_foreign,
}
# "in body" start tags with steps of their own, by name; any other is `_body_other`. The spec's
# order of tests where the sets overlap: a later entry overrides an earlier one (a `col` is a
# void element, but a stray table tag first; a `link` one of the head's).
_BODY_START_STEPS: dict[str, _StartHandler] = {
    **dict.fromkeys(html_names.VOID, _T._body_void),
    **dict.fromkeys(html_names.STRAY_TABLE_TAGS, _T._body_stray),
    **dict.fromkeys(html_names.HEAD_ELEMENTS, _T._start_in_head),
    **dict.fromkeys(html_names.FORMATTING, _T._body_formatting),
    **dict.fromkeys(html_names.HEADINGS, _T._body_heading),
    **dict.fromkeys(html_names.CLOSES_P, _T._body_closes_p),
    **_BODY_STARTS,
}
# "in body" start tags with steps of their own: the others are "any other start tag", or close
# a `p` (html_names.CLOSES_P) and nothing more.
_SPECIAL_IN_BODY = frozenset(
    {*_BODY_STARTS, *_FRAMESET_NOT_OK, *html_names.HEADINGS, *html_names.FORMATTING}
    | html_names.HEAD_ELEMENTS
    | html_names.STRAY_TABLE_TAGS
    | html_names.VOID
)
_START: dict[Mode, _StartHandler] = {
    Mode.INITIAL: _T._start_initial,
    Mode.BEFORE_HEAD: _T._start_before_head,
    Mode.IN_HEAD: _T._start_in_head,
    Mode.AFTER_HEAD: _T._start_after_head,
    Mode.IN_BODY: _T._start_in_body,
    Mode.IN_TABLE: _T._start_in_table,
    Mode.IN_CAPTION: _T._start_in_caption,
    Mode.IN_COLUMN_GROUP: _T._start_in_column_group,
    Mode.IN_TABLE_BODY: _T._start_in_table_body,
    Mode.IN_ROW: _T._start_in_row,
    Mode.IN_CELL: _T._start_in_cell,
    Mode.IN_SELECT: _T._start_in_select,
    Mode.IN_SELECT_IN_TABLE: _T._start_in_select_in_table,
    Mode.IN_TEMPLATE: _T._start_in_template,
    Mode.AFTER_BODY: _T._start_after_body,
    Mode.IN_FRAMESET: _T._start_in_frameset,
    Mode.AFTER_FRAMESET: _T._start_in_frameset,
    Mode.TEXT: _T._text_start,
}
_END: dict[Mode, Callable[[_T, str], None]] = {
    Mode.INITIAL: _T._end_initial,
    Mode.BEFORE_HEAD: _T._end_before_head,
    Mode.IN_HEAD: _T._end_in_head,
    Mode.AFTER_HEAD: _T._end_after_head,
    Mode.IN_BODY: _T._end_in_body,
    Mode.IN_TABLE: _T._end_in_table,
    Mode.IN_CAPTION: _T._end_in_caption,
    Mode.IN_COLUMN_GROUP: _T._end_in_column_group,
    Mode.IN_TABLE_BODY: _T._end_in_table_body,
    Mode.IN_ROW: _T._end_in_row,
    Mode.IN_CELL: _T._end_in_cell,
    Mode.IN_SELECT: _T._end_in_select,
    Mode.IN_SELECT_IN_TABLE: _T._end_in_select_in_table,
    Mode.IN_TEMPLATE: _T._end_in_template,
    Mode.AFTER_BODY: _T._end_after_body,
    Mode.IN_FRAMESET: _T._end_in_frameset,
    Mode.AFTER_FRAMESET: _T._end_in_frameset,
    Mode.TEXT: _T._text_end,
}
_CHARS: dict[Mode, Callable[[_T, str], None]] = {
    Mode.INITIAL: _T._chars_initial,
    Mode.BEFORE_HEAD: _T._chars_before_head,
    Mode.IN_HEAD: _T._chars_in_head,
    Mode.AFTER_HEAD: _T._chars_after_head,
    Mode.IN_BODY: _T._chars_in_body,
    Mode.IN_TABLE: _T._chars_in_table,
    Mode.IN_CAPTION: _T._chars_in_body,
    Mode.IN_COLUMN_GROUP: _T._chars_in_column_group,
    Mode.IN_TABLE_BODY: _T._chars_in_table,
    Mode.IN_ROW: _T._chars_in_table,
    Mode.IN_CELL: _T._chars_in_body,
    Mode.IN_SELECT: _T._chars_in_select,
    Mode.IN_SELECT_IN_TABLE: _T._chars_in_select,
    Mode.IN_TEMPLATE: _T._chars_in_body,
    Mode.AFTER_BODY: _T._chars_after_body,
    Mode.IN_FRAMESET: _T._chars_in_frameset,
    Mode.AFTER_FRAMESET: _T._chars_in_frameset,
    Mode.TEXT: _T._text_chars,
}


def _special(node: Node) -> bool:
    return node.key in html_names.SPECIAL


def _foreign_attrs(attrs: dict[str, str], names: dict[str, str]) -> dict[str, str]:
    """A foreign element's attribute names as the DOM has them (camel case, XLink's local
    names); most have none to adjust, and keep their dict."""
    if not any(key in names or ":" in key for key in attrs):
        return attrs
    adjusted: dict[str, str] = {}
    for key, value in attrs.items():
        if key in names:
            key = names[key]
        elif key in html_names.XLINK_ATTRS:
            key = key[len("xlink:") :]
        elif key == "xmlns:xlink":
            key = "xlink"
        adjusted.setdefault(key, value)
    return adjusted


def _nodes(root: Node) -> list[Node]:
    """The tree's nodes, parents before their children, without recursion (the depth is
    bounded, but walking it must not be what breaks on a deep tree)."""
    order: list[Node] = []
    pending = [root]
    while pending:
        node = pending.pop()
        order.append(node)
        for child in node.children:
            if type(child) is Node:
                pending.append(child)
    return order


def _unlink(nodes: list[Node]) -> None:
    """Cut every node's link to its parent. A child's link to its parent and the parent's
    list of children are a reference cycle only the collector could free: cut, the whole
    mutable tree goes as soon as its builder does (bench/README.md, "Issues 29 and 31: plain
    links and reference cycles")."""
    for node in nodes:
        node.parent = None


def _freeze(root: Node) -> Element:
    """The mutable tree as `Element`s, bottom up, from a walk of it (`_nodes`: parents before
    their children), for a tree whose nodes the adoption agency moved."""
    return _freeze_in_order(_nodes(root), root)


def _freeze_in_order(nodes: list[Node], root: Node) -> Element:
    """The tree as `Element`s from its nodes listed parents before their children: the order
    they were made (`TreeConstruction.nodes`) or a walk (`_freeze`). Last to first is children
    before their parents; the parent links are cut in the same pass (`_unlink`'s cut). A node
    taken out of the tree (a body replaced by a frameset) is frozen too, and goes with the
    list."""
    element = _element
    for node in reversed(nodes):
        node.parent = None  # `_unlink`'s cut, in the same pass
        kids = node.children
        if not kids:  # most elements: void ones, and those of text alone below
            children: tuple[Element | str, ...] = ()
        elif node.joined:
            children = _merged_text(kids)
        else:  # every child node is frozen by now: it comes after its parent in the list
            children = tuple([c if type(c) is str else c.frozen for c in kids])  # type: ignore[union-attr, misc]
        node.frozen = element(node.tag, node.attrs, children, node.ns)
    assert root.frozen is not None
    return root.frozen


def _merged_text(kids: list[Node | str]) -> tuple[Element | str, ...]:
    """The frozen children, adjacent text children merged into one."""
    children: list[Element | str] = []
    text = False  # the last child is text
    for child in kids:
        if type(child) is str:
            if text:
                children[-1] += child  # type: ignore[operator]
            else:
                children.append(child)
            text = True
        else:
            assert type(child) is Node and child.frozen is not None
            children.append(child.frozen)
            text = False
    return tuple(children)
