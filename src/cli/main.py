"""`siteaudit`: run audits on the local platform from a terminal.

    siteaudit audit URL [--max-pages N] [--lighthouse auto|none] [--lighthouse-pages N]
                        [--no-check-external] [--external-budget SECONDS]
                        [SCOPE OPTIONS] [--allow-private-hosts] [--ignore-robots]
                        [CREDENTIALS] [REPORT OPTIONS] [--state-dir DIR]
    siteaudit audit [URL] --list FILE|- | --list-sitemap URL [...the same options]
    siteaudit resume ID [REPORT OPTIONS] [--state-dir DIR]
    siteaudit report ID [REPORT OPTIONS] [--state-dir DIR]
    siteaudit cancel ID [--state-dir DIR]
    siteaudit delete ID [--state-dir DIR]
    siteaudit compare A B [--limit N] [--state-dir DIR]
    siteaudit serve [--port N] [--var NAME:VALUE ...] [--state-dir DIR]
    siteaudit demo [--port N] [--max-pages N] [--format F] [--output FILE] [--keep-serving]
    siteaudit keys create [--owner NAME] [--name LABEL] | keys list | keys revoke ID
    siteaudit monitors add URL [--frequency F] [--hour H] [--webhook-url URL] [--lighthouse M]
                           [--check-external] [--external-budget SECONDS] [CREDENTIALS]
    siteaudit monitors credentials ID (CREDENTIALS | --remove)
    siteaudit monitors list
    siteaudit monitors runs ID | monitors remove ID | monitors run-due
    siteaudit verify add HOST [--method file|dns|meta] | verify check ID [--doh URL]
    siteaudit verify list | verify remove ID
    siteaudit credentials-key rotate | credentials-key reseal
    siteaudit security-check --response FILE
    siteaudit security URL [--json] [--allow-private-hosts]
    siteaudit exposure URL [--json] [--no-dns] [--resolver URL] [--allow-private-hosts]

SCOPE OPTIONS (cli/scope.py): --max-depth N, --include/--exclude PATTERN, --user-agent UA,
--rate N, --concurrency N, --strip-param NAME, --subdomains; list mode: --list, --list-sitemap.

REPORT OPTIONS: --format text|json|csv|junit|sarif, --output FILE, --fail-on CONDITION (repeatable
or comma-separated: critical, warning, score<N, new-issues-since=ID); `--json FILE` is short for
`--format json --output FILE`. Formats, the gate and the exit statuses: cli/deliver.py, cli/gate.py.
CREDENTIALS (a closed staging site): --auth USER[:PASSWORD] | --auth-env VAR, --header 'NAME:
VALUE', --header-env NAME=VAR, --cookie NAME=VALUE, --cookie-env NAME=VAR, --credentials-origin
URL, --send-credentials-to external-links|lighthouse (cli/credentials.py).

All run the Worker's own code (src/entry.py) on the local platform, with all state in one folder
(default ./.siteaudit), so what a run crawled survives the process. `audit`, `resume`, `report`,
`cancel` and `delete` call the API with a key the local platform keeps for the CLI
(local_platform.cli_key): `audit` as the owner "local", the others as the owner of the audit they
name (the CLI operates on every audit of its state dir); `serve` answers only requests that bring a key, prints the web
app's address and a sign-in link with a key of the owner "local" (so the app shows the CLI's
audits), and serves the admin routes (/api/keys) when ADMIN_TOKEN is set in its environment.
`keys create` makes a key for the owner "local" unless `--owner` names another. Lighthouse
runs on a sample of pages when PSI_API_KEY is set in the environment (PSI_ENDPOINT overrides the
PageSpeed Insights endpoint); without it audits say Lighthouse was skipped (docs/lighthouse.md).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from cli.credentials import add_credentials_arguments, credentials_body
from cli.credentials_key import add_credentials_key_commands
from cli.delivery import Delivery, ExitStatus, OutputFormat
from cli.demo import add_demo_command
from cli.exposure import add_exposure_command
from cli.gate import CONDITIONS_HELP, GateSyntaxError, parse_fail_on
from cli.keys import add_keys_commands
from cli.monitors import add_monitors_commands
from cli.render_option import add_render_argument
from cli.scope import add_scope_arguments
from cli.security import add_security_commands, run_security_check
from cli.verify import add_verify_commands, verify_vars
from common import settings
from common.settings import LOCAL_OWNER
from common.wire import as_object, as_str
from lighthouse.records import LighthouseMode
from lighthouse.sample import DEFAULT_SAMPLE_PAGES

if TYPE_CHECKING:
    from local_platform.runtime import LocalPlatform

# Start-up: this module and the parser's modules import only what building the parser needs.
# Each command imports what it runs (the local platform, the report formats, the command's
# module, even asyncio) in its `run_*` function below, so `siteaudit --help` or `siteaudit
# cancel` does not load the HTML report, the API's schemas or the MCP server
# (tests/cli/test_startup.py).

DEFAULT_STATE_DIR = ".siteaudit"
PROGRESS_INTERVAL_S = 1.0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="siteaudit", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=Path(os.environ.get("SITEAUDIT_STATE_DIR", DEFAULT_STATE_DIR)),
        help="folder holding the local platform's state (default: %(default)s)",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    audit = commands.add_parser("audit", help="audit a site and print a summary")
    audit.add_argument("url", nargs="?", help="the start URL (optional with --list)")
    audit.add_argument("--max-pages", type=int, default=50)
    audit.add_argument(
        "--lighthouse",
        choices=[str(mode) for mode in LighthouseMode],
        default=str(LighthouseMode.AUTO),
        help="Lighthouse on a sample of pages when PSI_API_KEY is set (default: %(default)s)",
    )
    audit.add_argument(
        "--lighthouse-pages",
        type=int,
        default=DEFAULT_SAMPLE_PAGES,
        help="pages Lighthouse samples, two runs each (default: %(default)s)",
    )
    audit.add_argument(
        "--no-check-external",
        dest="check_external",
        action="store_false",
        help="do not check links to other sites (checked once each by default)",
    )
    audit.add_argument(
        "--external-budget",
        type=float,
        default=settings.EXTERNAL.default_budget_s,
        metavar="SECONDS",
        help="time the checks of links to other sites may take in all; what is left is "
        "reported unchecked (default: %(default)g)",
    )
    audit.add_argument(
        "--allow-private-hosts",
        action="store_true",
        help="allow private, loopback and link-local hosts (local test sites)",
    )
    add_render_argument(audit)
    add_scope_arguments(audit)
    audit.add_argument(
        "--ignore-robots",
        action="store_true",
        help="ignore robots.txt disallows: for a host you verified (siteaudit verify), or a "
        "private host with --allow-private-hosts",
    )
    add_credentials_arguments(audit)
    add_report_arguments(audit)
    resume = commands.add_parser(
        "resume",
        help="finish an interrupted, failed or cancelled audit from its retained crawl state",
    )
    resume.add_argument("audit_id")
    add_report_arguments(resume)
    resume.add_argument("--allow-private-hosts", action="store_true")
    report = commands.add_parser(
        "report", help="write the report of an audit that completed, failed or was cancelled"
    )
    report.add_argument("audit_id")
    add_report_arguments(report)
    cancel = commands.add_parser(
        "cancel", help="stop a running audit and keep what it crawled (resume finishes it)"
    )
    cancel.add_argument("audit_id")
    delete = commands.add_parser(
        "delete", help="stop an audit if it runs, then delete it with its pages and issues"
    )
    delete.add_argument("audit_id")
    compare = commands.add_parser(
        "compare", help="what changed from audit A (older) to audit B (newer)"
    )
    compare.add_argument("before_id", metavar="A")
    compare.add_argument("after_id", metavar="B")
    compare.add_argument(
        "--limit", type=int, default=20, help="issues and pages listed per section"
    )
    serve = commands.add_parser("serve", help="serve the Worker's HTTP API on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8787)
    serve.add_argument("--allow-private-hosts", action="store_true")
    serve.add_argument(
        "--var",
        action="append",
        default=[],
        type=_var,
        metavar="NAME:VALUE",
        help="override a wrangler.toml [vars] setting, like `wrangler dev --var` (repeatable)",
    )
    add_demo_command(commands)
    add_keys_commands(commands)
    add_monitors_commands(commands)
    add_credentials_key_commands(commands)
    add_security_commands(commands)
    add_exposure_command(commands)
    add_verify_commands(commands)
    return parser


def _var(text: str) -> tuple[str, str]:
    name, colon, value = text.partition(":")
    if not colon or not name.isidentifier():
        raise argparse.ArgumentTypeError(f"expected NAME:VALUE, not {text!r}")
    return name, value


def add_report_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        type=OutputFormat,
        choices=list(OutputFormat),
        default=OutputFormat.TEXT,
        help="text (the summary, default), json (every page and issue), csv (the issues, one row "
        "each), junit (JUnit XML), sarif (SARIF 2.1.0) or html (one self-contained file)",
    )
    parser.add_argument(
        "--output", type=Path, help="write the report to FILE and the summary to stdout"
    )
    parser.add_argument(
        "--json",
        type=Path,
        dest="json_path",
        metavar="FILE",
        help="the same as --format json --output FILE",
    )
    parser.add_argument(
        "--fail-on",
        action="append",
        default=[],
        metavar="CONDITION",
        help=f"exit 1 when a condition holds: {CONDITIONS_HELP}; repeatable or comma-separated "
        "(quote score<N in a shell)",
    )


def delivery_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Delivery:
    """The report options as one value; a bad combination or condition exits 2 with usage."""
    try:
        conditions = parse_fail_on(args.fail_on)
    except GateSyntaxError as error:
        parser.error(f"argument --fail-on: {error}")
    if args.json_path is None:
        return Delivery(args.format, args.output, conditions)
    if args.output is not None or args.format is not OutputFormat.TEXT:
        parser.error("--json FILE is short for --format json --output FILE: give one or the other")
    return Delivery(OutputFormat.JSON, args.json_path, conditions)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "security-check":
        return run_security_check(args)  # pure: no platform, no event loop
    if hasattr(args, "fail_on"):
        args.delivery = delivery_of(parser, args)
    if hasattr(args, "auth"):  # read before the platform starts: --auth USER asks for a password
        args.credentials = credentials_body(parser, args)
    import asyncio  # after parsing: --help and argument errors exit without it

    from common.deployment import DeploymentVarError  # it loads the key ring's crypto: here too

    try:
        runners = {
            "audit": run_audit,
            "resume": run_resume,
            "report": run_report,
            "cancel": run_cancel,
            "delete": run_delete,
            "compare": run_compare,
            "serve": run_serve,
            "demo": run_demo_command,
            "keys": run_keys_command,
            "monitors": run_monitors_command,
            "credentials-key": run_credentials_key_command,
            "security": run_security_command,
            "exposure": run_exposure_command,
            "verify": run_verify_command,
        }
        return asyncio.run(runners[args.command](args))
    except DeploymentVarError as error:  # a bad `--var`, or a bad value in wrangler.toml
        return _refuse(str(error))
    except KeyboardInterrupt:
        return 130


_RATE_LIMIT_SETTINGS = (
    "RATE_LIMIT_REQUESTS_PER_MINUTE",
    "RATE_LIMIT_AUDITS_PER_HOUR",
    "MAX_RUNNING_AUDITS_PER_OWNER",
)


def _platform(args: argparse.Namespace) -> LocalPlatform:
    from local_platform.runtime import LocalPlatform  # argument errors stay fast

    private = getattr(args, "allow_private_hosts", False)
    overrides = {"ALLOW_PRIVATE_HOSTS": "true"} if private else {}
    # Secrets `wrangler secret put` sets on Cloudflare (and the PSI endpoint): here, from the shell.
    # Without CREDENTIALS_KEY the state directory's key seals credentials (local_platform.cipher).
    for name in (
        "ADMIN_TOKEN",
        "PSI_API_KEY",
        "PSI_ENDPOINT",
        "CREDENTIALS_KEY",
        "CREDENTIALS_KEY_PREVIOUS",
    ):
        if value := os.environ.get(name):
            overrides[name] = value
    if args.command != "serve":
        # One person at a terminal: the deployment's rate limits (wrangler.toml) guard `serve`.
        overrides.update(dict.fromkeys(_RATE_LIMIT_SETTINGS, "0"))
    if private and getattr(args, "ignore_robots", False):
        # A private host the user allows has no public owner to verify: the switch suffices.
        overrides["ROBOTS_OVERRIDE_PRIVATE_HOSTS"] = "true"
    overrides.update(verify_vars(args))
    overrides.update(getattr(args, "var", []))
    return LocalPlatform(args.state_dir, var_overrides=overrides)


def _refused(body: object) -> int:
    """The API's refusal (`{"error": {"code", "message"}}`) on stderr; exit status 2."""
    error = as_object(as_object(body)["error"])
    return _refuse(as_str(error["message"]))


