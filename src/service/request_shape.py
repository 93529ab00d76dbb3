"""The shape of a request to start an audit, in one place for its two readers: the API's pydantic
schema (`api.schemas.CreateAuditBody`, which validates a JSON body) and the CLI's typed request
(`cli.audit_request`, which builds `service.audits.CreateAudit` from its options without pydantic,
so `siteaudit audit` does not load it: issue 29, item 4).

Only what the domain records do not check themselves lives here: the ranges and lengths of the
request's own fields. `AuditOptions` checks the crawl's ranges, `ScopeOptions` the scope and list
fields, `Credentials` the credentials, and both readers build those records.
"""

from __future__ import annotations

from collections.abc import Sequence

# A URL the request names (the start URL, a sitemap's): browsers and servers commonly cap URLs
# near 2,000 characters.
MAX_URL_CHARS = 2048
MAX_DEPTH = 1000  # clicks from the start URL; more is no limit in practice
MAX_PATTERNS = 50  # include and exclude patterns, each
MAX_PATTERN_CHARS = 500
# Said by both readers when neither a start URL nor a list names the site.
URL_REQUIRED = 'url is required (only mode "list" may leave it out)'


def url_patterns[S: Sequence[str]](patterns: S) -> S:
    """`patterns` when each is a robots.txt-style path pattern the crawl's URL policy matches
    ("/blog/", "*.pdf$"); ValueError naming the first that is not."""
    for pattern in patterns:
        if not pattern.startswith(("/", "*")) or len(pattern) > MAX_PATTERN_CHARS:
            raise ValueError(f"a URL pattern must start with '/' or '*': {pattern!r}")
    return patterns


def check_create_shape(
    url: str | None,
    max_depth: int | None,
    include: Sequence[str],
    exclude: Sequence[str],
    *,
    listed: bool,
) -> None:
    """What the API's schema checks of these fields, for a caller without it (the CLI): a
    ValueError naming the field, `field: problem`, as the API's 400 names it."""
    if url is None and not listed:
        raise ValueError(URL_REQUIRED)
    if url is not None and not 1 <= len(url) <= MAX_URL_CHARS:
        raise ValueError(f"url: must be 1 to {MAX_URL_CHARS} characters")
    if max_depth is not None and not 0 <= max_depth <= MAX_DEPTH:
        raise ValueError(f"max_depth: must be between 0 and {MAX_DEPTH}")
    for name, patterns in (("include", include), ("exclude", exclude)):
        if len(patterns) > MAX_PATTERNS:
            raise ValueError(f"{name}: at most {MAX_PATTERNS} patterns")
        try:
            url_patterns(patterns)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
