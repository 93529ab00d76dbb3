"""Records axe-core's real results on the fixtures of tests/a11y/data/axe, which
tests/a11y/test_axe.py converts without a browser.

    uv run python -m tests.browser.capture_axe

Each `NAME.html` is served to headless Chromium from a route (no network; its images answer 404),
its scripts run, and axe-core (node_modules/axe-core) is run on it with a11y.axe's own script
and arguments, as the local renderer runs it; the answer is written to `NAME.json`.
tests/browser/test_axe_rendered.py checks that the recorded files still match a fresh run.
"""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser, Route

from a11y.axe import AXE_RUN, axe_run_arguments
from tests.browser.axe import axe_source
from tests.browser.chromium import headless_chromium

FIXTURES = Path(__file__).resolve().parents[1] / "a11y" / "data" / "axe"
ORIGIN = "http://axe.test"
# What changes from run to run and says nothing about the page.
_VOLATILE = ("timestamp",)


def run_axe(browser: Browser, fixture: Path) -> dict[str, object]:
    """axe-core's result on `fixture`, served at ORIGIN/NAME.html."""
    body = fixture.read_bytes()

    def serve(route: Route) -> None:
        if route.request.url == f"{ORIGIN}/{fixture.name}":
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=body)
        else:
            route.fulfill(status=404, body=b"")

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.route("**/*", serve)
        page = context.new_page()
        page.goto(f"{ORIGIN}/{fixture.name}", wait_until="load")
        page.evaluate("() => {\n" + axe_source() + "\n}")
        result: dict[str, object] = page.evaluate(AXE_RUN, axe_run_arguments())
    finally:
        context.close()
    for key in _VOLATILE:
        result.pop(key, None)
    return result


def fixtures() -> list[Path]:
    return sorted(FIXTURES.glob("*.html"))


def main() -> None:
    with headless_chromium() as browser:
        for fixture in fixtures():
            result = run_axe(browser, fixture)
            target = fixture.with_suffix(".json")
            target.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            print(f"{target.name}: {len(result.get('violations', []))} rules violated")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
