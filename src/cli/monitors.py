"""`siteaudit monitors add|credentials|list|runs|remove|run-due`: scheduled re-audits on the local
platform.

`add`, `credentials`, `list`, `runs` and `remove` call the API as the owner "local" (the CLI's own
key), exactly as `curl` on `siteaudit serve` would; `add` and `credentials` take the audit's
credential options (cli.credentials), `credentials --remove` drops the stored ones. `run-due`
does what the hourly cron and the queue do on Cloudflare, now: the producer enqueues every due
monitor (of every owner), the local queue is drained through the consumer, the command waits for
the audits it started to finish, and drains the queue again so their runs are finished (report,
alert) and their alerts' first attempts made. `--now ID` makes a monitor due first, even if it ran
recently.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from auditdb.frequency import Frequency
from cli.credentials import add_credentials_arguments
from cli.render_option import add_render_argument
from cli.scope import add_scope_arguments, scope_fields
from common import settings
from common.wire import JsonObject, as_list, as_object, as_str
from lighthouse.records import LighthouseMode

if TYPE_CHECKING:
    from common.bindings import MessageBatch
    from local_platform.runtime import LocalPlatform
    from service.monitor_runs import QueueResult, RunResult

type Subcommands = argparse._SubParsersAction[Any]  # argparse's private class, as in cli.keys
type Refuse = Callable[[object], int]  # prints the API's refusal, returns the exit status

MONITOR_QUEUE = "siteaudit-monitor"
WAIT_INTERVAL_S = 1.0


def add_monitors_commands(commands: Subcommands) -> None:
    parser = commands.add_parser("monitors", help="schedule re-audits of a site")
    actions = parser.add_subparsers(dest="monitors_command", required=True)
    add = actions.add_parser("add", help="monitor a site; prints its id and webhook secret")
    add.add_argument("url")
    add.add_argument("--frequency", choices=[str(f) for f in Frequency], default="daily")
    add.add_argument("--hour", type=int, help="UTC hour of the runs (default: this hour)")
    add.add_argument("--max-pages", type=int, default=50)
    add.add_argument("--webhook-url", help="where alerts will be posted")
    add.add_argument(
        "--lighthouse",
        choices=[str(mode) for mode in LighthouseMode],
        default=str(LighthouseMode.AUTO),
        help="Lighthouse in each run's audit when PSI_API_KEY is set (default: %(default)s)",
    )
    add.add_argument(
        "--check-external",
        action="store_true",
        help="each run's audit checks links to other sites (docs/external-links.md)",
    )
    add.add_argument(
        "--external-budget",
        type=float,
        default=settings.EXTERNAL.default_budget_s,
        metavar="SECONDS",
        help="time each run's checks of links to other sites may take (default: %(default)g)",
    )
    add.add_argument("--allow-private-hosts", action="store_true")
    add_render_argument(add)
    add_scope_arguments(add)
    add.add_argument(
        "--ignore-robots",
        action="store_true",
        help="each run's audit ignores robots.txt: for a host you verified (siteaudit verify), "
        "or a private host with --allow-private-hosts",
    )
    add_credentials_arguments(add)
    credentials = actions.add_parser(
        "credentials", help="replace or remove the credentials a monitor's runs send"
    )
    credentials.add_argument("monitor_id")
    credentials.add_argument("--remove", action="store_true", help="send none from now on")
    add_credentials_arguments(credentials)
    actions.add_parser("list", help="your monitors, newest first")
    runs = actions.add_parser("runs", help="a monitor's runs, newest first")
    runs.add_argument("monitor_id")
    remove = actions.add_parser("remove", help="delete a monitor and its run history")
    remove.add_argument("monitor_id")
    run_due = actions.add_parser(
        "run-due", help="run every due monitor now (the hourly cron and the queue, at once)"
    )
    run_due.add_argument("--allow-private-hosts", action="store_true")
    run_due.add_argument(
        "--now",
        action="append",
        default=[],
        metavar="MONITOR_ID",
        help="make this monitor due now even if it ran recently (to try a run and its alert)",
    )


async def run_monitors(platform: LocalPlatform, args: argparse.Namespace, refuse: Refuse) -> int:
    match args.monitors_command:
        case "add":
            return await _add(platform, args, refuse)
        case "credentials":
            return await _credentials(platform, args, refuse)
        case "list":
            return await _list(platform)
        case "runs":
            return await _runs(platform, args.monitor_id, refuse)
        case "remove":
            return await _remove(platform, args.monitor_id, refuse)
        case _:
            return await _run_due(platform, args.now)


async def _add(platform: LocalPlatform, args: argparse.Namespace, refuse: Refuse) -> int:
    try:
        scope = scope_fields(args)
    except OSError as error:
        return refuse({"error": {"message": f"cannot read the URL list: {error}"}})
    body: JsonObject = {
        **scope,
        "url": args.url,
        "frequency": args.frequency,
        "max_pages": args.max_pages,
        "lighthouse": args.lighthouse,
        "check_external": args.check_external,
        "external_budget_s": args.external_budget,
        "render": args.render,
        "ignore_robots": args.ignore_robots,
    }
    if args.hour is not None:
        body["hour"] = args.hour
    if args.webhook_url is not None:
        body["webhook_url"] = args.webhook_url
    if args.credentials is not None:
        body["credentials"] = args.credentials
    status, answer = await platform.request("POST", "/api/monitors", body)
    if status != 201:
        return refuse(answer)
    monitor = as_object(answer["monitor"])
    print(f"monitor {as_str(monitor['id'])}: {as_str(monitor['url'])}, {_when(monitor)}")
    print(as_str(monitor["webhook_secret"]))
    print("Store the webhook secret now: it is not shown again.", file=sys.stderr)
    return 0


async def _credentials(platform: LocalPlatform, args: argparse.Namespace, refuse: Refuse) -> int:
    if args.remove == (args.credentials is not None):
        print(
            "siteaudit: give credential options or --remove, not both or neither", file=sys.stderr
        )
        return 2
    body: JsonObject = {"credentials": args.credentials}
    status, answer = await platform.request("PATCH", f"/api/monitors/{args.monitor_id}", body)
    if status != 200:
        return refuse(answer)
    shown = as_object(answer["monitor"]).get("credentials")
    print(f"monitor {args.monitor_id}: credentials {'removed' if shown is None else 'replaced'}")
    return 0


def _when(monitor: Mapping[str, object]) -> str:
    return f"{as_str(monitor['frequency'])} at {monitor['hour']:>02}:00 UTC"


async def _list(platform: LocalPlatform) -> int:
    monitors = await _every(platform, "/api/monitors", "monitors")
    header = ("ID", "URL", "SCHEDULE", "ACTIVE", "NEXT DUE", "LAST RUN")
    _print_table(header, [_row(monitor) for monitor in monitors])
    return 0


async def _runs(platform: LocalPlatform, monitor_id: str, refuse: Refuse) -> int:
    path = f"/api/monitors/{monitor_id}/runs"
    status, answer = await platform.request("GET", path)
    if status != 200:
        return refuse(answer)
    runs = await _every(platform, path, "runs")
    header = ("STARTED", "STATUS", "SCORE", "CRITICAL", "WARNING", "INFO", "NEW", "FIXED")
    notes = [_reason(run) for run in runs]
    _print_table((*header, "REPORT", "AUDIT"), [_run_row(run) for run in runs], notes)
    return 0


def _reason(run: Mapping[str, object]) -> str | None:
    """A failed run's sentence (the API's `reason`), printed under its row."""
    reason = run.get("reason")
    return None if reason is None else f"  {as_str(reason)}"


async def _every(platform: LocalPlatform, path: str, kind: str) -> list[Mapping[str, object]]:
    """Every item of a list route, following `next_cursor` page by page."""
    items: list[Mapping[str, object]] = []
    page: str | None = path
    while page is not None:
        _, answer = await platform.request("GET", page)
        items.extend(as_object(item) for item in as_list(answer[kind]))
        cursor = answer["next_cursor"]
        page = None if cursor is None else f"{path}?cursor={cursor}"
    return items


def _print_table(
    header: tuple[str, ...], rows: list[tuple[str, ...]], notes: list[str | None] | None = None
) -> None:
    """Aligned columns; a row's note (if any) on the line below it."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row, note in zip([header, *rows], [None, *(notes or [None] * len(rows))], strict=True):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if note is not None:
            print(note)


