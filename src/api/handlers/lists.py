"""An audit's lists (pages, issues, Lighthouse rows; filtered, keyset-paginated; a page's kept
inlinks or outlinks, paginated by position) and its exports: the same rows streamed whole as CSV
or NDJSON, and the HTML report.

Lists take filters, `limit` (1-1000, default 100) and `cursor` (api.queries); a page that has a
successor carries `next_cursor` and a `Link: <...>; rel="next"` header.

Exports take the same filters as their list, but no `limit` or `cursor`: every matching row, in
list order, streamed one keyset page at a time (`service.exports`) with a `Content-Disposition:
attachment` file name. The owner and the filters are checked before the stream starts, so a
refusal is an ordinary JSON error; once the 200 has gone out, a failure can only cut the stream.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Protocol

from api import queries
from api.handlers.render import list_response
from api.http import ApiResponse, json_response, stream_response
from api.queries import Query
from api.routing import Call
from auditdb.listing import ListKind
from common.bindings import Env
from common.wire import JsonObject
from service import exports, html_style, lists, page_links
from service.exports import ExportFormat
from service.lists import ListPage, Paging


async def get_pages(call: Call) -> ApiResponse:
    return await _filtered(call, ListKind.PAGES, queries.parse_page_filter, lists.list_pages)


async def get_issues(call: Call) -> ApiResponse:
    return await _filtered(call, ListKind.ISSUES, queries.parse_issue_filter, lists.list_issues)


class _Row(Protocol):
    def to_dict(self) -> JsonObject: ...


type _Read[F, R] = Callable[[Env, str, str, F, Paging], Awaitable[ListPage[R]]]


async def _filtered[F, R: _Row](
    call: Call, kind: ListKind, parse: Callable[[Query], F], read: _Read[F, R]
) -> ApiResponse:
    """A page of an audit's filtered list (pages, issues)."""
    query = Query.of(call.request.url)
    filter_ = parse(query)
    paging = queries.parse_paging(query, kind)
    page = await read(call.env, call.owner, call.args["audit_id"], filter_, paging)
    items = [item.to_dict() for item in page.items]
    return list_response(call, query, kind, items, page.next_after)


async def get_page_links(call: Call) -> ApiResponse:
    """One page's inlinks or outlinks as the audit kept them (service.page_links)."""
    query = Query.of(call.request.url)
    url, direction = queries.parse_page_links(query)
    paging = queries.parse_paging(query, ListKind.LINKS)
    audit_id = call.args["audit_id"]
    found = await page_links.list_page_links(call.env, call.owner, audit_id, url, direction, paging)
    cursor = queries.next_cursor(ListKind.LINKS, found.next_after)
    headers = {} if cursor is None else {"link": query.next_link(call.request.path, cursor)}
    body = {
        "page_url": found.page_url,
        "direction": str(found.direction),
        "kept": found.kept,
        "total": found.total,
        "complete": found.complete,
        "links": [link.to_dict() for link in found.links],
        "next_cursor": cursor,
    }
    return json_response(body, headers=headers)


async def get_lighthouse(call: Call) -> ApiResponse:
    query = Query.of(call.request.url)
    paging = queries.parse_paging(query, ListKind.LIGHTHOUSE)
    page = await lists.list_lighthouse(call.env, call.owner, call.args["audit_id"], paging)
    items = [row.to_dict() for row in page.items]
    return list_response(call, query, ListKind.LIGHTHOUSE, items, page.next_after)


async def export_pages(call: Call, fmt: ExportFormat) -> ApiResponse:
    filter_ = queries.parse_page_filter(Query.of(call.request.url))
    found = await exports.export_pages(call.env, call.owner, call.args["audit_id"], filter_, fmt)
    return stream_response(found.chunks, found.media_type, found.file_name)


async def export_issues(call: Call, fmt: ExportFormat) -> ApiResponse:
    filter_ = queries.parse_issue_filter(Query.of(call.request.url))
    found = await exports.export_issues(call.env, call.owner, call.args["audit_id"], filter_, fmt)
    return stream_response(found.chunks, found.media_type, found.file_name)


async def export_lighthouse(call: Call) -> ApiResponse:
    found = await exports.export_lighthouse(call.env, call.owner, call.args["audit_id"])
    return stream_response(found.chunks, found.media_type, found.file_name)


async def get_html_report(call: Call) -> ApiResponse:
    """The report as one HTML file; it is data to the web app, which shows it in a sandboxed
    frame, and carries its own policy as a header too, should anything render it directly."""
    # The renderer and its charts load with the route that uses them, not with the API.
    from service import html_report

    found = await html_report.export_html(call.env, call.owner, call.args["audit_id"])
    response = stream_response(found.chunks, found.media_type, found.file_name)
    policy = {"content-security-policy": html_style.CSP}
    return dataclasses.replace(response, headers={**response.headers, **policy})
