"""`python -m tests.pyodide.serve_closed`: badseo's closed site behind HTTP basic auth
(tests/badseo/closed_sites.py) on a free port of 127.0.0.1, with its other origins, until killed.

Prints `serving <origin> <user>:<password>` first (the test sends those). On SIGTERM it prints, as
one JSON line, the paths the site served through its wall, the paths it refused, and the requests
the other origins got with a credential, so a test in the Pyodide tier can check where the
credentials went.
"""

from __future__ import annotations

import json
import signal
import threading
from types import FrameType

from tests.badseo.closed_sites import (
    BASIC_PASSWORD,
    BASIC_USER,
    VARIANTS,
    Wall,
    carries_credentials,
    serve_closed,
)

BASIC = next(variant for variant in VARIANTS if variant.wall is Wall.BASIC)


def main() -> None:
    stop = threading.Event()

    def on_term(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_term)
    with serve_closed(BASIC) as closed:
        print(f"serving {closed.origin} {BASIC_USER}:{BASIC_PASSWORD}", flush=True)
        stop.wait()
        site = closed.site.requests
        others = closed.external.requests + closed.elsewhere.requests
        print(
            json.dumps(
                {
                    "admitted": sorted({r.path for r in site if BASIC.admits(r.headers)}),
                    "refused": sorted({r.path for r in site if not BASIC.admits(r.headers)}),
                    "elsewhere": len(others),
                    "elsewhere_with_credentials": [
                        r.path for r in others if carries_credentials(r)
                    ],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
