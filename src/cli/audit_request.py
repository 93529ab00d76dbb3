"""The audit `siteaudit audit` (and `demo`) asks for, as the service takes it: a frozen
`service.audits.CreateAudit` built from the command's options.

The CLI used to POST its options to `/api/audits` in-process, which validated them with the
API's pydantic schema: an audit loaded pydantic and `api.schemas` (about 13% of the instructions
of a 4-page audit, bench/README.md "Issue 29, items 3 and 4"). It now calls
`service.audits.create_audit` with this record. The checks stay the same ones: the fields' own
shape from `service.request_shape` (which the schema reads too), the rest from the records
built here (`ScopeOptions`, `Credentials`) and from the service (`AuditOptions`, the start URL).
"""

from __future__ import annotations

import argparse

from auditdb.scope import AuditMode, ScopeOptions
from cli.scope import scope_fields
from common.wire import JsonObject, JsonValue, as_object
from lighthouse.records import LighthouseMode
from render.records import RenderMode
from service.audits import CreateAudit
from service.request_shape import check_create_shape
from service.scope_checks import list_start_url
from urls.credentials import Credentials, parse_origin

__all__ = ["audit_request", "credentials_of"]

# The request fields `cli.scope.scope_fields` gives that are the audit's, not its scope's.
_AUDIT_FIELDS = ("max_depth", "include", "exclude")


def audit_request(args: argparse.Namespace) -> CreateAudit:
    """The audit the options ask for. ValueError (the sentence to print) for a value out of
    shape; OSError for a `--list` file that cannot be read."""
    fields = scope_fields(args)
    own = {name: fields.pop(name) for name in _AUDIT_FIELDS if name in fields}
    scope = ScopeOptions.from_dict(fields)
    include, exclude = _strings(own.get("include")), _strings(own.get("exclude"))
    max_depth = own.get("max_depth")
    depth = max_depth if isinstance(max_depth, int) else None
    check_create_shape(args.url, depth, include, exclude, listed=scope.mode is AuditMode.LIST)
    credentials = getattr(args, "credentials", None)  # `demo` audits its own open shop
    return CreateAudit(
        url=args.url or list_start_url(scope) or "",
        max_pages=args.max_pages,
        max_depth=depth,
        include=include,
        exclude=exclude,
        lighthouse=LighthouseMode(args.lighthouse),
        lighthouse_pages=args.lighthouse_pages,
        check_external=args.check_external,
        external_budget_s=args.external_budget,
        render=RenderMode(getattr(args, "render", RenderMode.AUTO)),  # `demo` has no --render
        scope=scope,
        ignore_robots=getattr(args, "ignore_robots", False),
        credentials=None if credentials is None else credentials_of(credentials),
    )


def credentials_of(body: JsonObject) -> Credentials:
    """`cli.credentials.credentials_body`'s object as the record it describes, each origin read
    as the API's schema reads it (`parse_origin`); `CredentialsError` (a ValueError) says what
    is wrong, by field name."""
    origins = [parse_origin(origin) for origin in _strings(body.get("origins"))]
    return Credentials.from_dict({**as_object(body), "origins": origins})


def _strings(value: JsonValue | None) -> tuple[str, ...]:
    return tuple(str(item) for item in value) if isinstance(value, list) else ()
