"""Any bytes yield facts (or the truncation flag), never an exception; memory stays bounded."""

from __future__ import annotations

import tracemalloc

from hypothesis import given, settings
from hypothesis import strategies as st

from parse.extractor import DEFAULT_MAX_BYTES, PageExtractor
from parse.facts import PageFacts
from parse.parity import extract

URL = "https://example.test/"


def _run(data: bytes, chunk: int = 64 * 1024, **kwargs: object) -> PageFacts:
    extractor = PageExtractor(URL, **kwargs)  # type: ignore[arg-type]
    for start in range(0, len(data), chunk):
        extractor.feed(data[start : start + chunk])
    return extractor.close()


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=3000), st.lists(st.integers(1, 500), min_size=1, max_size=4))
def test_any_bytes_any_chunking(data: bytes, sizes: list[int]) -> None:
    facts = extract(data, sizes)
    assert PageFacts.from_dict(facts.to_dict()) == facts
    assert facts.html_bytes == len(data)


_HOSTILE = st.sampled_from(
    [
        b"<",
        b"<a",
        b" href=",
        b'"',
        b"'",
        b"&#",
        b"&#x",
        b"9" * 20,
        b"&amp",
        b"<!--",
        b"<![CDATA[",
        b"<script>",
        b"<!--<script>",
        b"</script",
        b"<svg>",
        b"<math>",
        b"<template>",
        b"<title>",
        b"\xff",
        b"\xe2\x82",
        b"\x00",
        b"<meta charset=utf-16>",
        b"<meta charset=latin1>",
        b">",
        b"<h1>",
        b"<a href=/x>",
        b"</",
        b"<?",
        b"<!",
        b"<table><td>",
        b"<pre>\r",
        b"\r\n",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_HOSTILE, max_size=60), st.integers(1, 64))
def test_hostile_fragments_never_raise(parts: list[bytes], chunk: int) -> None:
    facts = _run(b"".join(parts), chunk)
    assert not facts.truncated


def test_truncated_utf8_at_every_cut() -> None:
    data = ("<meta charset=utf-8><p>" + "é中😀" * 20).encode("utf-8")
    for cut in range(len(data)):
        assert _run(data[:cut], 7).html_bytes == cut


def test_fifty_megabyte_page_is_truncated_quickly() -> None:
    block = b"<div><p>word " * 1000 + b"</p></div>"
    extractor = PageExtractor(URL)
    fed = 0
    while fed < 50 * 1024 * 1024:
        extractor.feed(block)
        fed += len(block)
    facts = extractor.close()
    assert facts.truncated and facts.html_bytes == fed
    assert facts.word_count > 100_000


def test_hundred_thousand_nested_tags() -> None:
    nested = (
        b"<div><span><a href=/x><h1><b>" * 20_000 + b"deep" + b"</b></h1></a></span></div>" * 20_000
    )
    facts = _run(nested, max_bytes=len(nested) + 1)
    assert facts.word_count == 1 and facts.links_seen == 20_000


def test_million_attributes_in_one_tag() -> None:
    tag = b"<a " + b"xy " * 1_000_000 + b'href="/y">text</a><p>after</p>'
    facts = _run(tag, max_bytes=len(tag) + 1)
    assert facts.word_count >= 1  # the oversized tag is skipped; the rest still parses
    truncated = _run(tag)
    assert truncated.truncated


def test_unterminated_constructs_at_eof() -> None:
    for tail in (
        b"<!--",
        b"<script>var a",
        b"<title>t",
        b'<a href="',
        b"<svg><![CDATA[",
        b"<style>",
    ):
        facts = _run(b"<p>kept</p>" + tail + b"x" * 100_000, 1000)
        assert facts.word_count == 1


def test_memory_is_bounded_by_chunk_not_page() -> None:
    page = b"<p>" + b"<span class='c'>some words here</span>" * 5000 + b"</p>"

    def peak(data: bytes) -> int:
        tracemalloc.start()
        _run(data, max_bytes=len(data) + 1)
        result = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return result

    assert peak(page * 20) < peak(page) * 1.5


def test_default_cap_is_two_mebibytes() -> None:
    assert DEFAULT_MAX_BYTES == 2 * 1024 * 1024
    facts = _run(b"a " * (DEFAULT_MAX_BYTES // 2 + 10))
    assert facts.truncated and facts.word_count == DEFAULT_MAX_BYTES // 2
