"""A list page as every list route answers it (audits, pages, issues, Lighthouse rows, monitors,
a monitor's runs)."""

from __future__ import annotations

from api import queries
from api.http import ApiResponse, json_response
from api.queries import Query
from api.routing import Call
from auditdb.listing import ListKind, SortKey
from common.wire import JsonObject


def list_response(
    call: Call, query: Query, kind: ListKind, items: list[JsonObject], after: SortKey | None
) -> ApiResponse:
    """`{"<kind>": [...], "next_cursor"}`, with an RFC 8288 `Link: <...>; rel="next"` header
    carrying the same path and filters when another page follows."""
    cursor = queries.next_cursor(kind, after)
    headers = {} if cursor is None else {"link": query.next_link(call.request.path, cursor)}
    return json_response({str(kind): items, "next_cursor": cursor}, headers=headers)
