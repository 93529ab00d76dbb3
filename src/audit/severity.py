"""An issue's severity, apart from the catalogue: the CLI's `--fail-on` parser names it, and the
catalogue brings every rule's texts with it (the accessibility rules, the structured-data
checks), which `siteaudit --help` must not load (tests/cli/test_startup.py)."""

from __future__ import annotations

from enum import StrEnum


class Severity(StrEnum):
    CRITICAL = "critical"
    WARNING = "warning"
    INFO = "info"

    @property
    def order(self) -> int:
        """Sort key: critical=0, warning=1, info=2 (the original's `ISSUE_SEVERITY_ORDER`)."""
        return _SEVERITY_ORDER[self]


_SEVERITY_ORDER = {Severity.CRITICAL: 0, Severity.WARNING: 1, Severity.INFO: 2}
