"""The crawl's limits and defaults: one frozen object, each number beside its reason.

Every module reads `settings.CRAWL` at call time rather than copying a value at import, so a test
(or a future per-deployment setting) replaces the whole object with `dataclasses.replace` and every
reader sees the same numbers. Thresholds of SEO rules are not here: they are facts about pages,
kept with their sources in `audit.catalogue` (e.g. `HTML_MAX_BYTES`, a Semrush threshold, well
below the parse cap).
"""

from __future__ import annotations

from dataclasses import dataclass

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB


@dataclass(frozen=True, slots=True)
class CrawlSettings:
    # Sent on every request; robots.txt groups are matched on its product token `siteaudit`
    # (RFC 9309 §2.2.1).
    user_agent: str = (
        "Mozilla/5.0 (compatible; siteaudit/0.1; +https://github.com/siteaudit/siteaudit)"
    )
    # Per-fetch timeout: the default of an audit's `fetch_timeout_s` option and its bounds.
    fetch_timeout_s: float = 15.0
    min_fetch_timeout_s: float = 1.0
    max_fetch_timeout_s: float = 60.0
    # Discovery's own requests: the start URL probe, robots.txt and each sitemap document.
    start_probe_timeout_s: float = 10.0
    # Asked when the start URL got no answer at all, to tell a site that is down from a machine
    # without a network (crawl.network_probe): any HTTP answer from one shows ours works.
    network_probe_urls: tuple[str, ...] = ("https://example.com/", "https://one.one.one.one/")
    network_probe_timeout_s: float = 5.0
    robots_timeout_s: float = 10.0
    sitemap_timeout_s: float = 15.0
    # The extractor parses at most this much of a page (it reports `truncated` beyond); the
    # fetch reads a little more so a page just over the cap is still recognised as larger.
    # Crawled pages stream into the extractor chunk by chunk (crawl.page_stream), so this bounds
    # CPU per page, not memory: documentation indexes of 2-3 MB with thousands of links are
    # common, and 20 MiB parses every page a browser would reasonably render. `html-too-large`
    # keeps its own SEO threshold (audit.catalogue.HTML_MAX_BYTES).
    parse_max_bytes: int = 20 * MIB
    fetch_slack_bytes: int = 64 * KIB
    # Bodies read whole or not parsed read at most this much: callers that hold a whole page in
    # memory (the exposure check's start page), and crawled bodies the page stream does not parse
    # (error pages, PDFs). The old parse cap: every page `html-too-large` passes fits.
    whole_body_max_bytes: int = 2 * MIB + 64 * KIB
    # Fetch classification inspects only the start of a body: challenge pages announce
    # themselves in <head>, and a bounded scan keeps it cheap (docs/original-system.md §4.7).
    body_head_chars: int = 4_000
    # URLs one `crawl-chunk-N` step leases, and when it stops launching fetches: well inside a
    # step's timeout, so persisting and releasing leftovers always fit.
    chunk_target_pages: int = 200
    chunk_soft_deadline_s: float = 90.0
    # An audit's `max_pages`: default and bounds. The original's ceiling was 10,000; a crawl
    # keeps no per-page state in memory (bench/scale_bench.py), so the ceiling is what one
    # audit's scratchpad and workflow can hold: 100,000 pages are ~500 chunk steps of the
    # 10,000 a workflow instance may take (docs/scaling.md).
    default_max_pages: int = 50
    min_max_pages: int = 1
    max_max_pages: int = 100_000
    # What the scratchpad stores of link edges (counted as `durable.links.edge_bytes`:
    # ~350 bytes an edge of two 70-character URLs) before it stops writing them and finalize
    # skips the checks that need the whole link graph. 100,000 pages of 50 stored edges are
    # ~1.75 GB; 6 GiB leaves 4 GB of a Durable Object's 10 GB for the frontier and page rows.
    link_budget_bytes: int = 6 * GIB

    @property
    def fetch_max_bytes(self) -> int:
        return self.parse_max_bytes + self.fetch_slack_bytes

    @property
    def request_headers(self) -> dict[str, str]:
        return self.headers_for(None)

    def headers_for(self, user_agent: str | None) -> dict[str, str]:
        """The crawl's request headers, with an audit's own User-Agent (auditdb.scope) if it
        has one; robots.txt is still matched on our product token (crawl.robots)."""
        return {
            "user-agent": user_agent or self.user_agent,
            "accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
            "accept-language": "en;q=0.9,*;q=0.5",
        }


CRAWL = CrawlSettings()

# A failed or cancelled audit's scratchpad (its frontier and crawl state) is kept this long for a
# resume, then its Durable Object's alarm deletes it; a resume after that is refused.
CLEANUP_AFTER_MS = 7 * 24 * 60 * 60 * 1000

