-- The response-time verdict's summary in its audit (issue 24 item 4; docs/timing.md): the
-- workflow's timing-check step stores what it measured as JSON (timing_summary: an
-- auditdb.timing.TimingSummary dict: the site's median, how many pages were measured again and
-- found slow). Comparisons read its median for the slow-site finding's hysteresis
-- (auditdb.compare). NULL until the step ran, and for audits from before this migration.
--
-- ADD COLUMN only: audits is referenced with ON DELETE CASCADE, so it is never rebuilt
-- (DEVELOPERS.md; tests/auditdb/test_migration_timing.py keeps every child row).
ALTER TABLE audits ADD COLUMN timing_summary TEXT;
