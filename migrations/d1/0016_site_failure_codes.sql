-- The site's own failures as audit error codes (common.failures.ErrorCode, issue 24): an audit
-- whose start URL cannot be fetched, answers 4xx/5xx or is not an HTML page now ends `failed`
-- with one of these codes instead of completing with nothing to say.
--
-- 0001 wrote the allowed codes as a CHECK on `audits.error_code`, and SQLite cannot alter a
-- constraint. As in 0006, the table is never rebuilt (D1 runs migrations with foreign keys on,
-- and DROP TABLE audits would cascade-delete every page and issue): the code moves to a new
-- column carrying the wider CHECK, and the old one goes with ALTER TABLE DROP COLUMN (allowed: its
-- CHECK is its own column constraint and no index names it).
-- tests/auditdb/test_migration_site_failures.py applies it to a database with child rows.

ALTER TABLE audits ADD COLUMN error_code_next TEXT CHECK (error_code_next IS NULL OR
    error_code_next IN (
        'step_timeout', 'oom', 'cpu_limit', 'db_error', 'step_output_too_large',
        'workflow_internal', 'instance_lost', 'unknown',
        'site_dns_error', 'site_connection_failed', 'site_tls_error', 'site_timeout',
        'site_network_error', 'site_private_address', 'site_http_error', 'start_not_html'));
UPDATE audits SET error_code_next = error_code;
ALTER TABLE audits DROP COLUMN error_code;
ALTER TABLE audits RENAME COLUMN error_code_next TO error_code;
