"""An audit's credentials (urls.credentials): what is accepted and refused (with a message that
never quotes a value), where they may go, the redacted view, and the lossless round trip."""

from __future__ import annotations

import base64
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urls.credentials import (
    REDACTED,
    BasicAuth,
    CredentialKind,
    Credentials,
    CredentialsError,
    Recipient,
    RedactedCredentials,
    parse_origin,
)

SECRET = "s3cret-Value_42"


def creds(**fields: object) -> Credentials:
    return Credentials(**fields)  # type: ignore[arg-type]


GOOD = [
    {"basic_auth": BasicAuth("ci", SECRET)},
    {"basic_auth": BasicAuth("ci", "")},  # an empty password is a password (RFC 7617)
    {"basic_auth": BasicAuth("jürgen", "pässwort")},  # sent as UTF-8 (RFC 7617 §2.1)
    {"headers": {"CF-Access-Client-Id": "id.access", "CF-Access-Client-Secret": SECRET}},
    {"headers": {"x-vercel-protection-bypass": SECRET, "Accept-Language": "de"}},
    {"headers": {"Authorization": f"Bearer {SECRET}"}},  # a token, without basic_auth
    {"headers": {"X-Empty": ""}},
    {"headers": {"X-Spaced": "a b\tc"}},
    {"cookies": {"session": SECRET, "quoted": '"abc"'}},
    {"cookies": {"__Host-id": "1"}, "origins": ["https://api.example.com"]},
]

BAD = [
    ({}, "must hold basic_auth, headers or cookies"),
    ({"origins": ["https://a.example"]}, "must hold basic_auth, headers or cookies"),
    ({"basic_auth": BasicAuth("", SECRET)}, "basic_auth.user must not be empty"),
    ({"basic_auth": BasicAuth("c:i", SECRET)}, "must not contain ':'"),
    ({"basic_auth": BasicAuth("ci", SECRET + "\n")}, "basic_auth.password must not contain"),
    ({"basic_auth": BasicAuth("ci", REDACTED)}, "send the real value"),
    ({"headers": {"Bad Name": SECRET}}, "is not an RFC 9110 token"),
    ({"headers": {"X-A": SECRET, "x-a": SECRET}}, "given twice"),
    ({"headers": {"Host": SECRET}}, "the connection's"),
    ({"headers": {"Content-Length": "1"}}, "the connection's"),
    ({"headers": {"Transfer-Encoding": "chunked"}}, "the connection's"),
    ({"headers": {"Connection": "close"}}, "the connection's"),
    ({"headers": {"TE": "trailers"}}, "the connection's"),
    ({"headers": {"Upgrade": "h2c"}}, "the connection's"),
    ({"headers": {"Proxy-Authorization": SECRET}}, "the connection's"),
    ({"headers": {"User-Agent": "x"}}, "robots.txt is matched on its token"),
    ({"headers": {"Accept-Encoding": "br"}}, "cannot be set"),
    ({"headers": {"Cookie": f"a={SECRET}"}}, "give cookies as `cookies`"),
    (
        {"basic_auth": BasicAuth("ci", SECRET), "headers": {"Authorization": SECRET}},
        "not both",
    ),
    ({"headers": {"X-Token": SECRET + "\r\nX-Evil: 1"}}, "is not an RFC 9110 field value"),
    ({"headers": {"X-Token": " " + SECRET}}, "is not an RFC 9110 field value"),
    ({"headers": {"X-Token": SECRET + "é"}}, "is not an RFC 9110 field value"),
    ({"headers": {"X-Token": REDACTED}}, "send the real value"),
    ({"headers": {"X-Token": "x" * 4097}}, "longer than 4096"),
    ({"headers": {f"X-{n}": SECRET for n in range(21)}}, "at most 20 headers"),
    ({"cookies": {"a b": SECRET}}, "is not an RFC 6265 token"),
    ({"cookies": {"session": SECRET + ";x=1"}}, "is not an RFC 6265 cookie-value"),
    ({"cookies": {"session": SECRET + " "}}, "is not an RFC 6265 cookie-value"),
    ({"cookies": {"session": SECRET + ","}}, "is not an RFC 6265 cookie-value"),
    ({"cookies": {"session": REDACTED}}, "send the real value"),
    ({"cookies": {f"c{n}": "v" for n in range(51)}}, "at most 50 cookies"),
    ({"cookies": {"a": "b"}, "origins": ["https://A.example/"]}, "is not serialised"),
    ({"cookies": {f"c{n}": "v" * 4000 for n in range(5)}}, "bytes of request headers"),
]


