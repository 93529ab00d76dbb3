"""Sitemap URLs that robots.txt disallows, in the scratchpad: never fetched, reported by finalize
as sitemap hygiene issues. One `sitemap_blocked` row per URL, read back a page at a time in URL
order."""

from __future__ import annotations

__all__ = ["ADD", "PAGE", "SCHEMA"]

SCHEMA = ("CREATE TABLE IF NOT EXISTS sitemap_blocked (url TEXT PRIMARY KEY) WITHOUT ROWID",)
ADD = "INSERT OR IGNORE INTO sitemap_blocked (url) SELECT value FROM json_each(?) RETURNING 1 AS added"
PAGE = "SELECT url FROM sitemap_blocked WHERE url > ? ORDER BY url LIMIT ?"
