"""Deterministic ids: the original's key format, pinned by vectors computed with `sha256sum`."""

import string

from hypothesis import given
from hypothesis import strategies as st

from audit.catalogue import IssueType
from audit.issue_ids import issue_id, page_id
from audit.issues import DetectedIssue
from local_platform.rpc import crossing

# printf 'audit-1|https://example.com/|missing-title|' | sha256sum | cut -c1-36, etc.
VECTORS = [
    (
        ("audit-1", "https://example.com/", "missing-title", None),
        "1a8af9e559f80409144fd9624668c0e0b1c1",
    ),
    (
        ("audit-1", "https://example.com/a", "broken-internal-link", "https://example.com/404"),
        "ea5c10f2d14194435ca9edffe8fdb35e1cab",
    ),
]

# "|" is the field separator of the original's format (see the issue_ids module docstring), and a
# lone surrogate hashes like U+FFFD, so neither may appear where distinctness is asserted.
field_text = st.text(
    alphabet=st.characters(exclude_characters="|", exclude_categories=["Cs"]), max_size=40
)


def test_issue_id_vectors():
    for args, expected in VECTORS:
        assert issue_id(*args) == expected


def test_page_id_vector():
    assert page_id("audit-1", "https://example.com/") == "d147c9ebf5de0f443033ecb908a84b2317c6"


def test_missing_dedupe_key_hashes_as_empty_string():
    assert issue_id("a", "u", "t", None) == issue_id("a", "u", "t", "")


@given(field_text, field_text, st.sampled_from(list(IssueType)), st.none() | field_text)
def test_issue_id_is_36_lowercase_hex_and_stable(audit_id, url, issue_type, key):
    first = issue_id(audit_id, url, issue_type, key)
    assert len(first) == 36 and set(first) <= set(string.hexdigits.lower())
    assert issue_id(audit_id, url, issue_type.value, key) == first


@given(
    st.tuples(field_text, field_text, st.sampled_from(list(IssueType)), field_text),
    st.tuples(field_text, field_text, st.sampled_from(list(IssueType)), field_text),
)
def test_distinct_keys_give_distinct_issue_ids(a, b):
    if a != b:
        assert issue_id(*a) != issue_id(*b)


@given(field_text, field_text, field_text)
def test_distinct_urls_give_distinct_page_ids(audit_id, url_a, url_b):
    if url_a != url_b:
        assert page_id(audit_id, url_a) != page_id(audit_id, url_b)


def test_detected_issue_round_trips_across_the_rpc_boundary():
    issue = DetectedIssue(
        IssueType.REDIRECT_CHAIN,
        "https://example.com/a",
        {"hops": ["https://example.com/a", "https://example.com/b"], "n": 2, "ok": None},
        "k",
    )
    assert DetectedIssue.from_dict(crossing(issue.to_dict())) == issue


def test_detected_issue_id_and_severity_come_from_key_and_catalogue():
    issue = DetectedIssue(IssueType.MISSING_TITLE, "https://example.com/")
    assert issue.id("audit-1") == VECTORS[0][1]
    assert issue.severity == "critical"
    assert DetectedIssue.from_dict({"issue_type": "missing-title", "page_url": "u"}).details == {}


def test_lone_surrogates_hash_like_javascripts_text_encoder():
    # TextEncoder turns a lone surrogate into U+FFFD; a valid pair is one astral character.
    assert page_id("a", "x\ud800y") == page_id("a", "x\ufffdy")
    assert page_id("a", "\ud83d\ude00") == page_id("a", "\U0001f600")
