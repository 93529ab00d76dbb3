"""The scratchpad's RPC table (durable.rpc.METHODS) is the one declaration of its surface: the
Durable Object serves exactly its rows, `bindings.ScratchpadStub` (what mypy checks callers
against) declares exactly its rows with each row's wire argument, and the typed client wraps
every row with the row's answer. A method added to one of them and not to the table, or with
another request or response type, fails here."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, get_type_hints

import pytest

from common.bindings import ScratchpadStub
from common.wire import JsonObject
from durable import rpc
from durable.client import Scratchpad
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