@pytest.mark.parametrize("fields", GOOD)
def test_good_credentials_round_trip_losslessly(fields: dict[str, object]) -> None:
    given_ = creds(**fields)
    assert Credentials.from_dict(given_.to_dict()) == given_
    assert Credentials.from_dict(json.loads(json.dumps(given_.to_dict()))) == given_


@pytest.mark.parametrize(("fields", "words"), BAD, ids=[words for _, words in BAD])
def test_bad_credentials_are_refused_without_quoting_a_value(
    fields: dict[str, object], words: str
) -> None:
    with pytest.raises(CredentialsError) as caught:
        creds(**fields)
    assert words in str(caught.value)
    assert SECRET not in str(caught.value)


def test_the_request_fields_are_basic_auth_a_cookie_header_and_the_headers_lowercased() -> None:
    given_ = creds(
        basic_auth=BasicAuth("ci", "pw"),
        headers={"X-Token": "t"},
        cookies={"session": "abc", "theme": "dark"},
    )
    assert given_.request_headers() == {
        "x-token": "t",
        "authorization": "Basic " + base64.b64encode(b"ci:pw").decode(),
        "cookie": "session=abc; theme=dark",
    }
    assert given_.kinds == [
        CredentialKind.BASIC_AUTH,
        CredentialKind.HEADERS,
        CredentialKind.COOKIES,
    ]


def test_basic_auth_is_utf_8_encoded() -> None:
    fields = creds(basic_auth=BasicAuth("jürgen", "pässwort")).request_headers()
    assert (
        fields["authorization"] == "Basic " + base64.b64encode("jürgen:pässwort".encode()).decode()
    )


@pytest.mark.parametrize(
    ("text", "origin"),
    [
        ("https://Example.COM", "https://example.com"),
        ("https://example.com/", "https://example.com"),
        ("https://example.com:443", "https://example.com"),
        ("http://example.com:8080", "http://example.com:8080"),
        ("https://bücher.example", "https://xn--bcher-kva.example"),
        ("http://[::1]:8000", "http://[::1]:8000"),
        (" https://a.example ", "https://a.example"),
    ],
)
def test_an_origin_is_read_as_rfc_6454_serialises_it(text: str, origin: str) -> None:
    assert parse_origin(text) == origin


@pytest.mark.parametrize(
    "text",
    [
        "example.com",
        "ftp://example.com",
        "https://example.com/path",
        "https://example.com/?q",
        "https://example.com/#f",
        "https://user:pw@example.com",
        "not a url",
    ],
)
def test_anything_but_an_origin_is_refused(text: str) -> None:
    with pytest.raises(CredentialsError, match="origin"):
        parse_origin(text)


@pytest.mark.parametrize(
    ("start", "origins", "allowed"),
    [
        ("https://stage.example/a", [], {"https://stage.example"}),
        (
            "https://stage.example/",
            ["https://api.stage.example"],
            {"https://stage.example", "https://api.stage.example"},
        ),
        # http on the default port: its https twin too (httpx's is_https_redirect)
        ("http://stage.example/", [], {"http://stage.example", "https://stage.example"}),
        # ... but never the other way, nor for another port
        ("https://stage.example/", [], {"https://stage.example"}),
        ("http://127.0.0.1:8000/", [], {"http://127.0.0.1:8000"}),
    ],
)
def test_the_allowed_origins_are_the_start_origin_the_listed_ones_and_https_twins(
    start: str, origins: list[str], allowed: set[str]
) -> None:
    given_ = creds(cookies={"s": "1"}, origins=origins)
    assert given_.allowed_origins(start) == allowed


