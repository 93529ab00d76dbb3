"""The scratchpad's RPC table (durable.rpc.METHODS) is the one declaration of its surface: the
Durable Object serves exactly its rows, `bindings.ScratchpadStub` (what mypy checks callers
against) declares exactly its rows with each row's wire argument, and the typed client wraps
every row with the row's answer, sending each call through its own row as plain JSON. A method
added to one of them and not to the table, or with another request or response type, fails here."""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable
from typing import Any, get_type_hints

import pytest

from audit.external_links import ExternalStop
from common.bindings import ScratchpadStub
from common.wire import JsonObject
from durable import rpc
from durable.client import Scratchpad
from durable.finalize import FinalizeOptions
from durable.link_graph import LinkGraphRequest
from durable.records import (
    CrawlConfig,
    LinkBatch,
    RecordBatch,
    RenderOutcome,
    ResourceCheck,
    SiteFactKind,
    SiteFactsRequest,
    SitemapBlockedRequest,
)
from durable.scratchpad import ScratchpadMethods

ROWS = {method.name: method for method in rpc.METHODS}
# The client's additions: its constructor and the paged reads to their end.
CLIENT_ONLY = {"for_audit", "all_sitemap_blocked_urls", "all_site_facts"}


def public_functions(cls: type) -> dict[str, Callable[..., Any]]:
    """Public functions of `cls` and its bases (mixins included), as the runtime finds them."""
    return {
        name: member
        for klass in reversed(cls.__mro__)
        for name, member in vars(klass).items()
        if inspect.isfunction(member) and not name.startswith("_")
    }


def argument_hints(function: Callable[..., Any]) -> list[object]:
    hints = get_type_hints(function)
    names = [name for name in inspect.signature(function).parameters if name != "self"]
    return [hints[name] for name in names]


def request_hints(method: rpc.Method) -> list[object]:
    return [method.request.python] if isinstance(method, rpc.Rpc) else []


def wire_hints(method: rpc.Method) -> list[object]:
    return [method.request.wire] if isinstance(method, rpc.Rpc) else []


def test_every_row_is_named_once() -> None:
    assert len(ROWS) == len(rpc.METHODS)


def test_the_durable_object_serves_exactly_the_table() -> None:
    served = public_functions(ScratchpadMethods)

    assert set(served) - rpc.LOCAL_ONLY == set(ROWS)
    assert set(served) >= rpc.LOCAL_ONLY


@pytest.mark.parametrize("name", sorted(ROWS))
def test_each_endpoint_serves_an_implementation_of_its_rows_types(name: str) -> None:
    method = ROWS[name]
    implementation = public_functions(ScratchpadMethods)[name].__wrapped__  # type: ignore[attr-defined]

    assert argument_hints(implementation) == request_hints(method)
    assert get_type_hints(implementation)["return"] == method.response  # awaited, if async


def test_the_stub_protocol_declares_exactly_the_table() -> None:
    assert set(public_functions(ScratchpadStub)) == set(ROWS)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_the_stub_protocol_declares_each_row_as_it_crosses(name: str) -> None:
    declared = public_functions(ScratchpadStub)[name]

    assert argument_hints(declared) == wire_hints(ROWS[name])
    assert get_type_hints(declared)["return"] == Awaitable[JsonObject]


def test_the_client_wraps_exactly_the_table_and_its_own_helpers() -> None:
    assert set(public_functions(Scratchpad)) - CLIENT_ONLY == set(ROWS)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_the_client_answers_each_row_with_its_record(name: str) -> None:
    client_method = public_functions(Scratchpad)[name]

    assert get_type_hints(client_method)["return"] == ROWS[name].response


class Sent(Exception):
    """What the client handed the stub: the method's name and its arguments."""

    def __init__(self, name: str, arguments: tuple[object, ...]) -> None:
        super().__init__(name)
        self.name, self.arguments = name, arguments


class RecordingStub:
    """A stub that stops each call at the wire, so the test sees exactly what would cross."""

    def __getattr__(self, name: str) -> Callable[..., Awaitable[JsonObject]]:
        async def send(*arguments: object) -> JsonObject:
            raise Sent(name, arguments)

        return send


