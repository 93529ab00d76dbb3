"""Regenerate every screenshot in docs/screenshots/ from the browser tests.

    uv run python scripts/screenshots.py

Runs the screens test of tests/browser/test_screens.py (axe-core and the layout measure on one
rendering of each screen; headless Chromium, see DEVELOPERS.md) with SITEAUDIT_SCREENSHOTS set to
docs/screenshots: every screen of the table in tests/browser/screens.py (the web app of
`siteaudit serve` on audits of the badseo fixture site, and that audit's standalone HTML report)
at 1280 and 375 px wide, as NAME-WIDTH.png, each the page exactly as a passing test saw it (device
scale 1). Pictures of screens no longer in the table are removed. Exits with pytest's status; a
test that fails or is skipped (no Chromium on this machine) leaves the old picture in place, and
the script exits non-zero when it wrote nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "docs" / "screenshots"
TEST = "tests/browser/test_screens.py::test_every_screen_passes_axe_and_no_text_overflows_its_box"


def main() -> int:
    started = time.time()
    env = {**os.environ, "SITEAUDIT_SCREENSHOTS": str(FOLDER)}
    argv = [sys.executable, "-m", "pytest", TEST, "-q", "-p", "no:cacheprovider", "-rs"]
    done = subprocess.run(argv, cwd=ROOT, env=env, check=False)
    pictures = sorted(FOLDER.glob("*.png"))
    written = [p.name for p in pictures if p.stat().st_mtime >= started]
    if done.returncode == 0 and written:
        for stale in (p for p in pictures if p.name not in written):
            stale.unlink()
    print(f"written to docs/screenshots: {', '.join(written) or 'nothing'}")
    return done.returncode or (0 if written else 1)


if __name__ == "__main__":
    sys.exit(main())
