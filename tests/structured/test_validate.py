"""The vocabulary validator, rule by rule: each row a node and the findings it must give."""

from __future__ import annotations

import pytest

from structured.findings import Finding, FindingKind, Severity
from structured.nodes import from_json_ld, from_microdata, from_rdfa
from structured.validate import Namespace, classify, validate

S = "https://schema.org/"
K = FindingKind
ERROR, WARNING = Severity.ERROR, Severity.WARNING


def _findings(node: dict[str, object]) -> list[tuple[FindingKind, Severity, str, tuple[str, ...]]]:
    graph = from_json_ld([{"@context": "https://schema.org", **node}])
    return [(f.kind, f.severity, f.path_text, f.suggestions) for f in validate(graph)]


VALID = [
    {"@type": "Product", "name": "Anvil", "offers": {"@type": "Offer", "price": 9.99}},
    # pending and hosted-extension terms are valid
    {"@type": "MedicalCondition", "name": "Flu", "possibleTreatment": {"@type": "Drug"}},
    {"@type": "Recipe", "name": "Soup", "cookTime": "PT30M", "recipeYield": "4"},
    # inherited domains: Restaurant < FoodEstablishment < LocalBusiness < Organization, Place
    {"@type": "Restaurant", "servesCuisine": "Thai", "geo": {"@type": "GeoCoordinates"}},
    # a subclass where the range names its parent
    {
        "@type": "Article",
        "author": {"@type": "Person"},
        "publisher": {"@type": "NewsMediaOrganization"},
    },
    # a Role in the middle carries the property it qualifies
    {
        "@type": "SportsTeam",
        "athlete": {"@type": "Role", "athlete": {"@type": "Person"}, "startDate": "2020"},
    },
    # additionalType adds a schema.org type's properties
    {"@type": "TouristAttraction", "additionalType": S + "Event", "startDate": "2017-03-15"},
    # several types: a property of any of them
    {"@type": ["Book", "Product"], "isbn": "123", "offers": {"@type": "Offer"}},
    # other vocabularies are left alone
    {
        "@type": ["Product", "http://purl.org/goodrelations/v1#Individual"],
        "http://example.com/x": 1,
    },
    # http and https are both schema.org
    {"@type": "http://schema.org/Product", "http://schema.org/name": "Anvil"},
    # an Action's constraints on its properties (`query-input`: Google's sitelinks search box)
    {
        "@type": "WebSite",
        "potentialAction": {
            "@type": "SearchAction",
            "target": {"@type": "EntryPoint", "urlTemplate": "https://e.com/?q={q}"},
            "query-input": "required name=q",
        },
    },
    # a class's IRI names the class, where the range admits it
    {"@type": "InteractionCounter", "interactionType": {"@id": S + "CommentAction"}},
    # a node referenced by @id is checked against the range by its type
    {"@type": "Offer", "availability": {"@id": S + "InStock"}, "itemOffered": {"@id": "#p"}},
]


