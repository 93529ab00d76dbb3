"""A page's links as they stream out of the extractor: deduplicated, routed, in bounded batches.

Every `<a href>` the extractor finds (parse.builder's `on_links`, uncapped), its other references
(`on_references`, uncapped: page links such as area, iframe, frame, refresh, link next/prev, and
resources; crawl.references) and, at the end, its canonical and hreflang targets and its redirect
go through one `PageLinks`. Each normalised target is judged once per page, first occurrence
winning (its nofollow flag, anchor text and image alt): every target becomes a `LinkRow` edge,
same-site ones for the cross-page checks and the link graph the report keeps (audit.link_graph),
other sites' ones (marked `external`) for that graph alone; a same-site link with a fragment also
gives a `FragmentLink` for the broken-fragment check, once per target and fragment (a bare
`#fragment` link gives only that); other sites' targets become `ExternalRef`s when the audit
checks external links, targets the URL policy allows become
`DiscoveredUrl`s (nofollow links are stored but not followed), the others are counted by the
policy's reason; internal resources become `ResourceRef`s to check, and so do the page's share
images (`og:image`, `twitter:image`: crawl.page_pipeline.other_links, at the page's end). In list mode
(`follow_links` false, auditdb.scope) no link is followed: edges, fragments, resources and
external links are kept for the per-page and cross-page checks, but only a page's redirect (the
same page, moved) is enqueued; the rest are counted as `not_followed`. Every target first loses
the query parameters the audit strips (crawl.scope_rules), so the frontier dedupes on what is left. Rows wait here until
`take()`; the page stream takes them whenever `LINK_BATCH_ROWS` are ready, so memory holds one
batch of rows and, per distinct target, a few 64-bit hashes in compact tables (common.seen: 16
to 32 bytes each), whatever the page's link count. Sans-IO.
"""

from __future__ import annotations

from common.fast_record import maker
from common.seen import SeenHashes
from crawl.fragments import fragment_link
from crawl.references import is_page_link, is_resource
from crawl.url_policy import Decision, UrlPolicy
from durable.records import (
    DiscoveredUrl,
    ExternalRef,
    FragmentLink,
    LeasedUrl,
    LinkBatch,
    LinkRow,
    ResourceRef,
)
from parse.facts import Link, Reference, ReferenceKind
from urls.normalise import normalise_url

# Rows (edges plus URLs to enqueue) sent to the scratchpad at once while a page is parsed: about
# 300 KB of JSON, far under an RPC message's 32 MiB, and few calls even for 100,000 links.
LINK_BATCH_ROWS = 2_000
NOT_FOLLOWED = "not_followed"  # a link in list mode, counted with the policy's reasons
_HTML_SPACE = " \t\n\r\f"  # what parse.builder strips before telling a bare #fragment link
# One edge per distinct target of every page, one candidate per distinct followed target: built
# without the frozen __init__ (common.fast_record), every field passed.
_link_row = maker(LinkRow)
_discovered = maker(DiscoveredUrl)


