"""The closed error vocabulary of failed audits, mapped from the platform's error texts.

Rules are evaluated in order on the message (docs/original-system.md §5.1), so a "Step X output is
too large" wrapped in a WorkflowInternalError still classifies as step_output_too_large.
"""

from __future__ import annotations

from enum import StrEnum

ERROR_DETAIL_MAX_CHARS = 500


class ErrorCode(StrEnum):
    OOM = "oom"
    CPU_LIMIT = "cpu_limit"
    STEP_TIMEOUT = "step_timeout"
    STEP_OUTPUT_TOO_LARGE = "step_output_too_large"
    WORKFLOW_INTERNAL = "workflow_internal"
    DB_ERROR = "db_error"
    INSTANCE_LOST = "instance_lost"
    UNKNOWN = "unknown"


_CONTAINS_RULES: tuple[tuple[ErrorCode, tuple[str, ...]], ...] = (
    (ErrorCode.OOM, ("exceeded memory limit",)),
    (ErrorCode.CPU_LIMIT, ("exceeded CPU time limit",)),
    (ErrorCode.STEP_TIMEOUT, ("WorkflowTimeoutError", "Execution timed out")),
    (ErrorCode.STEP_OUTPUT_TOO_LARGE, ("output is too large",)),
    (ErrorCode.WORKFLOW_INTERNAL, ("WorkflowInternalError",)),
    (ErrorCode.DB_ERROR, ("D1_ERROR", "D1_EXEC_ERROR", "D1_TYPE_ERROR")),
)


def classify_error(message: str | None) -> ErrorCode:
    text = message or ""
    if text.startswith("Failed query:"):
        return ErrorCode.DB_ERROR
    for code, needles in _CONTAINS_RULES:
        if any(needle in text for needle in needles):
            return code
    return ErrorCode.UNKNOWN


def error_detail(message: str | None) -> str | None:
    if message is None:
        return None
    return message[:ERROR_DETAIL_MAX_CHARS]