@pytest.mark.parametrize(
    ("flags", "recipients"),
    [
        ({}, {Recipient.SITE}),
        ({"send_to_external_links": True}, {Recipient.SITE, Recipient.EXTERNAL_LINKS}),
        ({"send_to_lighthouse": True}, {Recipient.SITE, Recipient.LIGHTHOUSE}),
    ],
)
def test_only_the_site_gets_them_unless_the_user_allows_more(
    flags: dict[str, bool], recipients: set[Recipient]
) -> None:
    given_ = creds(cookies={"s": "1"}, **flags)
    assert {r for r in Recipient if given_.allows(r)} == recipients


def test_the_redacted_view_shows_names_and_the_user_never_a_value() -> None:
    given_ = creds(
        basic_auth=BasicAuth("ci", SECRET),
        headers={"CF-Access-Client-Secret": SECRET},
        cookies={"session": SECRET},
        origins=["https://api.example"],
        send_to_external_links=True,
    )
    view = given_.redacted()
    assert view.to_dict() == {
        "basic_auth": {"user": "ci", "password": REDACTED},
        "headers": {"CF-Access-Client-Secret": REDACTED},
        "cookies": {"session": REDACTED},
        "origins": ["https://api.example"],
        "send_to_lighthouse": False,
        "send_to_external_links": True,
    }
    assert RedactedCredentials.from_dict(view.to_dict()) == view
    for text in (repr(given_), repr(given_.basic_auth), str(given_), repr(view)):
        assert SECRET not in text


def test_a_redacted_view_cannot_hold_a_secret() -> None:
    with pytest.raises(CredentialsError):
        RedactedCredentials(headers={"X-Token": SECRET})
    with pytest.raises(CredentialsError):
        RedactedCredentials(basic_auth=BasicAuth("ci", SECRET))


def test_scrub_removes_every_secret_and_every_field_built_from_them() -> None:
    given_ = creds(basic_auth=BasicAuth("ci", SECRET), cookies={"session": "c00kie-v4lue"})
    token = base64.b64encode(f"ci:{SECRET}".encode()).decode()
    text = f"h11 refused Authorization: Basic {token}; cookie session=c00kie-v4lue; pw {SECRET}"
    scrubbed = given_.scrub(text)
    assert SECRET not in scrubbed and token not in scrubbed and "c00kie-v4lue" not in scrubbed
    assert scrubbed.count(REDACTED) == 3


_VALUE = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=30)


@given(
    user=st.text(
        st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters=":")
    ).filter(lambda u: u.strip() == u and u != ""),
    password=_VALUE.filter(lambda v: v != REDACTED),
    header=_VALUE.filter(lambda v: v != REDACTED),
)
def test_any_valid_credentials_survive_the_round_trip_and_scrub_leaves_no_secret(
    user: str, password: str, header: str
) -> None:
    given_ = creds(basic_auth=BasicAuth(user, password), headers={"X-Token": header})
    assert Credentials.from_dict(json.loads(json.dumps(given_.to_dict()))) == given_
    text = " | ".join(given_.request_headers().values()) + f" {password} {header}"
    scrubbed = given_.scrub(text)
    for secret in (password, header):
        if len(secret) > len(REDACTED) or secret not in REDACTED:
            assert secret not in scrubbed


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("not an object", "must be an object"),
        ({"cookies": {"s": "1"}, "extra": 1}, "unknown fields ['extra']"),
        ({"basic_auth": "ci:pw"}, "basic_auth must be an object"),
        ({"basic_auth": {"user": "ci"}}, "basic_auth.password must be a string"),
        ({"headers": {"X": 1}}, "headers must be an object of strings"),
        ({"cookies": ["s=1"]}, "cookies must be an object of strings"),
        ({"cookies": {"s": "1"}, "origins": "https://a.example"}, "origins must be a list"),
        ({"cookies": {"s": "1"}, "send_to_lighthouse": "yes"}, "must be true or false"),
    ],
)
def test_a_malformed_object_is_refused_by_name(data: object, words: str) -> None:
    with pytest.raises(CredentialsError, match=re.escape(words)):
        Credentials.from_dict(data)  # type: ignore[arg-type]
