"""Sharing tags (audit.rules_social): each table row is one page's og:*/twitter:* tags and the
findings they must produce. The baseline page (tests.audit.audit_builders.OPEN_GRAPH) shares
itself completely, so each row states only its defect."""

import pytest

from audit.page_rules import run_page_rules
from audit.rules_social import (
    empty_social_tags,
    missing_open_graph,
    og_url_not_canonical,
    relative_social_urls,
    share_images,
    twitter_card_issues,
)
from parse.facts import MetaTag, UrlRef
from tests.audit.audit_builders import OPEN_GRAPH, URL, observe


def tags(*pairs: tuple[str, str], og: bool = True) -> dict:
    """Facts changes: the baseline's Open Graph tags (unless `og` is false) with `pairs`
    replacing or adding tags by key."""
    given = dict(pairs)
    kept = [tag for tag in OPEN_GRAPH if og and tag.key not in given]
    social = (*kept, *(MetaTag(key, value) for key, value in pairs))
    return {"social": social, "social_seen": len(social)}


def without(*keys: str) -> dict:
    social = tuple(tag for tag in OPEN_GRAPH if tag.key not in keys)
    return {"social": social, "social_seen": len(social)}


def swap(key: str, other: str) -> dict:
    """The baseline's tags with `key` spelled `other`."""
    social = tuple(MetaTag(other if t.key == key else t.key, t.value) for t in OPEN_GRAPH)
    return {"social": social, "social_seen": len(social)}


def details(issues) -> list[tuple[str, dict]]:
    return [(issue.issue_type.value, issue.details) for issue in issues]


# --------------------------------------------------------------------------- Open Graph: missing

ALL_OG = ["og:title", "og:type", "og:image", "og:url", "og:description"]
REQUIRED = ["og:title", "og:type", "og:image", "og:url"]


@pytest.mark.parametrize(
    ("facts_changes", "missing", "required"),
    [
        (without(), None, None),
        (without(*ALL_OG), ALL_OG, REQUIRED),
        (without("og:image"), ["og:image"], ["og:image"]),
        (without("og:title", "og:url"), ["og:title", "og:url"], ["og:title", "og:url"]),
        (without("og:description"), ["og:description"], []),  # recommended only
        # ogp.me: og:image:url is identical to og:image
        (
            swap("og:image", "og:image:url"),
            None,
            None,
        ),
        # an empty tag is present (empty-social-tag says it), not missing
        (tags(("og:type", "")), None, None),
    ],
)
def test_missing_open_graph_lists_every_missing_tag_in_one_finding(
    facts_changes, missing, required
):
    found = details(missing_open_graph(observe(facts_changes)))
    expected = (
        []
        if missing is None
        else [("missing-open-graph", {"missingTags": missing, "missingRequired": required})]
    )
    assert found == expected


@pytest.mark.parametrize(
    ("facts_changes", "changes"),
    [
        ({"meta_robots": ("noindex, follow",)}, {}),
        ({}, {"x_robots_tag": "noindex"}),
    ],
)
def test_a_page_kept_out_of_search_is_not_asked_for_open_graph(facts_changes, changes):
    obs = observe({**without(*ALL_OG), **facts_changes}, **changes)
    assert missing_open_graph(obs) == []


@pytest.mark.parametrize(("status_code", "reported"), [(200, True), (404, False), (500, False)])
def test_open_graph_is_judged_only_on_readable_2xx_html_pages(status_code, reported):
    found = run_page_rules(observe(without(*ALL_OG), status_code=status_code))
    assert ("missing-open-graph" in [i.issue_type.value for i in found]) is reported


# --------------------------------------------------------------------------- empty values


@pytest.mark.parametrize(
    ("facts_changes", "empty"),
    [
        (tags(("og:title", "")), ["og:title"]),
        (tags(("og:title", "  \n")), ["og:title"]),
        (tags(("og:image", ""), ("twitter:title", "")), ["og:image", "twitter:title"]),
        (tags(("twitter:site", "@shop")), None),
    ],
)
def test_empty_sharing_tags_are_listed_in_one_finding(facts_changes, empty):
    found = details(empty_social_tags(observe(facts_changes)))
    assert found == ([] if empty is None else [("empty-social-tag", {"emptyTags": empty})])


def test_the_first_value_of_a_repeated_tag_is_the_one_judged():
    first_empty = {"social": (*OPEN_GRAPH, MetaTag("og:image", "")), "social_seen": 6}
    assert empty_social_tags(observe(first_empty)) == []  # og:image's first value is filled


# --------------------------------------------------------------------------- relative URLs


@pytest.mark.parametrize(
    ("facts_changes", "relative"),
    [
        (tags(("og:image", "/img/share.png")), [{"tag": "og:image", "value": "/img/share.png"}]),
        (tags(("og:url", "page")), [{"tag": "og:url", "value": "page"}]),
        (
            tags(("og:image", "//cdn.example.com/a.png")),
            [{"tag": "og:image", "value": "//cdn.example.com/a.png"}],
        ),
        (tags(("twitter:image", "share.jpg")), [{"tag": "twitter:image", "value": "share.jpg"}]),
        (tags(("og:video", "/v.mp4")), [{"tag": "og:video", "value": "/v.mp4"}]),
        (tags(("og:image", "https://example.com/a.png")), None),
        (tags(("og:image", "")), None),  # empty: empty-social-tag's
        (tags(("og:title", "/not/a/url/tag")), None),  # not a URL-valued tag
    ],
)
def test_relative_urls_in_url_valued_tags(facts_changes, relative):
    found = details(relative_social_urls(observe(facts_changes)))
    expected = (
        []
        if relative is None
        else [("relative-social-url", {"count": len(relative), "tags": relative})]
    )
    assert found == expected


