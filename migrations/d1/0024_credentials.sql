-- Credentials for closed sites (issue 28, item 1; urls.credentials, common.sealing): an audit's
-- and a monitor's basic auth, headers and cookies, sealed with AES-256-GCM under the Worker secret
-- CREDENTIALS_KEY ("sa1.<key id>.<nonce|ciphertext|tag>"). Never plaintext: the views show the
-- redacted form, which audits keep in options_json and monitors in credentials_json.
-- * audits.credentials_sealed: what a resume and a re-run hand the new workflow instance;
-- * monitors.credentials_sealed, monitors.credentials_json: what each run's audit gets, and what
--   GET /api/monitors/{id} shows (names, the basic-auth user, "[redacted]" values).
-- The partial indexes hold only rows with credentials, so a key rotation's re-sealing
-- (maintenance.reseal) reads those rows and no others.
--
-- ADD COLUMN only: `audits` is never rebuilt (see 0006).

ALTER TABLE audits ADD COLUMN credentials_sealed TEXT;
ALTER TABLE monitors ADD COLUMN credentials_sealed TEXT;
ALTER TABLE monitors ADD COLUMN credentials_json TEXT
    CHECK (credentials_json IS NULL OR json_valid(credentials_json));
CREATE INDEX audits_sealed_idx ON audits (id) WHERE credentials_sealed IS NOT NULL;
CREATE INDEX monitors_sealed_idx ON monitors (id) WHERE credentials_sealed IS NOT NULL;
