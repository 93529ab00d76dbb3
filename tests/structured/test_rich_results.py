"""Google's rich-result rules, feature by feature: the smallest item each feature accepts, what
each required property's absence costs (an error and the feature), and the recommended ones each
minimal item is warned about."""

from __future__ import annotations

import pytest

from structured.findings import FindingKind, RichResultFeature, Severity
from structured.nodes import from_json_ld, from_microdata
from structured.rich_results import RETIRED, RULES, RichResults, evaluate

F = RichResultFeature
S = "https://schema.org/"
G = "https://developers.google.com/search/docs/appearance/structured-data/"


def _evaluate(*items: dict[str, object]) -> RichResults:
    return evaluate(from_json_ld([{"@context": "https://schema.org", **item} for item in items]))


# The smallest item of each feature: its required properties and nothing else.
MINIMAL: dict[RichResultFeature, dict[str, object]] = {
    F.ARTICLE: {"@type": "NewsArticle"},
    F.BREADCRUMB: {
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": 1, "name": "Books", "item": "https://e.com/books"},
            {"@type": "ListItem", "position": 2, "name": "Fiction"},
        ],
    },
    F.PRODUCT_SNIPPET: {
        "@type": "Product",
        "name": "Anvil",
        "offers": {"@type": "Offer", "price": "9.99"},
    },
    F.FAQ: {
        "@type": "FAQPage",
        "mainEntity": {
            "@type": "Question",
            "name": "How?",
            "acceptedAnswer": {"@type": "Answer", "text": "So."},
        },
    },
    F.ORGANIZATION: {"@type": "Organization"},
    F.LOCAL_BUSINESS: {"@type": "Restaurant", "name": "Cafe", "address": "1 Main St"},
    F.EVENT: {
        "@type": "MusicEvent",
        "name": "Gig",
        "startDate": "2026-05-01T20:00",
        "location": {"@type": "Place", "address": "1 Main St"},
    },
    F.RECIPE: {"@type": "Recipe", "name": "Soup", "image": "https://e.com/soup.jpg"},
    F.VIDEO: {
        "@type": "VideoObject",
        "name": "Clip",
        "thumbnailUrl": "https://e.com/t.jpg",
        "uploadDate": "2026-01-01",
    },
    F.JOB_POSTING: {
        "@type": "JobPosting",
        "title": "Baker",
        "description": "<p>Bake.</p>",
        "datePosted": "2026-01-01",
        "hiringOrganization": {"@type": "Organization", "name": "Bakery"},
        "jobLocation": {
            "@type": "Place",
            "address": {"@type": "PostalAddress", "addressCountry": "US"},
        },
    },
    F.SOFTWARE_APP: {
        "@type": "MobileApplication",
        "name": "App",
        "offers": {"@type": "Offer", "price": 0},
        "aggregateRating": {"@type": "AggregateRating", "ratingValue": 4.5, "ratingCount": 10},
    },
    F.DATASET: {"@type": "Dataset", "name": "Rain", "description": "Rainfall by day."},
}

