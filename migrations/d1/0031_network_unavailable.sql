-- An audit whose start URL got no answer, on a machine whose own network reached none of the
-- reference sites either, ends `failed` with `network_unavailable` (common.failures.ErrorCode,
-- crawl.network_probe): our side, never the site's `site_dns_error` or `site_timeout`. The CHECK
-- widens as 0016 and 0023 widened it: a new column, never a rebuilt table (D1 runs migrations with
-- foreign keys on; DEVELOPERS.md, Conventions). monitor_runs.error_code has no CHECK (0018).
-- tests/auditdb/test_migration_network_unavailable.py applies it to a database with child rows.
ALTER TABLE audits ADD COLUMN error_code_next TEXT CHECK (error_code_next IS NULL OR
    error_code_next IN (
        'step_timeout', 'oom', 'cpu_limit', 'db_error', 'step_output_too_large',
        'workflow_internal', 'instance_lost', 'unknown', 'network_unavailable',
        'site_dns_error', 'site_connection_failed', 'site_tls_error', 'site_timeout',
        'site_network_error', 'site_private_address', 'site_http_error', 'start_not_html',
        'start_robots_disallowed'));
UPDATE audits SET error_code_next = error_code;
ALTER TABLE audits DROP COLUMN error_code;
ALTER TABLE audits RENAME COLUMN error_code_next TO error_code;
