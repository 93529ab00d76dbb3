-- Structured data in the product (issue 32 item 5; docs/structured-data.md "In the product").
--
-- Each page row keeps what the crawl's check of its structured data found (structured.page's
-- PageStructuredData, auditdb.records.PageRecord): the top-level items' schema.org types and the
-- rich-result features the page is eligible for (JSON arrays of text), the findings per kind
-- (a JSON object, kind -> count) and the page's error and warning counts. The list filters
-- (structured_type, eligible_feature, structured_finding) read them through json_each, and the
-- exports carry them as columns. Pages written before this migration read as "none found".
--
-- The audits row's structured_summary is the audit's summary (auditdb.structured_data
-- .StructuredSummary as JSON), added up from those columns and the issue rows in SQL at finalize;
-- NULL before finalize and for audits finished before this migration.
--
-- ADD COLUMN only: audits and audit_pages are referenced with ON DELETE CASCADE, so neither is
-- ever rebuilt (DEVELOPERS.md; tests/auditdb/test_migration_structured_data.py keeps every row).
ALTER TABLE audit_pages ADD COLUMN structured_types_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE audit_pages ADD COLUMN eligible_features_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE audit_pages ADD COLUMN structured_findings_json TEXT NOT NULL DEFAULT '{}';
ALTER TABLE audit_pages ADD COLUMN structured_errors INTEGER NOT NULL DEFAULT 0;
ALTER TABLE audit_pages ADD COLUMN structured_warnings INTEGER NOT NULL DEFAULT 0;
ALTER TABLE audits ADD COLUMN structured_summary TEXT
    CHECK (structured_summary IS NULL OR json_valid(structured_summary));
