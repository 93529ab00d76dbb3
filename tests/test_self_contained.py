"""The repository stands alone: no file a clone holds reads or cites a place outside the checkout.

Every tracked text file, this one included, is searched for the absolute path of the machine the
project was first built on and for a relative path to the reference folder that sat beside the
checkout (a clone has neither). What the project needs from outside lives inside it: the parity
corpus in tests/data/corpus/, the facts about the original system in docs/original-system.md.
The patterns are assembled from pieces, so this file holds neither path and needs no exemption.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve().relative_to(ROOT).as_posix()
_MACHINE_ROOT = "/" + "work" + "/"
_REFERENCE_FOLDER = ".." + "/" + "shared"
OUTSIDE = re.compile(f"{re.escape(_MACHINE_ROOT)}|{re.escape(_REFERENCE_FOLDER)}")
# Folders a checkout grows that are not part of the repository (used when git is unavailable).
GENERATED = {
    ".git",
    ".venv",
    ".venv-workers",
    "node_modules",
    "python_modules",
    ".siteaudit",
    ".wrangler",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".mypy_cache",
    ".ruff_cache",
    ".cache",
    ".out",
}


def tracked_files() -> list[str]:
    """The files git tracks; without git (an exported tree), every file outside GENERATED."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return sorted(
            p.relative_to(ROOT).as_posix()
            for p in ROOT.rglob("*")
            if p.is_file() and not GENERATED.intersection(p.relative_to(ROOT).parts)
        )
    return sorted(name for name in listing.decode().split("\0") if name)


def outside_references(name: str) -> list[str]:
    path = ROOT / name
    if not path.is_file():  # deleted in the working tree, not yet staged
        return []
    data = path.read_bytes()
    if b"\0" in data:  # binary (the corpus is gzip)
        return []
    lines = data.decode("utf-8", errors="replace").splitlines()
    return [
        f"{name}:{n}: {line.strip()}" for n, line in enumerate(lines, 1) if OUTSIDE.search(line)
    ]


def test_tracked_files_are_found() -> None:
    files = tracked_files()
    assert THIS in files and "README.md" in files and "src/entry.py" in files


def test_no_file_reads_or_cites_outside_the_checkout() -> None:
    found = [hit for name in tracked_files() for hit in outside_references(name)]
    assert not found, "references outside the repository:\n" + "\n".join(found)
