"""`python -m tests.pyodide.serve_badseo --port N`: the badseo fixture site on 127.0.0.1:N, and
the other site its external links point at on 127.0.0.2:N, until killed.

A fixed port lets two audits (Pyodide, then CPython) see the same origin, hence the same URLs and
row ids, each from a fresh server (the site's 429 counters start over with every server).
"""

from __future__ import annotations

import argparse
import dataclasses
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from tests.badseo.pages import EXTERNAL_HOST, Html
from tests.badseo.site import FIXTURES, Fixture, external_routes, routes
from tests.pyodide.audit_driver import PARITY_SLOW_DELAY_S
from tests.support.site_server import Site, _Handler, _SiteHTTPServer, serve_site


def _parity_delay(fixture: Fixture) -> Fixture:
    """The slow page slowed past the parity run's threshold (audit_driver.tolerate_load)."""
    handler = fixture.handler
    if not (isinstance(handler, Html) and handler.delay_s):
        return fixture
    return dataclasses.replace(
        fixture, handler=dataclasses.replace(handler, delay_s=PARITY_SLOW_DELAY_S)
    )


@contextmanager
def serving(port: int) -> Iterator[Site]:
    other = external_routes(slow_delay_s=PARITY_SLOW_DELAY_S)
    with _SiteHTTPServer(("127.0.0.1", port), _Handler) as server:
        # The badseo handlers are routes of one kind; the server's table holds any kind.
        server.routes, server.log = routes([_parity_delay(f) for f in FIXTURES]), []  # type: ignore[assignment]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with serve_site(other, EXTERNAL_HOST, server.server_address[1]):
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
