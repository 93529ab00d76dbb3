"""`siteaudit demo`: serve the demo shop on 127.0.0.1, audit it, and say where the report is.

    siteaudit demo [--port N] [--max-pages N] [--format F] [--output FILE] [--keep-serving]

One command from a fresh clone to a report worth reading: the shop (demo.shop, Ridgeline
Outfitters, with problems of every kind planted) is served on a free loopback port (or `--port`),
audited exactly as `siteaudit audit URL --allow-private-hosts --lighthouse none` audits a site
(external links checked: its "partner sites" are the same server under the name `localhost`),
and the report written to ./siteaudit-demo.html unless `--format`/`--output` say otherwise. The
HTML report is self-contained, so the site stops with the command; `--keep-serving` keeps it up
until Ctrl-C, for following the report's page links or auditing it again by hand.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from cli.delivery import Delivery, OutputFormat
from common import settings
from lighthouse.records import LighthouseMode
from lighthouse.sample import DEFAULT_SAMPLE_PAGES

__all__ = ["DEFAULT_REPORT", "add_demo_command", "run_demo"]

DEFAULT_REPORT = Path("siteaudit-demo.html")
# The shop has about 40 URLs; room for all of them and what they link.
DEMO_MAX_PAGES = 100

# `cli.main.run_audit`, passed in: this module sits below main, which registers the command.
AuditRunner = Callable[[argparse.Namespace], Awaitable[int]]


def add_demo_command(commands: Any) -> None:  # argparse's private _SubParsersAction
    demo = commands.add_parser(
        "demo", help="serve the bundled demo shop on 127.0.0.1, audit it and write the report"
    )
    demo.add_argument("--port", type=int, default=0, help="the site's port (default: a free one)")
    demo.add_argument("--max-pages", type=int, default=DEMO_MAX_PAGES)
    demo.add_argument(
        "--format",
        type=OutputFormat,
        choices=list(OutputFormat),
        default=OutputFormat.HTML,
        help="the report's format, one of the audit command's formats (default: %(default)s)",
    )
    demo.add_argument(
        "--output",
        type=Path,
        default=DEFAULT_REPORT,
        help="where the report goes (default: %(default)s)",
    )
    demo.add_argument(
        "--keep-serving",
        action="store_true",
        help="keep the demo site up after the audit, until Ctrl-C",
    )


def audit_arguments(args: argparse.Namespace, url: str) -> argparse.Namespace:
    """What `siteaudit audit URL --allow-private-hosts --lighthouse none` would have parsed."""
    return argparse.Namespace(
        command="audit",
        state_dir=args.state_dir,
        url=url,
        max_pages=args.max_pages,
        lighthouse=str(LighthouseMode.NONE),
        lighthouse_pages=DEFAULT_SAMPLE_PAGES,
        check_external=True,
        external_budget=settings.EXTERNAL.default_budget_s,
        allow_private_hosts=True,
        delivery=Delivery(args.format, args.output, ()),
    )


async def run_demo(args: argparse.Namespace, run_audit: AuditRunner) -> int:
    import asyncio

    from demo.server import serve_site
    from demo.shop import routes

    with serve_site(routes(), port=args.port) as site:
        url = site.url("/")
        print(f"demo site: {url} (Ridgeline Outfitters, a shop with planted problems)", flush=True)
        status = await run_audit(audit_arguments(args, url))
        print(f"report: {args.output.resolve()}", flush=True)
        if args.keep_serving:
            print(f"the demo site stays up at {url} until Ctrl-C", file=sys.stderr, flush=True)
            await asyncio.Event().wait()
    return status
