"""Sharing tags on one page: Open Graph (ogp.me) and X (Twitter) cards (issue 32 item 4).

The extractor keeps a page's `og:*` and `twitter:*` metas as `PageFacts.social` (key lowercased,
identical tags once, at most `LIST_CAP`). A key that repeats (several `og:image`s, an array in
the protocol's terms) is read by its first value, the one scrapers take as the primary one.

* Open Graph: ogp.me "Basic Metadata" names four properties every page needs (`og:title`,
  `og:type`, `og:image`, `og:url`) and "Optional Metadata" recommends `og:description`; one
  finding per page lists all that are missing, and only on indexable pages (a page kept out of
  search is rarely shared, and its canonical's tags are what a share of it shows). ogp.me
  "Types": a URL value is an http(s) URL, so a relative `og:url` or `og:image` is invalid.
* `og:url` names the object's canonical URL (ogp.me); when the page declares a canonical, both
  are normalised the way the crawl normalises URLs (urls.normalise) and must agree.
* X cards (developer.x.com/cards/markup): `twitter:card` is one of four types; `twitter:title`,
  `twitter:description` and `twitter:image` fall back to `og:title`, `og:description` and
  `og:image`; a player card needs `twitter:player` with its width and height and an image; an
  app card needs an app id. Pages without any `twitter:*` tag are not judged (X renders a
  summary card from the Open Graph tags then).
* Empty values: a present tag with no content is reported once per page, listing the tags.

Broken share images (an `og:image` or `twitter:image` that answers an error) are judged after
the crawl with the other resources (crawl.page_links, audit.cross_page.broken_share_images).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum

from audit.catalogue import IssueType
from audit.issues import DetectedIssue
from audit.page import PageObservation
from audit.rules_field import EVIDENCE_SAMPLE
from audit.text import is_absolute_url, js_trim
from common.wire import JsonValue
from urls.normalise import normalise_url

__all__ = [
    "OG_RECOMMENDED",
    "OG_REQUIRED",
    "SHARE_IMAGE_TAGS",
    "TwitterCard",
    "empty_social_tags",
    "missing_open_graph",
    "og_url_not_canonical",
    "relative_social_urls",
    "share_images",
    "social_tags",
    "twitter_card_issues",
]

OG_REQUIRED = ("og:title", "og:type", "og:image", "og:url")  # ogp.me, Basic Metadata
OG_RECOMMENDED = ("og:description",)  # ogp.me, Optional Metadata
# ogp.me "Structured Properties": `og:image:url` is identical to `og:image`.
_SAME_AS = {"og:image": ("og:image", "og:image:url")}
# Tags whose value is a URL (ogp.me Types: http or https; X: the image and player URLs).
URL_TAGS = (
    "og:url",
    "og:image",
    "og:image:url",
    "og:image:secure_url",
    "og:video",
    "og:video:url",
    "og:video:secure_url",
    "og:audio",
    "og:audio:url",
    "og:audio:secure_url",
    "twitter:image",
    "twitter:player",
)
# The images a share preview shows: checked after the crawl like other resources.
SHARE_IMAGE_TAGS = ("og:image", "og:image:url", "og:image:secure_url", "twitter:image")


class TwitterCard(StrEnum):
    """The card types of X's markup reference."""

    SUMMARY = "summary"
    SUMMARY_LARGE_IMAGE = "summary_large_image"
    APP = "app"
    PLAYER = "player"


# What each card needs, as alternatives: the first tag, or its Open Graph fallback (X's markup
# reference). A card without a description shows the title alone: we ask for both.
_TITLE = ("twitter:title", "og:title")
_DESCRIPTION = ("twitter:description", "og:description")
_IMAGE = ("twitter:image", "og:image")
_APP_IDS = ("twitter:app:id:iphone", "twitter:app:id:ipad", "twitter:app:id:googleplay")
_CARD_NEEDS: Mapping[TwitterCard, tuple[tuple[str, ...], ...]] = {
    TwitterCard.SUMMARY: (_TITLE, _DESCRIPTION),
    TwitterCard.SUMMARY_LARGE_IMAGE: (_TITLE, _DESCRIPTION),
    TwitterCard.PLAYER: (
        _TITLE,
        ("twitter:player",),
        ("twitter:player:width",),
        ("twitter:player:height",),
        _IMAGE,
    ),
    TwitterCard.APP: (_APP_IDS,),
}


