"""The web app's files at `/`: served without a key, strict headers (A+ on the service's own
grade), ETag revalidation, and a script that calls only routes the API has."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path, PurePosixPath
from xml.etree.ElementTree import Element

import html5lib
import pytest

from api import webapp
from api.routes import ROUTES
from api.routing import match
from local_platform.runtime import LocalPlatform
from security.grade import Grade, grade_response
from security.observed import response_from_input
from service import html_style, page_table
from tests.api.client import send

PATHS = list(webapp.FILES)
ROOT = Path(__file__).parents[2]


async def test_the_page_grades_a_plus_on_the_services_own_security_grade(
    platform: LocalPlatform,
) -> None:
    page = await send(platform.env, "GET", "/")
    # What `siteaudit security-check --response FILE` reads: the response as deployed (https).
    observed = {
        "url": "https://siteaudit.example/",
        "status": page.status,
        "headers": page.headers,
        "html": page.body.decode(),
    }

    graded = grade_response(response_from_input(observed))

    failing = [t.test for t in graded.tests if not t.passed]
    assert (graded.grade, failing) == (Grade.A_PLUS, [])
    tests = graded.summary()["tests"]
    assert isinstance(tests, dict)
    assert tests["content-security-policy"]["result"] == (
        "csp-implemented-with-no-unsafe-default-src-none"
    )


@pytest.mark.parametrize(
    ("path", "media_type", "marker"),
    [
        ("/", "text/html; charset=utf-8", b'<script type="module" src="/app.js">'),
        ("/app.js", "text/javascript; charset=utf-8", b"sessionStorage"),
        ("/app.css", "text/css; charset=utf-8", b":focus-visible"),
        ("/favicon.svg", "image/svg+xml", b"<svg"),
    ],
)
async def test_each_file_is_served_without_a_key_with_every_security_header(
    platform: LocalPlatform, path: str, media_type: str, marker: bytes
) -> None:
    response = await send(platform.env, "GET", path)

    assert (response.status, response.headers["content-type"]) == (200, media_type)
    assert marker in response.body
    assert response.headers.items() >= webapp.SECURITY_HEADERS.items()
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["cache-control"] == "no-cache"  # revalidated, not no-store


def test_the_policy_allows_nothing_inline_but_the_reports_own_style_and_script() -> None:
    directives = dict(d.split(" ", 1) for d in webapp.CSP.split("; "))

    assert directives == {
        "default-src": "'none'",
        "script-src": f"'self' {html_style.csp_hash(page_table.SCRIPT)}",
        "style-src": f"'self' {html_style.csp_hash(html_style.STYLE)}",
        "img-src": "'self'",
        "connect-src": "'self'",
        "base-uri": "'none'",
        "form-action": "'none'",
        "frame-ancestors": "'none'",
    }
    assert "unsafe" not in webapp.CSP


@pytest.mark.parametrize("path", PATHS)
def test_the_files_carry_no_inline_script_style_or_handler(path: str) -> None:
    text = webapp.asset(path).body.decode()

    assert not re.search(r"<script(?![^>]*\bsrc=)", text)
    assert "<style" not in text and " style=" not in text
    assert not re.search(r"\son[a-z]+=", text)


@pytest.mark.parametrize("path", PATHS)
async def test_a_matching_etag_is_a_304_without_a_body(platform: LocalPlatform, path: str) -> None:
    first = await send(platform.env, "GET", path)
    etag = first.headers["etag"]

    again = await send(platform.env, "GET", path, headers={"if-none-match": f'"x", W/{etag}'})

    assert (again.status, again.body, again.headers["etag"]) == (304, b"", etag)
    assert again.headers["content-security-policy"] == webapp.CSP


@pytest.mark.parametrize(
    ("header", "matches"),
    [
        ('"abc"', True),
        ('W/"abc"', True),
        ('"x", "abc"', True),
        ("*", True),
        ('"abd"', False),
        ("", False),
    ],
)
def test_if_none_match_uses_the_weak_comparison(header: str, matches: bool) -> None:
    assert webapp.etag_matches(header, '"abc"') is matches


async def test_head_answers_like_get(platform: LocalPlatform) -> None:
    get = await send(platform.env, "GET", "/")
    head = await send(platform.env, "HEAD", "/")

    # The body of a HEAD answer is dropped by the runtime (and by `siteaudit serve`).
    assert (head.status, head.headers) == (get.status, get.headers)


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
async def test_other_methods_are_a_405(platform: LocalPlatform, method: str) -> None:
    response = await send(platform.env, method, "/app.js")

    assert (response.status, response.headers["allow"]) == (405, "GET, HEAD")


@pytest.mark.parametrize(
    "path", ["/index.html", "/app", "/static/app.js", "/app.js/", "/../app.js"]
)
async def test_nothing_else_outside_the_api_is_served(platform: LocalPlatform, path: str) -> None:
    response = await send(platform.env, "GET", path)

    assert response.status == 404
    assert response.headers["cache-control"] == "no-store"


def _api_calls(script: str) -> set[str]:
    """Every /api path the script builds, each `${...}` part standing for an id."""
    literals = re.findall(r'[`"](/api/[^`"?]*)', script)
    helpers = {"auditPath(": "/api/audits/${id}", "monitorPath(": "/api/monitors/${id}"}
    suffixes = re.findall(r'auditPath\([^,()]+, [`"]([^`"]+)[`"]\)', script)
    calls = set(literals) | {helpers["auditPath("] + s for s in suffixes}
    calls |= {helpers[h] for h in helpers if h in script}
    return {re.sub(r"\$\{[^}]*\}", "some-id", call) for call in calls}


def test_the_script_calls_only_routes_the_api_has() -> None:
    calls = _api_calls(webapp.asset("/app.js").body.decode())

    unrouted = [c for c in calls if match(ROUTES, c) is None]
    assert unrouted == []
    assert {
        "/api/audits",
        "/api/audits/some-id/progress",
        "/api/audits/some-id/report.html",
        "/api/audits/some-id/compare/some-id",
        "/api/audits/some-id/pages.csv",
        "/api/audits/some-id/issues.csv",
        "/api/audits/some-id/cancel",
        "/api/audits/some-id/resume",
        "/api/audits/some-id/rerun",
        "/api/audits/some-id",
        "/api/monitors",
        "/api/monitors/some-id",
        "/api/monitors/some-id/runs",
        "/api/monitors/some-id/run",
    } <= calls


def test_the_script_reaches_no_other_host() -> None:
    script = webapp.asset("/app.js").body.decode()
    page = webapp.asset("/").body.decode()

    # The SVG namespace names the elements of a chart the script draws; nothing fetches it.
    # `https://${host}` is where a host's verification proof goes, shown to its owner as text.
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg\"|\$\{host\}/)", script)
    assert re.findall(r'(?:src|href)="([^"]+)"', page) == [
        "/favicon.svg", "/app.css", "/app.js", "#main", "#new-audit", "#audits", "#compare",
        "#monitors", "#verify", "#verify", "/api/openapi.json",
    ]  # fmt: skip


# wrangler's default module rules that upload a file as text (its `Text` rule); .js would match
# its default `ESModule` rule, .css and .svg none at all.
WRANGLER_DEFAULT_TEXT = ("**/*.txt", "**/*.html", "**/*.sql")


@pytest.mark.parametrize("path", PATHS)
def test_wrangler_uploads_every_file_as_text(path: str) -> None:
    config = tomllib.loads((ROOT / "wrangler.toml").read_text())
    globs = [g for rule in config["rules"] if rule["type"] == "Text" for g in rule["globs"]]
    name = (
        PurePosixPath(webapp.STATIC_DIR.relative_to(ROOT / "src").as_posix())
        / webapp.FILES[path][0]
    )

    assert any(name.full_match(glob) for glob in [*globs, *WRANGLER_DEFAULT_TEXT])
    assert not name.full_match("**/*.py")


def _page() -> Element:
    parsed: Element = html5lib.parse(webapp.asset("/").body, namespaceHTMLElements=False)
    return parsed


def test_every_control_has_a_label_and_every_region_a_name() -> None:
    page = _page()
    ids = [el.get("id") for el in page.iter() if el.get("id")]
    labelled = {label.get("for") for label in page.iter("label")}
    controls = [el for el in page.iter() if el.tag in ("input", "select", "textarea")]
    named_by = [el.get("aria-labelledby") for el in page.iter() if el.get("aria-labelledby")]

    assert len(ids) == len(set(ids))
    assert [c.get("id") for c in controls if c.get("id") not in labelled] == []
    assert set(named_by) <= set(ids)
    assert [s.get("id") for s in page.iter("section") if not s.get("aria-labelledby")] == []
    assert [el.tag for el in page.iter() if el.tag in ("header", "nav", "main", "footer")] == [
        "header", "nav", "main", "footer",
    ]  # fmt: skip
    assert page.get("lang") == "en"


def test_every_element_the_script_looks_up_is_on_the_page() -> None:
    script = webapp.asset("/app.js").body.decode()
    looked_up = set(re.findall(r'\$\("([a-z-]+)"\)', script))
    looked_up |= {i for group in re.findall(r"\[((?:\"[a-z-]+\",? ?)+)\]", script)
                  for i in re.findall(r'"([a-z-]+)"', group)}  # fmt: skip
    on_page = {el.get("id") for el in _page().iter() if el.get("id")}

    assert looked_up - on_page == set()
    assert {"sign-in-form", "audit-form", "progress-text", "report-frame"} <= looked_up
