"""The spelled-out conversions of an issue on its way to D1 say what the generic ones say.

`DetectedIssue.from_dict` and `IssueRecord.to_row` are written by hand because finalize converts
tens of thousands of issues a page; they must read and write exactly what `common.wire`'s
generic `from_json`/`to_json` do (from_json's checks included).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.catalogue import IssueType
from audit.issues import DetectedIssue
from auditdb.records import IssueRecord
from common.wire import WireError, from_json

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
issues = st.builds(
    DetectedIssue,
    st.sampled_from(IssueType),
    st.text(max_size=30),
    st.dictionaries(st.text(max_size=8), json_values, max_size=4),
    st.none() | st.text(max_size=20),
)


@given(issues)
def test_from_dict_reads_what_the_generic_reader_reads(issue: DetectedIssue) -> None:
    data = json.loads(json.dumps(issue.to_dict()))
    assert DetectedIssue.from_dict(data) == from_json(DetectedIssue, data) == issue


@pytest.mark.parametrize(
    "data",
    [
        {"page_url": "u"},
        {"issue_type": "missing-title"},
        {"issue_type": "no-such-type", "page_url": "u"},
        {"issue_type": 3, "page_url": "u"},
        {"issue_type": "missing-title", "page_url": None},
        {"issue_type": "missing-title", "page_url": "u", "details": []},
        {"issue_type": "missing-title", "page_url": "u", "details": {1: "x"}},
        {"issue_type": "missing-title", "page_url": "u", "dedupe_key": 1},
    ],
)
def test_from_dict_refuses_what_the_generic_reader_refuses(data: dict[Any, Any]) -> None:
    with pytest.raises(WireError):
        from_json(DetectedIssue, data)
    with pytest.raises(WireError):
        DetectedIssue.from_dict(data)


@given(issues, st.none() | st.text(max_size=36))
def test_to_row_is_the_records_dict_with_details_as_sorted_json(
    issue: DetectedIssue, page_id: str | None
) -> None:
    record = IssueRecord.from_detected("audit-1", issue, page_id)
    expected = record.to_dict()
    expected["details_json"] = json.dumps(expected.pop("details"), sort_keys=True)
    row = record.to_row()
    assert list(row.items()) == list(expected.items())  # the columns in the same order
    assert IssueRecord.from_row(row) == record
