-- API keys: the credential every /api/ route asks for (`Authorization: Bearer <key>`).
-- A key is shown once when it is created; only its SHA-256 (hex) is kept, and `prefix` (the
-- key's first characters) lets people tell their keys apart. Each audit's `owner` is the owner
-- of the key that started it. Timestamps as in 0001: ISO-8601 UTC strings, sorted as text.

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    key_hash TEXT NOT NULL,
    prefix TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT
);
-- Every authenticated request looks its key up by hash.
CREATE UNIQUE INDEX api_keys_hash_idx ON api_keys (key_hash);
-- `siteaudit keys list` and GET /api/keys: newest first.
CREATE INDEX api_keys_created_idx ON api_keys (created_at, id);
