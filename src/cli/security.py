"""`siteaudit security-check --response FILE` and `siteaudit security URL [--json]`.

`security-check` grades one response described in JSON (`{"url", "status", "headers", "html",
"redirects"}`, headers as `{lower-case name: value or [values]}`) and prints
`{"score", "grade", "tests": {name: {"result", "pass", "score_modifier"}}}`; bad input exits 2
with the reason. `security` fetches the site like the HTTP Observatory (http and https entry
points, every redirect hop checked against the SSRF policy, on the local platform's fetch) and
prints a table, or the same JSON with `--json`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from local_platform.runtime import LocalPlatform
    from security.grade import SecurityGrade

type Subcommands = argparse._SubParsersAction[Any]  # argparse's private class, as in cli.keys


def add_security_commands(commands: Subcommands) -> None:
    check = commands.add_parser(
        "security-check", help="grade one response (JSON file, '-' for stdin) like the Observatory"
    )
    check.add_argument("--response", required=True, help="the response as JSON ('-': stdin)")
    scan = commands.add_parser("security", help="fetch a site and grade it like the Observatory")
    scan.add_argument("url")
    scan.add_argument("--json", action="store_true", dest="as_json", help="print JSON")
    scan.add_argument(
        "--allow-private-hosts",
        action="store_true",
        help="allow private, loopback and link-local hosts (local test sites)",
    )


def run_security_check(args: argparse.Namespace) -> int:
    # The grade's modules load here, when a command runs: the parser needs none (cli/main.py).
    from security.grade import grade_response
    from security.observed import ObservationError, response_from_input

    try:
        text = sys.stdin.read() if args.response == "-" else Path(args.response).read_text()
        response = response_from_input(json.loads(text))
    except (OSError, ValueError) as exc:  # ObservationError and JSONDecodeError are ValueErrors
        reason = exc if isinstance(exc, ObservationError) else f"cannot read {args.response}: {exc}"
        print(f"siteaudit: {reason}", file=sys.stderr)
        return 2
    print(json.dumps(grade_response(response).summary(), indent=2))
    return 0


async def run_security(args: argparse.Namespace, platform: LocalPlatform) -> int:
    from security.grade import grade_site
    from security.observe import ScanRefused, observe_site
    from urls.private_hosts import PrivateHosts

    policy = PrivateHosts.ALLOW if args.allow_private_hosts else PrivateHosts.DENY
    platform.allow_private_hosts(policy)
    try:
        site = await observe_site(args.url, private_hosts=policy)
    except ScanRefused as exc:
        print(f"siteaudit: {exc}", file=sys.stderr)
        return 2
    graded = grade_site(site)
    print(json.dumps(graded.summary(), indent=2) if args.as_json else format_table(graded))
    return 0


def format_table(graded: SecurityGrade) -> str:
    """The grade, then one line per test: name, modifier, pass mark and result id."""
    lines = [f"Grade {graded.grade}  score {graded.score}", ""]
    width = max(len(test.test) for test in graded.tests)
    for test in graded.tests:
        mark = "pass" if test.passed else "FAIL"
        lines.append(f"{test.test:<{width}}  {test.score_modifier:+4d}  {mark}  {test.result}")
    return "\n".join(lines)
