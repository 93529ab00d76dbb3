"""Which Lighthouse provider the deployment uses, from its settings; None: the phase is skipped."""

from __future__ import annotations

from lighthouse.provider import LighthouseProvider
from lighthouse.psi import DEFAULT_ENDPOINT, PageSpeedInsights

__all__ = ["configured_provider"]


def configured_provider(env: object) -> LighthouseProvider | None:
    """PageSpeed Insights when the `PSI_API_KEY` secret is set, at the `PSI_ENDPOINT` var
    (wrangler.toml; tests point it at a local double); otherwise None.

    A paid provider is one more branch here, chosen by its own secret."""
    key = str(getattr(env, "PSI_API_KEY", "") or "").strip()
    if not key:
        return None
    endpoint = str(getattr(env, "PSI_ENDPOINT", "") or "").strip() or DEFAULT_ENDPOINT
    return PageSpeedInsights(endpoint=endpoint, api_key=key)
