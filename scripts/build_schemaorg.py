"""Rebuild the Worker's compact schema.org vocabulary from the vendored release file.

    uv run python scripts/build_schemaorg.py

Reads data/schemaorg/schemaorg-all-https.jsonld (schema.org release 30.0, CC BY-SA 3.0;
data/schemaorg/README.md) and writes src/structured/data/schemaorg.json with
`structured.vocabulary.compact`. tests/structured/test_vocabulary.py checks that the committed
file equals this rebuild.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from structured.vocabulary import COMPACT_PATH, compact  # noqa: E402

VENDORED = ROOT / "data" / "schemaorg"


def main() -> None:
    release = json.loads((VENDORED / "schemaorg-all-https.jsonld").read_text(encoding="utf-8"))
    source = (VENDORED / "SOURCE").read_text(encoding="utf-8").strip()
    data = compact(release, source=source)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    COMPACT_PATH.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {COMPACT_PATH.relative_to(ROOT)} ({len(text):,} bytes)")


if __name__ == "__main__":
    main()