@pytest.mark.parametrize("node", VALID)
def test_valid_markup_has_no_finding(node) -> None:
    assert _findings(node) == []


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        pytest.param(
            {"@type": "Prodcut"},
            [(K.UNKNOWN_TYPE, ERROR, "Prodcut", ("Product",))],
            id="type-near-miss",
        ),
        pytest.param(
            {"@type": "localbusiness"},
            [(K.UNKNOWN_TYPE, ERROR, "localbusiness", ("LocalBusiness",))],
            id="type-case-variant",
        ),
        pytest.param(
            {"@type": "Product", "colour": "red"},
            [(K.UNKNOWN_PROPERTY, ERROR, "Product > colour", ("color",))],
            id="property-near-miss",
        ),
        pytest.param(
            {"@type": "Product", "Name": "x"},
            [(K.UNKNOWN_PROPERTY, ERROR, "Product > Name", ("name",))],
            id="property-case-variant",
        ),
        pytest.param(
            {"@type": "https://www.schema.org/Product"},
            [(K.WRONG_NAMESPACE, ERROR, "Product", (S + "Product",))],
            id="www-namespace",
        ),
        pytest.param(
            {"@type": "Product", "startDate": "2020-01-01"},
            [(K.PROPERTY_NOT_FOR_TYPE, ERROR, "Product > startDate", ())],
            id="property-of-another-type",
        ),
        pytest.param(
            {"@type": "Offer", "price": {"@type": "Person"}},
            [(K.VALUE_TYPE_MISMATCH, ERROR, "Offer > price", ())],
            id="node-where-data-expected",
        ),
        pytest.param(
            {"@type": "Article", "author": {"@type": "Product"}},
            [(K.VALUE_TYPE_MISMATCH, ERROR, "Article > author", ())],
            id="node-of-the-wrong-type",
        ),
        pytest.param(
            {"@type": "Article", "author": "Jo Bloggs"},
            [(K.TEXT_FOR_THING, WARNING, "Article > author", ())],
            id="text-where-thing-expected-is-a-warning",
        ),
        pytest.param(
            {"@type": "Offer", "availability": "https://schema.org/Instock"},
            [(K.UNKNOWN_ENUMERATION_MEMBER, ERROR, "Offer > availability", ("InStock",))],
            id="enumeration-member-misspelt",
        ),
        pytest.param(
            {"@type": "Offer", "availability": {"@id": "https://schema.org/Monday"}},
            [(K.UNKNOWN_ENUMERATION_MEMBER, ERROR, "Offer > availability", ())],
            id="member-of-another-enumeration",
        ),
        pytest.param(
            {"@type": "SearchAction", "qurey-input": "required name=q"},
            [(K.UNKNOWN_PROPERTY, ERROR, "SearchAction > qurey-input", ())],
            id="constraint-on-no-property",
        ),
        pytest.param(
            {"@type": "Offer", "availability": {"@id": S + "Product"}},
            [(K.UNKNOWN_ENUMERATION_MEMBER, ERROR, "Offer > availability", ())],
            id="class-iri-outside-the-range",
        ),
        pytest.param(
            {"@type": "Person", "birthDate": "yesterday"},
            [(K.VALUE_TYPE_MISMATCH, ERROR, "Person > birthDate", ())],
            id="date-not-iso",
        ),
        pytest.param(
            {"@type": "Event", "isAccessibleForFree": "maybe"},
            [(K.VALUE_TYPE_MISMATCH, ERROR, "Event > isAccessibleForFree", ())],
            id="boolean-not-boolean",
        ),
        pytest.param(
            {"@type": "Book", "numberOfPages": "many"},
            [(K.VALUE_TYPE_MISMATCH, ERROR, "Book > numberOfPages", ())],
            id="integer-not-a-number",
        ),
        pytest.param(
            {"@type": "Event", "eventStatus": S + "EventScheduled", "startDate": {"@id": "#x"}},
            [(K.VALUE_TYPE_MISMATCH, ERROR, "Event > startDate", ())],
            id="link-where-a-date-is-expected",
        ),
        pytest.param(
            {"@type": "WebPage", "interactionCount": "UserLikes:5"},
            [(K.SUPERSEDED_TERM, WARNING, "WebPage > interactionCount", ("interactionStatistic",))],
            id="superseded-property",
        ),
        pytest.param(
            {"@type": "DataFeedItem", "dateDeleted": "2020-01-01"},
            [],
            id="core-term-unaffected",
        ),
        pytest.param(
            {"@type": "Product", "offers": {"@type": "Offer", "price": "x", "prise": "1"}},
            [(K.UNKNOWN_PROPERTY, ERROR, "Product > offers > prise", ("price",))],
            id="nested-path",
        ),
    ],
)
def test_each_rule(node, expected) -> None:
    assert _findings(node) == expected