# What each minimal item is warned about: the recommended properties it lacks, as paths.
RECOMMENDED: dict[RichResultFeature, set[str]] = {
    F.ARTICLE: {
        f"NewsArticle > {p}"
        for p in ("author", "dateModified", "datePublished", "headline", "image")
    },
    F.BREADCRUMB: set(),
    F.PRODUCT_SNIPPET: {
        "Product > review",  # review or aggregateRating, beside the offers
        "Product > offers > priceCurrency",
        "Product > offers > availability",
        "Product > offers > priceValidUntil",
    },
    F.FAQ: set(),
    F.ORGANIZATION: {f"Organization > {p}" for p in ("name", "address", "url")},
    F.LOCAL_BUSINESS: {
        f"Restaurant > {p}"
        for p in ("geo", "openingHoursSpecification", "priceRange", "telephone", "url")
    },
    F.EVENT: {
        f"MusicEvent > {p}"
        for p in (
            "description",
            "endDate",
            "eventStatus",
            "image",
            "offers",
            "organizer",
            "performer",
            "location > name",
        )
    },
    F.RECIPE: {
        f"Recipe > {p}"
        for p in (
            "aggregateRating",
            "author",
            "cookTime",
            "datePublished",
            "description",
            "keywords",
            "nutrition > calories",
            "prepTime",
            "recipeCategory",
            "recipeCuisine",
            "recipeIngredient",
            "recipeInstructions",
            "recipeYield",
            "totalTime",
            "video",
        )
    },
    F.VIDEO: {
        f"VideoObject > {p}"
        for p in ("contentUrl", "description", "duration", "interactionStatistic")
    },
    F.JOB_POSTING: {
        f"JobPosting > {p}" for p in ("baseSalary", "directApply", "employmentType", "identifier")
    },
    F.SOFTWARE_APP: {
        "MobileApplication > applicationCategory",
        "MobileApplication > operatingSystem",
        "MobileApplication > aggregateRating > bestRating",
        "MobileApplication > aggregateRating > worstRating",
    },
    F.DATASET: {
        f"Dataset > {p}"
        for p in (
            "alternateName",
            "citation",
            "creator",
            "distribution",
            "funder",
            "identifier",
            "includedInDataCatalog",
            "isAccessibleForFree",
            "keywords",
            "license",
            "measurementTechnique",
            "sameAs",
            "url",
            "variableMeasured",
            "version",
        )
    },
}

# Each required property taken away in turn: (feature, what is removed, the error's path).
# A dotted name removes a nested property.
REQUIRED: list[tuple[RichResultFeature, str, str]] = [
    (F.BREADCRUMB, "itemListElement", "BreadcrumbList > itemListElement"),
    (F.PRODUCT_SNIPPET, "name", "Product > name"),
    (F.PRODUCT_SNIPPET, "offers", "Product > review"),  # one of review, aggregateRating, offers
    (F.PRODUCT_SNIPPET, "offers.price", "Product > offers > price"),
    (F.LOCAL_BUSINESS, "name", "Restaurant > name"),
    (F.LOCAL_BUSINESS, "address", "Restaurant > address"),
    (F.EVENT, "name", "MusicEvent > name"),
    (F.EVENT, "startDate", "MusicEvent > startDate"),
    (F.EVENT, "location", "MusicEvent > location > address"),  # a Place with its address
    (F.EVENT, "location.address", "MusicEvent > location > address"),
    (F.RECIPE, "name", "Recipe > name"),
    (F.RECIPE, "image", "Recipe > image"),
    (F.VIDEO, "name", "VideoObject > name"),
    (F.VIDEO, "thumbnailUrl", "VideoObject > thumbnailUrl"),
    (F.VIDEO, "uploadDate", "VideoObject > uploadDate"),
    (F.JOB_POSTING, "title", "JobPosting > title"),
    (F.JOB_POSTING, "description", "JobPosting > description"),
    (F.JOB_POSTING, "datePosted", "JobPosting > datePosted"),
    (F.JOB_POSTING, "hiringOrganization", "JobPosting > hiringOrganization"),
    (
        F.JOB_POSTING,
        "jobLocation.address.addressCountry",
        "JobPosting > jobLocation > address > addressCountry",
    ),
    (F.SOFTWARE_APP, "name", "MobileApplication > name"),
    (F.SOFTWARE_APP, "offers", "MobileApplication > offers > price"),
    (F.SOFTWARE_APP, "aggregateRating", "MobileApplication > aggregateRating"),
    (
        F.SOFTWARE_APP,
        "aggregateRating.ratingCount",
        "MobileApplication > aggregateRating > ratingCount",
    ),
    (F.DATASET, "name", "Dataset > name"),
    (F.DATASET, "description", "Dataset > description"),
]


def _without(item: dict[str, object], dotted: str) -> dict[str, object]:
    head, _, rest = dotted.partition(".")
    if not rest:
        return {k: v for k, v in item.items() if k != head}
    nested = item[head]
    assert isinstance(nested, dict)
    return {**item, head: _without(nested, rest)}


