-- Monitor alerts (issue 11 item 8): at most one per run. A finished run whose health score
-- dropped past the monitor's threshold, or that found new critical issues, gets one row here in
-- the same D1 batch that finishes it (src/service/run_finish.py); the queue then delivers it to
-- the monitor's webhook (src/service/alert_delivery.py), retrying with back-off, and this row
-- records how that went. The run id is the key, so a repeated finish or a repeated queue message
-- can never make a second alert. Timestamps as in 0001.

CREATE TABLE alerts (
    run_id TEXT PRIMARY KEY REFERENCES monitor_runs (id) ON DELETE CASCADE,
    monitor_id TEXT NOT NULL,
    -- The Standard Webhooks `webhook-id` of every attempt (service.alerts.delivery_id).
    delivery_id TEXT NOT NULL,
    -- The body sent and signed, as built when the run finished (service.alerts.AlertPayload).
    payload TEXT NOT NULL CHECK (json_valid(payload)),
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    -- Held by the delivery attempt in flight, so two deliveries of one message never both post.
    lease_until TEXT,
    last_error TEXT,
    response_status INTEGER,
    created_at TEXT NOT NULL,
    -- When the alert was delivered or given up on.
    finished_at TEXT
);

-- The watchdog's backstop (maintenance.reconcile.announce_unfinished_runs): runs still `running`
-- whose audit has ended, in case the `audit_ended` message was lost. Only running runs are in
-- this index, so the walk costs the runs in flight, never the whole history.
CREATE INDEX monitor_runs_running_idx ON monitor_runs (audit_id) WHERE status = 'running';
