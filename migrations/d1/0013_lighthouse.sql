-- Lighthouse on a sample of each audit's pages (issue 15; docs/lighthouse.md). The results table,
-- its r2_key and payload_size_bytes, and the audits' lighthouse_total/completed/failed counters
-- exist since 0001; this adds what the phase reports beyond them:
-- * audits.lighthouse_status: NULL until the phase is reached (and for older audits), then
--   'disabled' (option none), 'skipped_no_key' (no PSI_API_KEY), 'running' or 'completed';
-- * monitors.lighthouse: the `lighthouse` option each run's audit gets ('auto' or 'none');
-- * audit_lighthouse_results.field_json: the Chrome UX Report data of the URL and its origin
--   (lighthouse.records.FieldData as JSON: {"url": ..., "origin": ...}), NULL when there was none.
--
-- ADD COLUMN only: audits is referenced with ON DELETE CASCADE, so it is never rebuilt
-- (DEVELOPERS.md).
ALTER TABLE audits ADD COLUMN lighthouse_status TEXT;
ALTER TABLE audit_lighthouse_results ADD COLUMN field_json TEXT;
ALTER TABLE monitors ADD COLUMN lighthouse TEXT NOT NULL DEFAULT 'auto'
    CHECK (lighthouse IN ('auto', 'none'));
