"""golden.json, golden_https.json and golden_vitals.json: the issue sets audits of badseo, of its
https variant and of its vitals site (Lighthouse issues, tests/badseo/vitals_site.py) must
report, generated from the fixture data.

    python -m tests.badseo.golden --write   # regenerate both after changing a fixture
    python -m tests.badseo.golden --check   # exit 1 when either file is stale

golden.json entries are `{"issue_type", "path", "note"}` sorted by (issue_type, path); the path is
relative to the origin because the server's port changes from run to run. golden_https.json
entries are `{"issue_type", "url", "note"}`: the https variant spans two origins (https and its
http twin), both on fixed default ports, so its URLs are absolute. The note is the owning
fixture's summary, so a failing end-to-end diff says what the page was meant to show.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.badseo.https_site import HTTPS_FIXTURES
from tests.badseo.site import FIXTURES
from tests.badseo.vitals_site import VITALS_FIXTURES

GOLDEN_PATH = Path(__file__).with_name("golden.json")
GOLDEN_HTTPS_PATH = Path(__file__).with_name("golden_https.json")
GOLDEN_VITALS_PATH = Path(__file__).with_name("golden_vitals.json")


def golden_entries() -> list[dict[str, str]]:
    entries = [
        {"issue_type": issue_type.value, "path": path, "note": fixture.summary}
        for fixture in FIXTURES
        for path in fixture.paths
        for issue_type in fixture.expected
    ]
    return sorted(entries, key=lambda e: (e["issue_type"], e["path"]))


def golden_https_entries() -> list[dict[str, str]]:
    entries = [
        {"issue_type": issue_type.value, "url": fixture.url, "note": fixture.summary}
        for fixture in HTTPS_FIXTURES
        for issue_type in fixture.expected
    ]
    return sorted(entries, key=lambda e: (e["issue_type"], e["url"]))


def golden_vitals_entries() -> list[dict[str, str]]:
    entries = [
        {"issue_type": issue_type.value, "path": fixture.path, "note": fixture.summary}
        for fixture in VITALS_FIXTURES
        for issue_type in fixture.expected
    ]
    return sorted(entries, key=lambda e: (e["issue_type"], e["path"]))


def _dump(entries: list[dict[str, str]]) -> str:
    return json.dumps(entries, indent=2, ensure_ascii=False) + "\n"


def render() -> str:
    return _dump(golden_entries())


def render_https() -> str:
    return _dump(golden_https_entries())


def render_vitals() -> str:
    return _dump(golden_vitals_entries())


def _files() -> dict[Path, str]:
    return {
        GOLDEN_PATH: render(),
        GOLDEN_HTTPS_PATH: render_https(),
        GOLDEN_VITALS_PATH: render_vitals(),
    }


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        for path, text in _files().items():
            path.write_text(text, encoding="utf-8")
        return 0
    if argv == ["--check"]:
        stale = [
            path
            for path, text in _files().items()
            if (path.read_text(encoding="utf-8") if path.exists() else "") != text
        ]
        for path in stale:
            print(f"{path} is stale: run python -m tests.badseo.golden --write", file=sys.stderr)
        return 1 if stale else 0
    print("usage: python -m tests.badseo.golden --write | --check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
