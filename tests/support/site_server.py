"""The fixture sites' server is the package's own (src/demo/server.py), which `siteaudit demo`
serves the demo shop with; the tests import it from here under the names they have always used."""

from __future__ import annotations

from demo.server import (
    Reply,
    Route,
    Site,
    SiteHandler,
    SiteHTTPServer,
    SiteRequest,
    StreamReply,
    html_page,
    serve_site,
)

# The names tests/badseo/https_site.py and tests/pyodide/serve_badseo.py subclass and bind.
_Handler = SiteHandler
_SiteHTTPServer = SiteHTTPServer

__all__ = [
    "Reply",
    "Route",
    "Site",
    "SiteHTTPServer",
    "SiteHandler",
    "SiteRequest",
    "StreamReply",
    "_Handler",
    "_SiteHTTPServer",
    "html_page",
    "serve_site",
]
