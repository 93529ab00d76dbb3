"""Which renderer the deployment uses, from its settings; `NotConfigured` says what is missing.

The local platform installs its own (`use_local_renderer`: Debian's Chromium,
local_platform.chromium_renderer), which serves wherever Browser Rendering's settings are absent;
the Worker never installs one. Renderers that hold a browser are closed after each render step
(`close_renderer`).

An audit hands two clients: `http` for Browser Rendering's API calls, and `site_http`, its
client paced at the audit's rate on the audited site (workflow.pace), through which the local
renderer fetches every request its page makes. Browser Rendering's browser fetches the page
itself, on Cloudflare's side: nothing here can pace those fetches (docs/rendering.md).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from common.deployment import DeploymentVars
from common.ports import HttpClient
from render.browser_rendering import BrowserRenderingApi
from render.cloudflare import BrowserRenderingRenderer, CallPolicy
from render.renderer import NotConfigured, Renderer
from render.request_policy import RobotsGate
from urls.private_hosts import PrivateHosts

__all__ = ["close_renderer", "configured_renderer", "local_renderer", "use_local_renderer"]

type LocalRenderer = Callable[[HttpClient, PrivateHosts, RobotsGate | None], Renderer]
_LOCAL: list[LocalRenderer] = []  # the one the local platform installed, if any


def use_local_renderer(factory: LocalRenderer | None) -> None:
    """Install the platform's renderer (None: none), which `configured_renderer` returns where
    Browser Rendering is not configured."""
    _LOCAL[:] = [] if factory is None else [factory]


def local_renderer() -> LocalRenderer | None:
    return _LOCAL[0] if _LOCAL else None


async def close_renderer(renderer: Renderer) -> None:
    """Stop what a renderer holds (a browser), if it holds anything."""
    aclose: Callable[[], Awaitable[None]] | None = getattr(renderer, "aclose", None)
    if aclose is not None:
        await aclose()


def configured_renderer(
    deployment: DeploymentVars,
    http: HttpClient,
    private_hosts: PrivateHosts,
    robots: RobotsGate | None = None,
    site_http: HttpClient | None = None,
) -> Renderer:
    """Browser Rendering when the account id and the API token are both set, at
    BROWSER_RENDERING_ENDPOINT (tests point it at a double); otherwise no renderer, and why.

    The local platform renders with Chromium instead (local_platform.chromium_renderer), when
    it installed it (`use_local_renderer`). `robots`: the audit's robots.txt, which every
    renderer applies to its page's requests (None: none)."""
    account, token = deployment.browser_rendering_account_id, deployment.browser_rendering_api_token
    missing = [
        name
        for name, value in (
            ("the BROWSER_RENDERING_ACCOUNT_ID var", account),
            ("the BROWSER_RENDERING_API_TOKEN secret", token),
        )
        if value is None
    ]
    if (missing or account is None or token is None) and _LOCAL:
        return _LOCAL[0](site_http or http, private_hosts, robots)
    if missing or account is None or token is None:
        return NotConfigured(f"no renderer: {' and '.join(missing)} not set (docs/rendering.md)")
    api = BrowserRenderingApi(account, token, deployment.browser_rendering_endpoint)
    policy = CallPolicy(requests_per_second=deployment.browser_rendering_requests_per_minute / 60)
    return BrowserRenderingRenderer(api, http, private_hosts, policy, robots=robots)
