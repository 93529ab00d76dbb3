-- What rendering did in its audit (issue 30; docs/rendering.md): the workflow's finalize step
-- stores the render queue's tally as JSON (render_summary: an auditdb.rendering.RenderSummary
-- dict: the option, pages rendered, failed and skipped, the app shells left unrendered and why,
-- the links only rendered pages had). The report reads it to say what rendering found, or that
-- rendering would find more. NULL before finalize, and for audits from before this migration.
--
-- ADD COLUMN only: audits is referenced with ON DELETE CASCADE, so it is never rebuilt
-- (DEVELOPERS.md; tests/auditdb/test_migration_render_summary.py keeps every child row).
ALTER TABLE audits ADD COLUMN render_summary TEXT;
