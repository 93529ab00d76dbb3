"""srcset candidates and meta refresh URLs, as the HTML Living Standard parses them."""

from __future__ import annotations

import pytest

from parse.attr_urls import refresh_url, srcset_urls


@pytest.mark.parametrize(
    ("value", "urls"),
    [
        ("", []),
        ("a.png", ["a.png"]),
        ("a.png 1x, b.png 2x", ["a.png", "b.png"]),
        ("  a.png  480w ,b.png 800w", ["a.png", "b.png"]),
        ("a.png,b.png", ["a.png,b.png"]),  # a comma inside a URL run is part of it
        ("a.png, b.png", ["a.png", "b.png"]),
        ("a.png,, b.png 2x", ["a.png", "b.png"]),  # trailing commas end the candidate
        ("data:image/png;base64,AAA 1x, b.png", ["data:image/png;base64,AAA", "b.png"]),
        ("a.png (x, y) 1x, b.png", ["a.png", "b.png"]),  # commas in parentheses
        (",,, a.png", ["a.png"]),
        ("a.png bogus descriptor, b.png", ["a.png", "b.png"]),
    ],
)
def test_srcset_urls(value: str, urls: list[str]) -> None:
    assert srcset_urls(value) == urls


@pytest.mark.parametrize(
    ("content", "url"),
    [
        ("5", None),
        ("0; url=/next", "/next"),
        ("0;URL = '/quoted' trailing", "/quoted"),
        ('3,url="/double"', "/double"),
        ("0 /bare", "/bare"),
        ("0; /no-url-key", "/no-url-key"),
        ("1.5.2; url=/dots", "/dots"),
        (".5;url=/half", "/half"),
        ("0; urx=/x", "urx=/x"),  # not the url key: the rest is the URL
        ("0; url /no-equals", "url /no-equals"),
        ("x; url=/no-time", None),
        ("5x; url=/junk", None),
        ("0;", None),
        ("", None),
    ],
)
def test_refresh_url(content: str, url: str | None) -> None:
    assert refresh_url(content) == url