def _refuse(message: str) -> int:
    print(f"siteaudit: {message}", file=sys.stderr)
    return ExitStatus.USAGE


async def run_audit(args: argparse.Namespace) -> int:
    # The service, not the API: the request is a typed record, so an audit loads no pydantic and
    # no API schema (cli.audit_request, tests/cli/test_startup.py).
    from cli.audit_request import audit_request
    from cli.deliver import Refused, check_baselines, deliver
    from service import audits
    from service.errors import ServiceError

    try:
        request = audit_request(args)
    except OSError as error:
        return _refuse(f"cannot read the URL list: {error}")
    except ValueError as error:  # the shape the API's 400 would have refused
        return _refuse(str(error))
    platform = _platform(args)
    try:
        await check_baselines(platform, args.delivery.conditions)
        # No key id: the rate limits are off for the CLI (`_platform`), as the API's create
        # would find them for the CLI's key.
        try:
            audit = await audits.create_audit(platform.core_env, LOCAL_OWNER, request)
        except ServiceError as refusal:  # what the API would have answered 4xx or 503
            return _refuse(str(refusal))
        _announce(audit.id, args.delivery)
        await _follow(platform, audit.id)
        return await deliver(platform, audit.id, args.delivery)
    except Refused as refusal:
        return _refuse(str(refusal))
    finally:
        await platform.close()


