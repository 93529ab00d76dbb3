"""`python -m tests.pyodide.serve_browser_rendering`: the Browser Rendering `/content` double
(tests/render/browser_rendering_double.py) on a free port of 127.0.0.1, answering its first call
with a 429, until killed.

Prints `serving <endpoint> <account> <token>` first. On SIGTERM it prints, as one JSON line, each
call's path, Authorization header and JSON body, so the Pyodide tier can check what was sent.
"""

from __future__ import annotations

import json
import signal
import threading
from types import FrameType

from tests.render.browser_rendering_double import ACCOUNT, TOKEN, serve_double


def main() -> None:
    stop = threading.Event()

    def on_term(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_term)
    with serve_double(refusals=[429]) as double:
        print(f"serving {double.endpoint} {ACCOUNT} {TOKEN}", flush=True)
        stop.wait()
        calls = [
            {"path": c.path, "authorization": c.headers.get("authorization"), "body": c.body}
            for c in double.calls
        ]
        print(json.dumps(calls), flush=True)


if __name__ == "__main__":
    main()
