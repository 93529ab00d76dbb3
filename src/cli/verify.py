"""`siteaudit verify add|check|list|remove`: prove you control a host, so that `siteaudit audit
--ignore-robots` may ignore its robots.txt (docs/manual/verify.md).

Each command calls the API as the owner "local" (the CLI's own key), exactly as `curl` on
`siteaudit serve` would: `add` prints the verification's id, its token and where to publish it;
`check` looks for it now and prints the outcome (exit 1 unless verified); `list` prints the
owner's verifications with their status and last check; `remove` forgets one.

The fetches obey `--allow-private-hosts` as audits do; `--doh URL` points the dns method at another
DNS-over-HTTPS JSON resolver than the deployment's VERIFICATION_DOH_URL.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from auditdb.verifications import VerificationMethod
from common.wire import as_list, as_object, as_str

if TYPE_CHECKING:
    from local_platform.runtime import LocalPlatform

type Subcommands = argparse._SubParsersAction[Any]  # argparse's private class, as in cli.keys
type Refuse = Callable[[object], int]  # prints the API's refusal, returns the exit status


def add_verify_commands(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "verify", help="prove you control a host, so audits may ignore its robots.txt"
    )
    actions = parser.add_subparsers(dest="verify_command", required=True)
    add = actions.add_parser("add", help="get a token for a host and where to publish it")
    add.add_argument("host", help="a host name, optionally with a port (example.com:8443)")
    add.add_argument(
        "--method",
        choices=[str(m) for m in VerificationMethod],
        default=str(VerificationMethod.FILE),
        help="file (/.well-known/siteaudit-verification.txt), dns (a TXT record) or meta (a "
        "meta tag on the start page); default: %(default)s",
    )
    check = actions.add_parser("check", help="look for the token now")
    check.add_argument("verification_id")
    actions.add_parser("list", help="your verifications and their last check")
    remove = actions.add_parser("remove", help="forget a verification")
    remove.add_argument("verification_id")
    for action in (add, check):
        action.add_argument("--allow-private-hosts", action="store_true")
    check.add_argument(
        "--doh", metavar="URL", help="DNS-over-HTTPS JSON resolver for the dns method"
    )


def verify_vars(args: argparse.Namespace) -> dict[str, str]:
    """The deployment vars the command runs with (the platform's `var_overrides`)."""
    doh = getattr(args, "doh", None)
    return {} if doh is None else {"VERIFICATION_DOH_URL": doh}


async def run_verify(platform: LocalPlatform, args: argparse.Namespace, refuse: Refuse) -> int:
    match args.verify_command:
        case "add":
            body = {"host": args.host, "method": args.method}
            status, answer = await platform.request("POST", "/api/verifications", body)
            if status != 201:
                return refuse(answer)
            _print_new(as_object(answer["verification"]))
            return 0
        case "check":
            path = f"/api/verifications/{args.verification_id}/check"
            status, answer = await platform.request("POST", path)
            if status != 200:
                return refuse(answer)
            checked = as_object(answer["verification"])
            print(f"{as_str(checked['host'])}: {as_str(checked['status'])}: {checked['reason']}")
            return 0 if checked["status"] == "verified" else 1
        case "list":
            _, answer = await platform.request("GET", "/api/verifications")
            for row in as_list(answer["verifications"]):
                print(_line(as_object(row)))
            return 0
        case _:
            path = f"/api/verifications/{args.verification_id}"
            status, answer = await platform.request("DELETE", path)
            return 0 if status == 204 else refuse(answer)


def _print_new(verification: Mapping[str, object]) -> None:
    proof = as_object(verification["proof"])
    print(
        f"verification {as_str(verification['id'])}: {as_str(verification['host'])} by "
        f"{as_str(verification['method'])} ({as_str(verification['status'])})"
    )
    print(f"value: {as_str(proof['value'])}")
    print(f"where: {as_str(proof['where'])}")
    print(as_str(proof["instructions"]))
    print(f"then: siteaudit verify check {as_str(verification['id'])}")


def _line(row: Mapping[str, object]) -> str:
    checked = row.get("checked_at") or "never checked"
    reason = f": {row['reason']}" if row.get("reason") else ""
    return (
        f"{as_str(row['id'])}  {as_str(row['host'])}  {as_str(row['method'])}  "
        f"{as_str(row['status'])}  {checked}{reason}"
    )
