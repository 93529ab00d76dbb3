-- Scheduled monitoring: a monitor re-audits one site daily, weekly (Mondays) or monthly (the 1st)
-- at a UTC hour; each run is one audit, recorded in monitor_runs. Timestamps as in 0001 (ISO-8601
-- UTC strings, sorted as text). tests/auditdb/test_monitor_plans.py runs EXPLAIN QUERY PLAN over
-- every statement of auditdb/monitors.py against these indexes.

CREATE TABLE monitors (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    url TEXT NOT NULL,
    frequency TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
    hour INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
    -- The options every run's audit starts with (service.audits.CreateAudit).
    max_pages INTEGER NOT NULL CHECK (max_pages >= 1),
    max_depth INTEGER CHECK (max_depth IS NULL OR max_depth >= 0),
    include_json TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(include_json)),
    exclude_json TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(exclude_json)),
    webhook_url TEXT,
    -- Standard Webhooks signing secret ("whsec_" + base64), shown to the owner once.
    webhook_secret TEXT NOT NULL CHECK (substr(webhook_secret, 1, 6) = 'whsec_'),
    -- Alert thresholds: a health score drop of at least alert_score_drop points, any grade drop,
    -- any new critical issue.
    alert_score_drop REAL NOT NULL DEFAULT 5 CHECK (alert_score_drop BETWEEN 0 AND 100),
    alert_on_grade_drop INTEGER NOT NULL DEFAULT 1 CHECK (alert_on_grade_drop IN (0, 1)),
    alert_on_new_critical INTEGER NOT NULL DEFAULT 1 CHECK (alert_on_new_critical IN (0, 1)),
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    last_run_at TEXT,
    -- The next scheduled slot; the hourly producer enqueues monitors whose slot has come.
    next_due_at TEXT NOT NULL,
    -- Set by the consumer's atomic claim (now + 30 min); a crashed run's claim expires by itself.
    lock_until TEXT,
    created_at TEXT NOT NULL
);
-- GET /api/monitors: an owner's monitors, newest first (keyset on created_at, id); also counts
-- an owner's monitors against MAX_MONITORS_PER_OWNER.
CREATE INDEX monitors_owner_created_id_idx ON monitors (owner, created_at, id);
-- The hourly producer: active monitors whose slot has come, oldest slot first (keyset).
CREATE INDEX monitors_active_due_idx ON monitors (is_active, next_due_at, id);

CREATE TABLE monitor_runs (
    id TEXT PRIMARY KEY,
    monitor_id TEXT NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
    -- NULL when the audit could not be started at all (error_detail says why).
    audit_id TEXT,
    -- The scheduled slot (monitors.next_due_at) this run serves: one run per slot.
    due_at TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    status TEXT NOT NULL DEFAULT 'running'
        CHECK (status IN ('running', 'completed', 'failed', 'cancelled')),
    error_detail TEXT,
    health_score REAL,
    grade TEXT,
    critical_count INTEGER,
    warning_count INTEGER,
    info_count INTEGER,
    new_issues INTEGER,
    fixed_issues INTEGER,
    r2_key TEXT,
    report_bytes INTEGER,
    UNIQUE (monitor_id, due_at)
);
-- A monitor's run history, newest first.
CREATE INDEX monitor_runs_monitor_started_idx ON monitor_runs (monitor_id, started_at, id);
-- Finishing a run from its audit (the workflow's end or the watchdog).
CREATE INDEX monitor_runs_audit_idx ON monitor_runs (audit_id);
