"""The API keys the local platform keeps for its owners, in the state directory.

`siteaudit audit|resume` (and tests) call the Worker's API in-process through
`LocalPlatform.request`, which authenticates like any other caller, with the CLI's key. `siteaudit
serve` prints a sign-in link for the web app that carries a second key of the same owner (its own
name, so revoking one leaves the other working), so the app shows the audits the CLI ran. Each key
is made on first use and stored in `<state dir>/<file>` (mode 0600), the way a client keeps its
own credential; the D1 table, as everywhere, holds only its hash. Holding the state directory
already means holding the database itself, so the files give nothing more away. A key that no
longer authenticates (revoked with `siteaudit keys revoke`, or a fresh database) is replaced by a
new one.

The CLI is the operator of its state directory: `report`, `resume`, `cancel`, `delete` and
`compare` act on any audit in it, as the audit's owner (`for_owner`), so the hints the report
and the app print (`siteaudit report <id> --format csv`) work for an audit that a key of another
owner started from the app.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from common.bindings import Env
from common.settings import LOCAL_OWNER
from service import keys
from service.errors import NotAuthenticated


@dataclass(frozen=True, slots=True)
class LocalKey:
    """Where a key is kept, the name `keys list` shows for it, and whose key it is."""

    file: str
    name: str
    owner: str = LOCAL_OWNER


CLI = LocalKey("cli-key", "siteaudit cli (local platform)")
APP = LocalKey("app-key", "web app sign-in link (local platform)")
CLI_KEY_NAME = CLI.name


def for_owner(owner: str) -> LocalKey:
    """The CLI's key for acting as `owner` (its own for "local"); the file name is a hash, so
    any owner name makes a safe one."""
    if owner == LOCAL_OWNER:
        return CLI
    digest = hashlib.sha256(owner.encode()).hexdigest()[:16]
    name = f"siteaudit cli acting for {owner}"[: keys.MAX_NAME_CHARS]
    return LocalKey(f"cli-key-{digest}", name, owner)


async def load_or_create(env: Env, state_dir: Path, which: LocalKey = CLI) -> str:
    path = state_dir / which.file
    if path.exists():
        secret = path.read_text().strip()
        try:
            if (await keys.authenticate(env, secret)).owner == which.owner:
                return secret
        except NotAuthenticated:
            pass  # revoked, or the database was reset: make a new one
    created = await keys.create_key(env, which.owner, which.name)
    _write_private(path, created.secret)
    return created.secret


def _write_private(path: Path, secret: str) -> None:
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(secret + "\n")
