"""What the crawl does with each URL a page references (parse.facts, "References"), sans-IO.

Two roles, by kind:

* Page links are crawled (discovery): `area` hrefs, `iframe` and `frame` srcs, the URL of a
  meta refresh, and `link` hrefs whose rel is `next` or `prev` (pages of a series), besides the
  `<a href>`s and the canonical and hreflang alternates. crawl.page_links applies these roles to
  every reference as the extractor streams it (uncapped).
* Resources are checked, not crawled: images (`img` src and srcset candidates, `video` posters),
  scripts, media (`video`/`audio`/`source` src), `embed` and `object`, and every other `link`
  href (stylesheets, icons, manifests, preloads, search and index links...). Each distinct
  internal resource costs one request per audit (`resource_check`), and a broken one is
  reported on every page that references it.

Left out: form actions (submitting is not ours to do), `link`s without a rel or whose only rels
are followed as pages or alternates (feeds included), and rels that name an origin or an
endpoint rather than a resource (`dns-prefetch`, `preconnect`, `pingback`), which may answer
HEAD and GET with errors by design.
"""

from __future__ import annotations

from parse.facts import Reference, ReferenceKind

__all__ = [
    "PAGE_LINK_KINDS",
    "RESOURCE_KINDS",
    "is_page_link",
    "is_resource",
]

PAGE_LINK_KINDS = frozenset(
    {ReferenceKind.AREA, ReferenceKind.IFRAME, ReferenceKind.FRAME, ReferenceKind.REFRESH}
)
RESOURCE_KINDS = frozenset(
    {
        ReferenceKind.IMG,
        ReferenceKind.SRCSET,
        ReferenceKind.POSTER,
        ReferenceKind.SCRIPT,
        ReferenceKind.MEDIA,
        ReferenceKind.EMBED,
        ReferenceKind.OBJECT,
    }
)
# rel tokens of links followed as pages (canonical and hreflang alternates are followed already).
_PAGE_RELS = frozenset({"next", "prev"})
# rel tokens of links that name no fetchable resource, or that the crawl follows as pages.
_NOT_RESOURCE_RELS = frozenset(
    {"dns-prefetch", "preconnect", "pingback", "canonical", "alternate", *_PAGE_RELS}
)


def is_page_link(ref: Reference) -> bool:
    if ref.kind is ReferenceKind.LINK:
        return bool(_PAGE_RELS & set((ref.rel or "").split()))
    return ref.kind in PAGE_LINK_KINDS


def is_resource(ref: Reference) -> bool:
    if ref.kind is ReferenceKind.LINK:
        rels = set((ref.rel or "").split())
        # A stylesheet or icon is a resource even beside other tokens ("alternate stylesheet").
        return bool(rels - _NOT_RESOURCE_RELS)
    return ref.kind in RESOURCE_KINDS
