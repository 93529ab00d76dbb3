-- The exposure checks' summary in their audit (issue 12 item 4; docs/exposure.md "In the audit"):
-- the workflow's exposure-checks step stores what it looked at as JSON (exposure_summary: an
-- auditdb.exposure_issues.ExposureSummary dict: issue, script and byte counts, whether DNS was
-- checked or why it was skipped, and the error that stopped the checks), read only by the report.
-- NULL until the step ran, and for audits from before this migration.
--
-- ADD COLUMN only: audits is referenced with ON DELETE CASCADE, so it is never rebuilt
-- (DEVELOPERS.md; tests/auditdb/test_migration_exposure.py keeps every child row).
ALTER TABLE audits ADD COLUMN exposure_summary TEXT;
