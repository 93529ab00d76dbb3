-- The site's security grade in its audit (issue 12 item 5; docs/security.md "In the audit"):
-- the workflow's security-grade step stores the HTTP Observatory-compatible letter and score of
-- the start URL, the 12 test outcomes as JSON (security_tests: a list of security.results.
-- TestOutcome dicts, read only by the report), and, when the site could not be graded, why
-- (security_error). All NULL until the step ran, and for audits from before this migration.
--
-- ADD COLUMN only: audits is referenced with ON DELETE CASCADE, so it is never rebuilt
-- (DEVELOPERS.md; tests/auditdb/test_migration_security.py keeps every child row).
ALTER TABLE audits ADD COLUMN security_grade TEXT;
ALTER TABLE audits ADD COLUMN security_score INTEGER;
ALTER TABLE audits ADD COLUMN security_tests TEXT;
ALTER TABLE audits ADD COLUMN security_error TEXT;
-- A monitor run's grade has had its column since 0007; its score joins it.
ALTER TABLE monitor_runs ADD COLUMN security_score INTEGER;
