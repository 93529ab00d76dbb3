"""Google's rich-result rules: which features a page's structured data is eligible for (sans-IO).

Each feature's rule is the property tables of its page in Google Search Central's structured data
documentation (the `source` of each rule below): a required property missing is an error and makes
the item ineligible for the feature; a recommended one missing is a warning. Nested items (a
Product's offers, a recipe's steps) have their own tables. The rules run on a
page's top-level items and on the items a WebPage names as its `mainEntity` or `breadcrumb`, as
the Rich Results Test reads them; they check presence only (the vocabulary validator,
structured.validate, checks that values fit).

A requirement is a property path (`offers.price`: a price on an offer) or alternatives, any of
which satisfies it (`ratingCount` or `reviewCount`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from common.wire import JsonRecord
from structured.findings import Finding, FindingKind, RichResultFeature, Severity
from structured.nodes import Graph, Literal, Node, Value
from structured.validate import Namespace, classify, root_label
from structured.vocabulary import SCHEMA, Vocabulary, vocabulary

__all__ = [
    "RETIRED",
    "RULES",
    "FeatureRule",
    "Requirement",
    "RichResult",
    "RichResults",
    "Shape",
    "evaluate",
]

_G: Final = "https://developers.google.com/search/docs/appearance/structured-data/"
# A WebPage's properties that name the item a page is about (the Rich Results Test reads items
# there as it reads top-level ones).
_ENTRY_PROPERTIES: Final = ("mainEntity", "breadcrumb")


@dataclass(frozen=True, slots=True)
class Requirement:
    paths: tuple[str, ...]

    @property
    def label(self) -> str:
        return " or ".join(p.replace(".", " > ") for p in self.paths)


def _req(*paths: str) -> Requirement:
    return Requirement(paths)


def _reqs(*names: str) -> tuple[Requirement, ...]:
    return tuple(Requirement((name,)) for name in names)


@dataclass(frozen=True, slots=True)
class Shape:
    """What an item of a feature must and should carry, and the shapes of its nested items."""

    required: tuple[Requirement, ...] = ()
    recommended: tuple[Requirement, ...] = ()
    # Nested items by property; a shape with `types` applies only to items of those types.
    nested: tuple[tuple[str, Shape], ...] = ()
    types: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    # Required on every item of a list but the last (a breadcrumb's last `item`).
    required_but_last: tuple[Requirement, ...] = ()


@dataclass(frozen=True, slots=True)
class FeatureRule:
    feature: RichResultFeature
    types: tuple[str, ...]
    source: str
    shape: Shape
    # Subtypes another feature's rule covers (a LocalBusiness is an Organization too).
    excludes: tuple[str, ...] = ()


# Each table below is the Required and Recommended properties of the feature's page (its rule's
# `source`), checked against the pages on 2026-12-07 (docs/structured-data.md, "Checked against
# Google's pages", which also lists the rows left out and why). A row `parent.child` is a nested
# shape, checked on each parent item present, where `parent` has a row of its own (its absence is
# that row's finding); otherwise it is a path from the item.
_OFFER: Final = Shape(
    types=("Offer",),
    excludes=("AggregateOffer",),
    required=(_req("price", "priceSpecification.price"),),
    recommended=(
        _req("availability"),
        _req("priceCurrency", "priceSpecification.priceCurrency"),
        _req("priceValidUntil"),
    ),
)
_AGGREGATE_OFFER: Final = Shape(
    types=("AggregateOffer",),
    required=_reqs("lowPrice", "priceCurrency"),
    recommended=_reqs("highPrice", "offerCount"),
)
# review-snippet's AggregateRating and Review tables, for a rating or review nested in the item
# it rates (so without `itemReviewed`, whose name is the parent's).
_AGGREGATE_RATING: Final = Shape(
    required=(_req("ratingValue"), _req("ratingCount", "reviewCount")),
    recommended=_reqs("bestRating", "worstRating"),
)
_REVIEW: Final = Shape(
    required=_reqs("author", "reviewRating"),
    recommended=_reqs("datePublished"),
    nested=(
        (
            "reviewRating",
            Shape(required=_reqs("ratingValue"), recommended=_reqs("bestRating", "worstRating")),
        ),
    ),
)
_RATINGS: Final = (("aggregateRating", _AGGREGATE_RATING), ("review", _REVIEW))
_RATED: Final = (("offers", _OFFER), ("offers", _AGGREGATE_OFFER), *_RATINGS)
# video's VideoObject table, also for a recipe's video.
_VIDEO: Final = Shape(
    required=_reqs("name", "thumbnailUrl", "uploadDate"),
    # "If contentUrl isn't available, provide embedUrl as an alternative."
    recommended=(
        _req("contentUrl", "embedUrl"),
        *_reqs("description", "duration", "interactionStatistic"),
    ),
)
# recipe's HowToStep ("text: optional if itemListElement is used") and HowToSection tables.
_HOW_TO_STEP: Final = Shape(types=("HowToStep",), required=(_req("text", "itemListElement"),))
_HOW_TO_SECTION: Final = Shape(
    types=("HowToSection",),
    required=_reqs("itemListElement", "name"),
    nested=(("itemListElement", _HOW_TO_STEP),),
)

# Features Google no longer shows, so no page is checked for them (no finding, no eligibility):
# the FAQ rich result, "no longer appearing in Google Search" as of May 7, 2026 (its page,
# https://developers.google.com/search/docs/appearance/structured-data/faqpage, before Google
# removed it; docs/structured-data.md). FAQPage markup is still checked against schema.org; the
# value stays in RichResultFeature for the rows and filters of audits made before.
RETIRED: Final = frozenset({RichResultFeature.FAQ})
RULES: Final[tuple[FeatureRule, ...]] = (
    FeatureRule(
        RichResultFeature.ARTICLE,
        ("Article",),
        _G + "article",
        Shape(
            recommended=_reqs("author", "dateModified", "datePublished", "headline", "image"),
            # "You can use the sameAs property as an alternative" to author.url.
            nested=(("author", Shape(recommended=(_req("name"), _req("url", "sameAs")))),),
        ),
    ),
    FeatureRule(
        RichResultFeature.BREADCRUMB,
        ("BreadcrumbList",),
        _G + "breadcrumb",
        Shape(
            required=_reqs("itemListElement"),
            nested=(
                (
                    "itemListElement",
                    Shape(
                        required=(_req("position"), _req("name", "item.name")),
                        required_but_last=_reqs("item"),
                    ),
                ),
            ),
        ),
    ),
    FeatureRule(
        RichResultFeature.PRODUCT_SNIPPET,
        ("Product",),
        _G + "product-snippet",
        Shape(
            required=(_req("name"), _req("review", "aggregateRating", "offers")),
            # The table recommends all three; its note: the Rich Results Test "may report a
            # warning if you provide offers without review or aggregateRating".
            recommended=(_req("review", "aggregateRating"), _req("offers")),
            nested=_RATED,
        ),
    ),
    FeatureRule(
        RichResultFeature.ORGANIZATION,
        ("Organization",),
        _G + "organization",
        # No required property, and every recommended one "if applicable": the page's note names
        # what to focus on, "name or alternateName", "address or telephone", "url or logo".
        Shape(
            recommended=(
                _req("name", "alternateName"),
                _req("address", "telephone"),
                _req("url", "logo"),
            ),
        ),
        excludes=("LocalBusiness",),
    ),
    FeatureRule(
        RichResultFeature.LOCAL_BUSINESS,
        ("LocalBusiness",),
        _G + "local-business",
        Shape(
            required=_reqs("address", "name"),
            recommended=_reqs("geo", "openingHoursSpecification", "priceRange", "telephone", "url"),
            nested=(
                ("geo", Shape(recommended=_reqs("latitude", "longitude"))),
                (
                    "openingHoursSpecification",
                    Shape(recommended=_reqs("closes", "dayOfWeek", "opens")),
                ),
                *_RATINGS,
            ),
        ),
    ),
    FeatureRule(
        RichResultFeature.EVENT,
        ("Event",),
        _G + "event",
        Shape(
            # location (a Place) and location.address are one requirement: a location given as
            # text, or a VirtualLocation ("Events must take place in a physical location"), has no
            # address.
            required=_reqs("location.address", "name", "startDate"),
            recommended=_reqs(
                "description",
                "endDate",
                "eventStatus",
                "image",
                "offers",
                "organizer",
                "performer",
            ),
            nested=(
                ("location", Shape(recommended=_reqs("name"))),
                (
                    "offers",
                    Shape(
                        types=("Offer",),
                        recommended=_reqs(
                            "availability", "price", "priceCurrency", "url", "validFrom"
                        ),
                    ),
                ),
                ("organizer", Shape(recommended=_reqs("name", "url"))),
                ("performer", Shape(recommended=_reqs("name"))),
            ),
        ),
    ),
    FeatureRule(
        RichResultFeature.RECIPE,
        ("Recipe",),
        _G + "recipe",
        Shape(
            required=_reqs("image", "name"),
            recommended=_reqs(
                "aggregateRating",
                "author",
                "cookTime",
                "datePublished",
                "description",
                "keywords",
                "nutrition.calories",
                "prepTime",
                "recipeCategory",
                "recipeCuisine",
                "recipeIngredient",
                "recipeInstructions",
                "recipeYield",
                "totalTime",
                "video",
            ),
            nested=(
                ("aggregateRating", _AGGREGATE_RATING),
                ("recipeInstructions", _HOW_TO_STEP),
                ("recipeInstructions", _HOW_TO_SECTION),
                ("video", _VIDEO),
            ),
        ),
    ),
    FeatureRule(RichResultFeature.VIDEO, ("VideoObject",), _G + "video", _VIDEO),
    FeatureRule(
        RichResultFeature.JOB_POSTING,
        ("JobPosting",),
        _G + "job-posting",
        Shape(
            # A 100% remote job may leave out jobLocation when it names where applicants may live
            # (applicantLocationRequirements) and says it is remote (jobLocationType, "required if
            # the job is 100% remote").
            required=(
                *_reqs("datePosted", "description", "hiringOrganization", "title"),
                _req("jobLocation", "applicantLocationRequirements"),
                _req("jobLocation", "jobLocationType"),
            ),
            recommended=_reqs("baseSalary", "directApply", "employmentType", "identifier"),
            # jobLocation: "Note that you must include the addressCountry property."
            nested=(("jobLocation", Shape(required=_reqs("address.addressCountry"))),),
        ),
    ),
    FeatureRule(
        RichResultFeature.SOFTWARE_APP,
        ("SoftwareApplication",),
        _G + "software-app",
        Shape(
            required=(_req("name"), _req("offers.price"), _req("aggregateRating", "review")),
            recommended=_reqs("applicationCategory", "operatingSystem"),
            nested=_RATINGS,
        ),
        # "Google doesn't show a rich result for Software Apps that only have the VideoGame type."
        excludes=("VideoGame",),
    ),
    FeatureRule(
        RichResultFeature.DATASET,
        ("Dataset",),
        _G + "dataset",
        Shape(
            required=_reqs("description", "name"),
            recommended=_reqs(
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
            ),
            # DataDownload's table.
            nested=(
                (
                    "distribution",
                    Shape(required=_reqs("contentUrl"), recommended=_reqs("encodingFormat")),
                ),
            ),
        ),
    ),
)


@dataclass(frozen=True, slots=True)
class RichResult(JsonRecord):
    """One item checked for one feature: eligible when no required property is missing."""

    feature: RichResultFeature
    path: tuple[str, ...]
    eligible: bool
    source: str


@dataclass(frozen=True, slots=True)
class RichResults(JsonRecord):
    results: tuple[RichResult, ...]
    findings: tuple[Finding, ...]

    @property
    def eligible_features(self) -> tuple[RichResultFeature, ...]:
        """The features the page is eligible for, in the rules' order."""
        eligible = {r.feature for r in self.results if r.eligible}
        return tuple(rule.feature for rule in RULES if rule.feature in eligible)


