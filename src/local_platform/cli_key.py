"""The API key the CLI calls the Worker with: owner "local", kept in the state directory.

`siteaudit audit|resume` (and tests) call the Worker's API in-process through
`LocalPlatform.request`, which authenticates like any other caller. The key is made on first use
and stored in `<state dir>/cli-key` (mode 0600), the way a client keeps its own credential; the
D1 table, as everywhere, holds only its hash. Holding the state directory already means holding
the database itself, so the file gives nothing more away. A key that no longer authenticates
(revoked with `siteaudit keys revoke`, or a fresh database) is replaced by a new one.
"""

from __future__ import annotations

import os
from pathlib import Path

from common.bindings import Env
from service import keys
from service.audits import LOCAL_OWNER
from service.errors import NotAuthenticated

CLI_KEY_FILE = "cli-key"
CLI_KEY_NAME = "siteaudit cli (local platform)"


async def load_or_create(env: Env, state_dir: Path) -> str:
    path = state_dir / CLI_KEY_FILE
    if path.exists():
        secret = path.read_text().strip()
        try:
            await keys.authenticate(env, secret)
            return secret
        except NotAuthenticated:
            pass  # revoked, or the database was reset: make a new one
    created = await keys.create_key(env, LOCAL_OWNER, CLI_KEY_NAME)
    _write_private(path, created.secret)
    return created.secret


def _write_private(path: Path, secret: str) -> None:
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(secret + "\n")
