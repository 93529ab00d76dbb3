"""A crawled page's part in the broken-fragment check (sans-IO).

The page's fragment targets go to the scratchpad only when the set is complete: the whole body
was parsed and the extractor did not cap the set. A page whose set is incomplete is never judged,
since a fragment missing from a partial set proves nothing. Its internal links that carry a
fragment go with the keys of both of the HTML spec's lookups (urls.fragment); fragments that need
no target (empty, `top`) are not sent. Links are the page's `<a href>`s, bare `#fragment` ones
included, every one of them as it streams out of the extractor (crawl.page_links calls
`fragment_link`).
"""

from __future__ import annotations

from durable.records import FragmentLink, FragmentTargets
from parse.facts import ATTR_CAP, PageFacts, UrlRef
from urls.fragment import fragment_keys, fragment_of
from urls.normalise import normalise_url, same_site

__all__ = ["fragment_link", "fragment_targets"]


def fragment_targets(
    url: str, facts: PageFacts | None, *, body_complete: bool
) -> FragmentTargets | None:
    """`body_complete`: the fetch read the whole body (no download cap cut it)."""
    if facts is None or not body_complete or facts.truncated or facts.fragment_targets_capped:
        return None
    return FragmentTargets(url, facts.fragment_targets)


def fragment_link(source_url: str, ref: UrlRef) -> FragmentLink | None:
    """The link's fragment and its lookup keys, if it is internal and its fragment needs a
    target."""
    # A raw value at the attribute cap may have lost the end of its fragment.
    if "#" not in ref.raw or ref.url is None or len(ref.raw) >= ATTR_CAP:
        return None
    fragment = fragment_of(ref.raw)
    keys = None if fragment is None else fragment_keys(fragment)
    target = normalise_url(ref.url)
    if keys is None or fragment is None or target is None or not same_site(target, source_url):
        return None
    return FragmentLink(source_url, target, fragment, *keys)
