"""Which renderer the deployment uses, from its settings; `NotConfigured` says what is missing."""

from __future__ import annotations

from common.deployment import DeploymentVars
from common.ports import HttpClient
from render.browser_rendering import BrowserRenderingApi
from render.cloudflare import BrowserRenderingRenderer, CallPolicy
from render.renderer import NotConfigured, Renderer
from urls.private_hosts import PrivateHosts

__all__ = ["configured_renderer"]


def configured_renderer(
    deployment: DeploymentVars, http: HttpClient, private_hosts: PrivateHosts
) -> Renderer:
    """Browser Rendering when the account id and the API token are both set, at
    BROWSER_RENDERING_ENDPOINT (tests point it at a double); otherwise no renderer, and why.

    The local platform renders with Chromium instead (local_platform.chromium_renderer)."""
    account, token = deployment.browser_rendering_account_id, deployment.browser_rendering_api_token
    missing = [
        name
        for name, value in (
            ("the BROWSER_RENDERING_ACCOUNT_ID var", account),
            ("the BROWSER_RENDERING_API_TOKEN secret", token),
        )
        if value is None
    ]
    if missing or account is None or token is None:
        return NotConfigured(f"no renderer: {' and '.join(missing)} not set (docs/rendering.md)")
    api = BrowserRenderingApi(account, token, deployment.browser_rendering_endpoint)
    policy = CallPolicy(requests_per_second=deployment.browser_rendering_requests_per_minute / 60)
    return BrowserRenderingRenderer(api, http, private_hosts, policy)
