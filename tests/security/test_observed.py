"""The `security-check` input: what is accepted, and the error for what is not."""

from __future__ import annotations

import re

import pytest

from security.observed import ObservationError, response_from_input, site_of_response


def test_headers_take_a_value_or_a_list_and_are_lower_cased() -> None:
    response = response_from_input(
        {
            "url": "https://a.test/",
            "status": 200,
            "headers": {"Set-Cookie": ["a=1", "b=2"], "X-A": "1"},
        }
    )
    assert response.headers == {"set-cookie": ["a=1", "b=2"], "x-a": ["1"]}
    assert response.html is None and response.redirects == []


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([], "the response must be a JSON object"),
        ({"url": "ftp://a.test/", "status": 200}, "response: url must be an http(s) URL"),
        ({"url": "https://a.test/", "status": "200"}, "response: status must be an integer"),
        ({"url": "https://a.test/", "status": True}, "response: status must be an integer"),
        ({"url": "https://a.test/", "status": 200, "headers": []}, "response: headers must be an object"),
        ({"url": "https://a.test/", "status": 200, "headers": {"a": 1}}, "response: header 'a' must be"),
        ({"url": "https://a.test/", "status": 200, "html": 3}, "response: html must be a string or null"),
        ({"url": "https://a.test/", "status": 200, "redirects": {}}, "response: redirects must be a list"),
        ({"url": "https://a.test/", "status": 200, "redirects": [1]}, "redirects[0]: must be an object"),
        ({"url": "https://a.test/", "status": 200, "redirects": [{"url": "x", "status": 301}]},
         "redirects[0]: url must be an http(s) URL"),
    ],
)  # fmt: skip
def test_bad_input_says_what_is_wrong(raw: object, message: str) -> None:
    with pytest.raises(ObservationError, match=re.escape(message)):
        response_from_input(raw)


@pytest.mark.parametrize(
    ("url", "redirects", "http_seen", "https_seen"),
    [
        ("https://a.test/", [], False, True),
        ("https://a.test/", ["http://a.test/"], True, True),
        ("http://a.test/", [], True, False),
    ],
)
def test_one_response_stands_for_the_entry_points_it_shows(
    url: str, redirects: list[str], http_seen: bool, https_seen: bool
) -> None:
    hops = [{"url": hop, "status": 301} for hop in redirects]
    site = site_of_response(response_from_input({"url": url, "status": 200, "redirects": hops}))
    assert (site.http is not None, site.https is not None) == (http_seen, https_seen)
    assert site.host == "a.test" and site.auto is site.cors
