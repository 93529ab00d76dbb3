"""The project's entrypoint layer for the Pyodide tier: class discovery and one call wrapper.

Written by this project from documented behaviour (docs/platform.md §1.1 and
docs/pyodide-tier.md §4); no workerd code is copied. It follows the behaviour of workerd release
2026-08-22 (commit 6552d99), whose Python entrypoint handling is described there: re-check this
file whenever the compatibility date, the compat flags or the pinned Pyodide/SDK versions change.

- Discovery: the main module's `__all__` (else every public name), keeping subclasses of the SDK's
  WorkerEntrypoint, DurableObject and WorkflowEntrypoint; the WorkerEntrypoint named `Default` is
  the default export.
- Visibility: public plain functions (mixins included); no static or class methods.
- Call wrapper: every argument through `python_from_rpc`, the result through `python_to_rpc`;
  `relaxed` drops extra positional arguments the `def` does not take.
"""

import importlib
import inspect

from workers import (
    DurableObject,
    WorkerEntrypoint,
    WorkflowEntrypoint,
    python_from_rpc,
    python_to_rpc,
)

_KINDS = (
    (WorkerEntrypoint, "worker"),
    (DurableObject, "durable_object"),
    (WorkflowEntrypoint, "workflow"),
)


def discover(module_name):
    """{class name: kind} of the entrypoint classes the main module exports."""
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    found = {}
    for name in names:
        value = getattr(module, name, None)
        for base, kind in _KINDS:
            if isinstance(value, type) and issubclass(value, base) and value is not base:
                found[name] = kind
    return found


def entry_class(module_name, class_name):
    return getattr(importlib.import_module(module_name), class_name)


def exposed(instance, name):
    """True when `name` is an RPC-visible method: public, a plain function on the class."""
    if name.startswith("_"):
        return False
    for klass in type(instance).__mro__:
        if name in vars(klass):
            return inspect.isfunction(vars(klass)[name])
    return False


def _positional_capacity(fn):
    params = list(inspect.signature(fn).parameters.values())
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return None
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)


async def call(instance, name, js_args, relaxed):
    """Call `instance.name(*args)` the way the runtime does; returns the JS-converted result."""
    if not exposed(instance, name):
        raise TypeError(f"Method {name} does not exist")
    method = getattr(instance, name)
    args = [python_from_rpc(arg) for arg in js_args]
    if relaxed:
        capacity = _positional_capacity(method)
        if capacity is not None:
            args = args[:capacity]
    result = method(*args)
    if inspect.isawaitable(result):
        result = await result
    return python_to_rpc(result)
