"""Rebuild src/a11y/data/aria.json from node_modules/axe-core (`npm ci` installs it).

    uv run python scripts/build_aria_data.py

The JSON is what axe-core 4.14.1 (MPL-2.0) encodes of WAI-ARIA 1.2, HTML-AAM and ARIA in HTML,
plus the metadata of the rules src/a11y implements and of those only axe-core decides on a
rendered page; src/a11y/data/README.md says where it comes from. tests/a11y/test_aria_data.py
checks the committed file equals what this builds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from a11y.rule_ids import RenderedRuleId, RuleId  # noqa: E402

AXE = ROOT / "node_modules" / "axe-core" / "axe.js"
TARGET = ROOT / "src" / "a11y" / "data" / "aria.json"
SCRIPT = ROOT / "scripts" / "build_aria_data.mjs"


def build() -> str:
    """The data file's text, from the axe-core in node_modules."""
    ids = [str(rule) for rule in (*RuleId, *RenderedRuleId)]
    out = subprocess.run(
        ["node", str(SCRIPT), str(AXE), *ids], check=True, capture_output=True, text=True
    ).stdout
    return json.dumps(json.loads(out), indent=None, separators=(",", ":")) + "\n"


def main() -> None:
    TARGET.write_text(build(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