FINALIZE = FinalizeOptions("a1", "https://a.test/", crawl_completed=True)
BATCH = RecordBatch(crawled=("https://a.test/",))
# Each client method's call, and the JSON the Durable Object receives for it (the shapes the
# Pyodide tier's scratchpad.test.mjs sends too).
CALLS: dict[str, tuple[tuple[object, ...], tuple[object, ...]]] = {
    "destroy": ((), ()),
    "save_crawl_config": (
        (CrawlConfig("https://a.test/", "x"),),
        ({"final_url": "https://a.test/", "robots_txt": "x"},),
    ),
    "crawl_config": ((), ()),
    "seed_start": (("https://a.test/",), ("https://a.test/",)),
    "seed_sitemap_urls": ((("https://a.test/s",),), (["https://a.test/s"],)),
    "note_sitemap_blocked": ((("https://a.test/b",),), (["https://a.test/b"],)),
    "sitemap_blocked_urls": ((SitemapBlockedRequest("u", 5),), ({"after": "u", "limit": 5},)),
    "site_facts": (
        (SiteFactsRequest(SiteFactKind.COOKIE, "v", 9),),
        ({"kind": "cookie", "after": "v", "limit": 9},),
    ),
    "claim_chunk": ((3, 20), ({"chunk_no": 3, "limit": 20},)),
    "claim_more": ((3, 5), ({"chunk_no": 3, "limit": 5},)),
    "release_urls": ((["https://a.test/r"],), (["https://a.test/r"],)),
    # Large records cross as their JSON text (common.wire.JsonRecord.to_json_text).
    "record_batch": ((BATCH,), (BATCH.to_json_text(),)),
    "record_links": ((LinkBatch(),), (LinkBatch().to_json_text(),)),
    "claim_resources": ((4, 10), ({"chunk_no": 4, "limit": 10},)),
    "record_resources": (
        ([ResourceCheck("https://a.test/x.png", 404, "ok", "text/html")],),
        (
            [
                {
                    "url": "https://a.test/x.png",
                    "status_code": 404,
                    "fetch_class": "ok",
                    "content_type": "text/html",
                }
            ],
        ),
    ),
    "release_resources": ((("https://a.test/x.png",),), (["https://a.test/x.png"],)),
    "claim_external": ((1, 5, 100), ({"lease_no": 1, "limit": 5, "budget": 100},)),
    "record_external": (([],), ([],)),
    "release_external": ((["https://b.test/"],), (["https://b.test/"],)),
    "stop_external": ((ExternalStop.TIME_BUDGET,), ("time-budget",)),
    "stats": ((), ()),
    "prepare_resume": ((), ()),
    "recent_pages": ((7,), ({"limit": 7},)),
    "run_finalize_checks": ((FINALIZE,), (FINALIZE.to_dict(),)),
    "link_graph": (
        (LinkGraphRequest("https://a.test/x", 50, 4096),),
        ({"after": "https://a.test/x", "max_pages": 50, "max_bytes": 4096},),
    ),
    "claim_renders": ((2, 8), ({"chunk_no": 2, "limit": 8},)),
    "record_renders": (
        ([RenderOutcome("https://a.test/", "skipped", "never")],),
        ([{"url": "https://a.test/", "state": "skipped", "detail": "never"}],),
    ),
    "render_tally": ((), ()),
}


def test_every_row_has_a_call_here() -> None:
    assert set(CALLS) == set(ROWS)


@pytest.mark.parametrize("name", sorted(ROWS))
async def test_the_client_sends_each_call_through_its_own_row_as_json(name: str) -> None:
    arguments, expected = CALLS[name]
    pad = Scratchpad(RecordingStub())  # stops calls at the wire

    with pytest.raises(Sent) as sent:
        await getattr(pad, name)(*arguments)

    assert sent.value.name == name
    assert sent.value.arguments == expected
    assert json.loads(json.dumps(sent.value.arguments)) == list(expected)  # plain JSON, no tuples