def _run_row(run: Mapping[str, object]) -> tuple[str, ...]:
    counts = ("health_score", "critical_count", "warning_count", "info_count")
    changes = ("new_issues", "fixed_issues")
    return (
        as_str(run["started_at"]),
        as_str(run["status"]),
        *(_number(run[name]) for name in (*counts, *changes)),
        "yes" if run["has_report"] else "no",
        str(run["audit_id"] or "-"),
    )


def _number(value: object) -> str:
    """A count or score as a person reads it; "-" until the run has finished."""
    return "-" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def _row(monitor: Mapping[str, object]) -> tuple[str, ...]:
    return (
        as_str(monitor["id"]),
        as_str(monitor["url"]),
        _when(monitor),
        "yes" if monitor["is_active"] else "no",
        as_str(monitor["next_due_at"]),
        str(monitor["last_run_at"] or "never"),
    )


async def _remove(platform: LocalPlatform, monitor_id: str, refuse: Refuse) -> int:
    status, answer = await platform.request("DELETE", f"/api/monitors/{monitor_id}")
    if status != 204:
        return refuse(answer)
    print(f"removed {monitor_id}")
    return 0


async def _run_due(platform: LocalPlatform, now_ids: list[str]) -> int:
    # The producer and the consumer load with the command that runs them (cli/main.py).
    from auditdb import monitors
    from common import ports
    from maintenance.monitor_producer import enqueue_due_monitors
    from service.monitor_runs import RunOutcome, RunResult, consume_batch

    env = platform.core_env
    for monitor_id in now_ids:
        if not await monitors.make_due_now(env.DB, monitor_id, ports.iso_now()):
            print(f"no active monitor {monitor_id}", file=sys.stderr)
            return 1
    summary = await enqueue_due_monitors(env)
    print(f"{summary.enqueued} monitors due", flush=True)
    handled: list[QueueResult] = []

    async def consume(batch: MessageBatch) -> None:
        handled.extend(await consume_batch(env, batch))

    await platform.drain_queue(MONITOR_QUEUE, consume)
    results = [r for r in handled if isinstance(r, RunResult)]
    started = [r for r in results if r.outcome is RunOutcome.STARTED and r.audit_id is not None]
    await _wait_for(platform, [r.audit_id for r in started if r.audit_id is not None])
    # The ended audits' runs are finished (report, alert) and their alerts' first attempts made.
    await platform.drain_queue(MONITOR_QUEUE, consume)
    for result in results:
        print(await _outcome(platform, result))
    return 0 if all(r.outcome is not RunOutcome.REFUSED for r in results) else 1


