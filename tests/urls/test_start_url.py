"""What a user may ask to audit, and how the start URL is normalised."""

import pytest

from urls.private_hosts import PrivateHosts
from urls.start_url import StartUrl, StartUrlError, normalise_start_url, read_start_url, userinfo_in


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("example.com", "https://example.com/"),
        ("  HTTP://Example.COM/a?b=1#frag ", "http://example.com/a?b=1"),
        ("https://example.com:8443", "https://example.com:8443/"),
        ("https://[2606:4700::1111]/", "https://[2606:4700::1111]/"),
        # Valid URLs whose host resolves nowhere: accepted, their fetch fails (a DNS error).
        ("http://./", "http://./"),
        ("http://foo.09..", "http://foo.09../"),
        ("https://a..b/x?", "https://a..b/x?"),
        ("https://example.com/foo%2zbar", "https://example.com/foo%2zbar"),
    ],
)
def test_normalisation(raw: str, expected: str) -> None:
    assert normalise_start_url(raw, private_hosts=PrivateHosts.DENY) == expected


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("", "invalid_url"),
        ("ftp://example.com/", "invalid_url"),
        ("https://", "invalid_url"),
        ("https://exa mple.com/", "invalid_url"),
        ("https://example.com:99999/", "invalid_url"),
        ("javascript:alert(1)", "invalid_url"),
        ("https://" + "a" * 3000 + ".com", "invalid_url"),
        ("http://127.0.0.1:8000/", "target_blocked"),
        ("http://localhost/", "target_blocked"),
        ("http://[::1]/", "target_blocked"),
        ("http://2130706433/", "target_blocked"),
    ],
)
def test_rejections_carry_a_code(raw: str, code: str) -> None:
    with pytest.raises(StartUrlError) as caught:
        normalise_start_url(raw, private_hosts=PrivateHosts.DENY)
    assert caught.value.code == code


def test_private_hosts_are_allowed_only_when_asked() -> None:
    assert (
        normalise_start_url("http://127.0.0.1:8000", private_hosts=PrivateHosts.ALLOW)
        == "http://127.0.0.1:8000/"
    )


@pytest.mark.parametrize(
    ("raw", "url", "assumed"),
    [
        ("127.0.0.1:8001", "https://127.0.0.1:8001/", True),
        ("  example.com/a ", "https://example.com/a", True),
        ("https://example.com", "https://example.com/", False),
        ("http://example.com", "http://example.com/", False),
        ("HTTP://example.com", "http://example.com/", False),
    ],
)
def test_a_text_without_a_scheme_is_read_as_https_and_says_so(
    raw: str, url: str, assumed: bool
) -> None:
    assert read_start_url(raw, private_hosts=PrivateHosts.ALLOW) == StartUrl(url, assumed)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("http://a.b.c.xn--pokxncvks/", "url is malformed: xn--pokxncvks decodes to a label"),
        ("http://xn--a/", "url is malformed: xn--a"),
        ("https://exa mple.com/", "url is malformed: forbidden code point"),
        ("http://10.0.0.1/", "10.0.0.1 is not a public address"),
    ],
)
def test_a_refusal_says_whether_the_url_is_malformed_or_its_target_blocked(
    raw: str, message: str
) -> None:
    with pytest.raises(StartUrlError) as caught:
        normalise_start_url(raw, private_hosts=PrivateHosts.DENY)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("raw", "given"),
    [
        ("https://ci:pa55@stage.example/", True),
        ("ci:pa55@stage.example", True),  # no scheme: https assumed, the user still read
        ("https://ci@stage.example/", True),
        ("https://:pa55@stage.example/", True),
        ("https://stage.example/a@b", False),  # an @ in the path is no userinfo
        ("https://stage.example/?to=a@b", False),
        ("https://stage.example/", False),
        ("http://[bad/", False),  # does not parse: the parse's own error says so
    ],
)
def test_userinfo_in_reads_a_user_or_password_before_the_host(raw: str, given: bool) -> None:
    assert userinfo_in(raw) is given
