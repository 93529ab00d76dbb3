"""Deterministic row ids for `audit_pages` and `audit_issues` (original system §1.1, §2.2).

Ids are derived from the row's natural key, so a retried workflow step re-inserts the same ids and
the insert-or-ignore writes stay idempotent. The key format is the original's, kept byte for byte so
ids agree with rows written by the TypeScript system: fields joined by "|" with no escaping. That
makes ("a|b", "c") and ("a", "b|c") collide; URLs in practice never put "|" where it matters
(it is percent-encoded by URL normalisation), and compatibility outweighs a stricter encoding.
"""

from __future__ import annotations

import hashlib

__all__ = ["ID_HEX_CHARS", "issue_id", "lighthouse_result_id", "page_id"]

# 36 hex chars = 144 bits: the width of a UUID string, which the original's TEXT ids replaced.
ID_HEX_CHARS = 36


def _js_utf8(text: str) -> bytes:
    """UTF-8 bytes as JavaScript's TextEncoder produces them: lone surrogates become U+FFFD.

    Python's strict encoder would raise instead; a str from JS may carry lone surrogates.
    """
    if text.isascii():  # nearly every id: no surrogate to replace, and ASCII is its own UTF-8
        return text.encode("ascii")
    utf16 = text.encode("utf-16-le", "surrogatepass")
    return utf16.decode("utf-16-le", "replace").encode("utf-8")


def _digest(*fields: str) -> str:
    return hashlib.sha256(_js_utf8("|".join(fields))).hexdigest()[:ID_HEX_CHARS]


def page_id(audit_id: str, url: str) -> str:
    """Id of the `audit_pages` row for `url`: SHA-256 of `auditId|url`, first 36 hex chars."""
    return _digest(audit_id, url)


def lighthouse_result_id(audit_id: str, page_id: str, strategy: str) -> str:
    """Id of an `audit_lighthouse_results` row: SHA-256 of `auditId|pageId|strategy` (§2.4)."""
    return _digest(audit_id, page_id, strategy)


def issue_id(audit_id: str, page_url: str, issue_type: str, dedupe_key: str | None = None) -> str:
    """Id of an `audit_issues` row: SHA-256 of `auditId|pageUrl|issueType|dedupeKey`.

    A missing dedupe key hashes as the empty string, as in the original.
    """
    return _digest(audit_id, page_url, str(issue_type), dedupe_key or "")
