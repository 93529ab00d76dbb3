-- Fixed-window request counters: one row per (bucket, window), bumped by one atomic upsert per
-- request. Buckets name what is limited ("requests:<key id>", "audits:<key id>"). Rows carry their
-- expiry so the daily cleanup deletes them by index and the table stays a stable size: counters
-- that are never deleted make every later rate-limit query slower as the table grows.
CREATE TABLE rate_limits (
    bucket TEXT NOT NULL,
    window_start_ms INTEGER NOT NULL,
    hits INTEGER NOT NULL,
    expires_at_ms INTEGER NOT NULL,
    PRIMARY KEY (bucket, window_start_ms)
) WITHOUT ROWID;
CREATE INDEX rate_limits_expires_idx ON rate_limits (expires_at_ms);
-- Running audits per owner (the concurrency limit) is counted from audits by status.
CREATE INDEX audits_owner_status_idx ON audits (owner, status);
