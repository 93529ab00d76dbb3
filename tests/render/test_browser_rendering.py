"""Browser Rendering's `/content`, sans-IO: the request built for a page, and each answer read."""

import json
import re

import pytest

from common.ports import FetchResult
from render.browser_rendering import (
    CALL_MARGIN_S,
    PRIVATE_REQUEST_PATTERNS,
    BrowserRenderingApi,
)
from render.records import RenderBudget, RenderFailure
from render.request_policy import page_refusal
from urls.private_hosts import PrivateHosts

API = BrowserRenderingApi("acc", "tok", "https://api.example/client/v4/")
PAGE = "https://site.example/app"


def test_the_request_names_the_account_the_token_and_the_page() -> None:
    request = API.content_request(PAGE, RenderBudget(time_s=12))
    assert request.method == "POST"
    assert request.url == "https://api.example/client/v4/accounts/acc/browser-rendering/content"
    assert request.headers["authorization"] == "Bearer tok"
    assert request.headers["content-type"] == "application/json"
    assert request.timeout_s == 12 + CALL_MARGIN_S
    assert request.body is not None
    body = json.loads(request.body)
    assert body["url"] == PAGE
    assert body["gotoOptions"] == {"waitUntil": "networkidle0", "timeout": 12000}
    assert body["rejectResourceTypes"] == ["font", "image", "media"]
    assert body["rejectRequestPattern"] == PRIVATE_REQUEST_PATTERNS
    assert "siteaudit" in body["userAgent"]


def test_media_is_requested_when_the_budget_asks() -> None:
    request = API.content_request(PAGE, RenderBudget(load_media=True))
    assert request.body is not None
    assert "rejectResourceTypes" not in json.loads(request.body)


# What Chromium hands the patterns: URLs with canonical hosts. Each private one must match a
# pattern (Python's `re` reads these patterns as JavaScript does: no construct differs), each
# public one none; and the crawler's own policy agrees on every row.
@pytest.mark.parametrize(
    ("url", "private"),
    [
        ("http://127.0.0.1/", True),
        ("http://127.0.0.1:8080/admin", True),
        ("https://user:pw@127.1.2.3/", True),
        ("http://10.0.0.5/", True),
        ("http://172.16.0.1/", True),
        ("http://172.31.255.255/", True),
        ("http://192.168.1.1/", True),
        ("http://169.254.169.254/latest/meta-data/", True),
        ("http://100.64.0.1/", True),
        ("http://0.0.0.0/", True),
        ("http://localhost/", True),
        ("http://localhost.:3000/", True),
        ("http://app.localhost/", True),
        ("http://printer.local/", True),
        ("http://db.internal:5432/", True),
        ("http://metadata.google.internal/computeMetadata/v1/", True),
        ("http://[::1]/", True),
        ("ws://127.0.0.1:9/socket", True),
        ("https://site.example/", False),
        ("https://172.32.0.1/", False),
        ("https://100.128.0.1/", False),
        ("https://11.0.0.1/", False),
        ("https://localhost.example.com/", False),
        ("https://cdn.example/127.0.0.1/x.js", False),
        ("https://site.example/?next=http://127.0.0.1/", False),
        ("https://internal.example/", False),
    ],
)
def test_the_patterns_refuse_what_the_policy_refuses(url: str, private: bool) -> None:
    matched = any(re.search(pattern, url) for pattern in PRIVATE_REQUEST_PATTERNS)
    assert matched is private
    if url.startswith("http"):
        assert (page_refusal(url, PrivateHosts.DENY) is not None) is private


def _answer(status: int, body: object, headers: dict[str, str] | None = None) -> FetchResult:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return FetchResult("https://api.example/x", status, headers or {}, raw, False, 5.0)


def test_a_rendered_answer_is_a_page() -> None:
    envelope = {"success": True, "result": "<title>Hi</title>", "errors": [], "messages": []}
    page = API.parse(PAGE, _answer(200, envelope, {"x-browser-ms-used": "2500"}), 3000.0)
    assert page.ok
    assert (page.html, page.final_url, page.status) == ("<title>Hi</title>", PAGE, None)
    assert (page.browser_ms, page.elapsed_ms) == (2500.0, 3000.0)
    assert page.renderer == "cloudflare-browser-rendering"


@pytest.mark.parametrize(
    ("response", "failure", "error"),
    [
        (
            _answer(429, {"success": False, "errors": [{"code": 2001, "message": "Rate limit"}]}),
            RenderFailure.RATE_LIMITED,
            "HTTP 429: 2001: Rate limit",
        ),
        (
            _answer(422, {"success": False, "errors": [{"code": 2002, "message": "Page crashed"}]}),
            RenderFailure.PROVIDER_ERROR,
            "HTTP 422: 2002: Page crashed",
        ),
        (
            _answer(200, {"success": False, "errors": [{"message": "navigation timeout"}]}),
            RenderFailure.PROVIDER_ERROR,
            "HTTP 200: navigation timeout",
        ),
        (
            _answer(502, b"<html>Bad gateway</html>"),
            RenderFailure.PROVIDER_ERROR,
            "HTTP 502: <html>",
        ),
        (
            _answer(200, {"success": True, "result": None}),
            RenderFailure.PROVIDER_ERROR,
            "no rendered",
        ),
        (
            FetchResult("u", 0, {}, b"", False, 0.0, "connection refused"),
            RenderFailure.NO_RESPONSE,
            "connection refused",
        ),
        (FetchResult("u", 200, {}, b"{", True, 0.0), RenderFailure.TOO_LARGE, "byte budget"),
    ],
)
def test_each_failed_answer_says_what_went_wrong(response, failure, error) -> None:
    page = API.parse(PAGE, response, 1.0)
    assert page.failure is failure
    assert page.error is not None and error in page.error
    assert page.html == ""


def test_an_unreadable_browser_time_is_none() -> None:
    envelope = {"success": True, "result": "<p>"}
    page = API.parse(PAGE, _answer(200, envelope, {"x-browser-ms-used": "lots"}), 1.0)
    assert page.ok and page.browser_ms is None
