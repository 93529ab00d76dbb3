"""What the report options ask for, as values: the format, where it goes, the `--fail-on`
conditions, and the exit statuses (cli/deliver.py writes the report and says what each means).

The parser and every command read these before any audit runs, so this module imports nothing
that writes a report: `siteaudit --help` and `siteaudit cancel` never load the formats
(tests/cli/test_startup.py checks what `import cli.main` loads).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cli.gate import Condition


class OutputFormat(StrEnum):
    TEXT = "text"
    JSON = "json"
    CSV = "csv"
    JUNIT = "junit"
    SARIF = "sarif"
    HTML = "html"


class ExitStatus(IntEnum):
    OK = 0
    GATE_FAILED = 1
    USAGE = 2
    INCOMPLETE = 3


@dataclass(frozen=True, slots=True)
class Delivery:
    """What to hand over: the format, where (None: stdout), and the `--fail-on` conditions."""

    format: OutputFormat = OutputFormat.TEXT
    output: Path | None = None
    conditions: tuple[Condition, ...] = ()

    @property
    def report_on_stdout(self) -> bool:
        """The report itself goes to stdout, so nothing else may (`audit <id>` goes to stderr)."""
        return self.format is not OutputFormat.TEXT and self.output is None


class Refused(Exception):
    """The API refused a request the delivery needed; its message is for stderr (exit 2)."""
