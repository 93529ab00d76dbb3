-- Which pages each of a monitor's runs renders in a browser (issue 30; docs/rendering.md):
-- never, auto (app shells and a small sample of the rest) or always. Monitors created before it
-- read `auto`, as audit options stored without the field do. An audit's own option lives in its
-- options_json and needs no column.
--
-- ADD COLUMN only (DEVELOPERS.md): monitors keeps its rows and its runs.
ALTER TABLE monitors ADD COLUMN render TEXT NOT NULL DEFAULT 'auto'
    CHECK (render IN ('never', 'auto', 'always'));
