"""A page's JSON-LD checked into the small record the audit keeps: types, eligible rich-result
features, and the findings of both checks with their property paths, bounded."""

import json
from typing import Any

import pytest

from parse.tree import Element
from structured.findings import FindingKind, RichResultFeature
from structured.microdata import extract_microdata
from structured.page import MAX_FINDINGS, PageStructuredData, check_json_ld, check_page
from tests.a11y.html_tree import parse

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


S = "https://schema.org/"
# The same valid product in Microdata and in RDFa Lite, and the same with the same mistakes.
MICRODATA = f"""<div itemscope itemtype="{S}Product"><h1 itemprop="name">Fern</h1>
  <img itemprop="image" src="/fern.jpg"><p itemprop="description">A fern.</p>
  <div itemprop="offers" itemscope itemtype="{S}Offer">
    <span itemprop="price" content="12.50">12,50 €</span>
    <meta itemprop="priceCurrency" content="EUR">
    <link itemprop="availability" href="{S}{{availability}}">
    <time itemprop="priceValidUntil" datetime="2027-01-01">1 Jan</time>
  </div>
  <div itemprop="aggregateRating" itemscope itemtype="{S}AggregateRating">
    <span itemprop="ratingValue">4.5</span> (<span itemprop="reviewCount">3</span>)
    <span itemprop="{{extra}}">green</span></div></div>"""
RDFA = f"""<div vocab="{S}" typeof="Product"><h1 property="name">Fern</h1>
  <img property="image" src="/fern.jpg"><p property="description">A fern.</p>
  <div property="offers" typeof="Offer">
    <span property="price" content="12.50">12,50 €</span>
    <meta property="priceCurrency" content="EUR">
    <link property="availability" href="{S}{{availability}}">
    <time property="priceValidUntil" datetime="2027-01-01">1 Jan</time>
  </div>
  <div property="aggregateRating" typeof="AggregateRating">
    <span property="ratingValue">4.5</span> (<span property="reviewCount">3</span>)
    <span property="{{extra}}">green</span></div></div>"""


def _check_markup(markup: str, **holes: str) -> PageStructuredData:
    root = parse(f"<!doctype html><body>{markup.format(**holes)}")
    return check_page([], root, "https://shop.test/fern")


@pytest.mark.parametrize("markup", [MICRODATA, RDFA], ids=["microdata", "rdfa"])
def test_microdata_and_rdfa_are_checked_as_json_ld_is(markup: str) -> None:
    valid = _check_markup(markup, availability="InStock", extra="bestRating")
    assert valid.types == ("Product",)
    assert valid.eligible_features == (RichResultFeature.PRODUCT_SNIPPET,)
    assert [f for f in valid.findings if f.severity == "error"] == []

    broken = _check_markup(markup, availability="Instock", extra="colour")
    found = {(f.kind, f.path_text) for f in broken.findings}
    assert (FindingKind.UNKNOWN_PROPERTY, "Product > aggregateRating > colour") in found
    assert (FindingKind.UNKNOWN_ENUMERATION_MEMBER, "Product > offers > availability") in found


def test_a_page_with_all_three_syntaxes_lists_their_types_in_that_order() -> None:
    root = parse(
        '<!doctype html><body><div itemscope itemtype="https://schema.org/Person">'
        '<span itemprop="name">Jo</span></div>'
        '<div vocab="https://schema.org/" typeof="Place"><span property="name">Hall</span></div>'
    )
    checked = check_page([json.dumps(PRODUCT)], root, "https://shop.test/")
    assert checked.types == ("Product", "Person", "Place")


@pytest.mark.parametrize("syntax", ["microdata", "rdfa"])
def test_items_nested_thousands_deep_are_checked_within_the_nesting_bound(syntax: str) -> None:
    """Reading, nesting and validating items recurse: past structured.markup.MAX_NESTING levels
    Microdata items are cut and RDFa nodes stay references, so no page reaches the interpreter's
    recursion limit."""
    if syntax == "microdata":
        leaf: Element = Element("span", {"itemprop": "name"}, ("x",))
        attributes = {"itemscope": "", "itemprop": "about", "itemtype": S + "Thing"}
        top_attributes = {"itemscope": "", "itemtype": S + "Thing"}
    else:
        leaf = Element("span", {"property": "name"}, ("x",))
        attributes = {"property": "about", "typeof": "Thing"}
        top_attributes = {"vocab": S, "typeof": "Thing"}
    for _ in range(2_000):
        leaf = Element("div", attributes, (leaf,))
    root = Element("html", {}, (Element("body", {}, (Element("div", top_attributes, (leaf,)),)),))

    checked = check_page([], root, "https://shop.test/")

    assert "Thing" in checked.types
    if syntax == "microdata":
        assert extract_microdata(root, "https://shop.test/").truncated


@pytest.mark.parametrize(
    ("make", "unread"),
    [
        (lambda root: check_page([json.dumps(PRODUCT)], None, "https://shop.test/"), "no-tree"),
        (
            lambda root: check_page(
                [json.dumps(PRODUCT)], root, "https://shop.test/", complete=False
            ),
            "tree-cut",
        ),
    ],
    ids=["no tree", "tree cut"],
)
def test_markup_not_read_whole_is_said_first(make: Any, unread: str) -> None:
    """Without a tree only the JSON-LD is checked; with a cut tree the markup in it is; either
    way the first finding says the rest was not, and why (its term)."""
    root = parse(f"<!doctype html><body>{_check_markup_html('InStock', 'prise')}")
    checked: PageStructuredData = make(root)

    first = checked.findings[0]
    assert (first.kind, first.term, first.severity) == (
        FindingKind.MARKUP_UNCHECKED,
        unread,
        "warning",
    )
    assert checked.types == ("Product",)
    read = "Product > aggregateRating > prise" in {f.path_text for f in checked.findings}
    assert read is (unread == "tree-cut")  # the cut tree's markup is checked, as far as it goes
    assert FindingKind.MARKUP_UNCHECKED not in {f.kind for f in checked.findings[1:]}


def _check_markup_html(availability: str, extra: str) -> str:
    return MICRODATA.format(availability=availability, extra=extra)


def test_the_note_is_kept_when_the_findings_are_cut() -> None:
    many = dict(PRODUCT, **{f"colour{i}": "green" for i in range(MAX_FINDINGS + 5)})
    checked = check_page([json.dumps(many)], None, "https://shop.test/")

    assert len(checked.findings) == MAX_FINDINGS
    assert checked.findings_seen > MAX_FINDINGS + 5
    assert checked.findings[0].kind is FindingKind.MARKUP_UNCHECKED


def test_reading_past_the_work_bound_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("structured.markup.MAX_WORK", 10)
    root = parse(f"<!doctype html><body>{_check_markup_html('InStock', 'bestRating')}")

    checked = check_page([], root, "https://shop.test/")

    assert [(f.kind, f.term) for f in checked.findings[:1]] == [
        (FindingKind.MARKUP_UNCHECKED, "read-bound")
    ]


def test_a_whole_tree_read_within_its_bounds_has_no_note() -> None:
    root = parse(f"<!doctype html><body>{_check_markup_html('InStock', 'bestRating')}")
    kinds = {f.kind for f in check_page([], root, "https://shop.test/").findings}
    assert FindingKind.MARKUP_UNCHECKED not in kinds
