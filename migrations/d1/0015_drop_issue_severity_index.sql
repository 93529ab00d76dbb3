-- audit_issues_audit_severity_idx (audit_id, severity) had one reader, the health score's count of
-- pages with a critical issue, which now seeks audit_issues_list_idx (audit_id, severity_rank)
-- instead (auditdb.repository.SCORE_PAGES_SQL). Every issue row written paid for the index.
--
-- DROP INDEX only: no table or row changes.
DROP INDEX IF EXISTS audit_issues_audit_severity_idx;
