"""The run_site_audit tool's scope and speed arguments and list mode (issue 28; the fields of
auditdb.scope.ScopeOptions, with the REST API's names): their input schema, and the record they
make. ScopeOptions checks them as a whole; its sentence becomes the tool's refusal."""

from __future__ import annotations

from api.mcp import schema
from api.mcp.schema import InvalidArguments
from auditdb.scope import (
    MAX_CONCURRENCY,
    MAX_LIST_URLS,
    MAX_RATE_PER_S,
    MAX_STRIP_PARAMS,
    MAX_USER_AGENT_CHARS,
    AuditMode,
    ScopeOptions,
)
from common.wire import JsonObject, JsonValue, as_bool, as_float, as_int, as_list, as_str

__all__ = ["SCOPE_PROPERTIES", "scope_of"]

_URL = schema.string("An http(s) URL on the audited site.", min_length=1, max_length=2048)

SCOPE_PROPERTIES: dict[str, JsonObject] = {
    "user_agent": schema.string(
        "The User-Agent header to send instead of siteaudit's; robots.txt is still matched on "
        "the product token 'siteaudit'.",
        min_length=1,
        max_length=MAX_USER_AGENT_CHARS,
    ),
    "rate_per_s": schema.number(
        "At most this many requests a second to one host (a robots.txt Crawl-delay still "
        "holds unless you verified the host).",
        above=0,
        maximum=MAX_RATE_PER_S,
    ),
    "concurrency": schema.integer(
        "At most this many page fetches in flight.", minimum=1, maximum=MAX_CONCURRENCY
    ),
    "strip_params": schema.array(
        "Query parameters removed from every URL before it is deduplicated: names or globs "
        "('sessionid', 'utm_*').",
        schema.string("A parameter name or glob.", min_length=1, max_length=100),
        max_items=MAX_STRIP_PARAMS,
    ),
    "subdomains": schema.boolean(
        "Also crawl other hosts under the start host's registrable domain; off by default."
    ),
    "mode": schema.string(
        "'list' audits exactly `urls` (or the URLs `sitemap_url` lists) without following "
        "links; 'crawl' (the default) crawls from the start URL.",
        enum=[str(mode) for mode in AuditMode],
    ),
    "urls": schema.array("The URLs a list audit audits.", _URL, max_items=MAX_LIST_URLS),
    "sitemap_url": schema.string(
        "The sitemap whose URLs a list audit audits.", min_length=1, max_length=2048
    ),
}


def scope_of(args: JsonObject) -> ScopeOptions:
    """The arguments' scope options; `InvalidArguments` with ScopeOptions' sentence."""
    user_agent, rate = args.get("user_agent"), args.get("rate_per_s")
    concurrency, sitemap_url = args.get("concurrency"), args.get("sitemap_url")
    try:
        return ScopeOptions(
            user_agent=None if user_agent is None else as_str(user_agent),
            rate_per_s=None if rate is None else as_float(rate),
            concurrency=None if concurrency is None else as_int(concurrency),
            strip_params=_strings(args.get("strip_params")),
            subdomains=as_bool(args.get("subdomains", False)),
            mode=AuditMode(as_str(args.get("mode", str(AuditMode.CRAWL)))),
            urls=_strings(args.get("urls")),
            sitemap_url=None if sitemap_url is None else as_str(sitemap_url),
        )
    except ValueError as exc:
        raise InvalidArguments(str(exc)) from exc


def _strings(value: JsonValue | None) -> list[str]:
    return [] if value is None else [as_str(item) for item in as_list(value)]
