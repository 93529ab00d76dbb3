"""What one route of the API is: a method, a path template, the handler that answers it and the
operation the OpenAPI document says it is (`api.routes` holds the table of them).

A template names its path parameters in braces (`/api/audits/{audit_id}/pages`); its matcher is
compiled from it, each parameter an id of 1 to 100 characters of `[A-Za-z0-9_-]` (ids never hold
a slash, so a parameter is one path segment), and a collection's root (a template with no
parameter and no file extension, such as `/api/audits`) also matches with a trailing slash.

Nothing here imports pydantic, which cannot load in Pyodide (tests/pyodide/README.md): an
operation names its response and body models by `Schema`, and `api.openapi` holds the models;
a response that is one record's `to_dict()` can name the record instead, and the document
describes its fields (`api.openapi.record_model`).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from api.http import ApiRequest, ApiResponse
from api.queries import Parameter
from common.bindings import Env

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

ID_PATTERN = r"[A-Za-z0-9_-]{1,100}"
_PARAMETER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True, slots=True)
class Call:
    """One routed request: what a handler parses, and who is asking."""

    request: ApiRequest
    env: Env
    args: dict[str, str]  # the route's path parameters
    owner: str  # whose resources the request may see and change
    key_id: str | None = None  # the API key it came with (None on admin routes)


Handler = Callable[[Call], Awaitable[ApiResponse]]


class Access(StrEnum):
    """Who may call an operation; KEY and ADMIN name the document's security schemes."""

    KEY = "bearerAuth"  # an API key (`siteaudit keys create`, POST /api/keys)
    ADMIN = "adminToken"  # the ADMIN_TOKEN secret
    PUBLIC = "public"


class Schema(StrEnum):
    """The response and request-body models of the OpenAPI document (`api.openapi` builds each
    with pydantic, under this name)."""

    AUDIT_RESPONSE = "AuditResponse"
    AUDIT_LIST = "AuditList"
    PAGE_LIST = "PageList"
    ISSUE_LIST = "IssueList"
    LIGHTHOUSE_LIST = "LighthouseList"
    PAGE_LINK_LIST = "PageLinkList"
    REPORT = "Report"
    ACTIONS = "Actions"
    AUDIT_PROGRESS = "AuditProgress"
    COMPARISON_RESPONSE = "ComparisonResponse"
    MONITOR_RESPONSE = "MonitorResponse"
    CREATED_MONITOR_RESPONSE = "CreatedMonitorResponse"
    MONITOR_LIST = "MonitorList"
    RUN_LIST = "RunList"
    KEY_RESPONSE = "KeyResponse"
    KEY_LIST = "KeyList"
    VERIFICATION_RESPONSE = "VerificationResponse"
    VERIFICATION_LIST = "VerificationList"
    OPENAPI_DOCUMENT = "OpenApiDocument"
    # request bodies (api.schemas)
    CREATE_AUDIT_BODY = "CreateAuditBody"
    CREATE_MONITOR_BODY = "CreateMonitorBody"
    UPDATE_MONITOR_BODY = "UpdateMonitorBody"
    CREATE_KEY_BODY = "CreateKeyBody"
    CREATE_VERIFICATION_BODY = "CreateVerificationBody"


# A JSON response: a model of api.openapi, by name, or the record the handler renders whole.
type Response = Schema | type[DataclassInstance]


@dataclass(frozen=True, slots=True)
class Operation:
    """What the OpenAPI document says of one route. `response` None: an empty body.
    `media_type` other than JSON: a text body (`response` then None), e.g. a CSV export."""

    operation_id: str
    summary: str
    status: int
    response: Response | None
    errors: tuple[int, ...] = ()
    body: Schema | None = None
    query: tuple[Parameter, ...] = ()
    access: Access = Access.KEY
    media_type: str = "application/json"
    headers: tuple[str, ...] = ()  # names in `api.openapi._HEADERS` the success response carries


@dataclass(frozen=True, slots=True)
class Route:
    """One method on one path template, answered by `handler`, documented as `operation`."""

    method: str
    template: str
    handler: Handler
    operation: Operation
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", compile_template(self.template))

    @property
    def access(self) -> Access:
        return self.operation.access

    @property
    def parameters(self) -> list[str]:
        """The path parameters' names, in path order."""
        return _PARAMETER.findall(self.template)


def compile_template(template: str) -> re.Pattern[str]:
    parts = _PARAMETER.split(template)  # literal, name, literal, name, ..., literal
    regex = "".join(
        re.escape(part) if index % 2 == 0 else f"(?P<{part}>{ID_PATTERN})"
        for index, part in enumerate(parts)
    )
    if len(parts) == 1 and "." not in template.rsplit("/", 1)[-1]:
        regex += "/?"  # a collection's root: /api/audits/ is /api/audits
    return re.compile(regex)


Found = tuple[dict[str, Route], dict[str, str]]


def match(routes: Sequence[Route], path: str) -> Found | None:
    """The routes, by method, of the first template `path` matches, and its path parameters;
    the methods keep the table's order (a 405's Allow header lists them so)."""
    for route in routes:
        if (found := route.pattern.fullmatch(path)) is not None:
            same = (other for other in routes if other.template == route.template)
            return {other.method: other for other in same}, found.groupdict()
    return None


def with_access(routes: Sequence[Route], access: Access) -> tuple[Route, ...]:
    return tuple(route for route in routes if route.access is access)
