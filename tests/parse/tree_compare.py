"""Trees as comparable lines: element (namespace, name, sorted attributes), then its children
indented; adjacent text merged (html5lib splits text around the comments it keeps), and a
script's or style's text cut to what the streamed tree keeps (parse.tree_construction.RAW_KEEP)."""

from __future__ import annotations

from parse.tree import Element
from parse.tree_builder import ParsedTree, TreeBuilder
from parse.tree_construction import RAW_KEEP


def lines(element: Element, depth: int = 0) -> list[str]:
    out = [
        f"{'  ' * depth}<{element.namespace}:{element.tag} {sorted(element.attributes.items())}>"
    ]
    merged: list[Element | str] = []
    for child in element.children:
        if isinstance(child, str) and merged and isinstance(merged[-1], str):
            merged[-1] += child
        else:
            merged.append(child)
    for child in merged:
        if isinstance(child, str):
            text = child[:RAW_KEEP] if element.tag in ("script", "style") else child
            out.append(f"{'  ' * (depth + 1)}{text!r}")
        else:
            out.extend(lines(child, depth + 1))
    return out


class DecodedText:
    """A plain text sink for `PageExtractor(on_text=...)`: the extractor's decoded text, which
    its own scan tokenizes (no tree listens), for html5lib or a tree built apart to be given."""

    def __init__(self) -> None:
        self.pieces: list[str] = []

    def feed(self, text: str) -> None:
        self.pieces.append(text)

    def reset(self) -> None:
        self.pieces.clear()


def streamed(html: str, cuts: tuple[int, ...] = ()) -> ParsedTree:
    """The streamed tree of `html` fed in pieces split at `cuts`."""
    builder = TreeBuilder()
    start = 0
    for cut in sorted(cuts):
        builder.feed(html[start:cut])
        start = cut
    builder.feed(html[start:])
    return builder.close()
