"""Request bodies validated with pydantic, which stays at this edge of the system.

Bodies are read by `api.json_body` (size, nesting, strict JSON), then validated in pydantic's
strict mode (https://docs.pydantic.dev/latest/concepts/strict_mode/): a number field takes a
JSON number and nothing else (not "10", not true), a string or boolean field only its own type.
The one exception is a closed vocabulary (`Field(strict=False)`): strict mode would want the
enum member itself, which JSON cannot carry, so an enum field takes its value's string (and only
a value of the vocabulary). JSON has one number type, so 30 is accepted where seconds are wanted.

pydantic-core has no Pyodide wheel on PyPI, so everything past the API layer is plain dataclasses
and loads in the Pyodide test tier; this module is covered by the CPython tests.
"""

from __future__ import annotations

from typing import Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from api import json_body
from api.errors import ApiError, ApiErrorCode, BadRequest, PayloadTooLarge
from api.json_body import BodyProblem, UnreadableBody
from auditdb.frequency import Frequency
from auditdb.records import MAX_LIGHTHOUSE_PAGES
from auditdb.scope import (
    MAX_CONCURRENCY,
    MAX_LIST_URLS,
    MAX_RATE_PER_S,
    MAX_STRIP_PARAMS,
    MAX_USER_AGENT_CHARS,
    AuditMode,
    ScopeOptions,
)
from auditdb.verifications import VerificationMethod
from common.settings import CRAWL, EXTERNAL
from lighthouse.records import LighthouseMode
from lighthouse.sample import DEFAULT_SAMPLE_PAGES
from render.records import RenderMode
from service import keys
from service.audits import CreateAudit
from service.monitors import CreateMonitor, UpdateMonitor
from service.request_shape import (
    MAX_DEPTH,
    MAX_PATTERNS,
    MAX_URL_CHARS,
    URL_REQUIRED,
    url_patterns,
)
from service.scope_checks import list_start_url
from service.verification import RequestVerification
from urls.credentials import (
    MAX_COOKIES,
    MAX_HEADERS,
    MAX_ORIGINS,
    MAX_VALUE_CHARS,
    BasicAuth,
    Credentials,
    parse_origin,
)

_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)
# The time the external link checks may take in all (docs/external-links.md, "Politeness and
# budgets"): what is left when it runs out is reported unchecked, never broken.
EXTERNAL_BUDGET_FIELD = Field(
    default=EXTERNAL.default_budget_s,
    ge=EXTERNAL.min_budget_s,
    le=EXTERNAL.max_budget_s,
    description="seconds the checks of links to other sites may take in all (check_external); "
    "URLs left when it runs out are reported unchecked (external-links-unchecked)",
)
# Which pages a browser renders (docs/rendering.md); `auto` without a renderer renders nothing
# and the audit says which pages would have needed it.
RENDER_FIELD = Field(
    default=RenderMode.AUTO,
    strict=False,
    description="render pages in a browser: never, auto (pages that look like app shells and a "
    "small sample of the rest) or always (every HTML page)",
)

# Ignore robots.txt disallows (docs/manual/verify.md): only for a host the key's owner verified.
IGNORE_ROBOTS_FIELD = Field(
    default=False,
    description="ignore robots.txt disallows (robots.txt is still read and reported); only for "
    "a host the key's owner verified (/api/verifications), else 403 host_not_verified",
)


# -- credentials (issue 28): what a closed site needs; urls.credentials checks the values, and
# says what is wrong by field name, never quoting a value.


class BasicAuthBody(BaseModel):
    """HTTP basic auth (RFC 7617): sent as `Authorization: Basic`, UTF-8."""

    model_config = _STRICT

    user: str = Field(min_length=1, max_length=MAX_VALUE_CHARS, description="no ':'")
    password: str = Field(max_length=MAX_VALUE_CHARS)