def _announce(audit_id: str, delivery: Delivery) -> None:
    """`audit <id>` first, on stdout unless the report itself goes there."""
    stream = sys.stderr if delivery.report_on_stdout else sys.stdout
    print(f"audit {audit_id}", file=stream, flush=True)


async def run_report(args: argparse.Namespace) -> int:
    from cli.deliver import Refused, check_baselines, deliver

    platform = _platform(args)
    try:
        await platform.act_for_audit(args.audit_id)
        status, body = await platform.request("GET", f"/api/audits/{args.audit_id}")
        if status != 200:
            return _refused(body)
        await check_baselines(platform, args.delivery.conditions)
        if body["audit"]["status"] == "running":
            return _refuse(
                f"audit {args.audit_id} is still running: report it once it has ended "
                f"(`siteaudit resume {args.audit_id}` finishes one whose process was killed)"
            )
        return await deliver(platform, args.audit_id, args.delivery)
    except Refused as refusal:
        return _refuse(str(refusal))
    finally:
        await platform.close()


async def run_cancel(args: argparse.Namespace) -> int:
    status, body = await _request_once(args, "POST", f"/api/audits/{args.audit_id}/cancel")
    if status != 202:
        return _refused(body)
    audit = as_object(as_object(body)["audit"])
    print(f"cancelled {args.audit_id} after {audit['pages_crawled']} pages")
    return 0


