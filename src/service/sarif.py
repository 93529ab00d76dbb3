"""An audit's issues as a SARIF 2.1.0 log, written one keyset page of issues at a time.

SARIF (OASIS Static Analysis Results Interchange Format 2.1.0) is what code-scanning views read
(GitHub code scanning, the SARIF viewers of VS Code and Azure DevOps). One log holds one run:
`tool.driver` carries every catalogue entry as a rule (id, name, short and full description, help
with the fix, a link to its row in docs/issues.md, its severity as the default level), and each
issue becomes a result. The log is one JSON document, so it is written as text around the results:
the run's head, then the results one page of rows at a time, then the members that are only known
at the end (the URI bases of the origins seen), so a 100,000-issue audit never holds its rows.

Choices that make an upload work the first time (GitHub's SARIF support page, and the failures
other web scanners met, collected in the project notes on reports):
* A web page is not a file of the repository, and GitHub rejects a result whose `uri` has the
  scheme https ("SARIF URI scheme "https" did not match the checkout URI scheme "file"",
  github/codeql-action#754). Each location therefore names the page by a relative reference
  (`about?x=1`, `./` for the origin itself) against a `uriBaseId` (`SITE` for the audit's origin,
  `SITE2`, ... for others), and `run.originalUriBaseIds` maps those ids to the origins, so a
  SARIF consumer resolves the exact page URL (SARIF §3.4.4). `logicalLocations` repeats the URL
  whole, for viewers that show it as it is.
* A region is required for a location to be shown; pages have no line to point at, so every
  result points at line 1 (as Trivy does for files without one).
* `partialFingerprints` carries the issue's identity across audits (type, page URL and dedupe key,
  the same identity audit comparisons match on, migration 0008), hashed, so code-scanning views
  recognise the same issue in the next run instead of opening a new alert. GitHub reads only
  `primaryLocationLineHash`, so the hash is given under that name too.
* `automationDetails.id` is `siteaudit/<host>/`: one category per site, so uploads for two sites
  do not replace each other's alerts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncGenerator
from contextlib import aclosing
from urllib.parse import quote, urlsplit

from audit.catalogue import (
    CATALOGUE,
    PROJECT_URL,
    IssueDescriptor,
    Severity,
    doc_url,
    maybe_descriptor,
)
from auditdb.listing import IssueFilter
from auditdb.records import AuditRecord, AuditStatus, IssueRecord
from common.bindings import Env
from common.wire import JsonObject, JsonValue
from service.audits import owned_audit
from service.exports import Export
from service.lists import iter_issues
from service.scope_report import scope_summary

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
MEDIA_TYPE = "application/sarif+json"  # IANA media type registered for SARIF logs
TOOL_NAME = "siteaudit"
IDENTITY_KEY = "siteaudit/issueIdentity/v1"
SITE_BASE = "SITE"
# What a path and query may hold bare (RFC 3986 §3.3-3.4: unreserved, sub-delims, `:@/?`) and `%`
# (octets already encoded). Everything else in a stored URL (WHATWG leaves `|`, `[`, `^` and
# others bare) is percent-encoded, so the reference is a valid URI reference.
_URI_SAFE = ":/?@!$&'()*+,;=-._~%"

# SARIF `level` (§3.27.10): error, warning, note. Trivy maps its severities the same way.
LEVELS = {Severity.CRITICAL: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_RULE_INDEX = {issue_type.value: i for i, issue_type in enumerate(CATALOGUE)}


def rule(d: IssueDescriptor) -> JsonObject:
    """The catalogue entry as a SARIF reportingDescriptor."""
    return {
        "id": d.id.value,
        "name": "".join(word.capitalize() for word in d.id.value.split("-")),
        "shortDescription": {"text": d.title},
        "fullDescription": {"text": d.explanation},
        "help": {
            "text": f"{d.explanation}\n\nHow to fix: {d.how_to_fix}\n\nTrigger: {d.trigger}",
            "markdown": f"{d.explanation}\n\n**How to fix:** {d.how_to_fix}\n\n"
            f"**Trigger:** {d.trigger}\n\n[{d.id.value} in the issue catalogue]({doc_url(d.id)})",
        },
        "helpUri": doc_url(d.id),
        "defaultConfiguration": {"level": LEVELS[d.severity]},
        "properties": {"tags": [str(d.scope)], "severity": str(d.severity)},
    }


def identity(issue: IssueRecord) -> str:
    """The hash of the issue's identity across audits: type, page URL and dedupe key."""
    text = "\x00".join((issue.issue_type, issue.page_url, issue.dedupe_key))
    return hashlib.sha256(text.encode()).hexdigest()


class UriBases:
    """Relative references to pages against one base id per origin, the audit's own first."""

    def __init__(self, site_url: str) -> None:
        self.origins: dict[str, str] = {_origin(site_url): SITE_BASE}

    def locate(self, url: str) -> JsonObject:
        origin = _origin(url)
        if not url.startswith(origin):
            return {"uri": url}  # not a hierarchical http(s) URL: left absolute
        base = self.origins.setdefault(origin, f"{SITE_BASE}{len(self.origins) + 1}")
        return {"uri": _relative(url[len(origin) :]), "uriBaseId": base}

    def original_uri_base_ids(self) -> JsonObject:
        return {base: {"uri": origin} for origin, base in self.origins.items()}


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/"


