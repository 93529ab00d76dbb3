"""The service sits below the API: it never imports `api`, nor pydantic (which stays at the edge)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_import_boundary import SRC, imported_roots


@pytest.mark.parametrize("path", sorted((SRC / "service").rglob("*.py")), ids=str)
def test_the_service_never_imports_the_api_or_pydantic(path: Path) -> None:
    assert imported_roots(path).isdisjoint({"api", "pydantic"}), path
