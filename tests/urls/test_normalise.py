"""URL normalisation, same-site and origins: RFC 3986 vectors, browser behaviour, our decisions."""

import re
from urllib.parse import unquote_to_bytes

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urls.normalise import (
    normalise_percent_encoding,
    normalise_request_target,
    normalise_url,
    origin_of,
    path_and_query,
    same_site,
    split_url,
)
from urls.parser import InvalidUrl, UnsupportedScheme, Url, parse_url

RFC_BASE = "http://a/b/c/d;p?q"


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        # RFC 3986 §5.4.1 normal examples (fragments dropped, "//g" gains its "/" path).
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"),
        ("//g", "http://g/"),
        ("?y", "http://a/b/c/d;p?y"),
        ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q"),
        ("g#s", "http://a/b/c/g"),
        ("g?y#s", "http://a/b/c/g?y"),
        (";x", "http://a/b/c/;x"),
        ("g;x", "http://a/b/c/g;x"),
        ("g;x?y#s", "http://a/b/c/g;x?y"),
        ("", "http://a/b/c/d;p?q"),
        (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"),
        ("..", "http://a/b/"),
        ("../", "http://a/b/"),
        ("../g", "http://a/b/g"),
        ("../..", "http://a/"),
        ("../../", "http://a/"),
        ("../../g", "http://a/g"),
        # RFC 3986 §5.4.2 abnormal examples.
        ("../../../g", "http://a/g"),
        ("../../../../g", "http://a/g"),
        ("/./g", "http://a/g"),
        ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."),
        (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"),
        ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g"),
        ("g#s/../x", "http://a/b/c/g"),
        # Non-strict reading (RFC 3986 §5.2.2, and browsers): same scheme means relative.
        ("http:g", "http://a/b/c/g"),
        # Not http(s): nothing to fetch.
        ("g:h", None),
    ],
)
def test_rfc3986_reference_resolution(href: str, expected: str | None) -> None:
    assert normalise_url(href, RFC_BASE) == expected


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("HTTP://Example.COM/Path", "http://example.com/Path"),  # the path keeps its case
        ("https://example.com", "https://example.com/"),  # empty path -> "/"
        ("http://example.com:80/a", "http://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("http://example.com:443/a", "http://example.com:443/a"),  # not http's default
        ("http://example.com:/a", "http://example.com/a"),  # empty port = default (WHATWG)
        ("http://example.com:0080/a", "http://example.com/a"),
        ("http://example.com/a#top", "http://example.com/a"),
        ("http://example.com/a?", "http://example.com/a?"),  # "?" is sent: kept (RFC 3986 §6.2.3)
        ("http://example.com/a?b=2&a=1", "http://example.com/a?b=2&a=1"),  # order kept
        ("http://example.com/a?a=1&a=1", "http://example.com/a?a=1&a=1"),
        # RFC 3986 §6.2.2: unreserved decoded, other escapes uppercased, never decoded.
        ("http://example.com/%7euser/%41%2d%5f%2e", "http://example.com/~user/A-_."),
        ("http://example.com/a%2fb%3f?q=%2b%26", "http://example.com/a%2Fb%3F?q=%2B%26"),
        ("http://example.com/a/%2E%2e/b", "http://example.com/b"),  # encoded dots are dots
        ("http://example.com/%zz/100%", "http://example.com/%zz/100%"),  # stray "%" as written
        # What a browser percent-encodes (WHATWG path and query sets; non-ASCII as UTF-8).
        ("http://example.com/a b/ä", "http://example.com/a%20b/%C3%A4"),
        ("http://example.com/{x}`<y>", "http://example.com/%7Bx%7D%60%3Cy%3E"),
        ("http://example.com/p?q=a b&r='ü'", "http://example.com/p?q=a%20b&r=%27%C3%BC%27"),
        ("http://example.com/[a]|^?a[]=1", "http://example.com/[a]|^?a[]=1"),
        # Browser input clean-up.
        ("  http://example.com/a\tb\nc  ", "http://example.com/abc"),
        ("http:\\\\example.com\\a\\b?c\\d", "http://example.com/a/b?c\\d"),
        # Hosts.
        ("http://Bücher.Example/", "http://xn--bcher-kva.example/"),
        ("http://例え.テスト/", "http://xn--r8jz45g.xn--zckzah/"),
        ("http://example.com./", "http://example.com./"),
        ("http://2130706433/", "http://127.0.0.1/"),  # WHATWG IPv4 number forms
        ("http://0x7f.1/", "http://127.0.0.1/"),
        ("http://[0:0:0:0:0:0:0:1]:8080/", "http://[::1]:8080/"),
        ("http://[2001:DB8::1]/", "http://[2001:db8::1]/"),
        ("http://user:pa@ss@example.com/", "http://user:pa%40ss@example.com/"),
        ("http://my_host.example.com/", "http://my_host.example.com/"),
        ("http://straße.de/", "http://xn--strae-oqa.de/"),  # UTS #46 as browsers, not IDNA 2003
        # What browsers make of what the original crawler refused.
        ("http:///nohost", "http://nohost/"),
        ("http://ex%61mple.com/", "http://example.com/"),  # hosts are percent-decoded
        ("http://example.com/a\x00b", "http://example.com/a%00b"),
        ("http://exa\ud800mple.com/a", None),  # a lone surrogate is U+FFFD, refused in hosts
        ("http://example.com/\ud800", "http://example.com/%EF%BF%BD"),
    ],
)
def test_normalisation(href: str, expected: str) -> None:
    assert normalise_url(href) == expected


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        # Issue 26: a stray "%" is sent as written by a browser; "%25" would be another resource.
        ("http://example.com/foo%2zbar", "http://example.com/foo%2zbar"),
        ("http://example.org/test?%GH", "http://example.org/test?%GH"),
        ("http://example.com/foo%", "http://example.com/foo%"),
        ("http://example.com/%%", "http://example.com/%%"),
        ("http://example.com/%%7E", "http://example.com/%~"),
        # Decoding "%41" after a stray "%" would make "%AB" (one byte) of "%", "A", "B".
        ("http://example.com/%%41B", "http://example.com/%%41B"),
        ("http://example.com/%4%31?%%34%31", "http://example.com/%4%31?%%341"),
        # The RFC 3986 §6.2.2 equivalences, which stay.
        ("http://example.com/a%2fb", "http://example.com/a%2Fb"),
        ("http://example.com/%7Euser", "http://example.com/~user"),
        ("http://example.com/a%2Fb", "http://example.com/a%2Fb"),
        # Hosts the URL Standard accepts (tests/data/wpt/urltestdata.json): their fetch fails.
        ("http://./", "http://./"),
        ("http://foo.09..", "http://foo.09../"),
        ("http://a..b/", "http://a..b/"),
        ("http://" + "a" * 64 + ".com/", "http://" + "a" * 64 + ".com/"),
        # Hosts it refuses: an A-label of mapped code points (urltestdata.json "Domain is ASCII,
        # but a label is invalid IDNA"), invalid punycode, a Bidi domain name with a label
        # starting with a digit (UTS #46 CheckBidi, RFC 5893 §2 rule 1).
        ("http://a.b.c.xn--pokxncvks/", None),
        ("http://xn--a/", None),
        ("http://xn--tešla/", None),
        ("http://\u05d0.1a/", None),
    ],
)
def test_normalisation_never_changes_what_is_requested(href: str, expected: str | None) -> None:
    assert normalise_url(href) == expected


