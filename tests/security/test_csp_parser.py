"""The CSP parser (a port of the Observatory's cspParser.js): table, then the property that any
header string parses into a policy or an `invalid` reason, never an exception."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from security.csp import parse_csp, parse_csp_meta


@pytest.mark.parametrize(
    ("policies", "expected"),
    [
        (["default-src 'none'"], {"default-src": {"'none'"}}),
        (["DEFAULT-SRC 'NONE'"], {"default-src": {"'none'"}}),  # case-insensitive, lower-cased
        (["default-src"], {"default-src": {"'none'"}}),  # an empty source list means 'none'
        (["upgrade-insecure-requests"], {"upgrade-insecure-requests": {"'none'"}}),
        (["default-src 'none';;; ;;;script-src 'self'"], {"default-src": {"'none'"}, "script-src": {"'self'"}}),
        # superfluous longer sources of one policy are dropped
        (["script-src https://a.com/ https://a.com/x.js"], {"script-src": {"https://a.com/"}}),
        # two policies: only what both allow survives
        (["default-src https: 'self'", "default-src 'self'"], {"default-src": {"'self'"}}),
        (["default-src http:", "default-src https:"], {"default-src": {"'none'"}}),
        # a directive first seen in a later policy keeps nothing (the Observatory's parser)
        (["img-src 'self'", "script-src 'self'"], {"img-src": {"'self'"}, "script-src": {"'none'"}}),
    ],
)  # fmt: skip
def test_policies_parse_into_directives(policies: list[str], expected: dict[str, set[str]]) -> None:
    parsed = parse_csp(policies)
    assert parsed.invalid is None
    assert parsed.directives == expected


@pytest.mark.parametrize(
    "policy",
    [
        "  ",
        "\r\n",
        "",
        "defa",  # shorter than the shortest directive
        "default-src 'none'; default-src 'none'",  # a repeated directive
        "default-src 'none'; img-src 'self'; default-src 'none'",
    ],
)
def test_invalid_policies_say_why(policy: str) -> None:
    parsed = parse_csp([policy])
    assert parsed.invalid is not None
    assert parsed.directives == {}


def test_repeated_report_directives_are_only_noted() -> None:
    parsed = parse_csp(["default-src 'none'; report-uri /a; report-uri /b"])
    assert parsed.invalid is None
    assert parsed.duplicates == {"report-uri"}


def test_meta_policies_drop_header_only_directives() -> None:
    parsed = parse_csp_meta(["default-src 'none'; frame-ancestors 'none'; sandbox"])
    assert set(parsed.directives) == {"default-src"}


def test_no_policy_is_no_directive() -> None:
    assert parse_csp([]).directives == {}
    assert not parse_csp([])


@given(st.lists(st.text(), max_size=4))
def test_any_header_strings_parse_without_exception(policies: list[str]) -> None:
    parsed = parse_csp(policies)
    assert (parsed.invalid is None) or parsed.directives == {}
    for sources in parsed.directives.values():
        assert sources  # every directive keeps at least 'none'


_PIECES = [*"abc-;: '*%/\t\n", "src", "'none'", "https:", "default-src", "%2", "%41", "%aa"]


@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_directive_like_strings_parse_without_exception(policy: str) -> None:
    parse_csp([policy, policy])
    parse_csp_meta([policy])


def test_a_percent_escape_that_is_not_utf8_makes_the_policy_invalid_not_an_error() -> None:
    # decodeURIComponent("%aa") throws URIError, as a stray "%" does (hypothesis found "%aa").
    policy = "default-src https://a.test/%aa/"
    parsed = parse_csp([policy, policy])
    assert parsed.invalid is not None and "not UTF-8" in parsed.invalid
