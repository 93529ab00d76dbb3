"""Where the crawl observes a page, its JSON-LD blocks are validated and dropped: the observation
carries the bounded check, not the blocks' texts."""

from dataclasses import replace

from crawl.page_pipeline import checked_structured_data
from parse.facts import EncodingInfo, EncodingSource, JsonLd, PageFacts

FACTS = PageFacts("https://x.test/", EncodingInfo("utf-8", EncodingSource.DEFAULT), 10, False)


def test_the_blocks_are_checked_and_dropped_from_the_facts() -> None:
    block = '{"@context": "https://schema.org", "@type": "Prodcut"}'
    facts = replace(FACTS, json_ld=JsonLd(blocks=1, types=("Prodcut",), documents=(block,)))

    kept, checked = checked_structured_data(facts)

    assert kept == replace(facts, json_ld=JsonLd(blocks=1, types=("Prodcut",)))
    assert checked is not None
    assert [f.suggestions for f in checked.findings] == [("Product",)]


def test_a_page_without_blocks_has_no_check() -> None:
    assert checked_structured_data(FACTS) == (FACTS, None)
    assert checked_structured_data(None) == (None, None)
