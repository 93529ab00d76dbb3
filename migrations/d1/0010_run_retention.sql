-- Retention of monitor runs (service.run_retention, the daily cleanup cron): runs that started
-- more than MONITOR_RUN_RETENTION_DAYS ago are deleted oldest first, in keyset batches. Without
-- an index led by started_at every batch would scan the whole history of every monitor
-- (monitor_runs_monitor_started_idx leads with monitor_id). tests/auditdb/test_monitor_plans.py
-- runs EXPLAIN QUERY PLAN over these statements.
CREATE INDEX monitor_runs_started_idx ON monitor_runs (started_at, id);
-- The daily cleanup of finished ad-hoc audits (auditdb.repository.delete_finished_before) reads
-- them oldest finish first: a range of this index instead of a scan of every audit.
CREATE INDEX audits_finished_idx ON audits (finished_at);