CHECKED = [feature for feature in RichResultFeature if feature not in RETIRED]


def test_every_feature_has_a_minimal_item() -> None:
    assert set(MINIMAL) == set(RichResultFeature)
    assert {rule.feature for rule in RULES} == set(CHECKED)


def test_a_retired_feature_is_neither_checked_nor_eligible() -> None:
    """Google stopped showing FAQ rich results (May 2026): an FAQPage, complete or not, earns
    no eligibility and no rich-result finding."""
    assert {F.FAQ} == RETIRED
    bare: dict[str, object] = {"@type": "FAQPage"}
    for item in (MINIMAL[F.FAQ], bare):
        found = _evaluate(item)
        assert found.results == () and found.findings == ()


@pytest.mark.parametrize("feature", CHECKED)
def test_the_minimal_item_is_eligible_and_warned_of_what_it_lacks(feature) -> None:
    found = _evaluate(MINIMAL[feature])
    assert found.eligible_features == (feature,)
    assert [f for f in found.findings if f.severity is Severity.ERROR] == []
    warned = {f.path_text for f in found.findings}
    assert warned == RECOMMENDED[feature]
    assert {f.kind for f in found.findings} <= {FindingKind.MISSING_RECOMMENDED}
    assert {f.feature for f in found.findings} <= {feature}


@pytest.mark.parametrize(("feature", "removed", "path"), REQUIRED)
def test_a_missing_required_property_is_an_error_and_costs_the_feature(
    feature, removed, path
) -> None:
    found = _evaluate(_without(MINIMAL[feature], removed))
    errors = [
        (f.kind, f.path_text, f.feature) for f in found.findings if f.severity is Severity.ERROR
    ]
    assert errors == [(FindingKind.MISSING_REQUIRED, path, feature)]
    assert feature not in found.eligible_features


@pytest.mark.parametrize(
    ("alternative", "value"),
    [
        (
            "review",
            {
                "@type": "Review",
                "author": "Jo",
                "reviewRating": {"@type": "Rating", "ratingValue": 5},
            },
        ),
        ("aggregateRating", {"@type": "AggregateRating", "ratingValue": 4, "reviewCount": 3}),
    ],
)
def test_a_product_snippet_takes_a_review_or_a_rating_instead_of_offers(alternative, value) -> None:
    product = {"@type": "Product", "name": "Anvil", alternative: value}
    found = _evaluate(product)
    assert found.eligible_features == (F.PRODUCT_SNIPPET,)


def test_an_offer_priced_through_its_price_specification() -> None:
    offer = {"@type": "Offer", "priceSpecification": {"@type": "PriceSpecification", "price": 5}}
    found = _evaluate({"@type": "Product", "name": "Anvil", "offers": offer})
    assert found.eligible_features == (F.PRODUCT_SNIPPET,)


def test_an_aggregate_offer_has_its_own_table() -> None:
    offers = {"@type": "AggregateOffer", "highPrice": 9}
    found = _evaluate({"@type": "Product", "name": "Anvil", "offers": offers})
    errors = {f.path_text for f in found.findings if f.severity is Severity.ERROR}
    assert errors == {"Product > offers > lowPrice", "Product > offers > priceCurrency"}


def test_a_remote_job_names_where_applicants_may_live_and_that_it_is_remote() -> None:
    job = _without(MINIMAL[F.JOB_POSTING], "jobLocation")
    found = _evaluate(job).findings
    errors = [(f.path_text, f.term) for f in found if f.severity is Severity.ERROR]
    assert errors == [
        ("JobPosting > jobLocation", "jobLocation or applicantLocationRequirements"),
        ("JobPosting > jobLocation", "jobLocation or jobLocationType"),
    ]
    where = {"applicantLocationRequirements": {"@type": "Country", "name": "USA"}}
    assert _evaluate({**job, **where}).eligible_features == ()
    remote = {**job, **where, "jobLocationType": "TELECOMMUTE"}
    assert _evaluate(remote).eligible_features == (F.JOB_POSTING,)


