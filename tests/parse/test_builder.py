"""FactsBuilder, fed elements directly: every element it asks the parsers for has a handler, and a
capped list keeps its first items (the first of each when they repeat) while counting them all."""

import pytest

from parse.builder import ELEMENTS, FactsBuilder
from parse.facts import (
    JSONLD_MAX_KEPT_CHARS,
    EncodingInfo,
    EncodingSource,
    PageFacts,
    ReferenceKind,
)

PAGE = "https://x.test/dir/page.html"
# One attribute set that gives every handler something to read.
EVERYTHING = {
    "href": "/a",
    "src": "/a",
    "data": "/a",
    "srcset": "/a 1x",
    "poster": "/p",
    "action": "/f",
    "rel": "canonical stylesheet",
    "name": "description",
    "content": "c",
    "lang": "en",
}


def _build(builder: FactsBuilder) -> PageFacts:
    return builder.build(EncodingInfo("utf-8", EncodingSource.DEFAULT), 0, False, 0, None)


@pytest.mark.parametrize("name", sorted(ELEMENTS))
@pytest.mark.parametrize("attrs", [{}, EVERYTHING], ids=["bare", "attributes"])
def test_every_element_the_builder_asks_for_has_a_handler(name: str, attrs: dict[str, str]) -> None:
    builder = FactsBuilder(PAGE)
    builder.element(name, attrs)

    _build(builder)


def test_media_elements_name_their_url_with_their_own_kind() -> None:
    builder = FactsBuilder(PAGE)
    for name in ("iframe", "source", "video", "audio", "embed", "object"):
        builder.element(name, {"src": f"/{name}", "data": f"/{name}"})

    kinds = {r.href.raw: r.kind for r in _build(builder).references}

    assert kinds == {
        "/iframe": ReferenceKind.IFRAME,
        "/source": ReferenceKind.MEDIA,
        "/video": ReferenceKind.MEDIA,
        "/audio": ReferenceKind.MEDIA,
        "/embed": ReferenceKind.EMBED,
        "/object": ReferenceKind.OBJECT,
    }


def test_a_list_keeps_each_item_once_and_counts_every_one() -> None:
    builder = FactsBuilder(PAGE)
    for src in ("/a.png", "/a.png", "/b.png"):
        builder.element("img", {"src": src, "alt": ""})

    facts = _build(builder)

    assert [image.src.raw for image in facts.images if image.src] == ["/a.png", "/b.png"]
    assert facts.images_seen == 3


def test_a_singleton_list_keeps_only_the_first_few(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parse.builder.SINGLETON_CAP", 2)
    builder = FactsBuilder(PAGE)
    for n in range(4):
        builder.element("link", {"rel": "canonical", "href": f"/c{n}"})

    assert [c.raw for c in _build(builder).canonicals] == ["/c0", "/c1"]


def test_jsonld_blocks_that_parse_are_kept_for_validation_within_the_page_budget() -> None:
    builder = FactsBuilder(PAGE)
    product = '{"@context": "https://schema.org", "@type": "Product", "name": "P"}'
    builder.jsonld(product)
    builder.jsonld("{not json")  # counted as an error, never kept
    builder.jsonld('{"@type": "Big", "x": "' + "y" * JSONLD_MAX_KEPT_CHARS + '"}')  # over budget
    builder.jsonld('{"@type": "Article"}')  # still fits after the big one was left out

    json_ld = _build(builder).json_ld

    assert json_ld.documents == (product, '{"@type": "Article"}')
    assert json_ld.parse_errors == 1
    assert json_ld.types == ("Product", "Big", "Article")  # the type list reads every block
    assert json_ld.truncated  # the budget cut what validation sees
