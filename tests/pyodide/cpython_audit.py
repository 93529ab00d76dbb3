"""`python -m tests.pyodide.cpython_audit --port N --audit-id ID`: the badseo audit on the CPython
local platform, served on 127.0.0.1:N; prints the audit_driver snapshot plus the golden issue set."""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path

from local_platform.runtime import LocalPlatform
from tests.badseo.site import expected_issues
from tests.pyodide import audit_driver
from tests.pyodide.serve_badseo import serving
from tests.support.platform_vars import TEST_VARS


async def audit(port: int, audit_id: str) -> dict[str, object]:
    with serving(port) as site, tempfile.TemporaryDirectory() as state:
        platform = LocalPlatform(Path(state), var_overrides=TEST_VARS)
        try:
            audit_driver.tolerate_load()
            await audit_driver.start_audit(platform.env, audit_id, site.url("/"))
            await platform.wait_for_workflow(audit_id, timeout_s=240)
            snapshot = json.loads(await audit_driver.snapshot(platform.env, audit_id))
        finally:
            await platform.close()
        expected = sorted([t, u] for t, u in expected_issues(site.origin))
        return {**snapshot, "expected_issues": expected}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--audit-id", required=True)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(audit(args.port, args.audit_id)), sort_keys=True))


if __name__ == "__main__":
    main()