async def run_delete(args: argparse.Namespace) -> int:
    path = f"/api/audits/{args.audit_id}"
    platform = _platform(args)
    try:
        await platform.act_for_audit(args.audit_id)
        status, body = await platform.request("DELETE", path)
        if status == 409:
            # The API refuses to delete a running audit; the command stops it first, as it says.
            # A 409 on the cancel means the audit ended meanwhile: the delete goes through.
            await platform.request("POST", f"{path}/cancel")
            status, body = await platform.request("DELETE", path)
    finally:
        await platform.close()
    if status != 204:
        return _refused(body)
    print(f"deleted {args.audit_id}")
    return 0


async def _request_once(args: argparse.Namespace, method: str, path: str) -> tuple[int, object]:
    """One API request, as the owner of `args.audit_id`, on a platform opened for it and closed
    again."""
    platform = _platform(args)
    try:
        await platform.act_for_audit(args.audit_id)
        return await platform.request(method, path)
    finally:
        await platform.close()


async def run_compare(args: argparse.Namespace) -> int:
    from cli.compare import format_comparison

    platform = _platform(args)
    try:
        await platform.act_for_audit(args.before_id)
        path = f"/api/audits/{args.before_id}/compare/{args.after_id}?limit={args.limit}"
        status, body = await platform.request("GET", path)
        if status != 200:
            return _refused(body)
        print(format_comparison(as_object(body["comparison"])))
        return 0
    finally:
        await platform.close()


async def run_demo_command(args: argparse.Namespace) -> int:
    from cli.demo import run_demo

    return await run_demo(args, run_audit)


async def run_keys_command(args: argparse.Namespace) -> int:
    from cli.keys import run_keys

    return await run_keys(args)


async def run_exposure_command(args: argparse.Namespace) -> int:
    from cli.exposure import run_exposure

    return await run_exposure(args)


async def run_monitors_command(args: argparse.Namespace) -> int:
    from cli.monitors import run_monitors

    platform = _platform(args)
    try:
        return await run_monitors(platform, args, _refused)
    finally:
        await platform.close()


async def run_verify_command(args: argparse.Namespace) -> int:
    from cli.verify import run_verify

    platform = _platform(args)
    try:
        return await run_verify(platform, args, _refused)
    finally:
        await platform.close()


async def run_credentials_key_command(args: argparse.Namespace) -> int:
    from cli.credentials_key import run_credentials_key

    platform = _platform(args)
    try:
        return await run_credentials_key(platform, args)
    finally:
        await platform.close()


