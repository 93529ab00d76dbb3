"""axe-core in the page: the WCAG 2.1 A and AA rules of Deque's engine, run on whatever a frame
shows.

The engine is the npm package `axe-core` (MPL-2.0, pinned in package.json, installed by `npm ci`),
read from node_modules on disk and evaluated in the frame through the DevTools protocol, which a
page's Content-Security-Policy does not govern (the report's strict policy would refuse a script
tag). It is never downloaded at run time: without node_modules/axe-core the tests skip and say so.
Rule tags: axe-core's doc/API.md, "Axe-core Tags".
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TypedDict

import pytest
from playwright.sync_api import Frame

ROOT = Path(__file__).resolve().parents[2]
AXE_SOURCE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG21_AA = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")

_RUN = """async (tags) => {
  const result = await axe.run(document, {
    runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], iframes: false,
  });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')),
  }));
}"""


class Violation(TypedDict):
    id: str
    impact: str | None
    help: str
    targets: list[str]


@cache
def _axe_source() -> str:
    return AXE_SOURCE.read_text(encoding="utf-8")


def axe_source() -> str:
    """axe.min.js, or a skip that says how to get it."""
    if not AXE_SOURCE.is_file():
        pytest.skip(
            "accessibility tests need axe-core: no node_modules/axe-core/axe.min.js "
            "(run `npm ci`; .ci/run does)"
        )
    return _axe_source()


def violations(frame: Frame) -> list[Violation]:
    """axe-core's WCAG 2.1 A and AA violations in `frame`'s document (not its child frames)."""
    if not frame.evaluate("() => typeof window.axe === 'object'"):
        # The UMD bundle sets window.axe when it finds no module system; run as a function body.
        frame.evaluate("() => {\n" + axe_source() + "\n}")
    found: list[Violation] = frame.evaluate(_RUN, list(WCAG21_AA))
    return found


def readable(found: list[Violation]) -> str:
    """One line per violation: rule id, impact, what it asks, the elements that break it."""
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} -> {', '.join(v['targets'][:8])}" for v in found
    )
