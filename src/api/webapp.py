"""The web app at `/`: a few static files from `api/static/`, with the headers that make it strict.

    GET|HEAD /             index.html   the page (sign in, audits, progress, report, monitors,
                           host verification)
    GET|HEAD /app.js       the one script, an ES module that calls the /api routes only
    GET|HEAD /app.css      the stylesheet
    GET|HEAD /favicon.svg  the icon (named by index.html, so browsers do not ask for /favicon.ico)

Every answer carries `SECURITY_HEADERS`: a Content-Security-Policy that lets the page load only
its own files and call only its own origin, then HSTS, Referrer-Policy, CORP, COOP, COEP and
X-Frame-Options, so the page grades A+ on the service's own Observatory-compatible grade
(tests/api/test_webapp.py grades it). The report an audit opens (`GET /api/audits/{id}/report.html`,
fetched with the key) is shown in a sandboxed `<iframe srcdoc>`; a srcdoc document inherits this
page's policy (HTML, "policy container"), so the report's one inline stylesheet and one inline
script are allowed here by the same SHA-256 hashes its own policy names, and nothing else inline is.

The files are read once per isolate. wrangler uploads them as Text modules (wrangler.toml
`[[rules]]`), which sit in the bundle's file system beside this module, as on CPython. Each has
a strong ETag (a hash of its bytes) and `Cache-Control: no-cache`: browsers revalidate every load
and get a 304 without a body while the deployment has not changed the file (RFC 9110 §13.1.2,
RFC 9111 §5.2.2.4).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from api.errors import MethodNotAllowed
from api.http import ApiRequest, ApiResponse
from service.html_style import SCRIPT_HASH as REPORT_SCRIPT_HASH
from service.html_style import STYLE_HASH as REPORT_STYLE_HASH

STATIC_DIR = Path(__file__).parent / "static"
# path -> (file under STATIC_DIR, media type)
FILES: dict[str, tuple[str, str]] = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
    "/favicon.svg": ("favicon.svg", "image/svg+xml"),
}
METHODS = ("GET", "HEAD")

CSP = "; ".join(
    [
        "default-src 'none'",
        f"script-src 'self' {REPORT_SCRIPT_HASH}",
        f"style-src 'self' {REPORT_STYLE_HASH}",
        "img-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        # The forms are handled by the script and never submitted to a URL.
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    # Two years, the HSTS preload list's expectation; browsers ignore it over plain http.
    "strict-transport-security": "max-age=63072000; includeSubDomains",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",  # for browsers without CSP frame-ancestors
    "cross-origin-resource-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
    "cache-control": "no-cache",
}


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    media_type: str
    etag: str


def is_asset(path: str) -> bool:
    return path in FILES


@cache
def asset(path: str) -> Asset:
    name, media_type = FILES[path]
    body = (STATIC_DIR / name).read_bytes()
    return Asset(body, media_type, f'"{hashlib.sha256(body).hexdigest()[:32]}"')


def serve(request: ApiRequest) -> ApiResponse:
    """The file at the request's path (one of `FILES`), or 304 when the browser's copy is current."""
    if request.method.upper() not in METHODS:
        raise MethodNotAllowed(f"{request.method} is not allowed on {request.path}", list(METHODS))
    found = asset(request.path)
    headers = {**SECURITY_HEADERS, "etag": found.etag}
    if etag_matches(request.headers.get("if-none-match", ""), found.etag):
        return ApiResponse(304, b"", headers)
    return ApiResponse(200, found.body, {**headers, "content-type": found.media_type})


def etag_matches(if_none_match: str, etag: str) -> bool:
    """If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/` is ignored; `*` matches."""
    for candidate in if_none_match.split(","):
        tag = candidate.strip().removeprefix("W/")
        if tag == "*" or tag == etag:
            return True
    return False
