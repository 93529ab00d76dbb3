"""Fragment targets and link fragments in the scratchpad, for the broken-fragment check.

`fragment_pages`/`fragment_targets`: the fragment target keys (urls.fragment) of crawled HTML
pages whose set is complete, under a small integer per page so each key costs a few bytes;
`link_fragments`: internal links' fragments with their lookup keys (as written, and
percent-decoded). Both count towards the link budget and stop, like `links`, when it trips
(missing rows only hide broken fragments). A page's set replaces what a retried batch stored for
it, so a stored page always has its whole set. `broken_fragments` is finalize's scratch table:
the broken ones numbered in their issues' order, so finalize reads them a page at a time.
"""

from __future__ import annotations

from durable.json_batches import any_source_stored, insert_json_rows, stored
from durable.records import FragmentLink, FragmentTargets

__all__ = [
    "ADD_PAGES",
    "BROKEN_COLUMNS",
    "BROKEN_TABLE",
    "CLEAR_TARGETS",
    "KEYS_PER_OBJECT",
    "SCHEMA",
    "SOURCES_STORED",
    "STORED",
    "WRITE_LINKS",
    "WRITE_TARGETS",
    "LinkFragmentRow",
    "link_bytes",
    "link_row",
    "targets_bytes",
]

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS fragment_pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE)",
    """CREATE TABLE IF NOT EXISTS fragment_targets (
        page INTEGER NOT NULL,
        key INTEGER NOT NULL,
        PRIMARY KEY (page, key)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS link_fragments (
        source_url TEXT NOT NULL,
        target_url TEXT NOT NULL,
        fragment TEXT NOT NULL,
        key INTEGER NOT NULL,
        decoded_key INTEGER NOT NULL,
        PRIMARY KEY (source_url, target_url, fragment)
    ) WITHOUT ROWID""",
    # Finalize's broken link fragments, numbered in the section's order
    # (durable.finalize_sections.NumberedSection); scratch space, rebuilt by each finalize.
    """CREATE TABLE IF NOT EXISTS broken_fragments (
        n INTEGER PRIMARY KEY,
        source_id TEXT NOT NULL,
        source_url TEXT NOT NULL,
        target_url TEXT NOT NULL,
        fragment TEXT NOT NULL,
        kind INTEGER NOT NULL
    )""",
)
BROKEN_TABLE = "broken_fragments"
BROKEN_COLUMNS = ("source_id", "source_url", "target_url", "fragment", "kind")
# A sub-batch's pages in three statements, whatever their number: their ids, their old target
# sets cleared (a retried batch), their new sets from `{"u": url, "k": [keys]}` objects.
ADD_PAGES = "INSERT OR IGNORE INTO fragment_pages (url) SELECT value FROM json_each(?)"
CLEAR_TARGETS = (
    "DELETE FROM fragment_targets WHERE page IN "
    "(SELECT id FROM fragment_pages WHERE url IN (SELECT value FROM json_each(?)))"
)
KEYS_PER_OBJECT = 20_000  # 64-bit keys: under half the bound array's MAX_JSON_PARAM_BYTES
WRITE_TARGETS = (
    "INSERT OR IGNORE INTO fragment_targets (page, key) SELECT p.id, k.value "
    "FROM json_each(?) AS j JOIN fragment_pages AS p ON p.url = json_extract(j.value, '$.u') "
    "JOIN json_each(j.value, '$.k') AS k"
)
WRITE_LINKS = insert_json_rows(
    "INSERT OR IGNORE",
    "link_fragments",
    ("source_url", "target_url", "fragment", "key", "decoded_key"),
    ordered=False,
    positional=True,  # link_row's arrays, which the STORED lookup reads too
)
STORED = stored("link_fragments", "target_url", fragment=True)
SOURCES_STORED = any_source_stored("link_fragments")


def targets_bytes(targets: FragmentTargets) -> int:
    """A page's target keys as stored (key, page id, b-tree overhead) plus its fragment_pages row."""
    return 24 * len(targets.keys) + 2 * len(targets.url) + 32


type LinkFragmentRow = tuple[str, str, str, int, int]


def link_row(link: FragmentLink) -> LinkFragmentRow:
    """One element of WRITE_LINKS's (and STORED's) JSON array."""
    return (link.source_url, link.target_url, link.fragment, link.key, link.decoded_key)


def link_bytes(row: LinkFragmentRow) -> int:
    """What one stored link fragment costs against the link budget: its text and an overhead."""
    return len(row[0]) + len(row[1]) + len(row[2]) + 48