# --------------------------------------------------------------------------- og:url and canonical


def canonical(url: str) -> dict:
    return {"canonicals": (UrlRef(url, url),)}


@pytest.mark.parametrize(
    ("og_url", "canonical_url", "reported"),
    [
        (URL, URL, False),
        ("HTTPS://EXAMPLE.COM:443/page", URL, False),  # the crawler's normalisation
        ("https://example.com/page#top", URL, False),  # fragments are not part of the URL
        ("https://example.com/other", URL, True),
        ("http://example.com/page", URL, True),
        ("https://example.com/other", None, False),  # no canonical declared: nothing to agree with
        ("/other", URL, False),  # relative: relative-social-url's
    ],
)
def test_og_url_must_agree_with_the_canonical(og_url, canonical_url, reported):
    facts_changes = tags(("og:url", og_url))
    if canonical_url is not None:
        facts_changes |= canonical(canonical_url)
    found = details(og_url_not_canonical(observe(facts_changes)))
    expected = [("og-url-not-canonical", {"ogUrl": og_url, "canonicalUrl": canonical_url})]
    assert found == (expected if reported else [])


def test_the_link_header_canonical_counts_too():
    obs = observe(tags(("og:url", "https://example.com/other")), header_canonical=URL)
    assert [i.issue_type.value for i in og_url_not_canonical(obs)] == ["og-url-not-canonical"]


# --------------------------------------------------------------------------- X cards

TITLE = ("twitter:title", "A card title")
DESCRIPTION = ("twitter:description", "A card description")
PLAYER = (
    ("twitter:player", "https://example.com/player"),
    ("twitter:player:width", "480"),
    ("twitter:player:height", "270"),
)


@pytest.mark.parametrize(
    ("pairs", "og", "expected"),
    [
        # no twitter:* tag at all: X renders a summary card from Open Graph; nothing to judge
        ((), True, []),
        ((), False, []),
        # the card types, with their Open Graph fallbacks
        ((("twitter:card", "summary"),), True, []),
        ((("twitter:card", "summary_large_image"),), True, []),
        ((("twitter:card", "Summary"),), True, []),  # compared without case
        ((("twitter:card", "summary"), TITLE, DESCRIPTION), False, []),
        (
            (("twitter:card", "summary"),),
            False,
            [
                (
                    "twitter-card-incomplete",
                    {
                        "card": "summary",
                        "missingTags": [
                            "twitter:title or og:title",
                            "twitter:description or og:description",
                        ],
                    },
                )
            ],
        ),
        (
            (("twitter:card", "summary_large_image"), TITLE),
            False,
            [
                (
                    "twitter-card-incomplete",
                    {
                        "card": "summary_large_image",
                        "missingTags": ["twitter:description or og:description"],
                    },
                )
            ],
        ),
        # an empty twitter:title does not hide the og:title fallback
        ((("twitter:card", "summary"), ("twitter:title", "")), True, []),
        # player: the player URL, its size and an image
        ((("twitter:card", "player"), *PLAYER), True, []),
        (
            (("twitter:card", "player"), PLAYER[0]),
            True,
            [
                (
                    "twitter-card-incomplete",
                    {
                        "card": "player",
                        "missingTags": ["twitter:player:width", "twitter:player:height"],
                    },
                )
            ],
        ),
        (
            (("twitter:card", "player"), TITLE, *PLAYER),
            False,
            [
                (
                    "twitter-card-incomplete",
                    {"card": "player", "missingTags": ["twitter:image or og:image"]},
                )
            ],
        ),
        # app: at least one store id
        ((("twitter:card", "app"), ("twitter:app:id:googleplay", "com.example")), False, []),
        (
            (("twitter:card", "app"),),
            True,
            [
                (
                    "twitter-card-incomplete",
                    {
                        "card": "app",
                        "missingTags": [
                            "twitter:app:id:iphone or twitter:app:id:ipad or twitter:app:id:googleplay"
                        ],
                    },
                )
            ],
        ),
        # an unknown type, a missing twitter:card beside other twitter tags, an empty one
        ((("twitter:card", "photo"),), True, [("invalid-twitter-card", {"card": "photo"})]),
        ((("twitter:card", "gallery "),), True, [("invalid-twitter-card", {"card": "gallery"})]),
        (
            (("twitter:site", "@shop"),),
            True,
            [("twitter-card-incomplete", {"card": None, "missingTags": ["twitter:card"]})],
        ),
        ((("twitter:card", ""),), True, []),  # empty-social-tag says it
    ],
)
def test_twitter_cards_have_a_known_type_and_what_it_needs(pairs, og, expected):
    obs = observe(tags(*pairs, og=og))
    assert details(twitter_card_issues(obs)) == expected


# --------------------------------------------------------------------------- share images


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        ((), [("og:image", "https://example.com/share.png")]),
        (
            (("twitter:image", " https://example.com/t.png "), ("og:image:secure_url", "/rel.png")),
            [
                ("og:image", "https://example.com/share.png"),
                ("twitter:image", "https://example.com/t.png"),
            ],
        ),
        ((("og:image", "/relative.png"),), []),  # relative-social-url's; scrapers do not resolve it
        ((("og:image", ""),), []),
    ],
)
def test_share_images_are_the_absolute_image_tags(pairs, expected):
    assert share_images(observe(tags(*pairs))) == expected


def test_a_page_without_facts_has_no_sharing_findings():
    obs = observe(facts=None)
    rules = (missing_open_graph, empty_social_tags, relative_social_urls, og_url_not_canonical)
    assert [issue for rule in (*rules, twitter_card_issues) for issue in rule(obs)] == []
    assert share_images(obs) == []
