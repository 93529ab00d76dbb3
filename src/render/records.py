"""What rendering one page in a browser produced, as records that cross Workflow steps.

A render is one URL loaded in a real browser until its network went quiet or its time ran out:
the URL it ended at, the status of the document, the DOM serialised back to HTML, what went wrong
on the page while it loaded (console errors, uncaught exceptions) and every request the renderer
refused to let leave, with the reason. A render that could not happen at all (no renderer
configured, a refused URL, a provider's error) is a record too, `failure` set and `html` empty,
so a page that could not be rendered is a row the report can explain, never a failed audit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from a11y.axe import AxeResult
from common.settings import MIB
from common.wire import JsonRecord
from render.mode import RenderMode  # its own module, for the CLI's parser; named here too

__all__ = [
    "SKIPPED_RESOURCE_TYPES",
    "BlockReason",
    "BlockedRequest",
    "RenderBudget",
    "RenderCounts",
    "RenderFailure",
    "RenderMode",
    "RenderedPage",
]

# Resource types a render does not download unless asked: no SEO fact in the DOM depends on the
# bytes of an image, a video or a font, and they are most of a page's weight. The names are the
# Chrome DevTools Protocol's `Network.ResourceType` values in lower case, as Playwright's
# `request.resource_type` and Browser Rendering's `rejectResourceTypes` (Puppeteer's) spell them.
SKIPPED_RESOURCE_TYPES = frozenset({"image", "media", "font"})


class BlockReason(StrEnum):
    """Why the renderer did not let one of the page's requests leave."""

    PRIVATE_ADDRESS = "private-address"  # the SSRF policy (urls.private_hosts) refuses its host
    NOT_HTTP = "not-http"  # a scheme the renderer never fetches for a page (ws:, ftp:, file:)
    RESOURCE_TYPE = "resource-type"  # an image, media file or font the budget did not ask for
    BYTE_BUDGET = "byte-budget"  # the page's bytes were spent
    TIME_BUDGET = "time-budget"  # the page's time was spent
    REDIRECT_LIMIT = "redirect-limit"  # too many redirects, or a loop
    NO_RESPONSE = "no-response"  # allowed, but the server did not answer (DNS, connect, timeout)
    # robots.txt disallows it for the crawler's user agent, as Googlebot would not load it either
    # (render.request_policy.RobotsGate). audit.rendering_rules reports them
    # (resources-blocked-by-robots) and spells the value itself (ROBOTS_TXT_BLOCK).
    ROBOTS_TXT = "robots-txt"


class RenderFailure(StrEnum):
    """Why a render produced no usable DOM (`RenderedPage.failure`)."""

    NOT_CONFIGURED = "not-configured"  # the deployment has no renderer
    REFUSED_URL = "refused-url"  # the page's own URL is refused by the SSRF policy
    NO_RESPONSE = "no-response"  # the document itself got no answer
    TIMEOUT = "timeout"  # the time budget ran out before the DOM could be read
    TOO_LARGE = "too-large"  # the document alone is larger than the byte budget
    RATE_LIMITED = "rate-limited"  # the provider refused with 429 after the allowed waits
    PROVIDER_ERROR = "provider-error"  # the provider answered with an error
    BROWSER_ERROR = "browser-error"  # the local browser failed (crashed, could not start)


@dataclass(frozen=True, slots=True)
class RenderBudget(JsonRecord):
    """What one page's render may spend. Defaults: Browser Rendering's REST calls time out a
    browser after 60 s without a DevTools command (docs/rendering.md), so 20 s leaves room for
    its own start; 8 MiB is about four times the median page weight the HTTP Archive reports
    (near 2 MB on mobile, images included), which a page loaded without images, media and
    fonts rarely reaches."""

    time_s: float = 20.0
    max_bytes: int = 8 * MIB
    load_media: bool = False  # download images, media and fonts (SKIPPED_RESOURCE_TYPES)
    # Run axe-core on the rendered page (a11y.axe), for the renderers that can
    # (docs/accessibility.md, "Rendered pages"); its time is a11y.axe.AXE_TIME_S on top of
    # `time_s`. The render step asks it of a bounded sample (workflow.render_step.AXE_PAGES).
    accessibility: bool = False

    def __post_init__(self) -> None:
        if self.time_s <= 0 or self.max_bytes <= 0:
            raise ValueError(f"a render budget must be positive: {self}")


@dataclass(frozen=True, slots=True)
class BlockedRequest(JsonRecord):
    """One request the page made that the renderer aborted before it left."""

    url: str
    reason: BlockReason
    resource_type: str = "other"


@dataclass(frozen=True, slots=True)
class RenderedPage(JsonRecord):
    """One page as a browser built it.

    `status` is the HTTP status of the document the browser ended on, None when the renderer
    cannot know it (Browser Rendering's `/content` answers with the HTML only). `elapsed_ms` is
    the wall time of the render; `browser_ms` the browser time the provider charged for it, where
    it says (`X-Browser-Ms-Used`). `bytes_loaded` counts the response bytes the renderer let
    through for the page and its subresources, where it can count them.
    """

    url: str
    renderer: str
    final_url: str = ""
    status: int | None = None
    html: str = ""
    console_errors: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    blocked: list[BlockedRequest] = field(default_factory=list)
    elapsed_ms: float = 0.0
    browser_ms: float | None = None
    bytes_loaded: int = 0
    failure: RenderFailure | None = None
    error: str | None = None  # the failure, or a partial render's trouble, in words
    # axe-core's results on the page, when the budget asked for them and the renderer can run
    # it (None: not asked, or not supported); a run that failed says why (`AxeResult.error`).
    accessibility: AxeResult | None = None

    @classmethod
    def failed(
        cls, url: str, renderer: str, failure: RenderFailure, error: str, elapsed_ms: float = 0.0
    ) -> RenderedPage:
        """A render that produced no DOM, and why."""
        return cls(url, renderer, failure=failure, error=error, elapsed_ms=elapsed_ms)

    @property
    def ok(self) -> bool:
        return self.failure is None


@dataclass(frozen=True, slots=True)
class RenderCounts(JsonRecord):
    """The render queue at the audit's end (durable.render_queue's tally, auditdb.rendering):
    pages rendered, failed (a page still leased belongs to a render step that failed), skipped,
    and never reached; `shells_not_rendered` counts the app shells among the failed, skipped and
    unreached, which rendering would have shown, and `reason` is one skipped page's reason (the
    audit's option, or no renderer)."""

    rendered: int = 0
    failed: int = 0
    skipped: int = 0
    unreached: int = 0
    shells_not_rendered: int = 0
    reason: str | None = None
    script_links: int = 0  # URLs only a rendered DOM linked (durable.render_queue)
