"""`urls` is a leaf: it imports nothing from the project outside itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

_PACKAGE = Path(__file__).parents[2] / "src" / "urls"
_ALLOWED = {"urls", "idna", "__future__"}


@pytest.mark.parametrize("module", sorted(_PACKAGE.glob("*.py")), ids=lambda path: path.name)
def test_imports_only_the_standard_library_and_idna(module: Path) -> None:
    tree = ast.parse(module.read_text("utf-8"))
    names = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    names |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    roots = {name.split(".")[0] for name in names}
    assert roots - _ALLOWED <= sys.stdlib_module_names