class CredentialsBody(BaseModel):
    """What a closed site needs: HTTP basic auth, request headers (an access token: Cloudflare
    Access service tokens, protection-bypass headers), cookies (a login session), or any mix.
    Sent only to the start URL's origin and the `origins` listed (and to the https twin of an
    http one), never across a redirect to another origin, to external-link checks or to
    Lighthouse unless the flags say so. Stored sealed (AES-256-GCM); every read shows names and
    the basic-auth user, each value `[redacted]`."""

    model_config = _STRICT

    basic_auth: BasicAuthBody | None = None
    headers: dict[str, str] = Field(
        default_factory=dict,
        max_length=MAX_HEADERS,
        description="name: value; RFC 9110 tokens and field values; not Host, Content-Length, "
        "Transfer-Encoding, Connection and the other framing fields, User-Agent, "
        "Accept-Encoding or Cookie (use `cookies`)",
    )
    cookies: dict[str, str] = Field(
        default_factory=dict,
        max_length=MAX_COOKIES,
        description="name: value (RFC 6265), sent as one Cookie header",
    )
    origins: list[str] = Field(
        default_factory=list,
        max_length=MAX_ORIGINS,
        description="more origins (scheme://host[:port]) that get them, besides the start URL's",
    )
    send_to_lighthouse: bool = Field(
        default=False,
        description="ask for them to go with Lighthouse; PageSpeed Insights cannot take them, "
        "so Lighthouse is then skipped (lighthouse_status skipped_credentials)",
    )
    send_to_external_links: bool = Field(
        default=False,
        description="also send them when checking links to other sites (only to `origins`)",
    )

    @model_validator(mode="after")
    def _sendable(self) -> Self:
        self.to_credentials()  # CredentialsError is a ValueError: a 400 naming the field
        return self

    def to_credentials(self) -> Credentials:
        auth = self.basic_auth
        return Credentials(
            basic_auth=None if auth is None else BasicAuth(auth.user, auth.password),
            headers=dict(self.headers),
            cookies=dict(self.cookies),
            origins=[parse_origin(origin) for origin in self.origins],
            send_to_lighthouse=self.send_to_lighthouse,
            send_to_external_links=self.send_to_external_links,
        )


def _credentials(body: CredentialsBody | None) -> Credentials | None:
    return None if body is None else body.to_credentials()


class ScopeFields(BaseModel):
    """The scope and speed options and list mode (issue 28; auditdb.scope.ScopeOptions checks
    them as a whole, and its sentence is the 400's message)."""

    model_config = _STRICT

    user_agent: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_USER_AGENT_CHARS,
        description="the User-Agent header sent instead of siteaudit's; robots.txt groups are "
        "still matched on the product token `siteaudit` (RFC 9309 §2.2.1)",
    )
    rate_per_s: float | None = Field(
        default=None,
        gt=0,
        le=MAX_RATE_PER_S,
        description="at most this many requests a second to one host; a robots.txt Crawl-delay "
        "still holds unless the key's owner verified the host",
    )
    concurrency: int | None = Field(
        default=None,
        ge=1,
        le=MAX_CONCURRENCY,
        description="at most this many page fetches in flight",
    )
    strip_params: list[str] = Field(
        default_factory=list,
        max_length=MAX_STRIP_PARAMS,
        description="query parameters removed from every URL before it is deduplicated: names "
        "or globs (`sessionid`, `utm_*`)",
    )
    subdomains: bool = Field(
        default=False,
        description="also crawl other hosts under the start host's registrable domain",
    )
    mode: AuditMode = Field(
        default=AuditMode.CRAWL,
        strict=False,
        description="`list`: audit exactly `urls` (or the URLs `sitemap_url` lists) without "
        "following links",
    )
    urls: list[str] = Field(default_factory=list, max_length=MAX_LIST_URLS)
    sitemap_url: str | None = Field(default=None, min_length=1, max_length=MAX_URL_CHARS)

    @model_validator(mode="after")
    def _scope_checked(self) -> Self:
        self.scope()  # ScopeOptions' ValueError becomes the 400's sentence
        return self

    def scope(self) -> ScopeOptions:
        return ScopeOptions(**{name: getattr(self, name) for name in _SCOPE_FIELDS})