@pytest.mark.parametrize(
    ("target", "expected"),
    [("/a%", "/a%"), ("/%2zbar?%GH", "/%2zbar?%GH"), ("/a%2f%7e", "/a%2F~"), ("/%%41B", "/%%41B")],
)
def test_robots_patterns_keep_a_stray_percent_too(target: str, expected: str) -> None:
    assert normalise_request_target(target) == expected


@pytest.mark.parametrize(
    ("href", "base", "expected"),
    [
        # PR #61: the trailing slash is the site's, never ours to add or strip.
        ("/docs", "https://example.com/", "https://example.com/docs"),
        ("/docs/", "https://example.com/", "https://example.com/docs/"),
        ("docs/", "https://example.com/guide/intro", "https://example.com/guide/docs/"),
        # RFC 3986 §5.4: "?" empties the query (urllib's urljoin keeps the base's).
        ("?", "https://example.com/list?page=2", "https://example.com/list?"),
        ("//cdn.example.net/x.js", "https://example.com/", "https://cdn.example.net/x.js"),
        ("\\\\evil.example\\x", "https://example.com/", "https://evil.example/x"),
        # A different scheme is absolute, and a special URL skips any slashes before its host.
        ("https:other", "http://example.com/a/b", "https://other/"),
        ("/a", None, None),
        ("/a", "not a url", None),
        ("/a", "mailto:x@example.com", None),
    ],
)
def test_resolution_against_a_base(href: str, base: str | None, expected: str | None) -> None:
    assert normalise_url(href, base) == expected


