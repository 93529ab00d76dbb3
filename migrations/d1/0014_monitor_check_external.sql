-- External link checks (issue 14 item 5; docs/external-links.md): the `check_external` option
-- each of a monitor's runs gives its audit, off unless asked for. An audit's own option lives in
-- its options_json and needs no column.
--
-- ADD COLUMN only (DEVELOPERS.md): monitors keeps its rows and its runs.
ALTER TABLE monitors ADD COLUMN check_external INTEGER NOT NULL DEFAULT 0
    CHECK (check_external IN (0, 1));
