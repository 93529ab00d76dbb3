-- A start URL typed without a scheme (issue 24 item 2): read as browsers read it, https first and
-- http when https cannot connect (crawl.start_verdict). `scheme_assumed` records that no scheme
-- was typed, so the audit's discovery (and a resume that starts it over) applies the rule;
-- `scheme_note` is the line that says which scheme the audit took, and why. A monitor created with
-- a bare host keeps `scheme_assumed`, so each of its runs applies the same rule.
--
-- ADD COLUMN only (DEVELOPERS.md): audits and monitors keep their rows and their children.
ALTER TABLE audits ADD COLUMN scheme_assumed INTEGER NOT NULL DEFAULT 0
    CHECK (scheme_assumed IN (0, 1));
ALTER TABLE audits ADD COLUMN scheme_note TEXT;
ALTER TABLE monitors ADD COLUMN scheme_assumed INTEGER NOT NULL DEFAULT 0
    CHECK (scheme_assumed IN (0, 1));
