"""A method's calls, recorded by argument while it keeps working: how a test holds the crawl to
doing a piece of per-link work once per distinct thing (issue 29)."""

from __future__ import annotations

from typing import Any

import pytest


def counted_calls(monkeypatch: pytest.MonkeyPatch, cls: type, name: str) -> list[Any]:
    """The first argument after `self` of every call of `cls.name` from now on, in order."""
    method = getattr(cls, name)
    calls: list[Any] = []

    def recorded(self: object, first: object, *rest: object) -> Any:
        calls.append(first)
        return method(self, first, *rest)

    monkeypatch.setattr(cls, name, recorded)
    return calls
