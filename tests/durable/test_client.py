"""The three descriptions of the scratchpad's RPC surface agree: the Durable Object's methods,
`bindings.ScratchpadStub` (what mypy checks callers against) and the typed client."""

from __future__ import annotations

import inspect

from common.bindings import ScratchpadStub
from durable.client import Scratchpad
from durable.finalize import FinalizeQueries
from durable.scratchpad import ScratchpadMethods

# Called by the runtime or the shell, never over RPC by our code.
NOT_RPC = {"open_scratchpad", "alarm"}


def public_methods(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in vars(cls).items()
        if callable(member) and not name.startswith("_")
    }


def parameters(signature: inspect.Signature) -> list[str]:
    return [name for name in signature.parameters if name != "self"]


def test_the_stub_protocol_lists_exactly_the_durable_objects_rpc_methods() -> None:
    served = public_methods(ScratchpadMethods) | public_methods(FinalizeQueries)
    declared = public_methods(ScratchpadStub)

    assert set(declared) == set(served) - NOT_RPC
    for name, signature in declared.items():
        assert parameters(signature) == parameters(served[name]), name


def test_the_client_wraps_every_rpc_method() -> None:
    assert set(public_methods(ScratchpadStub)) <= set(public_methods(Scratchpad))
