-- A monitor run keeps its audit's error code (common.failures.ErrorCode), issue 24: a failed run
-- tells a site that is down (`site_*`, `start_not_html`: the site's side) from an audit that
-- failed on ours (`oom`, `instance_lost`, ...). The alert of a failed run names who is to blame,
-- and the first completed run after failures of the site's side posts the recovery notice,
-- decided from these rows (src/service/run_finish.py, docs/alerts.md).
--
-- No CHECK: the codes are `audits.error_code`'s (0016 checks them there, where each run's code is
-- copied from), and a CHECK here could never be widened. SQLite cannot alter a constraint, and
-- monitor_runs may not be rebuilt: `alerts` references it with ON DELETE CASCADE, so a DROP TABLE
-- under D1's foreign keys would delete every alert (DEVELOPERS.md, Conventions).
-- NULL: the run has not failed, or failed before this column existed, or without an audit.

ALTER TABLE monitor_runs ADD COLUMN error_code TEXT;
