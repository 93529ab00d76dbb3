"""A local site serving known jQuery, AngularJS/Angular and Bootstrap files, vulnerable or fixed.

Paths follow the testcases.json URLs (cdnjs and jsDelivr layouts), so detection by URL sees what
it sees in the wild; copies under /static/ carry neutral names, so only their content can tell.
File bodies are the libraries' real license banners (the first lines of the published files,
which the retire.js `filecontent` patterns look for) followed by filler code, never the
libraries themselves.
"""

from __future__ import annotations

from tests.support.site_server import Reply, html_page

JS = {"content-type": "application/javascript"}
FILLER = "\n!function(e){'use strict';var t=e.document;e.ok=!!t}(window);\n" * 40


def jquery(version: str) -> str:
    return f"/*! jQuery v{version} | (c) OpenJS Foundation and other contributors | jquery.org/license */{FILLER}"


def angularjs(version: str) -> str:
    return f"/*\n AngularJS v{version}\n (c) 2010-2020 Google LLC. http://angularjs.org\n License: MIT\n*/{FILLER}"


def bootstrap(version: str) -> str:
    return f"/*!\n  * Bootstrap v{version} (https://getbootstrap.com/)\n  * Licensed under MIT\n  */{FILLER}"


def angular(version: str) -> str:
    banner = (
        f"/**\n * @license Angular v{version}\n * (c) 2010-2024 Google LLC. https://angular.io/\n"
    )
    return f"{banner} * License: MIT\n */{FILLER}"


def library_site(
    *,
    jquery_version: str,
    angularjs_version: str | None,
    angular_version: str | None,
    bootstrap_version: str,
) -> dict[str, Reply]:
    """Routes: `/` redirects to `/home`, which loads each library twice (CDN path and /static/)."""
    files = {
        f"/ajax/libs/jquery/{jquery_version}/jquery.min.js": jquery(jquery_version),
        f"/ajax/libs/twitter-bootstrap/{bootstrap_version}/js/bootstrap.min.js": bootstrap(
            bootstrap_version
        ),
        "/static/app.js": jquery(jquery_version),
        "/static/theme.js": bootstrap(bootstrap_version),
    }
    if angularjs_version:
        files[f"/ajax/libs/angular.js/{angularjs_version}/angular.min.js"] = angularjs(
            angularjs_version
        )
        files["/static/ui.js"] = angularjs(angularjs_version)
    if angular_version:
        files[f"/npm/@angular/core@{angular_version}/fesm2022/core.mjs"] = angular(angular_version)
        files["/static/main.js"] = angular(angular_version)
    tags = "".join(f'<script src="{path}"></script>' for path in files)
    routes = {path: Reply(200, body.encode(), JS) for path, body in files.items()}
    routes["/"] = Reply(301, b"", {"location": "/home"})
    routes["/home"] = Reply(
        200,
        html_page(
            "Libraries",
            "<h1>Libraries</h1>",
            head=tags + '<meta name="generator" content="WordPress 6.4.2">',
        ),
        {
            "content-type": "text/html; charset=utf-8",
            "server": "Apache/2.4.41 (Ubuntu)",
            "x-powered-by": "PHP/7.4.3",
        },
    )
    return routes