@pytest.mark.parametrize(
    "href",
    [
        "mailto:someone@example.com",
        "javascript:void(0)",
        "ftp://example.com/",
        "data:,x",
        "tel:+123",
        "file:///etc/passwd",
        "http://",
        "http://:80/",
        "http://exa mple.com/",
        "http://example.com:99999/",
        "http://example.com:8o/",
        "http://example.com:-1/",
        "http://example.com:٨٠/",
        "http://[::1/",
        "http://[::1]x/",
        "http://[fe80::1%25eth0]/",
        "http://[v1.x]/",
        "http://1.2.3.256/",
        "http://1.2.3.4.5/",
        "http://exa\x7fmple.com/",
        "http://ex\ud800ample.com/",
        "http://exa\u3000mple.com/",
        "//example.com/",
    ],
)
def test_unfetchable_or_malformed_urls_are_none(href: str) -> None:
    assert normalise_url(href) is None


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("https://example.com/", "https://example.com/about", True),
        ("https://example.com/", "https://www.example.com/", True),
        ("https://www.example.com/", "https://example.com/", True),
        ("https://EXAMPLE.com./", "https://www.example.com/", True),
        ("http://example.com/", "https://example.com/", True),  # default ports: upgrade
        ("https://example.com/", "http://www.example.com/", True),
        ("https://example.com/", "https://example.com:443/", True),
        ("https://example.com:8443/", "https://example.com:8443/x", True),
        ("https://example.com/", "https://example.com:8443/", False),
        ("http://example.com:8080/", "https://example.com/", False),
        ("http://example.com/", "https://example.com:80/", False),
        ("https://example.com/", "https://blog.example.com/", False),
        ("https://example.com/", "https://wwwexample.com/", False),
        ("https://www.example.com/", "https://www.www.example.com/", False),
        ("https://example.com/", "https://example.org/", False),
        ("https://example.com/", "mailto:a@example.com", False),
        ("https://example.com/", "not a url", False),
    ],
)
def test_same_site(a: str, b: str, expected: bool) -> None:
    assert same_site(a, b) is expected
    assert same_site(b, a) is expected


@pytest.mark.parametrize(
    ("url", "origin", "target"),
    [
        ("HTTPS://Example.com:443/a?b#c", "https://example.com", "/a?b"),
        ("http://example.com:8080", "http://example.com:8080", "/"),
        ("http://[::1]:81/x", "http://[::1]:81", "/x"),
        ("ftp://example.com/", None, None),
    ],
)
def test_origin_and_request_target(url: str, origin: str | None, target: str | None) -> None:
    assert origin_of(url) == origin
    assert path_and_query(url) == target


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/a%2fb", "/a%2Fb"),
        ("/%7E%41", "/~A"),
        ("/ツ", "/%E3%83%84"),
        ("/%", "/%"),
        ("/*.gif$", "/*.gif$"),
        ("/a b", "/a%20b"),
    ],
)
def test_percent_encoding_normalisation(text: str, expected: str) -> None:
    assert normalise_percent_encoding(text) == expected


# -- properties ---------------------------------------------------------------------------------

_url_alphabet = st.sampled_from(list("aAzZ09-._~:/?#[]@!$&'()*+,;=% \\\t\"<>{}|^`ä€\u3000.\x00"))
_url_like = st.builds(
    lambda scheme, host, port, rest: f"{scheme}{host}{port}{rest}",
    st.sampled_from(["http://", "HTTPS://", "https:", "//", "", "ftp://", "http:\\\\"]),
    st.text(st.sampled_from(list("aZ0.-_[]:%äxn")), max_size=12),
    st.sampled_from(["", ":", ":80", ":443", ":8080", ":99999", ":x"]),
    st.text(_url_alphabet, max_size=30),
)
_any_url = st.one_of(st.text(max_size=60), _url_like)
_bases = st.one_of(st.none(), _any_url, st.just("https://www.example.com/dir/page?q=1"))


