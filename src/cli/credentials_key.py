"""`siteaudit credentials-key rotate|reseal`: the key that seals credentials on the local platform.

The local platform keeps its key in the state directory (local_platform.cipher: `credentials.key`,
mode 0600). `rotate` makes a new one, keeps the old one as `credentials.key.previous` and re-seals
every stored value under the new key (maintenance.reseal); once nothing is left under the old key,
the previous file goes. `reseal` finishes a rotation that was interrupted (and is what the daily
trigger does on Cloudflare while CREDENTIALS_KEY_PREVIOUS is set); both are safe to run twice.

`rotate` refuses while a previous key file exists (a rotation not finished: its values would be
lost with it) and when CREDENTIALS_KEY comes from the environment: then the key is the caller's to
rotate, as on Cloudflare (docs/deploy-cloudflare.md), and `reseal` does the rest.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

# local_platform.cipher (the key files) is imported by the runs below, not by the CLI's parser,
# which builds this command's options (tests/cli/test_startup.py).
if TYPE_CHECKING:
    from local_platform.runtime import LocalPlatform
    from maintenance.reseal import ResealReport

type Subcommands = argparse._SubParsersAction[Any]  # argparse's private class, as in cli.keys


def add_credentials_key_commands(commands: Subcommands) -> None:
    parser = commands.add_parser(
        "credentials-key", help="rotate the key that seals stored credentials"
    )
    actions = parser.add_subparsers(dest="credentials_key_command", required=True)
    actions.add_parser("rotate", help="a new key; every stored credential re-sealed under it")
    actions.add_parser("reseal", help="re-seal what is still under the previous key")


async def run_credentials_key(platform: LocalPlatform, args: argparse.Namespace) -> int:
    from local_platform import cipher
    from maintenance.reseal import reseal_credentials

    if args.credentials_key_command == "rotate":
        refusal = _rotate(platform)
        if refusal is not None:
            print(f"siteaudit: {refusal}", file=sys.stderr)
            return 2
    report = await reseal_credentials(platform.core_env)
    print(_summary(report))
    if report.unopenable == 0 and report.skipped is None:
        (platform.state_dir / cipher.PREVIOUS_KEY_FILE).unlink(missing_ok=True)
        return 0
    return 1


def _rotate(platform: LocalPlatform) -> str | None:
    """Move the state directory's key aside and make a new one; why not, when it cannot."""
    from local_platform import cipher

    state = platform.state_dir
    current = state / cipher.KEY_FILE
    if (state / cipher.PREVIOUS_KEY_FILE).exists():
        return "a rotation is not finished: run `siteaudit credentials-key reseal` first"
    old = current.read_text().strip() if current.exists() else None
    if old is None or old != platform.env.CREDENTIALS_KEY:
        return "CREDENTIALS_KEY is set in the environment: rotate it there, then run reseal"
    cipher.write_private(state / cipher.PREVIOUS_KEY_FILE, old)
    new = cipher.new_key_text()
    cipher.write_private(current, new)
    platform.env.CREDENTIALS_KEY, platform.env.CREDENTIALS_KEY_PREVIOUS = new, old
    return None


def _summary(report: ResealReport) -> str:
    if report.skipped is not None:
        return f"nothing re-sealed: {report.skipped}"
    line = f"{report.resealed} stored credentials re-sealed under the current key"
    if report.unopenable:
        line += f"; {report.unopenable} could not be opened by either key (kept as they are)"
    return line
