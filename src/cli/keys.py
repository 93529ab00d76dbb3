"""`siteaudit keys create|list|revoke`: API keys on the local platform, through `service.keys`.

These act on the state directory's D1 database directly, as an operator at the console, so they
need no credential; on Cloudflare the same operations are the admin routes under /api/keys.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from common.settings import LOCAL_OWNER

if TYPE_CHECKING:
    from auditdb.keys import ApiKeyRecord
    from local_platform.runtime import LocalPlatform

# argparse's subparsers action is a private class; Any stands for it.
type Subcommands = argparse._SubParsersAction[Any]


def add_keys_commands(commands: Subcommands) -> None:
    parser = commands.add_parser("keys", help="create, list and revoke API keys")
    actions = parser.add_subparsers(dest="keys_command", required=True)
    create = actions.add_parser("create", help="make a key and print it (shown only once)")
    create.add_argument(
        "--owner",
        default=LOCAL_OWNER,
        help="whose audits the key sees and starts (default: %(default)s, the owner of the "
        "audits this CLI runs)",
    )
    create.add_argument("--name", default="", help="a label to tell keys apart")
    actions.add_parser("list", help="every key: id, owner, name, prefix, dates (never the key)")
    revoke = actions.add_parser("revoke", help="revoke a key by its id")
    revoke.add_argument("key_id")


async def run_keys(args: argparse.Namespace) -> int:
    from local_platform.runtime import LocalPlatform

    platform = LocalPlatform(args.state_dir)
    try:
        match args.keys_command:
            case "create":
                return await _create(platform, args.owner, args.name)
            case "list":
                return await _list(platform)
            case _:
                return await _revoke(platform, args.key_id)
    finally:
        await platform.close()


async def _create(platform: LocalPlatform, owner: str, name: str) -> int:
    from service import keys
    from service.errors import InvalidKeyFields

    try:
        created = await keys.create_key(platform.core_env, owner, name)
    except InvalidKeyFields as exc:
        print(f"siteaudit: {exc}", file=sys.stderr)
        return 2
    key = created.key
    print(f"key {key.id} for owner {key.owner} (prefix {key.prefix})")
    print(created.secret)
    print("Store this key now: it is not shown again.", file=sys.stderr)
    return 0


async def _list(platform: LocalPlatform) -> int:
    from service import keys

    rows = [_row(key) for key in await keys.list_keys(platform.core_env)]
    header = ("ID", "OWNER", "NAME", "PREFIX", "CREATED", "LAST USED", "REVOKED")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
    return 0


def _row(key: ApiKeyRecord) -> tuple[str, ...]:
    return (
        key.id,
        key.owner,
        key.name or "-",
        key.prefix,
        key.created_at,
        key.last_used_at or "never",
        key.revoked_at or "-",
    )


async def _revoke(platform: LocalPlatform, key_id: str) -> int:
    from service import keys
    from service.errors import KeyNotFound

    try:
        await keys.revoke_key(platform.core_env, key_id)
    except KeyNotFound as exc:
        print(f"siteaudit: {exc}", file=sys.stderr)
        return 2
    print(f"revoked {key_id}")
    return 0
