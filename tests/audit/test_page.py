"""PageObservation: lossless round trip, derived fields, and the JavaScript text helpers."""

import pytest
from hypothesis import given, settings

from audit.page import PageObservation
from audit.page_rules import run_page_rules
from audit.text import is_absolute_url, js_length, js_trim
from local_platform.rpc import crossing
from parse.facts import Heading, UrlRef
from tests.audit.audit_builders import observe
from tests.audit.audit_strategies import observations


@settings(max_examples=200)
@given(observations)
def test_observation_round_trips_across_the_rpc_boundary(obs):
    assert PageObservation.from_dict(crossing(obs.to_dict())) == obs


@settings(max_examples=300)
@given(observations)
def test_rules_never_raise_and_report_json_safe_issues_on_the_observed_page(obs):
    issues = run_page_rules(obs)
    assert all(issue.page_url == obs.url for issue in issues)
    kinds = [issue.issue_type for issue in issues]
    assert len(kinds) == len(set(kinds))  # a page rule reports each type at most once per page
    for issue in issues:  # details cross the RPC boundary (no tuples, JSON values only)
        assert type(issue).from_dict(crossing(issue.to_dict())) == issue


def test_negative_sizes_are_refused():
    with pytest.raises(ValueError):
        observe(status_code=-1)


@pytest.mark.parametrize(
    ("meta", "header", "indexable"),
    [
        ((), None, True),
        (("noindex",), None, False),
        (("NOINDEX, nofollow",), None, False),
        (("index",), "NoIndex", False),
        (("all",), "noarchive", True),
        (("index", "noindex"), None, False),
        (("none",), None, True),  # the original's test is the substring "noindex"
    ],
)
def test_is_indexable(meta, header, indexable):
    assert observe({"meta_robots": meta}, x_robots_tag=header).is_indexable is indexable


@pytest.mark.parametrize(
    ("canonicals", "header", "effective"),
    [
        ((), None, None),
        ((), "/other", "https://example.com/other"),
        ((UrlRef("/a", "https://EXAMPLE.com:443/a#x"),), "/other", "https://example.com/a"),
        ((UrlRef("x", None),), "/other", "https://example.com/other"),  # unresolvable HTML value
    ],
)
def test_effective_canonical_prefers_html_then_header(canonicals, header, effective):
    obs = observe({"canonicals": canonicals}, header_canonical=header)
    assert obs.effective_canonical == effective


def test_h1_count_ignores_empty_h1s_and_other_levels():
    headings = (Heading(1, ""), Heading(1, "A"), Heading(2, "B"), Heading(1, "\u3000"))
    assert observe({"headings": headings}).h1_count == 1


def test_title_and_description_are_the_first_ones_js_trimmed():
    obs = observe({"titles": ("\ufeff T ", "U"), "meta_descriptions": ("\n D\t", "E")})
    assert (obs.title, obs.meta_description) == ("T", "D")
    assert observe({"titles": ()}).title == "" and observe(facts=None).meta_description == ""


@pytest.mark.parametrize(
    ("text", "length"), [("", 0), ("abc", 3), ("é", 1), ("\U0001f600", 2), ("a\U0001f600b", 4)]
)
def test_js_length_counts_utf16_code_units(text, length):
    assert js_length(text) == length


def test_js_trim_matches_string_prototype_trim():
    assert js_trim("\ufeff\u00a0 x \u2028\u3000") == "x"
    assert js_trim("\x1cx\x1f") == "\x1cx\x1f"  # Python's strip() would remove these


@pytest.mark.parametrize(
    ("raw", "absolute"),
    [
        ("https://a/b", True),
        ("HTTP://a", True),
        ("/b", False),
        ("//a/b", False),
        ("b", False),
        ("", False),
        ("1http://a", False),
    ],
)
def test_is_absolute_url(raw, absolute):
    assert is_absolute_url(raw) is absolute
