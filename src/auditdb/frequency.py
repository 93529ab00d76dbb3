"""How often a monitor runs: its own module, since `siteaudit monitors add --frequency` names it
in the CLI's parser and auditdb.monitors brings the audit listing's SQL and records with it
(tests/cli/test_startup.py)."""

from __future__ import annotations

from enum import StrEnum


class Frequency(StrEnum):
    DAILY = "daily"  # every day at the monitor's hour
    WEEKLY = "weekly"  # Mondays
    MONTHLY = "monthly"  # the 1st of the month