def test_a_virtual_event_is_no_event_result() -> None:
    online = {"@type": "VirtualLocation", "url": "https://e.com/stream"}
    found = _evaluate({**MINIMAL[F.EVENT], "location": online})
    assert [f.path_text for f in found.findings if f.severity is Severity.ERROR] == [
        "MusicEvent > location > address"
    ]
    assert found.eligible_features == ()


def test_a_video_game_alone_is_no_software_app() -> None:
    game = {**MINIMAL[F.SOFTWARE_APP], "@type": "VideoGame"}
    assert [r.feature for r in _evaluate(game).results] == []
    both = {**MINIMAL[F.SOFTWARE_APP], "@type": ["VideoGame", "MobileApplication"]}
    assert _evaluate(both).eligible_features == (F.SOFTWARE_APP,)


@pytest.mark.parametrize(
    ("feature", "added", "quiet"),
    [
        # Google's alternatives: each silences the recommendation it stands in for.
        (
            F.ARTICLE,
            {"author": {"@type": "Person", "name": "Jo", "sameAs": "https://e.com/jo"}},
            "NewsArticle > author",
        ),
        (
            F.PRODUCT_SNIPPET,
            {
                "aggregateRating": {
                    "@type": "AggregateRating",
                    "ratingValue": 4,
                    "reviewCount": 3,
                    "bestRating": 5,
                    "worstRating": 1,
                }
            },
            "Product > review",
        ),
        (F.ORGANIZATION, {"alternateName": "ACME"}, "Organization > name"),
        (F.ORGANIZATION, {"telephone": "+1 555 0100"}, "Organization > address"),
        (F.ORGANIZATION, {"logo": "https://e.com/logo.png"}, "Organization > url"),
        (F.VIDEO, {"embedUrl": "https://e.com/embed/1"}, "VideoObject > contentUrl"),
    ],
)
def test_an_alternative_satisfies_a_recommendation(feature, added, quiet) -> None:
    warned = {f.path_text for f in _evaluate({**MINIMAL[feature], **added}).findings}
    assert not any(path.startswith(quiet) for path in warned), warned


def test_an_offer_may_give_its_currency_in_its_price_specification() -> None:
    spec = {"@type": "PriceSpecification", "price": 5, "priceCurrency": "EUR"}
    offer = {"@type": "Offer", "priceSpecification": spec}
    warned = {
        f.path_text for f in _evaluate({**MINIMAL[F.PRODUCT_SNIPPET], "offers": offer}).findings
    }
    assert "Product > offers > priceCurrency" not in warned


@pytest.mark.parametrize(
    ("feature", "added", "path"),
    [
        # Nested items with tables of their own: present, they must carry their required part.
        (
            F.RECIPE,
            {"recipeInstructions": {"@type": "HowToStep", "name": "Stir"}},
            "Recipe > recipeInstructions > text",
        ),
        (
            F.RECIPE,
            {
                "recipeInstructions": {
                    "@type": "HowToSection",
                    "itemListElement": {"@type": "HowToStep", "text": "Stir."},
                }
            },
            "Recipe > recipeInstructions > name",
        ),
        (
            F.RECIPE,
            {
                "recipeInstructions": {
                    "@type": "HowToSection",
                    "name": "Soup",
                    "itemListElement": {"@type": "HowToStep"},
                }
            },
            "Recipe > recipeInstructions > itemListElement > text",
        ),
        (
            F.RECIPE,
            {
                "video": {
                    "@type": "VideoObject",
                    "name": "Soup",
                    "thumbnailUrl": "https://e.com/t.jpg",
                }
            },
            "Recipe > video > uploadDate",
        ),
        (
            F.RECIPE,
            {"aggregateRating": {"@type": "AggregateRating", "ratingValue": 4}},
            "Recipe > aggregateRating > ratingCount",
        ),
        (
            F.LOCAL_BUSINESS,
            {"review": {"@type": "Review", "author": "Jo"}},
            "Restaurant > review > reviewRating",
        ),
        (
            F.DATASET,
            {"distribution": {"@type": "DataDownload", "encodingFormat": "CSV"}},
            "Dataset > distribution > contentUrl",
        ),
    ],
)
def test_a_nested_item_lacking_its_required_part_costs_the_feature(feature, added, path) -> None:
    found = _evaluate({**MINIMAL[feature], **added})
    errors = [f.path_text for f in found.findings if f.severity is Severity.ERROR]
    assert errors[0] == path
    assert found.eligible_features == ()