@pytest.mark.parametrize(
    ("value", "range_ok"),
    [
        # property birthDate (Date or DateTime)
        ("2020-01-31", True),
        ("2020-01", True),
        ("2020", True),
        ("2020-01-31T10:00:00+02:00", True),
        ("31/01/2020", False),
        ("", False),
    ],
)
def test_date_formats(value, range_ok) -> None:
    kinds = [k for k, *_ in _findings({"@type": "Person", "birthDate": value})]
    assert kinds == ([] if range_ok else [K.VALUE_TYPE_MISMATCH])


@pytest.mark.parametrize(
    ("prop", "value", "ok"),
    [
        ("opens", "09:00", True),
        ("opens", "09:00:00Z", True),
        ("opens", "9am", False),
        ("price", 12, True),
        ("price", "12.50", True),  # Text is in price's range too
        ("eligibleQuantity", "3", False),  # QuantitativeValue only: text for a thing
    ],
)
def test_value_ranges(prop, value, ok) -> None:
    node_type = "OpeningHoursSpecification" if prop == "opens" else "Offer"
    kinds = [k for k, *_ in _findings({"@type": node_type, prop: value})]
    assert (kinds == []) is ok


@pytest.mark.parametrize(
    ("value", "ok"),
    [(True, True), ("true", True), ("False", True), (S + "True", True), ("yes", False)],
)
def test_boolean_values(value, ok) -> None:
    assert (_findings({"@type": "Event", "isAccessibleForFree": value}) == []) is ok


def test_no_context_is_one_error_per_node() -> None:
    graph = from_json_ld([{"@type": "Product", "name": "x", "brand": "y"}])
    found = validate(graph)
    assert [(f.kind, f.term) for f in found] == [(K.NO_VOCABULARY, "Product")]


def test_a_wrong_namespace_is_reported_once_per_node() -> None:
    www = "https://www.schema.org/"
    graph = from_microdata(
        [
            {
                "type": www + "Product",
                "properties": {
                    "name": "x",
                    "offers": {"type": www + "Offer", "properties": {"price": "1"}},
                },
            }
        ]
    )
    found = [(f.kind, f.path_text, f.suggestions) for f in validate(graph)]
    assert found == [
        (K.WRONG_NAMESPACE, "Product", (S + "Product",)),
        (K.WRONG_NAMESPACE, "Product > offers", (S + "Offer",)),
    ]


def test_microdata_and_rdfa_are_validated_alike() -> None:
    microdata = from_microdata(
        [{"type": S + "Product", "properties": {"nmae": "x", "offers": "https://example.com/o"}}]
    )
    rdfa = from_rdfa([{"@id": "_:p", "@type": [S + "Product"], S + "nmae": [{"@value": "x"}]}])
    assert [(f.kind, f.path_text) for f in validate(microdata)] == [
        (K.UNKNOWN_PROPERTY, "Product > nmae")
    ]
    assert [(f.kind, f.path_text) for f in validate(rdfa)] == [
        (K.UNKNOWN_PROPERTY, "Product > nmae")
    ]


@pytest.mark.parametrize(
    ("iri", "expected"),
    [
        (S + "Product", (Namespace.SCHEMA, "Product")),
        ("http://schema.org/Product", (Namespace.SCHEMA, "Product")),
        ("https://www.schema.org/Product", (Namespace.VARIANT, "Product")),
        ("schema.org/Product", (Namespace.VARIANT, "Product")),
        ("schema:Product", (Namespace.VARIANT, "Product")),
        ("Product", (Namespace.UNDECLARED, "Product")),
        (
            "http://purl.org/goodrelations/v1#Offering",
            (Namespace.OTHER, "http://purl.org/goodrelations/v1#Offering"),
        ),
        ("og:title", (Namespace.OTHER, "og:title")),
    ],
)
def test_classify(iri, expected) -> None:
    assert classify(iri) == expected


def test_findings_round_trip() -> None:
    found = validate(from_json_ld([{"@context": S, "@type": "Prodcut", "colour": "x"}]))
    assert found
    for finding in found:
        assert Finding.from_dict(finding.to_dict()) == finding
    assert found[0].to_dict()["path"] == ["Prodcut"]
