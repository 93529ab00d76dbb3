-- A monitor's scope and speed options and list mode (issue 28, items 3 and 4): each run's audit
-- gets them as its `options.scope` (auditdb.scope.ScopeOptions), stored as that record's JSON
-- object; '{}' is every default (a crawl of the start host, no fixed rate). An audit's own
-- options live in its options_json and need no column.
--
-- ADD COLUMN only (DEVELOPERS.md): monitors keeps its rows and its runs.
ALTER TABLE monitors ADD COLUMN scope_json TEXT NOT NULL DEFAULT '{}';
