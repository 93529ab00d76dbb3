"""What the structured-data checks find: one record per finding, with the property path.

A finding's `path` runs from the top-level node's type down the properties that lead to it
(`("Product", "offers", "price")`, shown `Product > offers > price`); `term` is the type,
property or value it is about. Findings cross step and queue boundaries, so they are frozen
records with `to_dict()`/`from_dict()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from common.wire import JsonRecord

__all__ = ["Finding", "FindingKind", "RichResultFeature", "Severity"]


class Severity(StrEnum):
    """An error makes the markup wrong (a consumer drops or misreads it, or the rich result is
    lost); a warning is worth fixing but the markup still works."""

    ERROR = "error"
    WARNING = "warning"


class FindingKind(StrEnum):
    # The vocabulary (schema.org)
    UNKNOWN_TYPE = "unknown-type"
    UNKNOWN_PROPERTY = "unknown-property"
    UNKNOWN_ENUMERATION_MEMBER = "unknown-enumeration-member"
    WRONG_NAMESPACE = "wrong-namespace"
    NO_VOCABULARY = "no-vocabulary"
    PROPERTY_NOT_FOR_TYPE = "property-not-for-type"
    VALUE_TYPE_MISMATCH = "value-type-mismatch"
    TEXT_FOR_THING = "text-for-thing"
    SUPERSEDED_TERM = "superseded-term"
    RETIRED_TERM = "retired-term"
    # Google's rich-result requirements
    MISSING_REQUIRED = "missing-required"
    MISSING_RECOMMENDED = "missing-recommended"
    # The audit's own limits: the page has Microdata or RDFa that was not read, or not all of it
    # (structured.page.Unread says why); a note about the audit, not the page's markup.
    MARKUP_UNCHECKED = "markup-unchecked"


class RichResultFeature(StrEnum):
    """Google Search's structured-data features checked here (structured.rich_results)."""

    ARTICLE = "article"
    BREADCRUMB = "breadcrumb"
    PRODUCT_SNIPPET = "product-snippet"
    FAQ = "faq"
    ORGANIZATION = "organization"
    LOCAL_BUSINESS = "local-business"
    EVENT = "event"
    RECIPE = "recipe"
    VIDEO = "video"
    JOB_POSTING = "job-posting"
    SOFTWARE_APP = "software-app"
    DATASET = "dataset"


@dataclass(frozen=True, slots=True)
class Finding(JsonRecord):
    kind: FindingKind
    severity: Severity
    path: tuple[str, ...]
    term: str
    message: str
    suggestions: tuple[str, ...] = ()
    # Set on Google's findings: the feature whose requirement is not met.
    feature: RichResultFeature | None = None

    @property
    def path_text(self) -> str:
        return " > ".join(self.path)
