-- A fourth audit status, `cancelled`: stopped by its owner, partial results kept, resumable.
--
-- 0001 wrote the allowed statuses as a CHECK on `audits.status`, and SQLite cannot alter a
-- constraint. The usual way round, rebuilding the table (create a copy, DROP TABLE audits,
-- rename), is not safe here: D1 keeps foreign keys on inside every migration and `PRAGMA
-- foreign_keys = off` is a no-op in its transaction, so DROP TABLE audits runs an implicit
-- DELETE that fires ON DELETE CASCADE and empties audit_pages, audit_issues and
-- audit_lighthouse_results. `PRAGMA defer_foreign_keys = on` only defers the constraint check,
-- not the cascade action (Cloudflare's D1 foreign-key and SQL-statement docs, and SQLite
-- foreignkeys.html §5: the implicit DELETE "may invoke foreign key actions").
--
-- So the table is never dropped: the status moves to a new column that carries the wider CHECK,
-- and the old column goes with ALTER TABLE DROP COLUMN, which rewrites each audits row in place
-- (same rowid, no DELETE, no cascade). SQLite allows dropping a column whose CHECK is its own
-- column constraint, once no index names it (lang_altertable.html, "ALTER TABLE DROP COLUMN"),
-- so the three indexes on status are dropped first and made again on the renamed column.
-- tests/auditdb/test_migration_cancelled.py applies 0001..0006 to a database with pages and
-- issues and checks every child row survives.

ALTER TABLE audits ADD COLUMN status_next TEXT NOT NULL DEFAULT 'running'
    CHECK (status_next IN ('running', 'completed', 'failed', 'cancelled'));
UPDATE audits SET status_next = status;

DROP INDEX audits_status_started_idx;
DROP INDEX audits_owner_status_created_id_idx;
DROP INDEX audits_owner_status_idx;
ALTER TABLE audits DROP COLUMN status;
ALTER TABLE audits RENAME COLUMN status_next TO status;

-- The same three indexes as 0001, 0004 and 0005: the watchdog's sweep, the list filter
-- `status=...` in keyset order, and the running-audits count of the rate limits.
CREATE INDEX audits_status_started_idx ON audits (status, started_at);
CREATE INDEX audits_owner_status_created_id_idx ON audits (owner, status, created_at, id);
CREATE INDEX audits_owner_status_idx ON audits (owner, status);