def evaluate(graph: Graph, vocab: Vocabulary | None = None) -> RichResults:
    checker = _Checker(vocab or vocabulary(), graph)
    for node, path in _candidates(graph):
        for rule in RULES:
            if checker.applies(node, rule.types, rule.excludes):
                checker.feature(rule, node, path)
    return RichResults(tuple(checker.results), tuple(checker.findings))


def _candidates(graph: Graph) -> Iterator[tuple[Node, tuple[str, ...]]]:
    for root in graph.roots:
        path = (root_label(root),)
        yield root, path
        for name in _ENTRY_PROPERTIES:
            for value in _values(graph, root, name):
                if isinstance(value, Node):
                    yield value, (*path, name)


def _values(graph: Graph, node: Node, name: str) -> Iterator[Value]:
    """A property's values whichever way its name was written (`name`, schema.org's IRIs)."""
    for prop in node.properties:
        if prop.name == SCHEMA + name or classify(prop.name) == (Namespace.SCHEMA, name):
            for value in prop.values:
                yield graph.resolve(value)


@dataclass
class _Checker:
    vocab: Vocabulary
    graph: Graph
    results: list[RichResult] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def applies(self, node: Node, types: tuple[str, ...], excludes: tuple[str, ...] = ()) -> bool:
        names = [
            n for n in map(_schema_name, node.types) if n is not None and n in self.vocab.classes
        ]
        return any(
            self.vocab.is_subclass(n, types) and not self.vocab.is_subclass(n, excludes)
            for n in names
        )

    def feature(self, rule: FeatureRule, node: Node, path: tuple[str, ...]) -> None:
        errors = len([f for f in self.findings if f.severity is Severity.ERROR])
        self.shape(rule, rule.shape, node, path)
        eligible = errors == len([f for f in self.findings if f.severity is Severity.ERROR])
        self.results.append(RichResult(rule.feature, path, eligible, rule.source))

    def shape(
        self, rule: FeatureRule, shape: Shape, node: Node, path: tuple[str, ...], last: bool = True
    ) -> None:
        required = shape.required if last else (*shape.required, *shape.required_but_last)
        for requirement in required:
            self.check(rule, requirement, node, path, FindingKind.MISSING_REQUIRED)
        for requirement in shape.recommended:
            self.check(rule, requirement, node, path, FindingKind.MISSING_RECOMMENDED)
        for name, nested in shape.nested:
            items = [v for v in _values(self.graph, node, name) if isinstance(v, Node)]
            for index, item in enumerate(items):
                if not nested.types or self.applies(item, nested.types, nested.excludes):
                    self.shape(rule, nested, item, (*path, name), last=index == len(items) - 1)

    def check(
        self,
        rule: FeatureRule,
        requirement: Requirement,
        node: Node,
        path: tuple[str, ...],
        kind: FindingKind,
    ) -> None:
        if any(self.present(node, p.split(".")) for p in requirement.paths):
            return
        required = kind is FindingKind.MISSING_REQUIRED
        severity = Severity.ERROR if required else Severity.WARNING
        where = (*path, *requirement.paths[0].split("."))
        verb = "requires" if required else "recommends"
        message = f"Google's {rule.feature.value} rich result {verb} {requirement.label}"
        self.findings.append(
            Finding(kind, severity, where, requirement.label, message, feature=rule.feature)
        )

    def present(self, node: Node, steps: list[str]) -> bool:
        first, rest = steps[0], steps[1:]
        for value in _values(self.graph, node, first):
            if not rest:
                if not (isinstance(value, Literal) and str(value.value).strip() == ""):
                    return True
            elif isinstance(value, Node) and self.present(value, rest):
                return True
        return False


def _schema_name(iri: str) -> str | None:
    namespace, name = classify(iri)
    return name if namespace is Namespace.SCHEMA else None
