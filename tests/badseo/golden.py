"""golden.json: the issue set an audit of badseo must report, generated from the fixture data.

    python -m tests.badseo.golden --write   # regenerate after changing a fixture
    python -m tests.badseo.golden --check   # exit 1 when the file is stale

Entries are `{"issue_type", "path", "note"}` sorted by (issue_type, path); the path is relative to
the origin because the server's port changes from run to run. The note is the owning fixture's
summary, so a failing end-to-end diff says what the page was meant to show.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.badseo.site import FIXTURES

GOLDEN_PATH = Path(__file__).with_name("golden.json")


def golden_entries() -> list[dict[str, str]]:
    entries = [
        {"issue_type": issue_type.value, "path": path, "note": fixture.summary}
        for fixture in FIXTURES
        for path in fixture.paths
        for issue_type in fixture.expected
    ]
    return sorted(entries, key=lambda e: (e["issue_type"], e["path"]))


def render() -> str:
    return json.dumps(golden_entries(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        GOLDEN_PATH.write_text(render(), encoding="utf-8")
        return 0
    if argv == ["--check"]:
        current = GOLDEN_PATH.read_text(encoding="utf-8") if GOLDEN_PATH.exists() else ""
        if current == render():
            return 0
        print(f"{GOLDEN_PATH} is stale: run python -m tests.badseo.golden --write", file=sys.stderr)
        return 1
    print("usage: python -m tests.badseo.golden --write | --check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
