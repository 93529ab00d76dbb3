"""While the CLI follows an audit, what the process held before it is frozen out of the cyclic
collector's reach (cli.main.frozen_heap), and given back afterwards, even when the audit raises."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from cli import main


def test_the_heap_is_frozen_inside_and_given_back_after() -> None:
    assert gc.get_freeze_count() == 0
    with main.frozen_heap():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_it_is_given_back_when_the_audit_raises() -> None:
    with pytest.raises(RuntimeError), main.frozen_heap():
        raise RuntimeError("the audit failed")
    assert gc.get_freeze_count() == 0


async def test_following_an_audit_runs_it_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    async def follow(platform: Any, audit_id: str) -> None:
        seen.append(gc.get_freeze_count())

    monkeypatch.setattr(main, "_follow_unfrozen", follow)
    await main._follow(None, "audit-id")  # type: ignore[arg-type]
    assert seen and seen[0] > 0
    assert gc.get_freeze_count() == 0
