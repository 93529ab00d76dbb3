"""A page's parse leaves no reference cycle behind: everything it built (the extractor's facts,
the tree builder, the mutable tree and its frozen copy) is freed by reference counting as soon as
the crawl drops it, never left for the cyclic collector, whose full collections walk every object
alive. 20 link-heavy pages left it 103,504 objects before the tree's parent links were cut and
the builder let go of its listener (bench/README.md, "Issues 29 and 31: plain links and reference
cycles")."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from common.ports import FetchResult
from crawl.page_pipeline import CrawlScope
from crawl.page_stream import process_response
from crawl.url_policy import UrlPolicy
from durable.records import LeasedUrl
from parse.parity import PARITY_URL, page_files, read_page
from parse.tree_builder import page_tree
from urls.private_hosts import PrivateHosts

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "pages"
_OURS = ("parse.", "crawl.", "a11y.", "structured.", "urls.", "audit.", "common.")


@contextmanager
def cyclic_garbage() -> Iterator[list[str]]:
    """The names of our types among the objects only the cyclic collector would free, of what
    the block allocated (other threads' garbage is left out by module)."""
    found: list[str] = []
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield found
        gc.collect()
        found += sorted(
            {type(o).__qualname__ for o in gc.garbage if type(o).__module__.startswith(_OURS)}
        )
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()


def _tree(data: bytes) -> None:
    page_tree(data, PARITY_URL)


# Made once per audit, not per page (its own cycles, a policy's rules, are not a page's).
_SCOPE = CrawlScope("cycles", UrlPolicy(PARITY_URL, private_hosts=PrivateHosts.ALLOW), True)


def _crawled(data: bytes) -> None:
    result = FetchResult(PARITY_URL, 200, {"content-type": "text/html"}, data, False, 1.0)
    process_response(_SCOPE, LeasedUrl(PARITY_URL, 0, False), result)


PAGES = [
    # A late charset restarts the parse: the first tree is given up (TreeBuilder.reset).
    b"<title>x</title><meta charset=utf-8><p>caf\xc3\xa9 <a href=/a>\xc3\xa9</a>",
    # The adoption agency and foster parenting move nodes between parents.
    b"<p><b>1<i>2</b>3</i><table><tr>x<td>y</table><a href=/b><div>z</a></div>",
    *(read_page(path) for path in page_files(CORPUS)[::16]),
]


@pytest.mark.parametrize("parse", [_tree, _crawled], ids=["tree", "crawled"])
def test_a_pages_parse_leaves_no_reference_cycle(parse: Callable[[bytes], None]) -> None:
    for data in PAGES:
        with cyclic_garbage() as found:
            parse(data)
        assert found == [], data[:60]