_SCOPE_FIELDS = tuple(ScopeFields.model_fields)


class CreateAuditBody(ScopeFields):
    model_config = _STRICT

    # Required, except in list mode: the list's first URL (or its sitemap's site) by default.
    url: str | None = Field(default=None, min_length=1, max_length=MAX_URL_CHARS)
    max_pages: int = Field(
        default=CRAWL.default_max_pages, ge=CRAWL.min_max_pages, le=CRAWL.max_max_pages
    )
    max_depth: int | None = Field(default=None, ge=0, le=MAX_DEPTH)
    include: list[str] = Field(default_factory=list, max_length=MAX_PATTERNS)
    exclude: list[str] = Field(default_factory=list, max_length=MAX_PATTERNS)

    @field_validator("include", "exclude")
    @classmethod
    def _url_patterns(cls, patterns: list[str]) -> list[str]:
        return url_patterns(patterns)

    fetch_timeout_s: float = Field(
        default=CRAWL.fetch_timeout_s,
        ge=CRAWL.min_fetch_timeout_s,
        le=CRAWL.max_fetch_timeout_s,
    )
    # Lighthouse on a sample of the pages (docs/lighthouse.md): `none` turns the phase off; the
    # deployment's PSI_API_KEY decides whether `auto` runs (without it the audit says skipped).
    lighthouse: LighthouseMode = Field(default=LighthouseMode.AUTO, strict=False)
    lighthouse_pages: int = Field(default=DEFAULT_SAMPLE_PAGES, ge=1, le=MAX_LIGHTHOUSE_PAGES)
    # Check each distinct link to another site once (docs/external-links.md). Off by default
    # here: each audit then sends requests to third-party sites its caller did not name, which
    # an API client (or a monitor, daily) should choose; the CLI turns it on.
    check_external: bool = False
    external_budget_s: float = EXTERNAL_BUDGET_FIELD
    render: RenderMode = RENDER_FIELD
    # -- robots.txt override (issue 28, item 2) --
    ignore_robots: bool = IGNORE_ROBOTS_FIELD

    @model_validator(mode="after")
    def _url_or_list(self) -> Self:
        if self.url is None and self.mode is not AuditMode.LIST:
            raise ValueError(URL_REQUIRED)
        return self

    credentials: CredentialsBody | None = None

    def to_request(self) -> CreateAudit:
        scope = self.scope()
        return CreateAudit(
            url=self.url or list_start_url(scope) or "",
            max_pages=self.max_pages,
            max_depth=self.max_depth,
            include=tuple(self.include),
            exclude=tuple(self.exclude),
            fetch_timeout_s=self.fetch_timeout_s,
            lighthouse=self.lighthouse,
            lighthouse_pages=self.lighthouse_pages,
            check_external=self.check_external,
            external_budget_s=self.external_budget_s,
            render=self.render,
            scope=scope,
            ignore_robots=self.ignore_robots,
            credentials=_credentials(self.credentials),
        )


# Monitors. The service checks what depends on the deployment (the SSRF policy on both URLs,
# MAX_PAGES_LIMIT, the secret's form); these check types and ranges.


