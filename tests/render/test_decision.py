"""Which pages a browser renders (render.decision): app shells in every mode (counted in
`never`), auto's small sample by URL hash, every HTML page in `always`; pages not parsed never."""

from __future__ import annotations

import pytest

from parse.extractor import PageExtractor
from parse.facts import PageFacts
from render.decision import (
    SAMPLE_ONE_IN,
    RenderReason,
    in_sample,
    looks_like_app_shell,
    render_reason,
)
from render.records import RenderMode

URL = "https://example.com/page"


def facts(body: str) -> PageFacts:
    extractor = PageExtractor(URL, content_type="text/html; charset=utf-8")
    extractor.feed(f"<!doctype html><html><head><title>T</title></head><body>{body}".encode())
    return extractor.close()


WORDS = " ".join(["word"] * 40)
SHELLS = {
    "vue mount point, classic script": '<div id="app"></div><script src="/app.js"></script>',
    "react mount point and a noscript line": (
        '<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>'
        '<script src="/static/js/main.js"></script>'
    ),
    "module script and a loading link": (
        '<a href="/">Home</a><p>Loading</p><script type="module" src="/main.js"></script>'
    ),
    "the original's test: script, no text": "<script>render()</script>",
    "next.js mount point beside a link": (
        '<a href="/about">About</a><div id="__next"></div><script src="/_next/main.js"></script>'
    ),
}
NOT_SHELLS = {
    "an article with a script": f"<h1>Title</h1><p>{WORDS}</p><script src='/a.js'></script>",
    "a mount point but lots of server-rendered text": (
        f'<div id="app"><p>{WORDS}</p></div><script src="/app.js"></script>'
    ),
    "a mount point without script": '<div id="root"></div>',
    "a json-ld block only": '<div id="app"></div><script type="application/ld+json">{}</script>',
    "a short page with a link and a classic script": (
        '<a href="/">Home</a><script src="/analytics.js"></script>'
    ),
}


@pytest.mark.parametrize("body", SHELLS.values(), ids=SHELLS.keys())
def test_an_app_shell_is_rendered_in_auto_and_always_and_counted_in_never(body: str) -> None:
    page = facts(body)
    assert looks_like_app_shell(page)
    for mode in RenderMode:
        assert render_reason(mode, URL, page) is RenderReason.APP_SHELL


@pytest.mark.parametrize("body", NOT_SHELLS.values(), ids=NOT_SHELLS.keys())
def test_a_page_with_its_content_in_the_html_is_no_shell(body: str) -> None:
    page = facts(body)
    assert not looks_like_app_shell(page)
    assert render_reason(RenderMode.NEVER, URL, page) is None
    assert render_reason(RenderMode.ALWAYS, URL, page) is RenderReason.ALWAYS


def test_a_page_not_parsed_is_never_rendered() -> None:
    assert {render_reason(mode, URL, None) for mode in RenderMode} == {None}


def test_auto_samples_one_url_in_ten_by_hash_the_same_way_every_time() -> None:
    urls = [f"https://example.com/p/{n}" for n in range(2_000)]
    sampled = [url for url in urls if in_sample(url)]
    assert len(urls) / SAMPLE_ONE_IN * 0.8 < len(sampled) < len(urls) / SAMPLE_ONE_IN * 1.2
    assert sampled == [url for url in urls if in_sample(url)]
    page = facts(f"<h1>Title</h1><p>{WORDS}</p>")
    reasons = {url: render_reason(RenderMode.AUTO, url, page) for url in urls}
    assert {url for url, reason in reasons.items() if reason is RenderReason.SAMPLE} == set(sampled)
    assert {reasons[url] for url in urls if url not in sampled} == {None}
    assert {render_reason(RenderMode.NEVER, url, page) for url in sampled} == {None}
