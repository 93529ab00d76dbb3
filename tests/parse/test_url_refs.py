"""parse.url_refs.UrlRefs: each (document base, raw URL) resolved once, within a bound, with
exactly the answers resolution without the memo gives."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parse import url_refs
from parse.extractor import PageExtractor
from parse.facts import Link, PageFacts, Reference, UrlRef
from parse.url_refs import UrlRefs
from urls.resolve import resolve

_BASES = st.sampled_from(
    [
        "https://a.test/docs/page.html",
        "https://a.test/docs/",
        "http://b.test:8080/x/y?z",
        "mailto:x@y",
    ]
)
_RAWS = st.sampled_from(
    [
        "/p/1.html",
        "p/2.html",
        "../up.html",
        "https://c.test/",
        "#f",
        "",
        " /a\tb ",
        "?q",
        "//d.test",
    ]
)


@given(st.integers(0, 5), st.lists(st.tuples(_BASES, _RAWS), max_size=60))
def test_the_memo_is_bounded_and_answers_as_resolution_does(
    cap: int, asks: list[tuple[str, str]]
) -> None:
    refs = UrlRefs(cap)
    for base, raw in asks:
        assert refs.ref(raw, base) == UrlRef(raw, resolve(raw, base))
        assert len(refs) <= cap


def test_a_repeated_ask_is_the_same_object_until_the_base_changes() -> None:
    refs = UrlRefs(2)
    first = refs.ref("/p/1.html", "https://a.test/")
    assert refs.ref("/p/1.html", "https://a.test/") is first
    refs.ref("/p/2.html", "https://a.test/")
    refs.ref("/p/3.html", "https://a.test/")  # beyond the bound: answered, not kept
    assert len(refs) == 2
    assert refs.ref("/p/1.html", "https://b.test/") == UrlRef(
        "/p/1.html", "https://b.test/p/1.html"
    )
    assert len(refs) == 1  # a new base starts afresh


def _page(count: int) -> bytes:
    parts = ["<!doctype html><title>t</title><link rel=stylesheet href=/s.css>"]
    for i in range(count):
        if i == count // 2:
            parts.append('<base href="https://site.test/api/">')
        parts.append(f'<a href="p-{i % (count // 3)}.html#x{i}">e {i}</a><img src="i-{i % 7}.png">')
    return "".join(parts).encode()


def _extract(body: bytes) -> tuple[PageFacts, list[Link], list[Reference]]:
    links: list[Link] = []
    refs: list[Reference] = []
    extractor = PageExtractor(
        "https://site.test/docs/index.html", on_links=links.extend, on_references=refs.extend
    )
    for start in range(0, len(body), 4096):
        extractor.feed(body[start : start + 4096])
    return extractor.close(), links, refs


@pytest.mark.parametrize("count", [30, 1_600])
def test_the_extractor_gives_the_same_facts_and_streams_whatever_the_bound(
    monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    body = _page(count)
    expected = _extract(body)
    monkeypatch.setattr(url_refs, "URL_REFS_CAP", 3)
    assert _extract(body) == expected
    monkeypatch.setattr(url_refs, "URL_REFS_CAP", 0)
    assert _extract(body) == expected
