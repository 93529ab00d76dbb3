-- Owners prove control of a host before an audit may ignore its robots.txt (issue 28, item 2;
-- docs/manual/verify.md, src/auditdb/verifications.py).
--
-- `host_verifications`: one row per owner and host (the URL authority, `example.com` or
-- `example.com:8443`). `token` is random and kept for the row's life, so a proof put in place
-- once keeps working; `method` is how the owner chose to show it. `status` follows the transition
-- table of auditdb.verifications (pending -> verified | failed, re-checked before each audit that
-- relies on it); `reason` is the last check's sentence, `checked_at` its time, `verified_at` the
-- time of the last check that passed.
CREATE TABLE host_verifications (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    host TEXT NOT NULL,
    method TEXT NOT NULL CHECK (method IN ('file', 'dns', 'meta')),
    token TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'verified', 'failed')),
    reason TEXT,
    created_at TEXT NOT NULL,
    checked_at TEXT,
    verified_at TEXT
);
-- One verification per owner and host; the audit's re-check looks it up by both.
CREATE UNIQUE INDEX host_verifications_owner_host_idx ON host_verifications (owner, host);

-- What became of an audit's `ignore_robots` (auditdb.verifications.RobotsDecision as JSON):
-- ignored, with the proof's method and date, or obeyed, with the reason. NULL: not asked for.
ALTER TABLE audits ADD COLUMN robots_override TEXT;

-- A monitor's runs ignore robots.txt (each run's audit option, checked again by the audit).
ALTER TABLE monitors ADD COLUMN ignore_robots INTEGER NOT NULL DEFAULT 0;

-- A start URL robots.txt closes to siteaudit, on a site with no page open to it, ends the audit
-- `failed` with `start_robots_disallowed` (common.failures.ErrorCode) rather than completing with
-- nothing crawled. The CHECK widens as 0016 widened it: a new column, never a rebuilt table (D1
-- runs migrations with foreign keys on; DEVELOPERS.md, Conventions).
-- tests/auditdb/test_migration_host_verifications.py applies it to a database with child rows.
ALTER TABLE audits ADD COLUMN error_code_next TEXT CHECK (error_code_next IS NULL OR
    error_code_next IN (
        'step_timeout', 'oom', 'cpu_limit', 'db_error', 'step_output_too_large',
        'workflow_internal', 'instance_lost', 'unknown',
        'site_dns_error', 'site_connection_failed', 'site_tls_error', 'site_timeout',
        'site_network_error', 'site_private_address', 'site_http_error', 'start_not_html',
        'start_robots_disallowed'));
UPDATE audits SET error_code_next = error_code;
ALTER TABLE audits DROP COLUMN error_code;
ALTER TABLE audits RENAME COLUMN error_code_next TO error_code;
