"""Which Lighthouse provider the deployment uses, from its settings; None: the phase is skipped."""

from __future__ import annotations

from common.deployment import DeploymentVars
from lighthouse.provider import LighthouseProvider
from lighthouse.psi import PageSpeedInsights

__all__ = ["configured_provider"]


def configured_provider(deployment: DeploymentVars) -> LighthouseProvider | None:
    """PageSpeed Insights when the `PSI_API_KEY` secret is set, at the `PSI_ENDPOINT` var
    (wrangler.toml; tests point it at a local double); otherwise None.

    A paid provider is one more branch here, chosen by its own secret."""
    if deployment.psi_api_key is None:
        return None
    return PageSpeedInsights(endpoint=deployment.psi_endpoint, api_key=deployment.psi_api_key)
