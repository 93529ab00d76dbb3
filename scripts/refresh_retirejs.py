"""Refresh the vendored retire.js repository, then rebuild the Worker's compact copy.

    uv run python scripts/refresh_retirejs.py            # download upstream, then compact
    uv run python scripts/refresh_retirejs.py --offline  # only rebuild the compact copy

Downloads (where the internet is reachable) upstream's `repository/jsrepository-v5.json`,
`repository/testcases.json`, `LICENSE.md` and `NOTICE.md` from the RetireJS/retire.js master
branch into data/retirejs/ (Apache-2.0), records the date in data/retirejs/SOURCE, and writes
src/exposure/data/retirejs.json with `exposure.retire_data.compact`. Run the tests afterwards:
tests/exposure/test_retire_data.py checks that every pattern still translates and compiles, that
the compact copy matches the vendored file, and that testcases.json is still detected.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from exposure.retire_data import COMPACT_PATH, compact  # noqa: E402

VENDORED = ROOT / "data" / "retirejs"
UPSTREAM = "https://raw.githubusercontent.com/RetireJS/retire.js/master/"
FILES = {
    "jsrepository.json": "repository/jsrepository-v5.json",
    "testcases.json": "repository/testcases.json",
    "LICENSE": "LICENSE.md",
    "NOTICE": "NOTICE.md",
}


def download() -> None:
    for local, remote in FILES.items():
        with urllib.request.urlopen(UPSTREAM + remote, timeout=60) as response:
            data = response.read()
        _check_well_formed(local, data)
        (VENDORED / local).write_bytes(data)
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    (VENDORED / "SOURCE").write_text(f"{UPSTREAM} (master), downloaded {today}\n")


def _check_well_formed(name: str, data: bytes) -> None:
    """Refuse a download that is not what it should be (an error page, a truncated file)."""
    text = data.decode("utf-8")
    if name.endswith(".json"):
        json.loads(text)


def write_compact() -> None:
    upstream = json.loads((VENDORED / "jsrepository.json").read_text(encoding="utf-8"))
    notice = (VENDORED / "NOTICE").read_text(encoding="utf-8").strip()
    source = (VENDORED / "SOURCE").read_text(encoding="utf-8").strip()
    data = compact(upstream, notice=notice, source=source)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    COMPACT_PATH.write_text(text + "\n", encoding="utf-8")
    print(f"{COMPACT_PATH.relative_to(ROOT)}: {len(text.encode())} bytes")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--offline", action="store_true", help="only rebuild the compact copy")
    args = parser.parse_args()
    if not args.offline:
        download()
    write_compact()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
