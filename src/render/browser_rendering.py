"""Cloudflare Browser Rendering's REST `/content` endpoint, sans-IO (docs/rendering.md).

Request: `POST <endpoint>/accounts/<account id>/browser-rendering/content` with
`Authorization: Bearer <API token>` (a token with the "Browser Rendering - Edit" permission) and a
JSON body: `url`; `rejectResourceTypes` (Puppeteer's resource types: images, media and fonts
unless the budget asks for them); `rejectRequestPattern` (regular expressions matched against
each request's URL: every host the SSRF policy refuses by its spelling, below, and the URLs the
audit's robots.txt disallows, crawl.render_robots); `gotoOptions`
(`waitUntil: "networkidle0"`, Puppeteer's "no request for 500 ms", and `timeout` in ms, the
budget's time); `userAgent` (the crawler's, so robots.txt groups and logs see one agent).

Response: Cloudflare's API envelope `{"success": true, "result": "<html>...", "errors": [],
"messages": []}`; on failure `success` false and `errors` a list of `{code, message}`. The
`X-Browser-Ms-Used` header reports the browser time the call was charged (its pricing FAQ). The
endpoint does not report the page's own HTTP status or the URL it ended at, so a rendered page
from here has `status` None and `final_url` the URL asked for.

Limits (the Browser Rendering limits page): REST calls are admitted at a fixed per-second fill
rate (Workers Free: one every 10 s; Workers Paid: 10 a second), a 429 beyond it. The
caller (render.cloudflare) paces its calls and waits out a 429 per Retry-After.

The browser runs on Cloudflare's network, which cannot reach the deployment's private networks;
the patterns still refuse, by spelling, what the crawler's policy refuses (loopback, private and
link-local IPv4 ranges, `localhost` and the local-service suffixes, and every IPv6 literal, which
a page has no need to name), so a page cannot probe Cloudflare's own side either. Chromium hands
requests to the patterns with hosts already in canonical form (`http://2130706433/` is requested
as `http://127.0.0.1/`), so the dotted-quad patterns cover the other IPv4 spellings.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from common.ports import FetchRequest, FetchResult
from common.settings import CRAWL, MIB
from common.wire import json_object_or_none
from render.records import SKIPPED_RESOURCE_TYPES, RenderBudget, RenderedPage, RenderFailure

__all__ = ["DEFAULT_ENDPOINT", "PRIVATE_REQUEST_PATTERNS", "BrowserRenderingApi"]

DEFAULT_ENDPOINT = "https://api.cloudflare.com/client/v4"
NAME = "cloudflare-browser-rendering"
# Hosts, by spelling, that a rendered page may not request (module docstring). JavaScript regular
# expressions, as the endpoint takes them; each is anchored at the URL's authority.
_AUTHORITY = r"^[a-zA-Z][a-zA-Z0-9+.-]*://([^/?#@]*@)?"
PRIVATE_REQUEST_PATTERNS = [
    _AUTHORITY
    + r"(localhost|[^/?#:]*\.(localhost|local|localdomain|internal|home\.arpa))\.?([:/?#]|$)",
    _AUTHORITY
    + r"(metadata|metadata\.google\.internal|instance-data|metadata\.azure\.com)([:/?#]|$)",
    _AUTHORITY + r"(0|10|127)\.\d+\.\d+\.\d+([:/?#]|$)",
    _AUTHORITY + r"(169\.254|192\.168|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7]))\.\d+\.\d+([:/?#]|$)",
    _AUTHORITY + r"172\.(1[6-9]|2\d|3[01])\.\d+\.\d+([:/?#]|$)",
    _AUTHORITY + r"\[",
]
# The HTML comes back inside a JSON string: escaping can double it, and the envelope adds little.
_RESPONSE_OVERHEAD = 2
# The endpoint needs time of its own around the page's: starting or picking a browser, and
# serialising the DOM. The budget's time bounds the page; this, the call.
CALL_MARGIN_S = 15.0
_ERROR_TEXT_CHARS = 500


@dataclass(frozen=True, slots=True)
class BrowserRenderingApi:
    """One account's `/content` calls: building each request, reading each answer."""

    account_id: str
    api_token: str
    endpoint: str = DEFAULT_ENDPOINT
    name: str = NAME

    def content_request(
        self, url: str, budget: RenderBudget, rejected: Sequence[str] = ()
    ) -> FetchRequest:
        """The call for `url`; `rejected`: more patterns of requests to refuse (robots.txt)."""
        body: dict[str, object] = {
            "url": url,
            "rejectRequestPattern": [*PRIVATE_REQUEST_PATTERNS, *rejected],
            "gotoOptions": {"waitUntil": "networkidle0", "timeout": round(budget.time_s * 1000)},
            "userAgent": CRAWL.user_agent,
        }
        if not budget.load_media:
            body["rejectResourceTypes"] = sorted(SKIPPED_RESOURCE_TYPES)
        return FetchRequest(
            url=f"{self.endpoint.rstrip('/')}/accounts/{self.account_id}/browser-rendering/content",
            timeout_s=budget.time_s + CALL_MARGIN_S,
            max_bytes=budget.max_bytes * _RESPONSE_OVERHEAD + MIB,
            headers={
                "authorization": f"Bearer {self.api_token}",
                "content-type": "application/json",
                "accept": "application/json",
            },
            method="POST",
            body=json.dumps(body).encode(),
        )

    def parse(self, url: str, response: FetchResult, elapsed_ms: float) -> RenderedPage:
        """The answer as a rendered page, or as a failed one that says what went wrong."""
        if response.status == 0:
            error = response.error or "no response"
            return RenderedPage.failed(url, self.name, RenderFailure.NO_RESPONSE, error, elapsed_ms)
        if response.truncated:
            error = "the rendered HTML is larger than the byte budget"
            return RenderedPage.failed(url, self.name, RenderFailure.TOO_LARGE, error, elapsed_ms)
        envelope = json_object_or_none(response.body)
        result = None if envelope is None else envelope.get("result")
        if response.status != 200 or envelope is None or envelope.get("success") is not True:
            failure = RenderFailure.RATE_LIMITED if response.status == 429 else None
            error = _error_text(response, envelope)
            failure = failure or RenderFailure.PROVIDER_ERROR
            return RenderedPage.failed(url, self.name, failure, error, elapsed_ms)
        if not isinstance(result, str):
            error = "the answer has no rendered HTML (`result` is not a string)"
            return RenderedPage.failed(
                url, self.name, RenderFailure.PROVIDER_ERROR, error, elapsed_ms
            )
        return RenderedPage(
            url,
            self.name,
            final_url=url,
            html=result,
            elapsed_ms=elapsed_ms,
            browser_ms=_browser_ms(response),
            bytes_loaded=len(response.body),
        )


def _browser_ms(response: FetchResult) -> float | None:
    value = response.header("x-browser-ms-used")
    try:
        return None if value is None else float(value)
    except ValueError:
        return None


def _error_text(response: FetchResult, envelope: Mapping[str, object] | None) -> str:
    errors = (envelope or {}).get("errors")
    messages = [
        f"{e.get('code')}: {e.get('message')}"
        if e.get("code") is not None
        else str(e.get("message"))
        for e in (errors if isinstance(errors, list) else [])
        if isinstance(e, dict) and e.get("message")
    ]
    text = (
        "; ".join(messages) or response.body[:_ERROR_TEXT_CHARS].decode("utf-8", "replace").strip()
    )
    return f"HTTP {response.status}: {text or 'no error message'}"[:_ERROR_TEXT_CHARS]
