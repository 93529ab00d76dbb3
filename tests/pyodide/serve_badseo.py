"""`python -m tests.pyodide.serve_badseo --port N`: the badseo fixture site on 127.0.0.1:N until killed.

A fixed port lets two audits (Pyodide, then CPython) see the same origin, hence the same URLs and
row ids, each from a fresh server (the site's 429 counters start over with every server).
"""

from __future__ import annotations

import argparse
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from tests.badseo.site import FIXTURES, routes
from tests.support.site_server import Site, _Handler, _SiteHTTPServer


@contextmanager
def serving(port: int) -> Iterator[Site]:
    with _SiteHTTPServer(("127.0.0.1", port), _Handler) as server:
        server.routes, server.log = routes(FIXTURES), []
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield Site(server)
        finally:
            server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=0)
    port = parser.parse_args().port
    with serving(port) as site:
        print(f"serving {site.origin}", flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
