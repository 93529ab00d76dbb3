"""The interface every renderer implements, and the renderer a deployment without one has.

`render(url, budget)` loads one page in a real browser and returns a `RenderedPage`; it never
raises for the page's or the provider's trouble (those are the record's `failure`), so a caller
can render a batch and keep every answer. Two implementations stand behind it: Cloudflare
Browser Rendering's REST `/content` in production (render.cloudflare) and Debian's Chromium on
the local platform (local_platform.chromium_renderer). Every renderer refuses a page URL the
SSRF policy refuses before anything is sent (render.request_policy).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from render.records import RenderBudget, RenderedPage, RenderFailure

__all__ = ["NotConfigured", "Renderer"]


class Renderer(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def unavailable(self) -> str | None:
        """Why this renderer cannot render at all (None: it can); callers skip rendering and
        report the reason instead of calling `render` page after page."""
        ...

    async def render(self, url: str, budget: RenderBudget) -> RenderedPage: ...


@dataclass(frozen=True, slots=True)
class NotConfigured:
    """No renderer: every render fails with the reason, which the report repeats."""

    reason: str
    name: str = "none"

    @property
    def unavailable(self) -> str | None:
        return self.reason

    async def render(self, url: str, budget: RenderBudget) -> RenderedPage:
        return RenderedPage.failed(url, self.name, RenderFailure.NOT_CONFIGURED, self.reason)
