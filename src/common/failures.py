"""The closed error vocabulary of failed audits.

Two families, split by blame:

* our side: the platform's error texts, mapped by `classify_error`. Rules are evaluated in order
  on the message (docs/original-system.md §5.1), so a "Step X output is too large" wrapped in a
  WorkflowInternalError still classifies as step_output_too_large.
* our network (`NETWORK_UNAVAILABLE`): the start URL got no answer and neither did the reference
  sites asked then (crawl.network_probe), so the failure says nothing about the site.
* the site's side (`is_site_failure`): the start URL could not be audited at all (no answer, an
  HTTP error, not an HTML page). These are decided from the start URL's fetch, never from an
  error text, and the audit's `error_detail` holds a sentence for the site's owner.
"""

from __future__ import annotations

from enum import StrEnum

ERROR_DETAIL_MAX_CHARS = 500


class ErrorCode(StrEnum):
    OOM = "oom"
    CPU_LIMIT = "cpu_limit"
    STEP_TIMEOUT = "step_timeout"
    STEP_OUTPUT_TOO_LARGE = "step_output_too_large"
    WORKFLOW_INTERNAL = "workflow_internal"
    DB_ERROR = "db_error"
    INSTANCE_LOST = "instance_lost"
    UNKNOWN = "unknown"
    # The start URL got no answer, and neither did any reference site (crawl.network_probe).
    NETWORK_UNAVAILABLE = "network_unavailable"
    # The site's side: the start URL could not be audited.
    SITE_DNS_ERROR = "site_dns_error"  # its host name does not resolve
    SITE_CONNECTION_FAILED = "site_connection_failed"  # refused, reset or unreachable
    SITE_TLS_ERROR = "site_tls_error"  # the TLS handshake or certificate check failed
    SITE_TIMEOUT = "site_timeout"  # no answer within the fetch timeout
    SITE_NETWORK_ERROR = "site_network_error"  # no answer, for another reason
    SITE_PRIVATE_ADDRESS = "site_private_address"  # resolves only to addresses we may not fetch
    SITE_HTTP_ERROR = "site_http_error"  # the start URL answered 4xx or 5xx
    START_NOT_HTML = "start_not_html"  # the start URL is not an HTML page
    # robots.txt closes the start URL and every other page discovery found to siteaudit.
    START_ROBOTS_DISALLOWED = "start_robots_disallowed"

    @property
    def is_site_failure(self) -> bool:
        """True when the audit failed because of the site, not because of us."""
        return self in SITE_FAILURES

    @property
    def at_start(self) -> bool:
        """True when the start URL's fetch decided the failure (the site's failures, and our
        network's, `NETWORK_UNAVAILABLE`): the audit's `error_detail` is a sentence for the
        owner, and a resume starts the audit over."""
        return self in SITE_FAILURES or self is ErrorCode.NETWORK_UNAVAILABLE

    @property
    def meaning(self) -> str:
        """What the code means, in a few plain words (the CLI's failure line, the reports, a
        monitor run's reason), blaming siteaudit for its own failures and the site for its."""
        return _MEANINGS[self]

    @property
    def sentence(self) -> str:
        """`meaning` as a sentence (the name siteaudit keeps its lower case)."""
        meaning = _MEANINGS[self]
        if not meaning.startswith("siteaudit"):
            meaning = meaning[0].upper() + meaning[1:]
        return meaning + "."


SITE_FAILURES = frozenset(
    {
        ErrorCode.SITE_DNS_ERROR,
        ErrorCode.SITE_CONNECTION_FAILED,
        ErrorCode.SITE_TLS_ERROR,
        ErrorCode.SITE_TIMEOUT,
        ErrorCode.SITE_NETWORK_ERROR,
        ErrorCode.SITE_PRIVATE_ADDRESS,
        ErrorCode.SITE_HTTP_ERROR,
        ErrorCode.START_NOT_HTML,
        ErrorCode.START_ROBOTS_DISALLOWED,
    }
)

_MEANINGS = {
    ErrorCode.OOM: "siteaudit ran out of memory during the audit",
    ErrorCode.CPU_LIMIT: "the audit used more CPU time than siteaudit's platform allows",
    ErrorCode.STEP_TIMEOUT: "a step of the audit took longer than siteaudit's platform allows",
    ErrorCode.STEP_OUTPUT_TOO_LARGE: "a step of the audit produced more data than siteaudit can "
    "pass on",
    ErrorCode.WORKFLOW_INTERNAL: "siteaudit's workflow engine failed during the audit",
    ErrorCode.DB_ERROR: "siteaudit's database failed during the audit",
    ErrorCode.INSTANCE_LOST: "siteaudit lost the audit's worker before the audit finished",
    ErrorCode.UNKNOWN: "siteaudit failed during the audit for a reason it could not name",
    ErrorCode.NETWORK_UNAVAILABLE: "siteaudit's own network could not reach the site or any "
    "other site",
    ErrorCode.SITE_DNS_ERROR: "the site's host name does not resolve",
    ErrorCode.SITE_CONNECTION_FAILED: "the site could not be connected to",
    ErrorCode.SITE_TLS_ERROR: "the site's TLS handshake or certificate check failed",
    ErrorCode.SITE_TIMEOUT: "the site did not answer in time",
    ErrorCode.SITE_NETWORK_ERROR: "the site could not be reached",
    ErrorCode.SITE_PRIVATE_ADDRESS: "the site's host name resolves only to private addresses, "
    "which this deployment does not audit",
    ErrorCode.SITE_HTTP_ERROR: "the start URL answered with an HTTP error",
    ErrorCode.START_NOT_HTML: "the start URL is not an HTML page",
    ErrorCode.START_ROBOTS_DISALLOWED: "the site's robots.txt disallows the audit, so nothing "
    "could be audited",
}

_CONTAINS_RULES: tuple[tuple[ErrorCode, tuple[str, ...]], ...] = (
    (ErrorCode.OOM, ("exceeded memory limit",)),
    (ErrorCode.CPU_LIMIT, ("exceeded CPU time limit",)),
    (ErrorCode.STEP_TIMEOUT, ("WorkflowTimeoutError", "Execution timed out")),
    (ErrorCode.STEP_OUTPUT_TOO_LARGE, ("output is too large",)),
    (ErrorCode.WORKFLOW_INTERNAL, ("WorkflowInternalError",)),
    (ErrorCode.DB_ERROR, ("D1_ERROR", "D1_EXEC_ERROR", "D1_TYPE_ERROR")),
)


def classify_error(message: str | None) -> ErrorCode:
    text = message or ""
    if text.startswith("Failed query:"):
        return ErrorCode.DB_ERROR
    for code, needles in _CONTAINS_RULES:
        if any(needle in text for needle in needles):
            return code
    return ErrorCode.UNKNOWN


def start_failure_code(code: str | None) -> ErrorCode | None:
    """The stored `error_code` as an `ErrorCode` when the start URL's fetch decided it
    (`ErrorCode.at_start`); None otherwise."""
    known = ErrorCode(code) if code in _BY_VALUE else None
    return known if known is not None and known.at_start else None


_BY_VALUE = frozenset(code.value for code in ErrorCode)


def error_detail(message: str | None) -> str | None:
    if message is None:
        return None
    return message[:ERROR_DETAIL_MAX_CHARS]
