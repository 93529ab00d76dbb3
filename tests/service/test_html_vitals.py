"""The HTML report's Lighthouse section: why it did not run, or a row per page, mobile / desktop."""

from __future__ import annotations

from html import escape

import pytest

from auditdb.lighthouse import LighthouseRow
from auditdb.records import AuditRecord
from lighthouse.records import (
    FieldData,
    FieldMetric,
    FieldScope,
    LighthouseRun,
    LighthouseStatus,
    Strategy,
)
from lighthouse.sample import SampledPage
from service.html_vitals import vitals_section

MOBILE, DESKTOP = Strategy.MOBILE, Strategy.DESKTOP


def audit(status: LighthouseStatus | None, total: int = 0, failed: int = 0) -> AuditRecord:
    return AuditRecord(
        "a1", "https://a.test/", "t", lighthouse_status=status, lighthouse_total=total,
        lighthouse_failed=failed,
    )  # fmt: skip


def link(url: str) -> str:
    return f"<a>{escape(url)}</a>"


def row(url: str, run: LighthouseRun) -> LighthouseRow:
    return LighthouseRow.of("a1", SampledPage(f"id{url}", url), run, None)


@pytest.mark.parametrize(
    ("status", "text"),
    [
        (LighthouseStatus.SKIPPED_NO_KEY, "no PSI_API_KEY is configured"),
        (LighthouseStatus.DISABLED, "option none"),
    ],
)
def test_a_phase_that_did_not_run_says_why(status: LighthouseStatus, text: str) -> None:
    section = vitals_section(audit(status), [], link)
    assert text in section and "<table" not in section


def test_nothing_before_the_phase() -> None:
    assert vitals_section(audit(None), [], link) == ""


def test_one_row_per_page_mobile_then_desktop_with_field_data_and_escaped_errors() -> None:
    field = FieldData(FieldScope.ORIGIN, "SLOW", lcp_ms=FieldMetric(4500), cls=FieldMetric(0.3))
    rows = [
        row("https://a.test/x", LighthouseRun(DESKTOP, performance_score=90, lcp_ms=1200.0)),
        row(
            "https://a.test/x",
            LighthouseRun(MOBILE, performance_score=40, lcp_ms=5100.0, field_origin=field),
        ),
        row("https://a.test/<b>", LighthouseRun.failed(MOBILE, "HTTP 400: <script>")),
    ]
    section = vitals_section(audit(LighthouseStatus.COMPLETED, 4, 1), rows, link)
    assert "4 runs planned, 1 failed (completed)" in section
    assert section.count("<tr>") == 3  # the header and two pages
    assert "<td>40 / 90</td><td>5100 / 1200</td>" in section
    assert "<td>4500 / - / 0.3 (origin)</td>" in section
    assert "mobile: HTTP 400: &lt;script&gt;" in section and "<script>" not in section
    assert "<a>https://a.test/&lt;b&gt;</a>" in section
