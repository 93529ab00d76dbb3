"""Pages queued for rendering, in the scratchpad (issue 30, docs/rendering.md): one `render_queue`
row per crawled page that render.decision picked, holding what its raw fetch left
(`RenderCandidate`, as JSON) so the render step can audit the rendered HTML as the crawl
audited the raw one, and compare the two.

A row is `pending` when the crawl queues it, `leased` to one render step (its `step_key`), then
`rendered`, `failed` (the renderer could not) or `skipped` (nothing to render with: the audit's
option is `never`, or no renderer is configured; `detail` says which). A claim is idempotent per
step key, as `claim_chunk` is: a step that runs again gets back its own rows. auto's sample
(`reason = 'sample'`) is kept to `SAMPLE_MAX_PAGES` rows, the first the crawl queues.

`script_links` marks the URLs a rendered page's DOM brought into the frontier: links present only
after script. Their frontier rows are link rows like any other (claimed in the same levels); the
mark is a table of its own, not a frontier source, because a scratchpad created before it keeps
its frontier table and that table's CHECK on `source` (the schema is `CREATE ... IF NOT EXISTS`).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["SCHEMA", "RenderState"]


class RenderState(StrEnum):
    PENDING = "pending"
    LEASED = "leased"
    RENDERED = "rendered"
    FAILED = "failed"
    SKIPPED = "skipped"


_STATES = ", ".join(f"'{state.value}'" for state in RenderState)
SCHEMA = (
    f"""CREATE TABLE IF NOT EXISTS render_queue (
        url TEXT PRIMARY KEY,
        reason TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ({_STATES})),
        step_key INTEGER,
        candidate_json TEXT NOT NULL,
        detail TEXT
    )""",
    "CREATE TABLE IF NOT EXISTS script_links (url TEXT PRIMARY KEY, found_on TEXT) WITHOUT ROWID",
)
MARK_SCRIPT_LINKS = (
    "INSERT OR IGNORE INTO script_links (url, found_on) "
    "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)"
)
SCRIPT_LINKS = "SELECT COUNT(*) AS n FROM script_links"
_P, _L, _R, _F, _S = (f"'{s.value}'" for s in RenderState)
ADD = (
    "INSERT OR IGNORE INTO render_queue (url, reason, candidate_json) "
    "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') "
    "FROM json_each(?) WHERE true ORDER BY key"
)
SAMPLED = "SELECT COUNT(*) AS n FROM render_queue WHERE reason = 'sample'"
LEASED_TO = (
    f"SELECT candidate_json FROM render_queue WHERE state = {_L} AND step_key = ? ORDER BY url"
)
DONE_BY = f"SELECT 1 AS hit FROM render_queue WHERE state <> {_L} AND step_key = ? LIMIT 1"
LEASE = (
    f"UPDATE render_queue SET state = {_L}, step_key = ? WHERE rowid IN "
    f"(SELECT rowid FROM render_queue WHERE state = {_P} ORDER BY rowid LIMIT ?) "
    "RETURNING candidate_json"
)
PENDING = f"SELECT COUNT(*) AS n FROM render_queue WHERE state = {_P}"
# A resume (ScratchpadCore._prepare_resume): the dead run's leases go back to pending.
RELEASE_ALL = f"UPDATE render_queue SET state = {_P}, step_key = NULL WHERE state = {_L}"
RECORD = (
    "UPDATE render_queue SET state = json_extract(j.value, '$.state'), "
    "detail = json_extract(j.value, '$.detail') FROM json_each(?) AS j "
    f"WHERE render_queue.url = json_extract(j.value, '$.url') AND render_queue.state = {_L}"
)
# Per state and reason: the tally the audit's summary and the "rendering not done" finding read;
# a row still leased when the audit ends belongs to a render step that failed.
TALLY = "SELECT state, reason, COUNT(*) AS n, MIN(detail) AS detail FROM render_queue GROUP BY 1, 2"
