"""Writing `monitor_runs` rows as finished runs leave them, for tests of what reads them.

Every column of the record is written as given (the consumer inserts a run `running`; finishing
it fills the rest), so a test states the exact history it reads back.
"""

from __future__ import annotations

from auditdb.monitors import MonitorRunRecord
from local_platform.runtime import LocalEnv


async def insert_runs(env: LocalEnv, runs: list[MonitorRunRecord]) -> None:
    for run in runs:
        row = run.to_dict()
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        sql = f"INSERT INTO monitor_runs ({columns}) VALUES ({marks})"
        await env.DB.prepare(sql).bind(*row.values()).run()
