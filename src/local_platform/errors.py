"""Errors as the Workers runtime surfaces them to Python.

Binding calls in Pyodide raise `pyodide.ffi.JsException` (`.name`, `.message`, and
`str(e) == "<name>: <message>"`). The local platform raises this look-alike so that code written
against the real runtime (which may only catch `Exception` and read the message) behaves the same.
"""

from __future__ import annotations


class JsException(Exception):
    """A JavaScript error seen from Python, as `pyodide.ffi.JsException` presents it."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


def js_error(message: str) -> JsException:
    return JsException("Error", message)


def js_type_error(message: str) -> JsException:
    return JsException("TypeError", message)


class NonRetryableError(Exception):
    """Raised in a Workflow step: the step is not retried, and the instance errors if uncaught.

    The `workers` SDK surface exposes it as `workers.workflows.NonRetryableError` (workers_sdk.py);
    it lives here so that the engine, the step wrapper and the binding need not import each other.
    """
