"""The monitor records and the queue message survive the JSON a queue, a D1 row or RPC carries."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from auditdb.monitors import MonitorRecord, MonitorRunRecord
from maintenance.monitor_producer import MonitorDue

text = st.text(max_size=20)
numbers = st.floats(0, 100, allow_nan=False)
records = st.one_of(
    st.builds(
        MonitorRecord,
        include=st.lists(text, max_size=3),
        exclude=st.lists(text, max_size=3),
        alert_score_drop=numbers,
    ),
    st.builds(MonitorRunRecord, health_score=st.none() | numbers),
    st.builds(MonitorDue),
)


@given(records)
def test_round_trip_through_json_text(
    record: MonitorRecord | MonitorRunRecord | MonitorDue,
) -> None:
    assert type(record).from_dict(json.loads(json.dumps(record.to_dict()))) == record


def test_a_row_reads_its_json_columns_and_0_1_flags() -> None:
    row = {
        "id": "m1", "owner": "o", "url": "https://e.example/", "frequency": "weekly", "hour": 6,
        "max_pages": 10, "max_depth": None, "include_json": '["/blog/"]', "exclude_json": "[]",
        "webhook_url": None, "webhook_secret": "whsec_x", "alert_score_drop": 5,
        "alert_on_grade_drop": 1, "alert_on_new_critical": 0, "is_active": 1,
        "last_run_at": None, "next_due_at": "2026-12-07T06:00:00.000Z", "lock_until": None,
        "created_at": "2026-12-01T00:00:00.000Z",
    }  # fmt: skip

    monitor = MonitorRecord.from_row(row)

    assert (monitor.include, monitor.alert_on_new_critical, monitor.alert_score_drop) == (
        ["/blog/"],
        False,
        5.0,
    )
    assert "webhook_secret" not in monitor.to_dict()