def social_tags(obs: PageObservation) -> dict[str, str]:
    """Each sharing tag's first value, by key."""
    tags: dict[str, str] = {}
    for tag in obs.facts.social if obs.facts else ():
        tags.setdefault(tag.key, tag.value)
    return tags


def share_images(obs: PageObservation) -> list[tuple[str, str]]:
    """The page's share images to check, (tag, URL): each absolute value of a share image tag
    (every one kept, repeats included; a relative one is `relative-social-url`'s, since
    scrapers do not resolve it)."""
    found = obs.facts.social if obs.facts else ()
    return [
        (tag.key, js_trim(tag.value))
        for tag in found
        if tag.key in SHARE_IMAGE_TAGS and is_absolute_url(tag.value)
    ]


def _filled(tags: Mapping[str, str], keys: Iterable[str]) -> bool:
    return any(js_trim(tags.get(key, "")) for key in keys)


def _issue(
    issue_type: IssueType, obs: PageObservation, **details: JsonValue
) -> list[DetectedIssue]:
    return [DetectedIssue(issue_type, obs.url, dict(details))]


def missing_open_graph(obs: PageObservation) -> list[DetectedIssue]:
    """ogp.me: the four basic properties and og:description, absent; indexable pages only.
    A tag present with an empty value is `empty-social-tag`'s, not missing."""
    if not obs.is_indexable or obs.facts is None:
        return []
    tags = social_tags(obs)
    missing = [
        key
        for key in (*OG_REQUIRED, *OG_RECOMMENDED)
        if not any(same in tags for same in _SAME_AS.get(key, (key,)))
    ]
    if not missing:
        return []
    required = [key for key in missing if key in OG_REQUIRED]
    return _issue(IssueType.MISSING_OPEN_GRAPH, obs, missingTags=missing, missingRequired=required)


def empty_social_tags(obs: PageObservation) -> list[DetectedIssue]:
    """A sharing tag present with no content: scrapers read it as absent."""
    tags = social_tags(obs)
    empty = [key for key, value in tags.items() if not js_trim(value)]
    return _issue(IssueType.EMPTY_SOCIAL_TAG, obs, emptyTags=empty) if empty else []


def relative_social_urls(obs: PageObservation) -> list[DetectedIssue]:
    """ogp.me Types: a URL value is http(s), absolute; relative ones are not resolved."""
    tags = social_tags(obs)
    relative = [
        {"tag": key, "value": tags[key]}
        for key in URL_TAGS
        if key in tags and js_trim(tags[key]) and not is_absolute_url(tags[key])
    ]
    if not relative:
        return []
    sample: list[JsonValue] = list(relative[:EVIDENCE_SAMPLE])
    return _issue(IssueType.RELATIVE_SOCIAL_URL, obs, count=len(relative), tags=sample)


def og_url_not_canonical(obs: PageObservation) -> list[DetectedIssue]:
    """ogp.me: og:url is the object's canonical URL; judged when the page declares a canonical
    and og:url is absolute (a relative one is `relative-social-url`'s)."""
    canonical = obs.effective_canonical
    og_url = js_trim(social_tags(obs).get("og:url", ""))
    if canonical is None or not og_url or not is_absolute_url(og_url):
        return []
    if normalise_url(og_url) == canonical:
        return []
    return _issue(IssueType.OG_URL_NOT_CANONICAL, obs, ogUrl=og_url, canonicalUrl=canonical)


def twitter_card_issues(obs: PageObservation) -> list[DetectedIssue]:
    """X's markup reference: a known card type, and what that type needs (with the Open Graph
    fallbacks). Pages without any twitter:* tag are not judged."""
    tags = social_tags(obs)
    if not any(key.startswith("twitter:") for key in tags):
        return []
    if "twitter:card" not in tags:
        return _issue(
            IssueType.TWITTER_CARD_INCOMPLETE, obs, card=None, missingTags=["twitter:card"]
        )
    value = js_trim(tags["twitter:card"])
    if not value:
        return []  # empty-social-tag says it
    try:
        card = TwitterCard(value.lower())
    except ValueError:
        return _issue(IssueType.INVALID_TWITTER_CARD, obs, card=value)
    missing = [" or ".join(keys) for keys in _CARD_NEEDS[card] if not _filled(tags, keys)]
    if not missing:
        return []
    return _issue(IssueType.TWITTER_CARD_INCOMPLETE, obs, card=card.value, missingTags=missing)
