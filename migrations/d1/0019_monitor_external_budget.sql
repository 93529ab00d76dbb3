-- The time budget of external link checks (issue 24 item 3; docs/external-links.md, "Politeness
-- and budgets"): the `external_budget_s` each of a monitor's runs gives its audit, 60 s unless
-- asked otherwise (settings.EXTERNAL.default_budget_s; the API checks its range, 1 to 3,600). An
-- audit's own option lives in its options_json and needs no column.
--
-- ADD COLUMN only (DEVELOPERS.md): monitors keeps its rows and its runs.
ALTER TABLE monitors ADD COLUMN external_budget_s REAL NOT NULL DEFAULT 60
    CHECK (external_budget_s > 0);
