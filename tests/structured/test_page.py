"""A page's JSON-LD checked into the small record the audit keeps: types, eligible rich-result
features, and the findings of both checks with their property paths, bounded."""

import json
from typing import Any

from structured.findings import FindingKind, RichResultFeature
from structured.page import MAX_FINDINGS, PageStructuredData, check_json_ld

PRODUCT: dict[str, Any] = {
    "@context": "https://schema.org",
    "@type": "Product",
    "name": "Fern",
    "image": "https://shop.test/fern.jpg",
    "description": "A fern.",
    "offers": {
        "@type": "Offer",
        "price": "12.50",
        "priceCurrency": "EUR",
        "availability": "https://schema.org/InStock",
        "priceValidUntil": "2027-01-01",
    },
    "aggregateRating": {"@type": "AggregateRating", "ratingValue": 4.5, "reviewCount": 3},
}


def test_a_valid_product_is_eligible_for_the_product_snippet_with_no_error() -> None:
    checked = check_json_ld([json.dumps(PRODUCT)])

    assert checked.types == ("Product",)
    assert checked.eligible_features == (RichResultFeature.PRODUCT_SNIPPET,)
    assert [f for f in checked.findings if f.severity == "error"] == []


def test_findings_carry_the_property_path_from_the_top_level_type() -> None:
    broken = dict(PRODUCT, colour="green")
    broken["offers"] = dict(PRODUCT["offers"], availability="https://schema.org/Instock")

    checked = check_json_ld([json.dumps(broken)])

    found = {(f.kind, f.path_text) for f in checked.findings}
    assert (FindingKind.UNKNOWN_PROPERTY, "Product > colour") in found
    assert (FindingKind.UNKNOWN_ENUMERATION_MEMBER, "Product > offers > availability") in found


def test_a_required_property_missing_costs_the_feature() -> None:
    checked = check_json_ld(['{"@context": "https://schema.org", "@type": "Product"}'])

    assert checked.eligible_features == ()
    assert FindingKind.MISSING_REQUIRED in {f.kind for f in checked.findings}


def test_types_are_the_top_level_items_first_seen_first_and_distinct() -> None:
    blocks = [
        '{"@context": "https://schema.org", "@graph": [{"@type": "Article"}, {"@type": "Person"}]}',
        '[{"@context": "https://schema.org", "@type": "Article"}]',
    ]

    assert check_json_ld(blocks).types == ("Article", "Person")


def test_findings_are_capped_and_counted() -> None:
    many: dict[str, Any] = {"@context": "https://schema.org", "@type": "Thing"}
    many.update({f"bogus{i}": "x" for i in range(MAX_FINDINGS + 7)})

    checked = check_json_ld([json.dumps(many)])

    assert len(checked.findings) == MAX_FINDINGS
    assert checked.findings_seen == MAX_FINDINGS + 7


def test_the_record_crosses_the_wire_losslessly() -> None:
    checked = check_json_ld([json.dumps(dict(PRODUCT, colour="green"))])

    assert PageStructuredData.from_dict(json.loads(json.dumps(checked.to_dict()))) == checked
