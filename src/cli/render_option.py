"""`--render never|auto|always`, the same flag on `siteaudit audit` and `siteaudit monitors add`
(issue 30, docs/rendering.md): which pages a browser renders after their raw fetch. The request
field it becomes is the API's `render`."""

from __future__ import annotations

import argparse

from render.mode import RenderMode

__all__ = ["add_render_argument"]


def add_render_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--render",
        choices=[str(mode) for mode in RenderMode],
        default=str(RenderMode.AUTO),
        help="render pages in a browser: auto renders pages whose HTML looks like an app shell "
        "and a small sample of the rest, always every HTML page, never none; without a "
        "renderer nothing is rendered and the audit counts what would have been "
        "(default: %(default)s)",
    )