class CreateMonitorBody(ScopeFields):
    """POST /api/monitors."""

    model_config = _STRICT

    url: str = Field(min_length=1, max_length=MAX_URL_CHARS)
    frequency: Frequency = Field(default=Frequency.DAILY, strict=False)
    hour: int | None = Field(default=None, ge=0, le=23)
    max_pages: int = Field(
        default=CRAWL.default_max_pages, ge=CRAWL.min_max_pages, le=CRAWL.max_max_pages
    )
    max_depth: int | None = Field(default=None, ge=0, le=MAX_DEPTH)
    include: list[str] = Field(default_factory=list, max_length=MAX_PATTERNS)
    exclude: list[str] = Field(default_factory=list, max_length=MAX_PATTERNS)
    webhook_url: str | None = Field(default=None, min_length=1, max_length=MAX_URL_CHARS)
    webhook_secret: str | None = Field(default=None, min_length=1, max_length=200)
    alert_score_drop: float = Field(default=5.0, ge=0, le=100)
    alert_on_grade_drop: bool = True
    alert_on_new_critical: bool = True
    is_active: bool = True
    lighthouse: LighthouseMode = Field(default=LighthouseMode.AUTO, strict=False)
    check_external: bool = False  # each run's audit option, off by default as for audits
    external_budget_s: float = EXTERNAL_BUDGET_FIELD
    render: RenderMode = RENDER_FIELD  # each run's audit option (issue 30)
    ignore_robots: bool = IGNORE_ROBOTS_FIELD  # each run's audit option (issue 28, item 2)
    credentials: CredentialsBody | None = None  # each run's audit's, sealed

    @field_validator("include", "exclude")
    @classmethod
    def _url_patterns(cls, patterns: list[str]) -> list[str]:
        return url_patterns(patterns)

    def to_request(self) -> CreateMonitor:
        fields = self.model_dump(exclude=set(_SCOPE_FIELDS) | {"credentials"})
        fields["include"], fields["exclude"] = tuple(self.include), tuple(self.exclude)
        credentials = _credentials(self.credentials)
        return CreateMonitor(**fields, scope=self.scope(), credentials=credentials)


class UpdateMonitorBody(BaseModel):
    """PATCH /api/monitors/{id}: the fields given change, the others stay. `null` is a value
    only for `max_depth` (no limit), `webhook_url` (no webhook) and `credentials` (none: the
    stored ones are removed); elsewhere it is refused. Left out, `credentials` stay as stored:
    a read shows them redacted, so an edit never has to send them back."""

    model_config = _STRICT

    url: str | None = Field(default=None, min_length=1, max_length=MAX_URL_CHARS)
    frequency: Frequency | None = Field(default=None, strict=False)
    hour: int | None = Field(default=None, ge=0, le=23)
    max_pages: int | None = Field(default=None, ge=CRAWL.min_max_pages, le=CRAWL.max_max_pages)
    max_depth: int | None = Field(default=None, ge=0, le=MAX_DEPTH)
    include: list[str] | None = Field(default=None, max_length=MAX_PATTERNS)
    exclude: list[str] | None = Field(default=None, max_length=MAX_PATTERNS)
    webhook_url: str | None = Field(default=None, min_length=1, max_length=MAX_URL_CHARS)
    webhook_secret: str | None = Field(default=None, min_length=1, max_length=200)
    alert_score_drop: float | None = Field(default=None, ge=0, le=100)
    alert_on_grade_drop: bool | None = None
    alert_on_new_critical: bool | None = None
    is_active: bool | None = None
    lighthouse: LighthouseMode | None = Field(default=None, strict=False)
    check_external: bool | None = None
    external_budget_s: float | None = Field(
        default=None, ge=EXTERNAL.min_budget_s, le=EXTERNAL.max_budget_s
    )
    render: RenderMode | None = Field(default=None, strict=False)
    # -- scope and speed, list mode (ScopeFields'; the monitor's whole scope is checked after
    # the change, by the service) --
    user_agent: str | None = Field(default=None, min_length=1, max_length=MAX_USER_AGENT_CHARS)
    rate_per_s: float | None = Field(default=None, gt=0, le=MAX_RATE_PER_S)
    concurrency: int | None = Field(default=None, ge=1, le=MAX_CONCURRENCY)
    strip_params: list[str] | None = Field(default=None, max_length=MAX_STRIP_PARAMS)
    subdomains: bool | None = None
    mode: AuditMode | None = Field(default=None, strict=False)
    urls: list[str] | None = Field(default=None, max_length=MAX_LIST_URLS)
    sitemap_url: str | None = Field(default=None, min_length=1, max_length=MAX_URL_CHARS)
    ignore_robots: bool | None = None
    credentials: CredentialsBody | None = None

    @field_validator("include", "exclude")
    @classmethod
    def _url_patterns(cls, patterns: list[str] | None) -> list[str] | None:
        return None if patterns is None else url_patterns(patterns)

    @model_validator(mode="after")
    def _null_only_where_meaningful(self) -> Self:
        for name in sorted(self.model_fields_set - _NULLABLE):
            if getattr(self, name) is None:
                raise ValueError(f"{name} must not be null")
        return self

    def to_changes(self) -> UpdateMonitor:
        given = {name: getattr(self, name) for name in self.model_fields_set}
        for name in ("include", "exclude"):
            if name in given:
                given[name] = tuple(given[name])
        scope = {name: given.pop(name) for name in _SCOPE_FIELDS if name in given}
        if scope:
            given["scope"] = scope
        if "credentials" in given:
            given["credentials"] = _credentials(given["credentials"])
        return UpdateMonitor(**given)