async def _wait_for(platform: LocalPlatform, audit_ids: list[str]) -> None:
    import asyncio  # not at start-up: cli/main.py

    waits = [asyncio.ensure_future(_settled(platform, audit_id)) for audit_id in audit_ids]
    while not all(wait.done() for wait in waits):
        await asyncio.wait(waits, timeout=WAIT_INTERVAL_S)
        await platform.tick()


async def _settled(platform: LocalPlatform, instance_id: str) -> None:
    try:
        await platform.wait_for_workflow(instance_id)
    except Exception:  # a lost or finished instance: the audit row says what happened
        return


async def _outcome(platform: LocalPlatform, result: RunResult) -> str:
    from auditdb import alerts, repository, run_finish
    from service.run_reasons import run_reason

    line = f"monitor {result.monitor_id}: {result.outcome}"
    if result.audit_id is None:
        return line
    audit = await repository.get_audit(platform.core_env.DB, result.audit_id)
    if audit is None:
        return f"{line}, audit {result.audit_id} is gone"
    score = "-" if audit.health_score is None else f"{audit.health_score:g}"
    line = f"{line}, audit {audit.id} {audit.status} (health score {score})"
    run = await run_finish.run_of_audit(platform.core_env.DB, audit.id)
    if run is None:
        return line
    report = "report stored" if run.r2_key else "no report"
    alert = await alerts.get_alert(platform.core_env.DB, run.id)
    sent = "" if alert is None else f", alert {alert.status} after {alert.attempts} attempt(s)"
    reason = run_reason(run)
    why = "" if reason is None else f"\n  {reason}"
    return f"{line}, run {run.status}, {report}{sent}{why}"
