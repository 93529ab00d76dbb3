"""Link resolution for extracted attributes: browser results, and fast paths equal to the parser."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parse.extractor import PageExtractor
from urls import parser
from urls import resolve as resolve_module
from urls.parser import InvalidUrl, UnsupportedScheme, Url, clean, parse_url
from urls.resolve import base_url, document_base, fast_resolve, is_http, resolve

BASE = "https://example.com/dir/page.html?q=1"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # Backslashes are slashes in http(s) URLs: urljoin read "\page.html" as a file name.
        ("\\page.html", "https://example.com/page.html"),
        ("..\\a", "https://example.com/a"),
        ("\\\\cdn.example.net\\x.js", "https://cdn.example.net/x.js"),
        ("sub\\..\\b", "https://example.com/dir/b"),
        ("http:\\\\example.org\\a?b\\c#d", "http://example.org/a?b\\c"),
        # Clean-up, relative forms, fragments dropped.
        ("  /a\tb\n ", "https://example.com/ab"),
        ("", "https://example.com/dir/page.html?q=1"),
        ("#top", "https://example.com/dir/page.html?q=1"),
        ("?", "https://example.com/dir/page.html?"),
        ("other.html", "https://example.com/dir/other.html"),
        ("../../../x", "https://example.com/x"),
        ("/a/%2e%2E/b", "https://example.com/b"),
        ("//Example.ORG:443/", "https://example.org/"),
        ("https://straße.de/", "https://xn--strae-oqa.de/"),
        ("http://0x7f.1/", "http://127.0.0.1/"),
        ("http://[0:0::1]/", "http://[::1]/"),
        ("/a b/ä", "https://example.com/a%20b/%C3%A4"),
        # Other schemes are kept as written (the rules report them), invalid URLs are None.
        ("mailto:someone@example.com#x", "mailto:someone@example.com"),
        ("javascript:void(0)", "javascript:void(0)"),
        ("http://exa mple.com/", None),
        ("http://[::1/", None),
        ("http://example.com:99999/", None),
    ],
)
def test_links_resolve_as_browsers_resolve_them(raw: str, expected: str | None) -> None:
    assert resolve(raw, BASE) == expected


@pytest.mark.parametrize(
    ("href", "expected"),
    [("\\page.html", "https://example.com/page.html"), ("..\\a", "https://example.com/a")],
)
def test_the_extractor_resolves_backslashes_as_browsers_do(href: str, expected: str) -> None:
    extractor = PageExtractor("https://example.com/dir/page.html")
    extractor.feed(f'<a href="{href}">x</a>'.encode())
    facts = extractor.close()
    assert [link.href.url for link in facts.links] == [expected]


@pytest.mark.parametrize(
    ("page", "base_href", "expected"),
    [
        ("https://a.test/x/y", None, "https://a.test/x/y"),
        ("https://a.test/x/y", "/b/", "https://a.test/b/"),
        ("https://a.test/x/y", "\\b\\", "https://a.test/b/"),
        ("https://a.test/x/y", "javascript:alert(1)", "https://a.test/x/y"),
        ("https://a.test/x/y", "http://[", "https://a.test/x/y"),
    ],
)
def test_document_base(page: str, base_href: str | None, expected: str) -> None:
    assert document_base(page, base_href) == expected


def test_is_http() -> None:
    assert is_http("HTTP://a/") and not is_http("https://a/") and not is_http(None)


# -- the fast paths answer exactly what the parser answers ---------------------------------------

_HOSTS = st.sampled_from(
    [
        "example.com",
        "Example.com",
        "a.b-c.test",
        "xn--bcher-kva.example",
        "xn--zz.test",
        "a_b.c.",
        "1.2.3.4",
        "0x7f.1",
        "a.1",
        "1a.b",
        "[::1]",
        "ex%61mple.com",
        "a..b",
    ]
)
_PORTS = st.sampled_from(["", ":80", ":443", ":8080", ":0", ":00080", ":65536", ":1"])
_CHARS = list("az09-._~!$&'()*+,;=:@%/?#\\ \"<>`{}[]|^ä\t")
_PIECES = st.sampled_from([*_CHARS, "..", "%2e", "%2E", "/./", "/../", "%41", "%zz", "?x=1"])
_TAILS = st.lists(_PIECES, max_size=12).map("".join)
_ABSOLUTE = st.builds(
    lambda scheme, host, port, tail: f"{scheme}{host}{port}{tail}",
    st.sampled_from(["http://", "https://", "HTTP://", "//", "http:", "ftp://", ""]),
    _HOSTS,
    _PORTS,
    _TAILS,
)
_ROOTED = st.builds(lambda tail: "/" + tail, _TAILS)
_RELATIVE = st.builds(
    lambda first, tail: first + tail, st.sampled_from(["a", "x.html", "%2e", "."]), _TAILS
)
_BASES = st.sampled_from(
    [BASE, "http://user:pw@a.test:8080/x/y?z", "http://a.test", "ftp://a.test/", "mailto:x@y"]
)


def _parser_answer(text: str, base: str) -> str | None:
    try:
        parsed_base: Url | None = parse_url(base)
    except (InvalidUrl, UnsupportedScheme):
        parsed_base = None  # as urls.resolve reads a base it cannot parse (`mailto:`): none
    try:
        return parse_url(text, parsed_base).without_fragment()
    except (InvalidUrl, UnsupportedScheme):
        return None


@given(st.one_of(_ABSOLUTE, _ROOTED, _RELATIVE, _TAILS), _BASES)
def test_fast_paths_agree_with_the_parser(raw: str, base: str) -> None:
    text = clean(raw)
    fast = fast_resolve(text, base)
    if fast is not None:
        assert fast == _parser_answer(text, base)


def _parsed(text: str, base: str | None) -> str | None:
    try:
        return parse_url(text, None if base is None else parse_url(base)).href
    except (InvalidUrl, UnsupportedScheme):
        return None


@given(st.one_of(_ABSOLUTE, _ROOTED, _RELATIVE, _TAILS), st.one_of(st.none(), _BASES))
def test_the_parsers_plain_path_shortcut_changes_nothing(raw: str, base: str | None) -> None:
    shortcut = _parsed(raw, base)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parser, "_is_plain_path", lambda text: False)
        assert shortcut == _parsed(raw, base)


@given(st.one_of(_ABSOLUTE, _ROOTED, st.text(max_size=40)), _BASES)
def test_resolve_never_raises(raw: str, base: str) -> None:
    result = resolve(raw, base)
    assert result is None or "#" not in result or not result.startswith("http")


@pytest.mark.parametrize(
    "raw",
    [
        "https://a.test/x?y=1#z",
        "http://a.test:8080",
        "/p/q.html?r",
        "//cdn.test/s.js",
        "/",
        "sql-select.html",
        "sub/page.html?q=1#top",
    ],
)
def test_common_links_take_a_fast_path(raw: str) -> None:
    assert fast_resolve(raw, BASE) == _parser_answer(raw, BASE) is not None


# -- fast-path answers remembered across pages (issue 29) ------------------------------------------


def _uncached(raw: str, base: str) -> str | None:
    text = clean(raw)
    fast = fast_resolve(text, base)  # the fast paths themselves, not their memo
    return fast if fast is not None else resolve_module._resolve_fully(text, base)


@given(
    st.lists(
        st.tuples(
            st.one_of(_ABSOLUTE, _ROOTED, _RELATIVE, _TAILS),
            _BASES,
            st.sampled_from(["", "other.html", "?q=1", "#f"]),
        ),
        max_size=20,
    )
)
def test_a_remembered_resolution_is_the_one_worked_out_afresh(
    asked: list[tuple[str, str, str]],
) -> None:
    """Pages of one directory share the memo: each answer is the uncached one, whichever page of
    the directory asked first (a sibling page: another last segment, query or fragment)."""
    for raw, base, sibling in asked + asked:  # the second time from the memo
        for page in (base, resolve(sibling, base) or base):
            assert base_url(page).resolve(raw) == _uncached(raw, page)


def test_long_references_are_resolved_but_not_remembered() -> None:
    resolve_module._fast_resolved.cache_clear()
    long = "/" + "a" * resolve_module.RESOLVED_RAW_MAX
    assert base_url(BASE).resolve(long) == _parser_answer(long, BASE)
    assert base_url(BASE).resolve("/short") == _parser_answer("/short", BASE)
    assert resolve_module._fast_resolved.cache_info().currsize == 1
