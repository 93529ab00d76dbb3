"""The MCP tools: the original system's four (original system §8) and what to fix first, over
the service layer.

    run_site_audit     url, max_pages, max_depth, include, exclude,  -> {"audit"}
                       check_external, external_budget_s, render, credentials, and the
                       scope options (api.mcp.scope_args): user_agent,
                       rate_per_s, concurrency, strip_params, subdomains,
                       mode, urls, sitemap_url
    get_audit_status   audit_id?                                      -> {"audit"}
    get_audit_issues   audit_id?, severity, issue_type, limit<=1000   -> {"audit_id", "total",
                                                                          "summary", "issues"}
    get_audit_pages    audit_id?, status_code, status_class, indexable, has_issue, url_contains,
                       structured_type, eligible_feature, structured_finding,
                       limit<=1000                                    -> {"audit_id", "total",
                                                                          "pages"}
    get_audit_actions  audit_id?, limit<=100                          -> {"audit_id", "scores",
                                                                          "actions", "total",
                                                                          "note"}

and the host verifications a verified owner needs for `ignore_robots` (docs/manual/verify.md):

    verify_host                 host, method (file|dns|meta)          -> {"verification"}
    check_host_verification     verification_id                       -> {"verification"}
    list_host_verifications                                           -> {"verifications"}
    delete_host_verification    verification_id                       -> {"deleted"}

An omitted `audit_id` means the caller's newest audit, as in the original. Argument names follow
this API's own (`max_pages`, `audit_id`, the REST list filters) rather than the original's
camelCase, and the original's `projectId` has no counterpart: the API key's owner scopes every
tool, exactly as on /api. Audits started here run no Lighthouse phase (`lighthouse: none`), as the
original's `run_site_audit` defaults `runLighthouse` to false: each sampled page costs two
provider calls, which an agent should not spend unasked. There is no `runLighthouse` argument.

Each tool checks its arguments against its published input schema (`api.mcp.schema`), calls one
or two service functions and renders records with `to_dict()`, the same shapes as the REST API.
Refusals (`ServiceError`, schema violations, "no audits yet") become results with `isError: true`
and the service's message; a successful result carries the object both as `structuredContent`
and as JSON text, for clients that read only text (MCP 2025-06-18, "Tools" > "Structured
Content").
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from api.mcp import schema
from api.mcp.schema import InvalidArguments
from api.mcp.scope_args import SCOPE_PROPERTIES, scope_of
from audit.catalogue import IssueType, Severity, maybe_descriptor
from auditdb.listing import IssueFilter, PageFilter, StructuredFilter
from auditdb.records import AuditRecord
from auditdb.summary import TypeCount
from auditdb.verifications import VerificationMethod
from common.bindings import Env
from common.settings import CRAWL, EXTERNAL
from common.wire import JsonObject, JsonValue, as_bool, as_int, as_list, as_object, as_str
from lighthouse.records import LighthouseMode
from render.records import RenderMode
from service import audits, lists, verdict, verification
from service.audits import CreateAudit
from service.errors import RateLimited, ServiceError
from service.scope_checks import list_start_url
from service.verification import RequestVerification, verification_view
from structured.findings import FindingKind, RichResultFeature
from urls.credentials import (
    MAX_COOKIES,
    MAX_HEADERS,
    MAX_ORIGINS,
    MAX_VALUE_CHARS,
    Credentials,
    CredentialsError,
    parse_origin,
)

DEFAULT_ISSUE_LIMIT = 200  # the original's default for get_audit_issues
DEFAULT_ACTION_LIMIT = 10  # what an agent should read first; `total` says how many there are
MAX_ACTION_LIMIT = 100
_STATUS_CLASSES = ("1xx", "2xx", "3xx", "4xx", "5xx")


class ToolRefusal(Exception):
    """A refusal the tools make themselves (the service refuses with `ServiceError`)."""


@dataclass(frozen=True, slots=True)
class Caller:
    """Who calls the tools: the owner of the API key the request came with."""

    env: Env
    owner: str
    key_id: str


type Run = Callable[[Caller, JsonObject], Awaitable[JsonObject]]


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    title: str
    description: str
    input_schema: JsonObject
    read_only: bool
    run: Run
    destructive: bool = False  # it deletes what the caller made (delete_host_verification)

    def definition(self) -> JsonObject:
        # Annotations are hints for the client's UI and consent prompts (MCP 2025-06-18,
        # "Tools" > "Tool"); run_site_audit reaches a site outside this server: open world.
        annotations: JsonObject = {
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.read_only,
            "openWorldHint": not self.read_only,
        }
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
            "annotations": annotations,
        }


@dataclass(frozen=True, slots=True)
class CallerTools:
    """The tools bound to one caller (`api.mcp.protocol.Toolbox`)."""

    caller: Caller

    def definitions(self) -> list[JsonObject]:
        return [tool.definition() for tool in TOOLS.values()]

    def knows(self, name: str) -> bool:
        return name in TOOLS

    async def call(self, name: str, arguments: JsonObject) -> JsonObject:
        tool = TOOLS[name]
        try:
            schema.check(tool.input_schema, arguments)
            return success(await tool.run(self.caller, arguments))
        except (InvalidArguments, ToolRefusal) as exc:
            return refusal(str(exc))
        except ServiceError as exc:
            return refusal(service_message(exc))


def success(structured: JsonObject) -> JsonObject:
    text = json.dumps(structured, sort_keys=True)
    return {
        "content": [{"type": "text", "text": text}],
        "structuredContent": structured,
        "isError": False,
    }


def refusal(message: str) -> JsonObject:
    return {"content": [{"type": "text", "text": message}], "isError": True}


def service_message(exc: ServiceError) -> str:
    if isinstance(exc, RateLimited):
        return f"{exc}; retry in {exc.retry_after_s} s"
    return str(exc)


# -- the tools -----------------------------------------------------------------------------------

# Whole seconds: the tools' schemas know integers, not numbers (api.mcp.schema).
_DEFAULT_EXTERNAL_BUDGET_S = int(EXTERNAL.default_budget_s)


async def run_site_audit(caller: Caller, args: JsonObject) -> JsonObject:
    depth = args.get("max_depth")
    scope = scope_of(args)
    url = args.get("url") or list_start_url(scope)
    if url is None:
        raise InvalidArguments('arguments.url is required (only mode "list" may leave it out)')
    request = CreateAudit(
        url=as_str(url),
        max_pages=as_int(args.get("max_pages", CRAWL.default_max_pages)),
        max_depth=None if depth is None else as_int(depth),
        include=_strings(args.get("include")),
        exclude=_strings(args.get("exclude")),
        lighthouse=LighthouseMode.NONE,
        check_external=as_bool(args.get("check_external", False)),
        external_budget_s=as_int(args.get("external_budget_s", _DEFAULT_EXTERNAL_BUDGET_S)),
        render=RenderMode(as_str(args.get("render", RenderMode.AUTO.value))),
        scope=scope,
        ignore_robots=as_bool(args.get("ignore_robots", False)),
        credentials=_credentials(args.get("credentials")),
    )
    audit = await audits.create_audit(caller.env, caller.owner, request, caller.key_id)
    return {"audit": audit_view(audit)}


async def get_audit_status(caller: Caller, args: JsonObject) -> JsonObject:
    audit_id = await _audit_id(caller, args)
    return {"audit": audit_view(await audits.read_audit(caller.env, caller.owner, audit_id))}


async def get_audit_issues(caller: Caller, args: JsonObject) -> JsonObject:
    audit_id = await _audit_id(caller, args)
    wanted = _issue_filter(args)
    limit = as_int(args.get("limit", DEFAULT_ISSUE_LIMIT))
    page = await lists.list_issues(
        caller.env, caller.owner, audit_id, wanted, lists.Paging(limit=limit)
    )
    counts = await lists.issue_counts(caller.env, caller.owner, audit_id)
    kept = [row for row in counts.rows if _keeps(wanted, row)]
    return {
        "audit_id": audit_id,
        "total": sum(row.count for row in kept),
        "summary": [_type_summary(row) for row in sorted(kept, key=_summary_order)],
        "issues": [issue.to_dict() for issue in page.items],
    }


async def get_audit_pages(caller: Caller, args: JsonObject) -> JsonObject:
    audit_id = await _audit_id(caller, args)
    wanted = _page_filter(args)
    limit = as_int(args.get("limit", lists.DEFAULT_LIMIT))
    page = await lists.list_pages(
        caller.env, caller.owner, audit_id, wanted, lists.Paging(limit=limit)
    )
    total = await lists.count_pages(caller.env, caller.owner, audit_id, wanted)
    return {"audit_id": audit_id, "total": total, "pages": [row.to_dict() for row in page.items]}


async def get_audit_actions(caller: Caller, args: JsonObject) -> JsonObject:
    audit_id = await _audit_id(caller, args)
    found = await verdict.audit_verdict(caller.env, caller.owner, audit_id)
    limit = as_int(args.get("limit", DEFAULT_ACTION_LIMIT))
    return {
        "audit_id": audit_id,
        "scores": None if found.scores is None else found.scores.to_dict(),
        "total": len(found.actions),
        "actions": [action.to_dict() for action in found.actions[:limit]],
        "note": found.note,
    }


# -- host verifications (issue 28, item 2; service.verification) --------------------------------


async def verify_host(caller: Caller, args: JsonObject) -> JsonObject:
    method = VerificationMethod(as_str(args["method"]))
    request = RequestVerification(host=as_str(args["host"]), method=method)
    row = await verification.request_verification(caller.env, caller.owner, request)
    return {"verification": verification_view(row)}


async def check_host_verification(caller: Caller, args: JsonObject) -> JsonObject:
    verification_id = as_str(args["verification_id"])
    row = await verification.check_verification(caller.env, caller.owner, verification_id)
    return {"verification": verification_view(row)}


async def list_host_verifications(caller: Caller, args: JsonObject) -> JsonObject:
    rows = await verification.list_verifications(caller.env, caller.owner)
    return {"verifications": [verification_view(row) for row in rows]}


async def delete_host_verification(caller: Caller, args: JsonObject) -> JsonObject:
    verification_id = as_str(args["verification_id"])
    await verification.delete_verification(caller.env, caller.owner, verification_id)
    return {"deleted": verification_id}


# -- helpers -------------------------------------------------------------------------------------


def audit_view(audit: AuditRecord) -> JsonObject:
    """The audit as the REST API shows it (`service.audits.audit_view`): `error_detail` and
    `site_failure` carry the sentence of an audit the site made fail, `scheme_note` the scheme
    a URL given without one was audited with."""
    return audits.audit_view(audit)


async def _audit_id(caller: Caller, args: JsonObject) -> str:
    given = args.get("audit_id")
    if given is not None:
        return as_str(given)
    latest = await lists.latest_audit(caller.env, caller.owner)
    if latest is None:
        raise ToolRefusal("there are no audits yet; start one with run_site_audit")
    return latest.id


def _credentials(value: JsonValue) -> Credentials | None:
    """The `credentials` argument checked as the API checks them (urls.credentials), refused by
    field name without quoting a value."""
    if value is None:
        return None
    data = dict(as_object(value))
    origins = data.get("origins")
    try:
        data["origins"] = [parse_origin(as_str(origin)) for origin in as_list(origins or [])]
        return Credentials.from_dict(data)
    except CredentialsError as exc:
        raise ToolRefusal(f"credentials: {exc}") from None


def _strings(value: JsonValue) -> tuple[str, ...]:
    return () if value is None else tuple(as_str(item) for item in as_list(value))


def _issue_filter(args: JsonObject) -> IssueFilter:
    issue_type, severity = args.get("issue_type"), args.get("severity")
    return IssueFilter(
        types=() if issue_type is None else (IssueType(as_str(issue_type)),),
        severity=None if severity is None else Severity(as_str(severity)),
    )


def _keeps(wanted: IssueFilter, row: TypeCount) -> bool:
    return (wanted.severity is None or row.severity is wanted.severity) and (
        not wanted.types or row.issue_type in wanted.types
    )


def _summary_order(row: TypeCount) -> tuple[int, int, str]:
    return row.severity.order, -row.count, row.issue_type


def _type_summary(row: TypeCount) -> JsonObject:
    known = maybe_descriptor(row.issue_type)  # None: a type from an older or newer catalogue
    return {
        "issue_type": row.issue_type,
        "severity": str(row.severity),
        "count": row.count,
        "title": row.issue_type if known is None else known.title,
        "how_to_fix": None if known is None else known.how_to_fix,
    }


def _page_filter(args: JsonObject) -> PageFilter:
    code, status_class = args.get("status_code"), args.get("status_class")
    indexable, has_issue, url = (
        args.get("indexable"),
        args.get("has_issue"),
        args.get("url_contains"),
    )
    return PageFilter(
        status_code=None if code is None else as_int(code),
        status_class=None if status_class is None else int(as_str(status_class)[0]),
        indexable=None if indexable is None else as_bool(indexable),
        has_issue=None if has_issue is None else IssueType(as_str(has_issue)),
        url_contains=None if url is None else as_str(url),
        structured=_structured_filter(args),
    )


def _structured_filter(args: JsonObject) -> StructuredFilter:
    """Pages by their structured data (docs/structured-data.md, "In the product")."""
    name, feature, kind = (
        args.get("structured_type"),
        args.get("eligible_feature"),
        args.get("structured_finding"),
    )
    return StructuredFilter(
        type_name=None if name is None else as_str(name),
        eligible=None if feature is None else RichResultFeature(as_str(feature)),
        finding=None if kind is None else FindingKind(as_str(kind)),
    )


# -- definitions ---------------------------------------------------------------------------------

_AUDIT_ID = schema.string(
    "The audit's id, as run_site_audit returned it; omit it for your newest audit.",
    min_length=1,
    max_length=100,
    pattern="^[A-Za-z0-9_-]+$",
)
_LIMIT_HELP = "How many rows to return at most."
_PATTERN = schema.string(
    "A robots.txt-style path pattern: '/blog/' or '*.pdf$'.", max_length=500, pattern="^[/*]"
)
_ISSUE_TYPES = [str(issue_type) for issue_type in IssueType]
_VERIFICATION_ID = schema.string(
    "The verification's id, as verify_host returned it.",
    min_length=1,
    max_length=100,
    pattern="^[A-Za-z0-9_-]+$",
)
VERIFICATION_TOOLS = (
    Tool(
        name="verify_host",
        title="Verify a host you own",
        description=(
            "Start proving you control a host, so your audits of it may ignore its robots.txt "
            "(ignore_robots). Returns a token and where to publish it for the method: file (a "
            "text file at /.well-known/siteaudit-verification.txt), dns (a TXT record "
            "siteaudit-verification=<token> at _siteaudit.<host>) or meta (a meta tag on the "
            "start page). Asking again for the same host returns the same token. Then call "
            "check_host_verification."
        ),
        input_schema=schema.obj(
            {
                "host": schema.string(
                    "The host name, optionally with a port: example.com, staging.example.com:8443.",
                    min_length=1,
                    max_length=300,
                ),
                "method": schema.string(
                    "Where the token will be published.", enum=[str(m) for m in VerificationMethod]
                ),
            },
            required=["host", "method"],
        ),
        read_only=False,
        run=verify_host,
    ),
    Tool(
        name="check_host_verification",
        title="Check a host verification",
        description=(
            "Look for the token now. status: verified (found), failed (an answer came back "
            "without it), or unchanged when it could not be checked (a DNS resolver or the site "
            "failed); `reason` says what was found."
        ),
        input_schema=schema.obj(
            {"verification_id": _VERIFICATION_ID}, required=["verification_id"]
        ),
        read_only=False,
        run=check_host_verification,
    ),
    Tool(
        name="list_host_verifications",
        title="Your host verifications",
        description="Your host verifications with their status, last check and reason.",
        input_schema=schema.obj({}),
        read_only=True,
        run=list_host_verifications,
    ),
    Tool(
        name="delete_host_verification",
        title="Delete a host verification",
        description="Forget a verification: later audits of the host obey its robots.txt.",
        input_schema=schema.obj(
            {"verification_id": _VERIFICATION_ID}, required=["verification_id"]
        ),
        read_only=False,
        run=delete_host_verification,
        destructive=True,
    ),
)
# What a closed site needs (urls.credentials). No pattern on a value: a pattern's refusal quotes
# what it refused (api.mcp.schema), and these are secrets.
_SECRET = schema.string("A secret value: never shown back.", max_length=MAX_VALUE_CHARS)
_CREDENTIALS = schema.obj(
    {
        "basic_auth": schema.obj(
            {
                "user": schema.string("The user (no ':').", min_length=1, max_length=4096),
                "password": _SECRET,
            },
            required=["user", "password"],
            description="HTTP basic auth (RFC 7617).",
        ),
        "headers": schema.mapping(
            "Request headers, name to value: an access token such as Cloudflare Access's "
            "CF-Access-Client-Id and CF-Access-Client-Secret. Not Host, Cookie, User-Agent or "
            "the framing headers.",
            _SECRET,
            max_properties=MAX_HEADERS,
        ),
        "cookies": schema.mapping(
            "Cookies, name to value: a login session.", _SECRET, max_properties=MAX_COOKIES
        ),
        "origins": schema.array(
            "More origins (https://host[:port]) that get them, besides the start URL's.",
            schema.string("An origin.", min_length=1, max_length=2048),
            max_items=MAX_ORIGINS,
        ),
        "send_to_external_links": schema.boolean(
            "Also send them when checking links to other sites (only to `origins`)."
        ),
    },
    description=(
        "What a closed site (staging, preview) needs: sent only to the start URL's origin and "
        "`origins`, never across a redirect to another origin; stored sealed, shown redacted."
    ),
)

TOOLS: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        Tool(
            name="run_site_audit",
            title="Start a website audit",
            description=(
                "Start crawling a website from a URL and checking its pages for SEO and technical "
                "issues. Returns at once with the audit (its id and status 'running'); poll "
                "get_audit_status until the status is completed or failed."
            ),
            input_schema=schema.obj(
                {
                    "url": schema.string(
                        "The start URL (http or https); required unless mode is 'list'.",
                        min_length=1,
                        max_length=2048,
                    ),
                    "max_pages": schema.integer(
                        "How many pages to crawl at most.",
                        minimum=CRAWL.min_max_pages,
                        maximum=CRAWL.max_max_pages,
                        default=CRAWL.default_max_pages,
                    ),
                    "max_depth": schema.integer(
                        "How many clicks from the start URL to follow at most.",
                        minimum=0,
                        maximum=1000,
                    ),
                    "include": schema.array(
                        "Crawl only URLs matching one of these.", _PATTERN, max_items=50
                    ),
                    "exclude": schema.array(
                        "Never crawl URLs matching one of these.", _PATTERN, max_items=50
                    ),
                    "check_external": schema.boolean(
                        "Also check each distinct link to other sites once (HEAD, then GET), "
                        "politely; off by default."
                    ),
                    "external_budget_s": schema.integer(
                        "Seconds the checks of links to other sites may take in all; the links "
                        "left when it runs out are reported unchecked, never broken.",
                        minimum=int(EXTERNAL.min_budget_s),
                        maximum=int(EXTERNAL.max_budget_s),
                        default=_DEFAULT_EXTERNAL_BUDGET_S,
                    ),
                    "render": schema.string(
                        "Render pages in a browser: auto (pages whose HTML looks like an app "
                        "shell, and a small sample of the rest), always (every HTML page) or "
                        "never; without a renderer the audit counts what would have been.",
                        enum=[str(mode) for mode in RenderMode],
                    ),
                    **SCOPE_PROPERTIES,
                    "ignore_robots": schema.boolean(
                        "Ignore robots.txt disallows (it is still read and reported). Only for a "
                        "host you verified (verify_host, check_host_verification); refused "
                        "otherwise, and checked again before the crawl."
                    ),
                    "credentials": _CREDENTIALS,
                },
                # `url` may be left out in list mode only; run_site_audit says so.
            ),
            read_only=False,
            run=run_site_audit,
        ),
        Tool(
            name="get_audit_status",
            title="Audit status",
            description=(
                "The audit's status (running, completed, failed), pages crawled, issue counts by "
                "severity, health score and the site's security grade (security_grade, "
                "security_score; security_error when it could not be graded). A failed audit "
                "keeps the pages crawled before it stopped."
            ),
            input_schema=schema.obj({"audit_id": _AUDIT_ID}),
            read_only=True,
            run=get_audit_status,
        ),
        Tool(
            name="get_audit_issues",
            title="Audit issues",
            description=(
                "The audit's issues, most severe first, with a summary per issue type: its title, "
                "severity, count and how to fix it. `total` counts every issue the filters keep; "
                "`issues` holds at most `limit` of them."
            ),
            input_schema=schema.obj(
                {
                    "audit_id": _AUDIT_ID,
                    "severity": schema.string(
                        "Only issues of this severity.", enum=[str(s) for s in Severity]
                    ),
                    "issue_type": schema.string("Only issues of this type.", enum=_ISSUE_TYPES),
                    "limit": schema.integer(
                        _LIMIT_HELP, minimum=1, maximum=lists.MAX_LIMIT, default=DEFAULT_ISSUE_LIMIT
                    ),
                }
            ),
            read_only=True,
            run=get_audit_issues,
        ),
        Tool(
            name="get_audit_pages",
            title="Audit pages",
            description=(
                "The audit's crawled pages in URL order, with status code, title, meta description, "
                "indexability, word count and links. `total` counts every page the filters keep; "
                "`pages` holds at most `limit` of them."
            ),
            input_schema=schema.obj(
                {
                    "audit_id": _AUDIT_ID,
                    "status_code": schema.integer(
                        "Only pages answered with this status.", minimum=100, maximum=599
                    ),
                    "status_class": schema.string(
                        "Only pages whose status is in this class.", enum=_STATUS_CLASSES
                    ),
                    "indexable": schema.boolean(
                        "Only indexable (true) or non-indexable (false) pages."
                    ),
                    "has_issue": schema.string(
                        "Only pages with an issue of this type.", enum=_ISSUE_TYPES
                    ),
                    "url_contains": schema.string(
                        "Only pages whose URL contains this text.", min_length=1, max_length=2048
                    ),
                    "structured_type": schema.string(
                        "Only pages whose structured data has a top-level item of this "
                        "schema.org type (exact: Product).",
                        min_length=1,
                        max_length=2048,
                    ),
                    "eligible_feature": schema.string(
                        "Only pages eligible for this Google rich-result feature.",
                        enum=[str(f) for f in RichResultFeature],
                    ),
                    "structured_finding": schema.string(
                        "Only pages whose structured data has a finding of this kind.",
                        enum=[str(k) for k in FindingKind],
                    ),
                    "limit": schema.integer(
                        _LIMIT_HELP, minimum=1, maximum=lists.MAX_LIMIT, default=lists.DEFAULT_LIMIT
                    ),
                }
            ),
            read_only=True,
            run=get_audit_pages,
        ),
        Tool(
            name="get_audit_actions",
            title="What to fix first",
            description=(
                "The audit's scores (overall and per category: crawlability and links, on-page "
                "SEO, content, security, performance) and its findings as actions ranked by the "
                "points fixing each adds to the overall score. Each action has its severity, "
                "scope (site: it concerns the whole site, with `detail` saying what was found; "
                "site-wide: one shared cause on most pages; pages: some pages), pages affected, a "
                "plain summary, how to fix it and example pages. `note` says why there is no "
                "verdict (audit running or failed)."
            ),
            input_schema=schema.obj(
                {
                    "audit_id": _AUDIT_ID,
                    "limit": schema.integer(
                        "How many actions to return at most, most worth first.",
                        minimum=1,
                        maximum=MAX_ACTION_LIMIT,
                        default=DEFAULT_ACTION_LIMIT,
                    ),
                }
            ),
            read_only=True,
            run=get_audit_actions,
        ),
        *VERIFICATION_TOOLS,
    )
}
