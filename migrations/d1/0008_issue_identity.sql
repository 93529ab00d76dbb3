-- A stable identity for an issue across audits: (issue_type, page_url, dedupe_key). The row id
-- hashes the audit id with these (src/audit/issue_ids.py), so it differs between two audits of
-- one site; comparing audits (src/auditdb/compare.py) matches rows on the three columns instead.
-- dedupe_key is what tells apart several issues of one type on one page (the link target of
-- broken-internal-link, link-to-redirect and hreflang-missing-return-link); '' for every other
-- type, so the match is a plain equality an index can seek.
ALTER TABLE audit_issues ADD COLUMN dedupe_key TEXT NOT NULL DEFAULT '';
-- Rows written before this migration: those three types recorded their dedupe key as the
-- details' targetUrl (src/audit/cross_page.py, src/durable/finalize_sections.py).
UPDATE audit_issues SET dedupe_key = COALESCE(json_extract(details_json, '$.targetUrl'), '')
WHERE issue_type IN ('broken-internal-link', 'link-to-redirect', 'hreflang-missing-return-link');
-- The comparison probes the other audit once per issue row: (audit_id, issue_type, page_url,
-- dedupe_key) is an exact seek. The old (audit_id, issue_type, page_url) index is its prefix, so
-- the counts' example pages and the pages filter has_issue=TYPE keep seeking the same way.
DROP INDEX audit_issues_audit_type_page_idx;
CREATE INDEX audit_issues_identity_idx ON audit_issues (audit_id, issue_type, page_url, dedupe_key);
