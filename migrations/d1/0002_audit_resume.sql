-- A failed audit can be finished from its retained scratchpad; each resume runs as a new workflow
-- instance (`<audit id>-r<n>`, since instance ids are never reused) recorded here.
ALTER TABLE audits ADD COLUMN resume_count INTEGER NOT NULL DEFAULT 0;
