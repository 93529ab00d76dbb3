-- The link graph a completed audit keeps (issue 27 item 1; src/audit/link_graph.py): for every
-- crawled page, its first 50 inlinks and its first 50 outlinks by URL, each with its anchor, and
-- both totals, so the report's per-URL view and `GET /api/audits/{id}/pages/links` can list them
-- after the audit's scratchpad is wiped.
--
-- One row per page, its two lists as JSON arrays of `[url, anchor, anchor kind, flags, status]`
-- (src/auditdb/page_links.py spells the layout; a URL on the page's own origin is kept as its
-- path): D1 bills rows written and read, and a page's lists are read together, so a row per page
-- costs one row write at finalize and one row read per page shown, where a row per link would
-- cost up to a hundred of each. `complete` is 0 when the crawl stopped storing links at its
-- budget (the totals then count what it stored).
--
-- Written by the keep-links-N steps before the scratchpad is wiped, INSERT OR REPLACE on the
-- primary key, so a retried step writes the same rows again. Deleted with its audit, by every
-- path that deletes audits (owner delete, retention, monitor run expiry), through the cascade;
-- the primary key's leading audit_id serves it.
CREATE TABLE audit_page_links (
    audit_id TEXT NOT NULL REFERENCES audits (id) ON DELETE CASCADE,
    page_url TEXT NOT NULL,
    inlinks_total INTEGER NOT NULL,
    outlinks_total INTEGER NOT NULL,
    complete INTEGER NOT NULL DEFAULT 1,
    inlinks TEXT NOT NULL CHECK (json_valid(inlinks)),
    outlinks TEXT NOT NULL CHECK (json_valid(outlinks)),
    PRIMARY KEY (audit_id, page_url)
);
