"""The production renderer's I/O: pacing to the account's rate, 429s waited out, refused URLs
never sent; then the whole thing through the platform's own client against the `/content` double."""

from __future__ import annotations

import json
import re

import pytest

from common import ports
from common.deployment import DeploymentVars
from common.retry_after import Backoff429
from local_platform.fetch import aclose_shared_client
from render.browser_rendering import BrowserRenderingApi
from render.cloudflare import BrowserRenderingRenderer, CallPolicy, next_call
from render.records import BlockReason, RenderBudget, RenderFailure
from render.renderer import NotConfigured
from render.renderers import configured_renderer
from tests.render.browser_rendering_double import ACCOUNT, TOKEN, serve_double
from urls.private_hosts import PrivateHosts


@pytest.mark.parametrize(
    ("now", "next_free", "interval", "expected"),
    [
        (0.0, 0.0, 0.1, (0.0, 0.1)),  # the first call goes at once
        (0.05, 0.1, 0.1, (0.05, 0.2)),  # a call inside the interval waits for its slot
        (0.0, 0.3, 0.1, (0.3, 0.4)),  # queued behind two others
        (5.0, 0.1, 0.1, (0.0, 5.1)),  # slots that passed unused are not saved up for a burst
        (0.0, 0.0, 10.0, (0.0, 10.0)),  # the Free plan: one call every 10 s
    ],
)
def test_next_call(now, next_free, interval, expected) -> None:
    delay, following = next_call(now, next_free, interval)
    assert (delay, following) == pytest.approx(expected)


class _Scripted:
    """An HTTP client answering from a list, recording each request."""

    def __init__(self, *answers: tuple[int, dict[str, str]]) -> None:
        self.answers, self.requests = list(answers), list[ports.FetchRequest]()

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        self.requests.append(request)
        status, headers = self.answers.pop(0)
        body = {"success": status == 200, "result": "<p>ok</p>", "errors": []}
        return ports.FetchResult(request.url, status, headers, json.dumps(body).encode(), False, 1)


class _Time:
    """A clock that only the fake sleep moves."""

    def __init__(self) -> None:
        self.now, self.sleeps = 0.0, list[float]()

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 6))
        self.now += seconds


def _renderer(http, time: _Time, **policy) -> BrowserRenderingRenderer:
    api = BrowserRenderingApi("acc", "tok", "https://api.example/client/v4")
    return BrowserRenderingRenderer(
        api, http, PrivateHosts.DENY, CallPolicy(**policy), time.sleep, lambda: time.now
    )


async def test_a_429_is_waited_out_per_retry_after() -> None:
    http, time = _Scripted((429, {"retry-after": "3"}), (429, {}), (200, {})), _Time()
    page = await _renderer(http, time, requests_per_second=1000).render(
        "https://site.example/", RenderBudget()
    )
    assert page.ok and page.html == "<p>ok</p>"
    assert len(http.requests) == 3
    assert time.sleeps == [3.0, 10.0]  # Retry-After, then the default: the Free plan's interval


async def test_browser_rendering_runs_no_axe_core_even_when_the_budget_asks() -> None:
    # /content hands back HTML only: nothing of ours runs in its page (docs/accessibility.md).
    http, time = _Scripted((200, {})), _Time()
    page = await _renderer(http, time).render(
        "https://site.example/", RenderBudget(accessibility=True)
    )
    assert page.ok and page.accessibility is None
    assert len(http.requests) == 1 and b"axe" not in (http.requests[0].body or b"")


@pytest.mark.parametrize(
    ("answers", "policy", "calls"),
    [
        ([(429, {"retry-after": "120"})], {}, 1),  # longer than the wait allowed: no retry
        ([(429, {"retry-after": "0"})] * 3, {"backoff": Backoff429(2, 10.0, 30.0)}, 3),  # run out
    ],
)
async def test_a_429_that_will_not_end_is_a_rate_limited_page(answers, policy, calls) -> None:
    http, time = _Scripted(*answers), _Time()
    page = await _renderer(http, time, **policy).render("https://site.example/", RenderBudget())
    assert page.failure is RenderFailure.RATE_LIMITED
    assert len(http.requests) == calls


async def test_calls_are_paced_to_the_account_rate() -> None:
    http, time = _Scripted(*[(200, {})] * 3), _Time()
    renderer = _renderer(http, time, requests_per_second=2)
    for path in ("a", "b", "c"):
        assert (await renderer.render(f"https://site.example/{path}", RenderBudget())).ok
    assert time.sleeps == [0.5, 0.5]


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1/", "http://169.254.169.254/", "ftp://x.example/"]
)
async def test_a_refused_page_is_never_sent(url: str) -> None:
    http, time = _Scripted(), _Time()
    page = await _renderer(http, time).render(url, RenderBudget())
    assert page.failure is RenderFailure.REFUSED_URL
    assert [b.url for b in page.blocked] == [url]
    assert page.blocked[0].reason in (BlockReason.PRIVATE_ADDRESS, BlockReason.NOT_HTTP)
    assert http.requests == []


@pytest.mark.parametrize(
    ("settings", "missing"),
    [
        ({}, "the BROWSER_RENDERING_ACCOUNT_ID var and the BROWSER_RENDERING_API_TOKEN secret"),
        ({"browser_rendering_account_id": "a"}, "the BROWSER_RENDERING_API_TOKEN secret not"),
        ({"browser_rendering_api_token": "t"}, "the BROWSER_RENDERING_ACCOUNT_ID var not"),
    ],
)
def test_without_both_settings_there_is_no_renderer_and_it_says_why(settings, missing) -> None:
    renderer = configured_renderer(DeploymentVars(**settings), _Scripted(), PrivateHosts.DENY)
    assert isinstance(renderer, NotConfigured)
    assert renderer.unavailable is not None and missing in renderer.unavailable


async def test_the_configured_renderer_renders_through_the_platform_client() -> None:
    """The double stands in for Cloudflare on 127.0.0.1; the request crosses the platform's real
    HTTP client (the one the Worker shell configures), a 429 first."""
    with serve_double(refusals=[429]) as double:
        deployment = DeploymentVars(
            browser_rendering_account_id=ACCOUNT,
            browser_rendering_api_token=TOKEN,
            browser_rendering_endpoint=double.endpoint,
        )
        renderer = configured_renderer(deployment, ports.http_client(), PrivateHosts.DENY)
        try:
            page = await renderer.render("https://site.example/app", RenderBudget(time_s=9))
        finally:
            await aclose_shared_client()

    assert page.ok, page.error
    assert re.search(r"<title>Rendered https://site.example/app</title>", page.html)
    assert page.browser_ms == 1234.0
    assert [call.body["url"] for call in double.calls] == ["https://site.example/app"] * 2
    sent = double.calls[-1]
    assert sent.headers["authorization"] == f"Bearer {TOKEN}"
    assert sent.body["gotoOptions"] == {"waitUntil": "networkidle0", "timeout": 9000}
    assert sent.body["rejectResourceTypes"] == ["font", "image", "media"]
