-- What the product reads: audits, their pages, issues and Lighthouse results.
-- Transient crawl state (frontier, link edges) lives in the AuditScratchpad Durable Object.
-- Timestamps are ISO-8601 UTC strings written by the application ("YYYY-MM-DDTHH:MM:SS.sssZ"),
-- so they sort lexicographically.

CREATE TABLE audits (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL DEFAULT 'local',
    start_url TEXT NOT NULL,
    final_url TEXT,
    options_json TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'running'
        CHECK (status IN ('running', 'completed', 'failed')),
    current_phase TEXT,
    workflow_instance_id TEXT,
    pages_crawled INTEGER NOT NULL DEFAULT 0,
    pages_total INTEGER NOT NULL DEFAULT 0,
    issues_total INTEGER NOT NULL DEFAULT 0,
    critical_count INTEGER NOT NULL DEFAULT 0,
    warning_count INTEGER NOT NULL DEFAULT 0,
    info_count INTEGER NOT NULL DEFAULT 0,
    health_score REAL,
    issues_checked INTEGER NOT NULL DEFAULT 0,
    lighthouse_total INTEGER NOT NULL DEFAULT 0,
    lighthouse_completed INTEGER NOT NULL DEFAULT 0,
    lighthouse_failed INTEGER NOT NULL DEFAULT 0,
    error_code TEXT CHECK (error_code IS NULL OR error_code IN (
        'step_timeout', 'oom', 'cpu_limit', 'db_error', 'step_output_too_large',
        'workflow_internal', 'instance_lost', 'unknown')),
    error_detail TEXT,
    failed_phase TEXT,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
);
CREATE INDEX audits_owner_created_idx ON audits (owner, created_at);
-- The watchdog's sweep: running audits, oldest first.
CREATE INDEX audits_status_started_idx ON audits (status, started_at);

CREATE TABLE audit_pages (
    id TEXT PRIMARY KEY,
    audit_id TEXT NOT NULL REFERENCES audits (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    final_url TEXT,
    status_code INTEGER NOT NULL DEFAULT 0,
    fetch_class TEXT NOT NULL DEFAULT 'ok'
        CHECK (fetch_class IN ('ok', 'blocked', 'rate_limited', 'error')),
    redirect_url TEXT,
    content_type TEXT,
    is_html INTEGER NOT NULL DEFAULT 0,
    response_time_ms INTEGER,
    html_bytes INTEGER NOT NULL DEFAULT 0,
    truncated INTEGER NOT NULL DEFAULT 0,
    title TEXT,
    meta_description TEXT,
    canonical_url TEXT,
    header_canonical_url TEXT,
    robots_meta TEXT,
    x_robots_tag TEXT,
    is_indexable INTEGER NOT NULL DEFAULT 1,
    html_lang TEXT,
    og_title TEXT,
    og_description TEXT,
    og_image TEXT,
    h1_count INTEGER NOT NULL DEFAULT 0,
    h2_count INTEGER NOT NULL DEFAULT 0,
    h3_count INTEGER NOT NULL DEFAULT 0,
    h4_count INTEGER NOT NULL DEFAULT 0,
    h5_count INTEGER NOT NULL DEFAULT 0,
    h6_count INTEGER NOT NULL DEFAULT 0,
    heading_order_json TEXT NOT NULL DEFAULT '[]',
    word_count INTEGER NOT NULL DEFAULT 0,
    content_hash TEXT,
    images_total INTEGER NOT NULL DEFAULT 0,
    images_missing_alt INTEGER NOT NULL DEFAULT 0,
    internal_link_count INTEGER NOT NULL DEFAULT 0,
    external_link_count INTEGER NOT NULL DEFAULT 0,
    has_structured_data INTEGER NOT NULL DEFAULT 0,
    hreflang_json TEXT NOT NULL DEFAULT '[]',
    crawl_depth INTEGER,
    in_sitemap INTEGER NOT NULL DEFAULT 0,
    crawled_at TEXT NOT NULL
);
CREATE INDEX audit_pages_audit_url_idx ON audit_pages (audit_id, url);

CREATE TABLE audit_issues (
    id TEXT PRIMARY KEY,
    audit_id TEXT NOT NULL REFERENCES audits (id) ON DELETE CASCADE,
    page_id TEXT REFERENCES audit_pages (id) ON DELETE CASCADE,
    page_url TEXT NOT NULL,
    issue_type TEXT NOT NULL,
    severity TEXT NOT NULL DEFAULT 'info' CHECK (severity IN ('critical', 'warning', 'info')),
    details_json TEXT
);
CREATE INDEX audit_issues_audit_type_idx ON audit_issues (audit_id, issue_type);
CREATE INDEX audit_issues_audit_severity_idx ON audit_issues (audit_id, severity);
CREATE INDEX audit_issues_page_id_idx ON audit_issues (page_id);

CREATE TABLE audit_lighthouse_results (
    id TEXT PRIMARY KEY,
    audit_id TEXT NOT NULL REFERENCES audits (id) ON DELETE CASCADE,
    page_id TEXT NOT NULL REFERENCES audit_pages (id) ON DELETE CASCADE,
    strategy TEXT NOT NULL CHECK (strategy IN ('mobile', 'desktop')),
    performance_score INTEGER,
    accessibility_score INTEGER,
    best_practices_score INTEGER,
    seo_score INTEGER,
    lcp_ms REAL,
    cls REAL,
    inp_ms REAL,
    ttfb_ms REAL,
    error_message TEXT,
    r2_key TEXT,
    payload_size_bytes INTEGER
);
CREATE INDEX audit_lighthouse_results_audit_id_idx ON audit_lighthouse_results (audit_id);
CREATE INDEX audit_lighthouse_results_page_id_idx ON audit_lighthouse_results (page_id);
