-- Indexes for the paginated, filtered lists (GET /api/audits, /pages, /issues) and the report.
-- Each list reads with a keyset cursor: WHERE <equality filters> AND (<sort key>) > (<cursor>)
-- ORDER BY <sort key> LIMIT n, so each index is <equality prefix>, <sort key>, id: the planner
-- seeks to the cursor and reads rows already in order (no sort). tests/auditdb/test_query_plans.py
-- runs EXPLAIN QUERY PLAN over every statement the list builders can produce.

-- Audits, newest first, per owner; and the same within one status.
DROP INDEX audits_owner_created_idx;
CREATE INDEX audits_owner_created_id_idx ON audits (owner, created_at, id);
CREATE INDEX audits_owner_status_created_id_idx ON audits (owner, status, created_at, id);

-- Pages by url (the old (audit_id, url) index is this one's prefix), and filtered by status code,
-- status class (status_code / 100, an expression the query repeats verbatim) and indexability.
DROP INDEX audit_pages_audit_url_idx;
CREATE INDEX audit_pages_audit_url_id_idx ON audit_pages (audit_id, url, id);
CREATE INDEX audit_pages_audit_status_idx ON audit_pages (audit_id, status_code, url, id);
CREATE INDEX audit_pages_audit_class_idx ON audit_pages (audit_id, status_code / 100, url, id);
CREATE INDEX audit_pages_audit_indexable_idx ON audit_pages (audit_id, is_indexable, url, id);

-- Issues sort by severity rank first. A virtual generated column (computed on read, nothing
-- stored in the row) rather than an expression index, because SQLite uses a row-value cursor
-- comparison (severity_rank, issue_type, page_url, id) > (?, ?, ?, ?) as an index range only when
-- its first term is a column.
ALTER TABLE audit_issues ADD COLUMN severity_rank INTEGER GENERATED ALWAYS AS (
    CASE severity WHEN 'critical' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END) VIRTUAL;
CREATE INDEX audit_issues_list_idx ON audit_issues (audit_id, severity_rank, issue_type, page_url, id);
-- Counts by type, example pages of a type, and the pages filter has_issue=TYPE (a probe per page);
-- the old (audit_id, issue_type) index is this one's prefix.
DROP INDEX audit_issues_audit_type_idx;
CREATE INDEX audit_issues_audit_type_page_idx ON audit_issues (audit_id, issue_type, page_url);
