"""Every platform error text maps to exactly one code of the closed vocabulary."""

import pytest

from common.failures import ERROR_DETAIL_MAX_CHARS, ErrorCode, classify_error, error_detail


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("Worker exceeded memory limit.", ErrorCode.OOM),
        ("Error: Durable Object exceeded memory limit", ErrorCode.OOM),
        ("Python Worker exceeded CPU time limit", ErrorCode.CPU_LIMIT),
        ("WorkflowTimeoutError: Execution timed out after 300000ms", ErrorCode.STEP_TIMEOUT),
        ("Execution timed out", ErrorCode.STEP_TIMEOUT),
        (
            "Step crawl-chunk-3-1 output is too large. Maximum allowed size is 1MiB.",
            ErrorCode.STEP_OUTPUT_TOO_LARGE,
        ),
        ("WorkflowInternalError: Step x-1 output is too large.", ErrorCode.STEP_OUTPUT_TOO_LARGE),
        ("WorkflowInternalError: something broke", ErrorCode.WORKFLOW_INTERNAL),
        ("Error: D1_ERROR: no such table: audits: SQLITE_ERROR", ErrorCode.DB_ERROR),
        ("Failed query: insert into audit_pages", ErrorCode.DB_ERROR),
        (
            "D1_TYPE_ERROR: Type 'bigint' not supported for value '9007199254740993'",
            ErrorCode.DB_ERROR,
        ),
        ("TypeError: 'NoneType' object is not subscriptable", ErrorCode.UNKNOWN),
        ("", ErrorCode.UNKNOWN),
        (None, ErrorCode.UNKNOWN),
    ],
)
def test_classification(message: str | None, code: ErrorCode) -> None:
    assert classify_error(message) is code


def test_detail_is_truncated_to_the_column_budget() -> None:
    assert error_detail("x" * 2000) == "x" * ERROR_DETAIL_MAX_CHARS
    assert error_detail(None) is None


def test_site_failures_are_decided_from_the_fetch_never_from_an_error_text() -> None:
    texts = ["site_dns_error", "cannot resolve a.test", "HTTP 503", "start_not_html"]
    assert not any(classify_error(text).is_site_failure for text in texts)


@pytest.mark.parametrize("code", list(ErrorCode))
def test_each_code_is_blamed_on_the_site_only_when_it_names_the_site(code: ErrorCode) -> None:
    assert code.is_site_failure == code.value.startswith(("site_", "start_"))


@pytest.mark.parametrize("code", list(ErrorCode))
def test_each_code_has_a_plain_meaning(code: ErrorCode) -> None:
    assert code.meaning and code.value not in code.meaning and "_" not in code.meaning