# The owner the CLI acts as on the local platform (local_platform.cli_key), and the owner of
# audits created before API keys existed (the column's default). Here, not in service.audits,
# because the CLI's parser shows it (`keys create --owner`) and must not import the service.
LOCAL_OWNER = "local"


@dataclass(frozen=True, slots=True)
class ExposureSettings:
    """The checks beyond the Observatory (`exposure`): DNS over HTTPS and script scanning."""

    # A DNS-over-HTTPS resolver with the JSON API (`accept: application/dns-json`) that sets the
    # AD flag when it validated DNSSEC: Cloudflare's (developers.cloudflare.com/1.1.1.1/encryption/
    # dns-over-https/make-api-requests/dns-json/). Google's https://dns.google/resolve answers the
    # same shape.
    doh_resolver_url: str = "https://cloudflare-dns.com/dns-query"
    doh_timeout_s: float = 5.0
    # A DNS JSON answer is a few KB; a TXT-heavy domain stays far below this.
    doh_max_bytes: int = 256 * KIB
    # Script bodies read to recognise libraries by content, per audit and per script: a minified
    # jQuery is ~90 KB, Angular ~170 KB; version banners sit in the first lines, and a script cut
    # at the cap is still scanned.
    script_budget_bytes: int = 4 * MIB
    script_max_bytes: int = 512 * KIB
    script_timeout_s: float = 10.0
    # Scripts read by content per audit, whatever the bytes: each may take the whole timeout, and
    # the audit's exposure step must end within its own (workflow.step_configs.EXPOSURE_STEP).
    script_max_count: int = 40


EXPOSURE = ExposureSettings()


@dataclass(frozen=True, slots=True)
class ExternalSettings:
    """The external link check (`check_external`, docs/external-links.md): politeness and budget."""

    # Distinct external URLs one audit requests. A documentation site of 10,000 pages links a
    # few thousand distinct external URLs; past the budget the rest are counted and reported as
    # unchecked (`external-links-unchecked`), never silently dropped.
    budget_urls: int = 2_000
    # At most this many requests in flight to one external host (not ours to load), and in all.
    per_host: int = 2
    concurrency: int = 16
    # A polite pause between two requests to the same host, on top of the per-host cap.
    host_spacing_s: float = 0.25
    # Each request's timeout: the audit's `fetch_timeout_s`, but never more than this, so one
    # unanswering host cannot hold a step (its slot waits the whole timeout at every hop).
    timeout_s: float = 10.0
    # Redirects followed by hand, each hop under the SSRF policy; browsers stop at 20 (Fetch
    # Standard, HTTP-redirect fetch step 8), a link needing more than 10 is broken in practice.
    max_hops: int = 10
    # URLs one `external-links-N` step leases, and when it stops launching: well inside the
    # step's timeout (workflow.step_configs.EXTERNAL_STEP), so recording and releasing fit.
    step_urls: int = 300
    step_soft_deadline_s: float = 90.0
    # The audit's time budget for the whole phase (`external_budget_s`): no check is launched
    # past it, and what is left is reported unchecked (`external-links-unchecked`, reason
    # time-budget), never broken. A minute is room for a few hundred to two thousand checks (16
    # in flight, at most 1 / host_spacing_s = 4 requests a second to one host) and bounds what a
    # terminal waits for other sites; a large site's audit or a monitor may ask for more.
    default_budget_s: float = 60.0
    min_budget_s: float = 1.0
    max_budget_s: float = 3_600.0


EXTERNAL = ExternalSettings()


@dataclass(frozen=True, slots=True)
class TimingSettings:
    """The measurement behind `slow-response` and `slow-site` (docs/timing.md): after the crawl,
    the pages it measured slow are measured again with few requests in flight."""

    # The site's typical time is the median of this many of its shallowest pages, measured
    # quietly: one odd page cannot move the median of nine (five would have to be slow), and
    # nine measurements cost at most nine times the re-measure timeout.
    sample_pages: int = 9
    # Pages measured slow in the crawl that are measured again, slowest first. Measured fast
    # again, a page costs one quick request; measured slow, up to its timeout.
    max_remeasured: int = 200
    # Requests in flight while measuring: as many as the external link checks send to one host
    # (`ExternalSettings.per_host`), so our own queueing stays out of the figures.
    concurrency: int = 2
    # A page slow again answers within its bar or it is slow: a request is given twice the bar
    # (never more than the audit's fetch timeout) and counts as that long when it times out.
    timeout_bar_factor: float = 2.0
    # No new measurement starts after this: the step (workflow.step_configs.TIMING_STEP) stays
    # short, and pages not measured again by then are counted as unconfirmed, never flagged.
    soft_deadline_s: float = 60.0


TIMING = TimingSettings()