def _relative(path_and_query: str) -> str:
    """A relative reference that resolves to the page against its origin (RFC 3986 §4.2)."""
    rest = quote(path_and_query, safe=_URI_SAFE)
    first = rest.split("/", 1)[0].split("?", 1)[0]
    if not rest or ":" in first:
        return "./" + rest  # `./`: the origin itself; a colon would read as a scheme
    return rest


def result(issue: IssueRecord, bases: UriBases) -> JsonObject:
    d = maybe_descriptor(issue.issue_type)
    title = d.title if d else issue.issue_type
    target = f" -> {issue.dedupe_key}" if issue.dedupe_key else ""
    fingerprint = identity(issue)
    found: JsonObject = {
        "ruleId": issue.issue_type,
        "level": LEVELS[Severity(issue.severity)],
        "message": {"text": f"{title}: {issue.page_url}{target}"},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": bases.locate(issue.page_url),
                    "region": {"startLine": 1},
                },
                "logicalLocations": [{"fullyQualifiedName": issue.page_url, "kind": "resource"}],
            }
        ],
        "partialFingerprints": {IDENTITY_KEY: fingerprint, "primaryLocationLineHash": fingerprint},
        "properties": {"severity": issue.severity, "details": issue.details},
    }
    if issue.issue_type in _RULE_INDEX:
        found["ruleIndex"] = _RULE_INDEX[issue.issue_type]
    return found


def _run_head(audit: AuditRecord, tool_version: str | None) -> JsonObject:
    driver: JsonObject = {
        "name": TOOL_NAME,
        "informationUri": PROJECT_URL,
        "rules": [rule(d) for d in CATALOGUE.values()],
    }
    if tool_version:
        driver["version"] = tool_version
    site = audit.final_url or audit.start_url
    return {
        "tool": {"driver": driver},
        "automationDetails": {"id": f"{TOOL_NAME}/{urlsplit(site).netloc}/"},
        "invocations": [_invocation(audit)],
    }


def _invocation(audit: AuditRecord) -> JsonObject:
    """Whether the audit completed; a failed or cancelled one says its results are partial."""
    invocation: JsonObject = {"executionSuccessful": audit.status is AuditStatus.COMPLETED}
    if audit.started_at or audit.created_at:
        invocation["startTimeUtc"] = audit.started_at or audit.created_at
    if audit.finished_at:
        invocation["endTimeUtc"] = audit.finished_at
    if audit.site_failure_line is not None:  # nothing could be audited: no results at all
        failed = f"the audit failed: {audit.site_failure_line}"
        invocation["toolExecutionNotifications"] = [_note("error", failed)]
    elif audit.status is AuditStatus.FAILED:
        failed = f"audit failed ({audit.error_code} in {audit.failed_phase or 'unknown phase'})"
        invocation["toolExecutionNotifications"] = [
            _note("error", f"{failed}; results are partial")
        ]
    elif audit.status is AuditStatus.CANCELLED:
        cancelled = f"audit cancelled after {audit.pages_crawled} pages; results are partial"
        invocation["toolExecutionNotifications"] = [_note("warning", cancelled)]
    if audit.robots_note is not None:  # what became of ignore_robots, said in every format
        notes = invocation.setdefault("toolExecutionNotifications", [])
        assert isinstance(notes, list)
        notes.append(_note("note", audit.robots_note))
    return invocation


def _note(level: str, text: str) -> JsonObject:
    return {"level": level, "message": {"text": text}}


def _run_tail(audit: AuditRecord, bases: UriBases) -> JsonObject:
    return {
        "originalUriBaseIds": bases.original_uri_base_ids(),
        "properties": {
            "auditId": audit.id,
            "startUrl": audit.start_url,
            "status": str(audit.status),
            "pagesCrawled": audit.pages_crawled,
            "healthScore": audit.health_score,
            "scope": scope_summary(audit.options).to_dict(),
            **({"robots": audit.robots_note} if audit.robots_note else {}),
        },
    }


def _members(obj: JsonObject) -> str:
    """An object's members as JSON text, without the braces, to splice into a larger object."""
    return json.dumps(obj, ensure_ascii=False)[1:-1]


async def sarif_chunks(
    audit: AuditRecord,
    issues: AsyncGenerator[list[IssueRecord]],
    tool_version: str | None = None,
) -> AsyncGenerator[bytes]:
    """The SARIF log as encoded chunks: the run's head, one chunk per page of issues, the tail."""
    bases = UriBases(audit.final_url or audit.start_url)
    log_head: JsonObject = {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION}
    yield f'{{{_members(log_head)}, "runs": [{{{_members(_run_head(audit, tool_version))}, "results": ['.encode()
    first = True
    async with aclosing(issues):
        async for rows in issues:
            encoded: list[JsonValue] = [result(row, bases) for row in rows]
            text = ",\n".join(json.dumps(r, ensure_ascii=False) for r in encoded)
            yield (("\n" if first else ",\n") + text).encode()
            first = False
    yield f"], {_members(_run_tail(audit, bases))}}}]}}\n".encode()


async def export_sarif(
    env: Env, owner: str, audit_id: str, tool_version: str | None = None
) -> Export:
    """The audit's issues as SARIF; `AuditNotFound` before any byte."""
    audit = await owned_audit(env, owner, audit_id)
    issues = iter_issues(env, owner, audit.id, IssueFilter())
    return Export(
        f"siteaudit-{audit.id}.sarif", MEDIA_TYPE, sarif_chunks(audit, issues, tool_version)
    )