# null clears a scope option back to its default (no own User-Agent, rate or concurrency; no
# sitemap), as for max_depth and webhook_url, and drops a monitor's credentials.
_NULLABLE = frozenset(
    {"max_depth", "webhook_url", "user_agent", "rate_per_s", "concurrency", "sitemap_url"}
    | {"credentials"}
)


class CreateKeyBody(BaseModel):
    """POST /api/keys. The owner's and name's rules are the service's (`service.keys`), shared
    with `siteaudit keys create`; this checks the shape."""

    model_config = _STRICT

    # The pattern is documented (OpenAPI) but checked by the service, whose message says why.
    owner: str = Field(
        min_length=1, max_length=100, json_schema_extra={"pattern": f"^{keys.OWNER_PATTERN}$"}
    )
    name: str = Field(default="", max_length=100)


class CreateVerificationBody(BaseModel):
    """POST /api/verifications: the host to verify, and how its token will be shown."""

    model_config = _STRICT

    host: str = Field(
        min_length=1,
        max_length=300,
        description="a host name, optionally with a port (example.com, staging.example.com:8443)",
    )
    method: VerificationMethod = Field(strict=False)

    def to_request(self) -> RequestVerification:
        return RequestVerification(host=self.host, method=self.method)


def parse_create_verification_body(raw: bytes) -> RequestVerification:
    """The body of POST /api/verifications; raises `BadRequest` when malformed."""
    example = '{"host": "example.com", "method": "dns"}'
    return _validated(CreateVerificationBody, raw, example).to_request()


def parse_create_body(raw: bytes) -> CreateAudit:
    """The body of POST /api/audits as the service's input; raises `BadRequest` when malformed."""
    return _validated(CreateAuditBody, raw, '{"url": "..."}').to_request()


def parse_create_monitor_body(raw: bytes) -> CreateMonitor:
    """The body of POST /api/monitors; raises `BadRequest` when malformed."""
    return _validated(CreateMonitorBody, raw, '{"url": "..."}').to_request()


def parse_update_monitor_body(raw: bytes) -> UpdateMonitor:
    """The body of PATCH /api/monitors/{id}; raises `BadRequest` when malformed."""
    return _validated(UpdateMonitorBody, raw, '{"frequency": "weekly"}').to_changes()


def parse_create_key_body(raw: bytes) -> CreateKeyBody:
    """The body of POST /api/keys; raises `BadRequest` when malformed."""
    return _validated(CreateKeyBody, raw, '{"owner": "..."}')


_BODY_ERRORS: dict[BodyProblem, type[ApiError]] = {
    BodyProblem.TOO_LARGE: PayloadTooLarge,
    BodyProblem.TOO_DEEP: BadRequest,
    BodyProblem.NOT_JSON: BadRequest,
}


def _validated[M: BaseModel](model: type[M], raw: bytes, example: str) -> M:
    try:
        data = json_body.loads(raw or b"null")
    except UnreadableBody as exc:
        error = _BODY_ERRORS[exc.problem]
        code = ApiErrorCode.INVALID_JSON if error is BadRequest else None
        raise error(f"request {exc.message.removeprefix('the ')}", code) from exc
    if not isinstance(data, dict):
        raise BadRequest(f"request body must be a JSON object like {example}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in exc.errors()
        )
        # Not chained: a ValidationError's text quotes the input, which may hold credentials.
        raise BadRequest(problems) from None
