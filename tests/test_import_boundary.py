"""The core never imports the platform: only src/entry.py may import `js`, `pyodide` or `workers`.

Core modules must also not reach into the CPython-only local platform (or its HTTP library), or
they would fail to load on Workers.
"""

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PLATFORM_MODULES = {"js", "pyodide", "workers"}
CPYTHON_ONLY = {"local_platform", "cli", "httpx", "sqlite3", "playwright"}
SHELL = SRC / "entry.py"
NOT_DEPLOYED = ("local_platform", "cli")


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def source_files() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def core_files() -> list[Path]:
    return [
        p for p in source_files() if p != SHELL and p.relative_to(SRC).parts[0] not in NOT_DEPLOYED
    ]


@pytest.mark.parametrize("path", [p for p in source_files() if p != SHELL], ids=str)
def test_no_module_but_the_shell_imports_the_platform(path: Path) -> None:
    assert imported_roots(path).isdisjoint(PLATFORM_MODULES), path


@pytest.mark.parametrize("path", core_files(), ids=str)
def test_core_never_imports_cpython_only_modules(path: Path) -> None:
    assert imported_roots(path).isdisjoint(CPYTHON_ONLY), path


def test_the_shell_is_the_one_that_imports_workers() -> None:
    assert "workers" in imported_roots(SHELL)


def test_the_checker_sees_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import js\nfrom pyodide.ffi import to_js\nfrom workers import fetch\n")
    assert imported_roots(sample) == PLATFORM_MODULES