class PageLinks:
    def __init__(
        self,
        policy: UrlPolicy,
        leased: LeasedUrl,
        *,
        check_external: bool = False,
        follow_links: bool = True,
    ) -> None:
        self.policy, self.leased, self.check_external = policy, leased, check_external
        self.follow_links = follow_links
        self.child_depth = None if leased.depth is None else leased.depth + 1
        self._edges = SeenHashes()  # targets judged as edges
        self._found = SeenHashes()  # targets judged as discovery candidates
        self._fragments = SeenHashes()  # "target#fragment" of internal links' fragments
        self._externals = SeenHashes()  # targets on other sites
        self.rows: list[LinkRow] = []
        self.fragments: list[FragmentLink] = []  # for the broken-fragment check (crawl.fragments)
        self.external_refs: list[ExternalRef] = []  # with check_external (crawl.external_links)
        self.discovered: list[DiscoveredUrl] = []
        self._resource_urls = SeenHashes()  # resources judged
        self.resources: list[ResourceRef] = []  # internal resources to check (crawl.references)
        self.skipped: dict[str, int] = {}
        self.internal = 0  # distinct <a href>s (by raw href) to the site and elsewhere
        self.external = 0

    def add_links(self, links: list[Link]) -> None:
        """`<a href>`s in source order (the extractor's `on_links`). A bare `#fragment` one
        names this page (or the `<base href>`): only its fragment is kept, to check."""
        for link in links:
            url = link.href.url
            if not url:
                continue
            if link.href.raw.lstrip(_HTML_SPACE).startswith("#"):
                self._fragment(link)
                continue
            # Once per distinct URL of the audit (the policy's memo): the same target string on
            # every page that links it, its hash kept, so the dedup tables and the policy's
            # decisions below hash it without reading it again.
            found = self.policy.link_target(url)
            if found is None:
                self.external += 1
                continue
            target, internal = found
            self.internal += internal
            self.external += not internal
            self._edge(target, link.nofollow, link.text or None, link.image_alt, not internal)
            if internal:
                if "#" in link.href.raw:
                    self._fragment(link)
            elif self.check_external:
                self.add_external(target)
            if not link.nofollow:
                self._followed(target, self.child_depth)

    def add_references(self, refs: list[Reference]) -> None:
        """The page's other references in source order (the extractor's `on_references`):
        page links (area, iframe, frame, refresh, link next/prev) are stored and followed like
        `<a href>`s, and an `<area>` to another site is checked with the external links;
        resources are kept to check, each normalised URL once per page, first reference
        winning, if the URL policy lets us request it."""
        for ref in refs:
            target = ref.href.url and normalise_url(ref.href.url)
            if not target:
                continue
            target = self.policy.stripped(target)
            if is_page_link(ref):
                self._page_link(target, ref.kind)
            elif is_resource(ref):
                self._resource(target, ref)

    def _page_link(self, target: str, kind: ReferenceKind) -> None:
        external = not self.policy.site.covers_url(target)
        self._edge(target, False, None, None, external)
        self._followed(target, self.child_depth)
        if self.check_external and kind is ReferenceKind.AREA and external:
            self.add_external(target)

    def _resource(self, target: str, ref: Reference) -> None:
        self._resource_url(target, ref.kind.value, ref.rel)

    def _resource_url(self, target: str, kind: str, rel: str | None) -> None:
        if not self._resource_urls.add(target):
            return
        if self.policy.decide(target, None) is Decision.ALLOWED:
            self.resources.append(ResourceRef(self.leased.url, target, kind, rel))

    def add_share_images(self, images: list[tuple[str, str]]) -> None:
        """The page's share images, (tag, absolute URL) pairs (audit.rules_social): checked like
        its other resources, once per URL, the tag as the kind; a URL the page also references
        another way keeps its first kind."""
        for tag, url in images:
            target = normalise_url(url)
            if target:
                self._resource_url(self.policy.stripped(target), tag, None)

    def _fragment(self, link: Link) -> None:
        found = fragment_link(self.leased.url, link.href)
        if found is not None:
            self.add_fragment_links([found])

    def add_fragment_links(self, found: list[FragmentLink]) -> None:
        """Link fragments, each (target, fragment) once per page."""
        for link in found:
            if self._fragments.add(f"{link.target_url}#{link.fragment}"):
                self.fragments.append(link)

    def add_external(self, target: str) -> None:
        """A normalised link target on another site, to check once (crawl.external_links)."""
        if self._externals.add(target):
            self.external_refs.append(ExternalRef(self.leased.url, target))

    def _edge(
        self, target: str, nofollow: bool, anchor: str | None, alt: str | None, external: bool
    ) -> None:
        if self._edges.add(target):
            # The alt names only a link without text (audit.link_graph.anchor_of).
            image_alt = None if anchor else (alt or None)
            row = _link_row(self.leased.url, target, nofollow, anchor, image_alt, external)
            self.rows.append(row)

    def add_candidate(self, target: str, depth: int | None) -> None:
        """A normalised URL to crawl, if the policy allows it (the page itself never)."""
        self._followed(self.policy.stripped(target), depth)

    def _followed(self, target: str, depth: int | None) -> None:
        """`add_candidate` for a target already stripped."""
        if not self.follow_links:
            self.skipped[NOT_FOLLOWED] = self.skipped.get(NOT_FOLLOWED, 0) + 1
            return
        self._judged(target, depth)

    def add_moved(self, target: str, depth: int | None) -> None:
        """The page's redirect target: followed in list mode too (the same page, moved)."""
        self._judged(self.policy.stripped(target), depth)

    def _judged(self, target: str, depth: int | None) -> None:
        """A stripped target judged once per page: enqueued, or counted by the policy's reason
        (which the policy remembers per distinct URL: crawl.url_policy)."""
        if target == self.leased.url or not self._found.add(target):
            return
        decision = self.policy.decide(target, depth)
        if decision is Decision.ALLOWED:
            self.discovered.append(_discovered(target, depth, self.leased.url))
        else:
            self.skipped[decision.value] = self.skipped.get(decision.value, 0) + 1

    def ready(self) -> bool:
        waiting = len(self.rows) + len(self.discovered) + len(self.fragments)
        waiting += len(self.external_refs) + len(self.resources)
        return waiting >= LINK_BATCH_ROWS

    def take(self) -> LinkBatch:
        """The rows gathered since the last take, which are then forgotten."""
        batch = LinkBatch(
            tuple(self.rows),
            tuple(self.discovered),
            tuple(self.fragments),
            tuple(self.external_refs),
            tuple(self.resources),
        )
        self.rows, self.discovered, self.fragments, self.external_refs = [], [], [], []
        self.resources = []
        return batch
