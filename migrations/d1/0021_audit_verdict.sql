-- The audit's verdict (issue 24 items 5-7, docs/scoring.md): what finalize added up from the
-- issue and page rows (`audit.verdict.Tally`: per issue type its rows, distinct pages, the summed
-- importance of its scored pages, and the site's totals), as JSON. The category scores, the
-- findings and the ranked actions are pure functions of it, so a report reads one row instead of
-- walking every issue again; `health_score` holds the overall score computed from it.
--
-- ADD COLUMN only: `audits` is never rebuilt (see 0006). NULL for audits finished before it,
-- which keep the health score of their time.

ALTER TABLE audits ADD COLUMN verdict TEXT CHECK (verdict IS NULL OR json_valid(verdict));