async def run_security_command(args: argparse.Namespace) -> int:
    from cli.security import run_security

    platform = _platform(args)
    try:
        return await run_security(args, platform)
    finally:
        await platform.close()


async def run_resume(args: argparse.Namespace) -> int:
    """A run killed outright leaves its audit `running` and its instance resumable in the local
    engine: replay it. A failed or cancelled audit is resumed through the API (a new instance)."""
    from cli.deliver import Refused, check_baselines, deliver
    from urls.private_hosts import PrivateHosts

    platform = _platform(args)
    try:
        await platform.act_for_audit(args.audit_id)
        await check_baselines(platform, args.delivery.conditions)
        status, body = await platform.request("GET", f"/api/audits/{args.audit_id}")
        if status != 200:
            return _refused(body)
        audit = body["audit"]
        # Reach what the audit was created to reach (`audit --allow-private-hosts`).
        platform.allow_private_hosts(PrivateHosts(audit["options"]["private_hosts"]))
        if audit["status"] == "running":
            await platform.engine.resume_incomplete()
        elif audit["status"] in ("failed", "cancelled"):
            status, body = await platform.request("POST", f"/api/audits/{args.audit_id}/resume")
            if status != 202:
                return _refused(body)
        _announce(args.audit_id, args.delivery)
        await _follow(platform, args.audit_id)
        return await deliver(platform, args.audit_id, args.delivery)
    except Refused as refusal:
        return _refuse(str(refusal))
    finally:
        await platform.close()


@contextmanager
def frozen_heap() -> Iterator[None]:
    """What the process holds before the crawl (modules, the vocabularies, the platform) lives
    as long as the audit: frozen out of the cyclic collector's reach while it runs (gc.freeze,
    https://docs.python.org/3/library/gc.html#gc.freeze), the collector's full collections walk
    only what the audit makes, 3 to 7% of the CPU a page on the PostgreSQL manual (bench/
    README.md, "Issues 29 and 31: plain links and reference cycles"). Given back afterwards, so
    a process that goes on (the tests, `demo --keep-serving`) loses nothing to it."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


async def _follow(platform: LocalPlatform, audit_id: str) -> None:
    """Run the audit's workflow to its end, showing its progress on stderr each second."""
    with frozen_heap():
        await _follow_unfrozen(platform, audit_id)


async def _follow_unfrozen(platform: LocalPlatform, audit_id: str) -> None:
    import asyncio

    from cli.progress import Snapshot, progress_view

    _, body = await platform.request("GET", f"/api/audits/{audit_id}")
    instance_id = body["audit"]["workflow_instance_id"] or audit_id
    crawled_before = body["audit"]["pages_crawled"]
    finished = asyncio.ensure_future(_settled(platform, instance_id))
    view = progress_view(sys.stderr)
    started = time.monotonic()
    try:
        while not finished.done():
            await asyncio.wait({finished}, timeout=PROGRESS_INTERVAL_S)
            await platform.tick()
            _, feed = await platform.request("GET", f"/api/audits/{audit_id}/progress?limit=1")
            view.update(Snapshot.of(feed, time.monotonic() - started, crawled_before))
    finally:
        view.close()


async def _settled(platform: LocalPlatform, instance_id: str) -> None:
    try:
        await platform.wait_for_workflow(instance_id)
    except Exception:  # a lost or finished instance: the audit row says what happened
        return


async def run_serve(args: argparse.Namespace) -> int:
    import asyncio

    from local_platform import cli_key
    from local_platform.http_server import serve

    platform = _platform(args)
    server = await serve(platform.fetch, host="127.0.0.1", port=args.port)
    app_key = await cli_key.load_or_create(platform.core_env, args.state_dir, cli_key.APP)
    print(serve_banner(f"http://127.0.0.1:{server.port}", app_key), flush=True)
    try:
        await platform.engine.resume_incomplete()
        while True:
            await platform.tick()
            await asyncio.sleep(1.0)
    finally:
        await server.close()
        await platform.close()


def serve_banner(origin: str, app_key: str) -> str:
    """What `serve` prints: the API (first, the line scripts read), the app, and a sign-in link.

    The link carries the key in its fragment, which a browser never sends to a server
    (RFC 3986 §3.5); app.js moves it into the tab's session storage and drops it from the address
    bar. Its owner is "local", the owner of the audits `siteaudit audit` runs on this state dir.
    """

    return (
        f"siteaudit API on {origin}/api/audits\n"
        f"siteaudit app on {origin}/\n"
        f"sign in to the app as the owner {LOCAL_OWNER!r} (the CLI's audits) with this link:\n"
        f"  {origin}/#key={app_key}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
