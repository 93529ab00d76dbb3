"""The Lighthouse sample: eligible pages, the start URL first, one page per URL template."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lighthouse.sample import (
    DEFAULT_SAMPLE_PAGES,
    SampledPage,
    canonical_key,
    select_sample,
    url_template,
)


@dataclass(frozen=True)
class Page:
    id: str
    url: str
    status_code: int = 200
    fetch_class: str = "ok"


def pages(*urls: str) -> list[Page]:
    return [Page(f"p{i}", url) for i, url in enumerate(urls)]


@pytest.mark.parametrize(
    ("url", "template"),
    [
        ("https://a.test/", "a.test/"),
        ("https://a.test/products/42", "a.test/products/:id"),
        ("https://a.test/u/0b4c7f3e-9d2a-4f1b-8c6e-1234567890ab/x", "a.test/u/:uuid/x"),
        ("https://a.test/u/0B4C7F3E-9D2A-4F1B-8C6E-1234567890AB", "a.test/u/:uuid"),
        ("https://a.test/news/2024-05-01/today", "a.test/news/:date/today"),
        ("https://a.test/blog/how-to-audit-sites", "a.test/blog/:slug"),
        ("https://a.test/blog/two-parts", "a.test/blog/two-parts"),
        ("https://www.A.test/blog/a-b-c/", "a.test/blog/:slug/"),
        ("https://a.test/p/12?page=2#top", "a.test/p/:id"),
        ("https://a.test/v2/item", "a.test/v2/item"),
    ],
)
def test_url_templates(url: str, template: str) -> None:
    assert url_template(url) == template


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("http://WWW.Example.test/a?b=2&a=1#x", "https://example.test/a?a=1&b=2"),
        ("https://example.test", "https://example.test/"),
        ("http://127.0.0.1:8080/", "https://127.0.0.1:8080/"),
    ],
)
def test_canonical_keys(url: str, key: str) -> None:
    assert canonical_key(url) == key


@pytest.mark.parametrize(
    ("crawled", "start", "expected"),
    [
        # the start page first though crawled last, then one per template in crawl order
        (
            ["https://a.test/p/1", "https://a.test/p/2", "https://a.test/about", "https://a.test/"],
            "https://a.test/",
            ["https://a.test/", "https://a.test/p/1", "https://a.test/about"],
        ),
        # matched on the canonical key: http vs https, www., query order
        (
            ["https://a.test/x", "http://www.a.test/?b=2&a=1"],
            "https://a.test/?a=1&b=2",
            ["http://www.a.test/?b=2&a=1", "https://a.test/x"],
        ),
        # falling back to the key without its trailing slash
        (
            ["https://a.test/x", "https://a.test/shop"],
            "https://a.test/shop/",
            ["https://a.test/shop", "https://a.test/x"],
        ),
        (
            ["https://a.test/x", "https://a.test/shop/"],
            "https://a.test/shop",
            ["https://a.test/shop/", "https://a.test/x"],
        ),
        # a start URL that was not crawled: templates only
        (
            ["https://a.test/a", "https://a.test/b"],
            "https://a.test/",
            ["https://a.test/a", "https://a.test/b"],
        ),
        # dates, UUIDs and slugs collapse
        (
            [
                "https://a.test/news/2024-01-01",
                "https://a.test/news/2024-02-02",
                "https://a.test/blog/one-long-slug",
                "https://a.test/blog/another-long-slug",
                "https://a.test/o/0b4c7f3e-9d2a-4f1b-8c6e-1234567890ab",
                "https://a.test/o/1b4c7f3e-9d2a-4f1b-8c6e-1234567890ab",
            ],
            "https://a.test/none",
            [
                "https://a.test/news/2024-01-01",
                "https://a.test/blog/one-long-slug",
                "https://a.test/o/0b4c7f3e-9d2a-4f1b-8c6e-1234567890ab",
            ],
        ),
    ],
)
def test_selection(crawled: list[str], start: str, expected: list[str]) -> None:
    assert [page.url for page in select_sample(pages(*crawled), start)] == expected


@pytest.mark.parametrize(
    ("status", "fetch_class", "eligible"),
    [
        (200, "ok", True),
        (204, "ok", True),
        (200, "blocked", False),  # a challenge page answering 200
        (200, "rate_limited", False),
        (301, "ok", False),
        (404, "ok", False),
        (500, "ok", False),
        (0, "error", False),
    ],
)
def test_only_2xx_ok_pages_are_eligible(status: int, fetch_class: str, eligible: bool) -> None:
    home = Page("home", "https://a.test/", status, fetch_class)
    assert (select_sample([home], "https://a.test/") == [SampledPage("home", home.url)]) is eligible


def test_the_cap_defaults_to_ten_and_can_be_set() -> None:
    many = pages(*(f"https://a.test/section{i}" for i in range(30)))
    assert DEFAULT_SAMPLE_PAGES == 10
    assert len(select_sample(many, "https://a.test/")) == 10
    assert [p.page_id for p in select_sample(many, "https://a.test/section7", 3)] == [
        "p7",
        "p0",
        "p1",
    ]


@given(
    st.lists(
        st.sampled_from(["/", "/a", "/a/1", "/a/2", "/b-c-d", "/x-y-z", "/2024-01-01", "/q"]),
        max_size=20,
    ),
    st.integers(1, 12),
)
def test_samples_are_capped_distinct_templates_from_the_input(paths: list[str], limit: int) -> None:
    crawled = pages(*(f"https://a.test{p}" for p in paths))
    sample = select_sample(crawled, "https://a.test/", limit)
    assert len(sample) <= limit
    assert len({url_template(p.url) for p in sample}) == len(sample)
    assert {p.page_id for p in sample} <= {p.id for p in crawled}