@given(_any_url, _bases)
def test_normalise_never_raises_and_is_idempotent(href: str, base: str | None) -> None:
    first = normalise_url(href, base)
    if first is not None:
        assert normalise_url(first) == first
        assert first.isascii() and "#" not in first and " " not in first


@given(_any_url, _bases, _bases)
def test_a_normalised_url_is_absolute_whatever_the_base(
    href: str, base: str | None, other_base: str | None
) -> None:
    first = normalise_url(href, base)
    if first is not None:
        assert normalise_url(first, other_base) == first


@given(st.text(max_size=40))
def test_percent_normalisation_is_idempotent(text: str) -> None:
    once = normalise_percent_encoding(text)
    assert normalise_percent_encoding(once) == once


@given(_any_url, _any_url)
def test_same_site_never_raises_and_is_symmetric(a: str, b: str) -> None:
    assert same_site(a, b) == same_site(b, a)


@given(_any_url, _any_url)
def test_same_site_is_the_host_rule_on_the_split_urls(a: str, b: str) -> None:
    first, second = split_url(a), split_url(b)
    if first is None or second is None:
        assert not same_site(a, b)
        return
    hosts_match = first.host.rstrip(".").removeprefix("www.") == second.host.rstrip(
        "."
    ).removeprefix("www.")
    if first.scheme == second.scheme:
        ports_match = first.effective_port == second.effective_port
    else:
        ports_match = first.port is None and second.port is None
    assert same_site(a, b) == (hosts_match and ports_match)
    assert normalise_url(a) == first.unsplit()


_escapes_alphabet = st.sampled_from(list("%%%2479aAeEfFG~./?#z\u00e4 "))
_percent_heavy = st.builds(
    lambda base, rest: base + rest,
    st.sampled_from(["http://example.com/", "https://x.test/a?", "//h/", "", "?"]),
    st.text(_escapes_alphabet, max_size=24),
)
_SAME_BASE = "https://www.example.com/dir/page?q=1"


def _browser_request(href: str, base: str | None) -> str:
    """What a browser requests for `href`: the URL Standard's href without its fragment."""
    try:
        base_url: Url | None = None if base is None else parse_url(base)
    except (InvalidUrl, UnsupportedScheme):
        base_url = None
    return parse_url(href, base_url).without_fragment()


def _rfc3986_equivalence_key(text: str) -> str:
    """A naive single pass of RFC 3986 §6.2.2.1-2 over `text`: two URLs with the same key
    differ only by the case of hex digits and by escapes of unreserved characters."""

    def one(match: re.Match[str]) -> str:
        char = chr(int(match[0][1:], 16))
        return char if char.isascii() and (char.isalnum() or char in "-._~") else match[0].upper()

    return re.sub(r"%[0-9A-Fa-f]{2}", one, text)


@given(st.one_of(_any_url, _percent_heavy), st.sampled_from([None, _SAME_BASE]))
def test_normalising_changes_only_rfc3986_equivalent_spellings(href: str, base: str | None) -> None:
    normalised = normalise_url(href, base)
    if normalised is None:
        return
    requested = _browser_request(href, base)
    # The same bytes once decoded (a stray "%" decodes to itself), and the same escapes up to
    # the two equivalences: "%252zbar" for "%2zbar" fails the second, "%AB" for "%%41B" the first.
    assert unquote_to_bytes(normalised) == unquote_to_bytes(requested)
    assert _rfc3986_equivalence_key(normalised) == _rfc3986_equivalence_key(requested)
    assert normalise_url(normalised) == normalised


@given(st.text(_escapes_alphabet, max_size=30))
def test_percent_normalisation_keeps_the_decoded_bytes(text: str) -> None:
    once = normalise_percent_encoding(text)
    assert normalise_percent_encoding(once) == once
    assert unquote_to_bytes(once) == unquote_to_bytes(normalise_percent_encoding(text, frozenset()))
