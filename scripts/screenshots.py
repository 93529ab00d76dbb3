"""Regenerate the README's screenshots in docs/screenshots/ from the browser tests.

    uv run python scripts/screenshots.py

Runs tests/browser/ (headless Chromium, see DEVELOPERS.md) with SITEAUDIT_SCREENSHOTS set to
docs/screenshots, so every picture is the page exactly as a passing test saw it: report.png is the
HTML report of the badseo fixture site opened from file://, app.png the web app of `siteaudit serve`
with a finished audit of that site above its report. Exits with pytest's status; a test
that fails or is skipped (no Chromium on this machine) leaves the old picture in place, and the
script exits non-zero when it wrote nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "docs" / "screenshots"


def main() -> int:
    started = time.time()
    env = {**os.environ, "SITEAUDIT_SCREENSHOTS": str(FOLDER)}
    argv = [sys.executable, "-m", "pytest", "tests/browser", "-q", "-p", "no:cacheprovider", "-rs"]
    done = subprocess.run(argv, cwd=ROOT, env=env, check=False)
    written = sorted(p.name for p in FOLDER.glob("*.png") if p.stat().st_mtime >= started)
    print(f"written to docs/screenshots: {', '.join(written) or 'nothing'}")
    return done.returncode or (0 if written else 1)


if __name__ == "__main__":
    sys.exit(main())
