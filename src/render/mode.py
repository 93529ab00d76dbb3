"""An audit's `render` option, apart from the render records: the CLI's parser names it
(`--render`), and render.records brings the axe-core result records with it, and through them the
element tree and the HTML parser, which `siteaudit --help` must not load
(tests/cli/test_startup.py)."""

from __future__ import annotations

from enum import StrEnum


class RenderMode(StrEnum):
    """An audit's `render` option (issue 30): which pages a browser renders after their raw fetch
    (render.decision). `auto` with no renderer configured renders nothing and says so."""

    NEVER = "never"  # raw HTML only; pages that look like app shells are counted, not rendered
    AUTO = "auto"  # app shells, and a small deterministic sample of the other HTML pages
    ALWAYS = "always"  # every HTML page the crawl fetches (within max_pages)
