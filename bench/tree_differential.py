"""The element tree of this tree's `src/` against another's, document by document: the frozen
`Element`s serialized whole (namespace, name, attributes in order, every text child as it is,
`complete`, the element count), so any difference in the trees shows.

Run: `uv run python bench/tree_differential.py --base SRC [--random 5000] [--pg 450]
[--seed 29]`. One child per side (`PYTHONPATH=SRC` for the base, this tree's `src/` for ours)
builds the trees of the same documents and writes them as JSON; the parent compares. The
documents:

* every corpus page (tests/data/corpus/pages) and the first `--pg` pages of the PostgreSQL
  manual (Debian's postgresql-doc-15), through `parse.tree_builder.page_tree` as the crawl;
* `--random` documents of a seeded generator (`generated`) that misnests what tree
  construction treats specially: formatting elements (with attributes alike and not, for the
  Noah's Ark clause), tables and their parts, stray text in tables (foster parenting), `p`,
  list items, `select`/`option`, `svg`/`math` with their integration points, `template`,
  framesets, raw text, and end tags anywhere; each built whole, every fourth fed in random
  chunks too, and every eighth again under small element and text caps (at least 3 elements;
  a cap under `parse.tree_construction.MIN_ELEMENTS` is refused: with room for `<html>` alone,
  text raised IndexError; the crawl's cap is 25,000).

Last line: `documents=.. corpus=.. pg=.. random=.. differences=..` (the first differing
documents are printed before it, with the generated markup).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "corpus" / "pages"
PG_MANUAL = Path("/usr/share/doc/postgresql-doc-15/html")
SHOWN = 5

# The generator's pieces: start tags (some with attributes), end tags, text.
_FORMATTING = ["a", "b", "i", "em", "font", "nobr", "s", "u", "code", "strong", "big"]
_TABLE = ["table", "caption", "colgroup", "col", "tbody", "thead", "tfoot", "tr", "td", "th"]
_BLOCKS = ["p", "div", "li", "ul", "ol", "dd", "dt", "dl", "h1", "h2", "blockquote", "pre"]
_FORMS = ["select", "option", "optgroup", "form", "button", "input", "textarea"]
_FOREIGN = ["svg", "math", "foreignobject", "desc", "title", "mi", "mtext", "annotation-xml", "g"]
_OTHER = ["template", "span", "br", "img", "hr", "object", "applet", "marquee", "ruby", "rt"]
_OTHER += ["rp", "head", "body", "html", "frameset", "frame", "noscript", "script", "style"]
_OTHER += ["plaintext", "xmp", "iframe", "listing", "image", "meta", "link", "area", "wbr"]
_NAMES = _FORMATTING * 3 + _TABLE * 2 + _BLOCKS + _FORMS + _FOREIGN + _OTHER
_ATTRS = ["", "", "", " class=x", " href=h", " id=a", " color=red", " type=hidden", " size=2"]
_ATTRS += [" encoding=text/html", " viewbox='0 0 1 1'", " xlink:href=x", " definitionurl=u"]
_TEXT = ["x", "text ", " ", "\n", "\t ", "&amp;", "a\0b", "y z"]


def generated(rng: random.Random) -> str:
    """One misnested document: mostly start and end tags, with text between."""
    out = ["<!DOCTYPE html>"] if rng.random() < 0.5 else []
    for _ in range(rng.randint(1, 60)):
        roll = rng.random()
        if roll < 0.45:
            name = rng.choice(_NAMES)
            slash = "/" if rng.random() < 0.05 else ""
            out.append(f"<{name}{rng.choice(_ATTRS)}{slash}>")
        elif roll < 0.75:
            out.append(f"</{rng.choice(_NAMES)}>")
        else:
            out.append(rng.choice(_TEXT))
    return "".join(out)


def serialized(root: object) -> list[object]:
    """A frozen tree as a flat list, depth first: `[ns, tag, [[name, value], ...]]` opens an
    element, `1` closes it, a string is a text child as it is."""
    from parse.tree import Element

    out: list[object] = []
    pending: list[object] = [root]
    while pending:
        item = pending.pop()
        if isinstance(item, Element):
            out.append(
                [str(item.namespace), item.tag, [list(kv) for kv in item.attributes.items()]]
            )
            pending.append(1)
            pending.extend(reversed(item.children))
        else:
            out.append(item)
    return out


def chunked(html: str, rng: random.Random) -> object:
    from parse.tree_builder import TreeBuilder

    builder = TreeBuilder()
    cuts = sorted(rng.randint(0, len(html)) for _ in range(rng.randint(1, 8)))
    start = 0
    for cut in cuts:
        builder.feed(html[start:cut])
        start = cut
    builder.feed(html[start:])
    return builder.close()


def child(out: Path, count: int, pg: int, seed: int) -> None:
    from parse.parity import PARITY_URL, page_files, read_page
    from parse.tree_builder import ParsedTree, TreeBuilder, page_tree

    def record(tree: ParsedTree) -> list[object]:
        return [tree.complete, tree.elements, serialized(tree.root)]

    trees: list[list[object]] = []
    pages = page_files(CORPUS) + (page_files(PG_MANUAL)[:pg] if PG_MANUAL.is_dir() else [])
    for path in pages:
        trees.append(record(page_tree(read_page(path), PARITY_URL)[1]))
    rng = random.Random(seed)
    for i in range(count):
        html = generated(rng)
        builder = TreeBuilder()
        builder.feed(html)
        trees.append([html, record(builder.close())])
        if i % 4 == 0:
            trees.append([html, record(chunked(html, rng))])  # type: ignore[arg-type]
        if i % 8 == 0:  # stopped at the element and text caps
            capped = TreeBuilder(max_elements=rng.randint(3, 30), max_text=rng.randint(0, 40))
            capped.feed(html)
            trees.append([html, record(capped.close())])
    out.write_text(json.dumps({"pages": len(pages), "trees": trees}))


def run_child(src: Path, out: Path, opts: argparse.Namespace) -> dict[str, object]:
    from child_process import json_child  # bench/ is on sys.path

    args = ["--random", str(opts.random), "--pg", str(opts.pg), "--seed", str(opts.seed)]
    found = json_child(Path(__file__).resolve(), args, out, src, os.environ)
    assert isinstance(found, dict)
    return found


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--base", type=Path, metavar="SRC", help="the other tree's src/")
    args.add_argument("--random", type=int, default=5000, help="generated documents")
    args.add_argument("--pg", type=int, default=450, help="PostgreSQL manual pages")
    args.add_argument("--seed", type=int, default=29)
    args.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    opts = args.parse_args()
    if opts.child is not None:
        child(opts.child, opts.random, opts.pg, opts.seed)
        return
    if opts.base is None:
        args.error("--base SRC is needed")
    with tempfile.TemporaryDirectory() as folder:
        ours = run_child(ROOT / "src", Path(folder) / "ours.json", opts)
        base = run_child(opts.base, Path(folder) / "base.json", opts)
    mine, theirs = ours["trees"], base["trees"]
    assert isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs)
    differing = [i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b]
    for i in differing[:SHOWN]:
        print(f"differs: document {i}: {json.dumps(mine[i])[:300]}")
    pages = ours["pages"]
    assert isinstance(pages, int)
    corpus = len(list(CORPUS.iterdir()))
    print(
        f"documents={len(mine)} corpus={corpus} pg={pages - corpus} random={len(mine) - pages} "
        f"differences={len(differing)}"
    )


if __name__ == "__main__":
    main()
