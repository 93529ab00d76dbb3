"""Whether a change to the accessibility rules leaves every outcome as it was: the rules' outcomes
(rule, element path, passed) and findings (every field) on each corpus page, each rule fixture
(tests/a11y/cases.py) and each badseo accessibility page (tests/badseo/a11y_pages.py), computed
by this tree's `src/` and by another's, then compared.

Run: `uv run python bench/a11y_rules_compare.py --base SRC [--pages DIR]` (SRC: `git archive main
src | tar -x -C /tmp/base`; DIR: more pages to compare, every `*.html` in it, e.g. the PostgreSQL
manual's /usr/share/doc/postgresql-doc-15/html). One child per tree (`PYTHONPATH=SRC` for the
base), each writing what it decided to a JSON file; the parent compares them document by
document and prints the first differences.

Last line: `documents=.. outcomes=.. findings=.. differing_documents=..`; exits 1 when any
document differs (a speed-up must not change what the rules decide).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "corpus" / "pages"
ORIGIN = "http://127.0.0.1:8000"
SHOWN_DIFFERENCES = 5

Decided = dict[str, object]  # one document's outcomes and findings, as JSON


def _documents(extra: Path | None) -> list[tuple[str, bytes | str, str, str | None]]:
    """(name, markup, url, content type) of every document compared; `extra`: a folder of more
    pages."""
    from parse.parity import PARITY_URL, page_files, read_page
    from tests.a11y.cases import CASES
    from tests.badseo.a11y_pages import A11Y_PAGES
    from tests.support.site_server import SiteRequest

    found: list[tuple[str, bytes | str, str, str | None]] = [
        (f"corpus/{path.name}", read_page(path), PARITY_URL, None) for path in page_files(CORPUS)
    ]
    found += [(f"case/{case.id}", case.html, PARITY_URL, None) for case in CASES]
    host = {"host": ORIGIN.removeprefix("http://")}
    for page in A11Y_PAGES:
        reply = page.handler(SiteRequest("GET", page.path, host))
        content_type = reply.headers["content-type"]
        found.append((f"badseo{page.path}", reply.body, ORIGIN + page.path, content_type))
    if extra is not None:
        found += [
            (f"pages/{path.name}", path.read_bytes(), f"{ORIGIN}/{path.name}", None)
            for path in sorted(extra.glob("*.html"))
        ]
    return found


def _decide(markup: bytes | str, url: str, content_type: str | None) -> Decided:
    from a11y.findings import finding
    from a11y.page import Page
    from a11y.rules import audit, outcomes
    from parse.tree_builder import page_tree

    data = markup.encode() if isinstance(markup, str) else markup
    kwargs = {} if content_type is None else {"content_type": content_type}
    tree = page_tree(data, url, **kwargs)[1]
    root = tree.root
    # The tree's document order, as the crawl passes it (`crawl.page_stream.judged`), where
    # this tree has one (a base from before `ParsedTree.order` walks its tree).
    order = getattr(tree, "order", None)
    sheets = getattr(tree, "style_sheets", None)  # a base from before them has none
    if sheets is not None:
        page, found = Page(root, order=order, style_sheets=sheets), audit(root, order, sheets)
    else:
        page = Page(root) if order is None else Page(root, order=order)
        found = audit(root) if order is None else audit(root, order)
    decided = outcomes(page)
    return {
        "outcomes": [[str(o.rule), list(page.document.path(o.element)), o.passed] for o in decided],
        "findings": [f.to_dict() for f in found],
        "failures": [finding(page.document, o).to_dict() for o in decided if not o.passed],
    }


def child(out: Path, extra: Path | None) -> None:
    sys.path.append(str(ROOT))  # tests/, after PYTHONPATH's src
    decided = {name: _decide(*rest) for name, *rest in _documents(extra)}
    out.write_text(json.dumps(decided))


def run(src: Path | None, out: Path, extra: Path | None) -> dict[str, Decided]:
    from child_process import json_child  # bench/ is on sys.path
    from cpu_bench import child_env

    args = ["--pages", str(extra)] if extra is not None else []
    loaded = json_child(Path(__file__).resolve(), args, out, src, child_env())
    assert isinstance(loaded, dict)
    return loaded


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--base", type=Path, metavar="SRC", help="the other tree's src/")
    args.add_argument("--pages", type=Path, metavar="DIR", help="more pages: DIR/*.html")
    args.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    opts = args.parse_args()
    if opts.child is not None:
        child(opts.child, opts.pages)
        return
    if opts.base is None:
        sys.exit("--base SRC is required")
    with tempfile.TemporaryDirectory() as folder:
        ours = run(None, Path(folder) / "ours.json", opts.pages)
        base = run(opts.base, Path(folder) / "base.json", opts.pages)
    differing = sorted(
        name for name in base.keys() | ours.keys() if base.get(name) != ours.get(name)
    )
    for name in differing[:SHOWN_DIFFERENCES]:
        print(f"differs: {name}")
    outcomes = sum(len(d["outcomes"]) for d in ours.values())  # type: ignore[arg-type]
    findings = sum(len(d["findings"]) for d in ours.values())  # type: ignore[arg-type]
    print(
        f"documents={len(ours)} outcomes={outcomes} findings={findings} "
        f"differing_documents={len(differing)}"
    )
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
