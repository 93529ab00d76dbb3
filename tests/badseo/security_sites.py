"""badseo's security variants: one page per Observatory grade, A+ to F, served over TLS.

Theory of operation
-------------------
* The grade belongs to a page's response headers, so each grade is a path on one TLS-only
  server on 127.0.0.1 (a free port, a throwaway CA from `trustme`). `siteaudit security
  https://127.0.0.1:PORT/<path>` asks the same port for http too, as the Observatory does; a TLS
  port does not speak plain http, so the http entry point has no answer and redirection is
  `redirection-not-needed-no-http` (0) on every page: the grades come from the headers alone.
* Each variant lists its headers and the score the Observatory's arithmetic gives them (base
  100, penalties, bonuses only from 90 up); `GRADE_VARIANTS` has one per grade.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from security.grade import Grade
from tests.badseo.https_site import _start
from tests.security.cases import BEST_HEADERS
from tests.support.site_server import Reply

HOST = "127.0.0.1"
_PAGE = b"<!doctype html><title>grade</title><p>A page graded by its headers.</p>"
# A CSP worth 0 (unsafe-inline in style-src only) and X-Frame-Options worth 0 (ALLOW-FROM).
_NEUTRAL = {
    "content-security-policy": "default-src 'self'; style-src 'self' 'unsafe-inline'",
    "strict-transport-security": "max-age=31536000",
    "x-content-type-options": "nosniff",
    "x-frame-options": "ALLOW-FROM https://example.com",
}
_UNSAFE_REFERRER = {"referrer-policy": "unsafe-url"}  # -5
_SHORT_HSTS = {"strict-transport-security": "max-age=86400"}  # -10


def _without(headers: dict[str, str], *names: str) -> dict[str, str]:
    return {name: value for name, value in headers.items() if name not in names}


@dataclass(frozen=True)
class GradeVariant:
    path: str
    grade: Grade
    score: int
    headers: dict[str, str] = field(default_factory=dict)


GRADE_VARIANTS: tuple[GradeVariant, ...] = (
    # every bonus: CSP +10, cookies +5, referrer +5, XFO via CSP +5, CORP/COOP/COEP +10 each
    GradeVariant("/a-plus", Grade.A_PLUS, 155, BEST_HEADERS),
    GradeVariant("/a", Grade.A, 95, {**_NEUTRAL, **_UNSAFE_REFERRER}),
    GradeVariant("/a-minus", Grade.A_MINUS, 85, {**_NEUTRAL, **_SHORT_HSTS, **_UNSAFE_REFERRER}),
    GradeVariant("/b-plus", Grade.B_PLUS, 80, _without(_NEUTRAL, "strict-transport-security")),
    GradeVariant("/b", Grade.B, 75, _without(_NEUTRAL, "content-security-policy")),
    GradeVariant("/b-minus", Grade.B_MINUS, 65, {**_without(_NEUTRAL, "content-security-policy"), **_SHORT_HSTS}),
    GradeVariant(
        "/c-plus", Grade.C_PLUS, 60,
        {**_without(_NEUTRAL, "content-security-policy"), **_SHORT_HSTS, **_UNSAFE_REFERRER},
    ),
    GradeVariant(
        "/c", Grade.C, 50,
        {**_without(_NEUTRAL, "content-security-policy", "strict-transport-security"), **_UNSAFE_REFERRER},
    ),
    GradeVariant(
        "/c-minus", Grade.C_MINUS, 45,
        {**_without(_NEUTRAL, "content-security-policy", "strict-transport-security", "x-content-type-options"),
         **_UNSAFE_REFERRER},
    ),
    GradeVariant(
        "/d-plus", Grade.D_PLUS, 40,
        {**_without(_NEUTRAL, "content-security-policy", "strict-transport-security", "x-content-type-options"),
         **_UNSAFE_REFERRER, "cross-origin-opener-policy": "isolate-please"},
    ),
    GradeVariant("/d", Grade.D, 30, {}),  # CSP -25, HSTS -20, nosniff -5, XFO -20
    GradeVariant("/d-minus", Grade.D_MINUS, 25, _UNSAFE_REFERRER),
    # and a session cookie without Secure or HSTS (-40): below zero, floored
    GradeVariant("/f", Grade.F, 0, {"set-cookie": "sessionid=1; HttpOnly; SameSite=Lax"}),
)  # fmt: skip


@dataclass(frozen=True)
class GradeSite:
    origin: str
    ca_file: Path

    def url(self, variant: GradeVariant) -> str:
        return self.origin + variant.path


@contextmanager
def serve_grade_sites(workdir: Path) -> Iterator[GradeSite]:
    import trustme

    ca = trustme.CA(organization_name="badseo security test CA")
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(HOST).configure_cert(tls)
    ca_file = workdir / "security-ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    routes = {
        v.path: Reply(200, _PAGE, {"content-type": "text/html; charset=utf-8", **v.headers})
        for v in GRADE_VARIANTS
    }
    with ExitStack() as stack:
        # TLS only, on a free port: a plain-http request fails its handshake and is dropped.
        server = _start(stack, 0, dict(routes), tls, host=HOST)
        yield GradeSite(f"https://{HOST}:{server.server_address[1]}", ca_file)