def test_a_local_business_is_not_asked_for_reviews_of_itself() -> None:
    # aggregateRating and review are recommended "only for sites that capture reviews about other
    # local businesses", which the markup cannot tell.
    warned = {f.path_text for f in _evaluate(MINIMAL[F.LOCAL_BUSINESS]).findings}
    assert not {"Restaurant > aggregateRating", "Restaurant > review"} & warned


def test_the_last_breadcrumb_needs_no_item_but_the_others_do() -> None:
    crumbs: dict[str, object] = {
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": 1, "name": "Books"},
            {"@type": "ListItem", "position": 2, "name": "Fiction"},
        ],
    }
    errors = [f.path_text for f in _evaluate(crumbs).findings if f.severity is Severity.ERROR]
    assert errors == ["BreadcrumbList > itemListElement > item"]


def test_a_local_business_is_not_checked_as_an_organization_too() -> None:
    found = _evaluate(MINIMAL[F.LOCAL_BUSINESS])
    assert [r.feature for r in found.results] == [F.LOCAL_BUSINESS]


def test_an_empty_value_is_missing() -> None:
    found = _evaluate({**MINIMAL[F.RECIPE], "name": " "})
    assert [f.path_text for f in found.findings if f.severity is Severity.ERROR] == [
        "Recipe > name"
    ]


def test_items_a_web_page_names_as_its_main_entity_or_breadcrumb() -> None:
    page: dict[str, object] = {
        "@type": "WebPage",
        "breadcrumb": MINIMAL[F.BREADCRUMB],
        "mainEntity": MINIMAL[F.ARTICLE],
    }
    found = _evaluate(page)
    assert found.eligible_features == (F.ARTICLE, F.BREADCRUMB)
    assert [r.path for r in found.results] == [("WebPage", "mainEntity"), ("WebPage", "breadcrumb")]


def test_nested_items_elsewhere_are_not_features_of_their_own() -> None:
    article = {**MINIMAL[F.ARTICLE], "publisher": {"@type": "Organization", "name": "ACME"}}
    assert [r.feature for r in _evaluate(article).results] == [F.ARTICLE]


def test_references_are_followed() -> None:
    graph = from_json_ld(
        [
            {
                "@context": "https://schema.org",
                "@graph": [
                    {"@type": "Offer", "@id": "#offer", "price": 3},
                    {"@type": "Product", "name": "Anvil", "offers": {"@id": "#offer"}},
                ],
            }
        ]
    )
    assert evaluate(graph).eligible_features == (F.PRODUCT_SNIPPET,)


def test_microdata_items_are_checked_alike() -> None:
    graph = from_microdata(
        [{"type": S + "Recipe", "properties": {"name": "Soup", "image": "https://e.com/s.jpg"}}]
    )
    assert evaluate(graph).eligible_features == (F.RECIPE,)


def test_every_rule_cites_its_google_page() -> None:
    for rule in RULES:
        assert rule.source.startswith(G), rule.feature


def test_results_round_trip() -> None:
    found = _evaluate(_without(MINIMAL[F.VIDEO], "uploadDate"))
    assert RichResults.from_dict(found.to_dict()) == found
    findings = found.to_dict()["findings"]
    assert isinstance(findings, list) and isinstance(findings[0], dict)
    assert findings[0]["feature"] == "video"
