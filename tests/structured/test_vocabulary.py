"""The vendored schema.org vocabulary: the committed compact copy is the rebuild of the release
file, every term keeps its status, and the class hierarchy answers as schema.org defines it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path, PurePosixPath

import pytest

from structured.vocabulary import (
    COMPACT_PATH,
    ClassTerm,
    MemberTerm,
    PropertyTerm,
    TermStatus,
    compact,
    vocabulary,
)

VENDORED = Path(__file__).resolve().parents[2] / "data" / "schemaorg"


def _release() -> dict[str, object]:
    return json.loads((VENDORED / "schemaorg-all-https.jsonld").read_text(encoding="utf-8"))


def test_compact_copy_is_rebuilt_from_the_vendored_release() -> None:
    source = (VENDORED / "SOURCE").read_text(encoding="utf-8").strip()
    assert json.loads(COMPACT_PATH.read_text(encoding="utf-8")) == compact(_release(), source)


def test_every_schema_org_term_of_the_release_is_kept() -> None:
    vocab = vocabulary()
    graph: list[dict[str, str]] = _release()["@graph"]  # type: ignore[assignment]
    ids = {n["@id"].removeprefix("schema:") for n in graph if n["@id"].startswith("schema:")}
    kept = set(vocab.classes) | set(vocab.properties) | set(vocab.members)
    assert kept == ids
    # The release counts 1,007 classes and 1,684 properties with the other vocabularies' terms
    # it maps to; schema.org's own are these.
    assert (len(vocab.classes), len(vocab.properties)) == (937, 1529)


def test_wrangler_uploads_the_compact_copy_beside_its_module() -> None:
    """The Worker opens the file next to structured/vocabulary.py: wrangler.toml must upload it
    as a Text module (wrangler uploads no .json without a rule)."""
    root = VENDORED.parents[1]
    config = tomllib.loads((root / "wrangler.toml").read_text(encoding="utf-8"))
    globs = [g for rule in config["rules"] if rule["type"] == "Text" for g in rule["globs"]]
    name = PurePosixPath(COMPACT_PATH.relative_to(root / "src").as_posix())
    assert any(name.full_match(glob) for glob in globs)


def test_the_compact_copy_carries_the_license() -> None:
    data = json.loads(COMPACT_PATH.read_text(encoding="utf-8"))
    assert "CC BY-SA 3.0" in data["license"]
    assert "cc71c8e064859e912aac8b11ec06e6bc53255b6a" in data["source"]


@pytest.mark.parametrize(
    ("term", "status", "superseded_by"),
    [
        ("Product", TermStatus.CORE, None),
        ("price", TermStatus.CORE, None),
        ("PronounceableText", TermStatus.PENDING, None),
        ("MedicalCondition", TermStatus.EXTENSION, None),  # health-lifesci
        ("interactionCount", TermStatus.CORE, "interactionStatistic"),
        ("DataFeedItem", TermStatus.CORE, None),
    ],
)
def test_each_term_keeps_its_status(term, status, superseded_by) -> None:
    vocab = vocabulary()
    found = vocab.classes.get(term) or vocab.properties.get(term) or vocab.members.get(term)
    assert found is not None
    assert (found.status, found.superseded_by) == (status, superseded_by)


def test_attic_terms_are_retired() -> None:
    vocab = vocabulary()
    terms: list[ClassTerm | PropertyTerm | MemberTerm] = [
        *vocab.classes.values(),
        *vocab.properties.values(),
        *vocab.members.values(),
    ]
    retired = [t.name for t in terms if t.status is TermStatus.ATTIC]
    assert len(retired) == 16  # data/schemaorg/README.md: 16 retired terms


@pytest.mark.parametrize(
    ("name", "ancestor", "expected"),
    [
        ("Restaurant", "LocalBusiness", True),
        ("Restaurant", "Organization", True),
        ("Restaurant", "Place", True),  # LocalBusiness has two parents
        ("Restaurant", "Thing", True),
        ("Product", "CreativeWork", False),
        ("URL", "Text", True),
        ("Integer", "Number", True),
    ],
)
def test_the_class_hierarchy(name, ancestor, expected) -> None:
    assert vocabulary().is_subclass(name, (ancestor,)) is expected


@pytest.mark.parametrize(
    ("name", "data_type", "enumeration"),
    [
        ("Text", True, False),
        ("URL", True, False),
        ("Float", True, False),
        ("Duration", True, False),  # a Quantity, which release 30.0 declares a DataType
        ("ItemAvailability", False, True),
        ("DayOfWeek", False, True),
        ("Offer", False, False),
    ],
)
def test_data_types_and_enumerations(name, data_type, enumeration) -> None:
    vocab = vocabulary()
    assert (vocab.is_data_type(name), vocab.is_enumeration(name)) == (data_type, enumeration)


def test_enumeration_members_name_their_enumeration() -> None:
    vocab = vocabulary()
    assert vocab.members["InStock"].types == ("ItemAvailability",)
    assert vocab.members["Monday"].types == ("DayOfWeek",)
    assert vocab.members["True"].types == ("Boolean",)


def test_lineage_runs_nearest_first() -> None:
    assert vocabulary().lineage("Integer") == ("Integer", "Number")
    assert vocabulary().lineage("Restaurant")[:3] == (
        "Restaurant",
        "FoodEstablishment",
        "LocalBusiness",
    )


@pytest.mark.parametrize(
    ("misspelt", "suggestions"),
    [
        ("product", ("Product",)),
        ("Prodcut", ("Product",)),
        ("LocalBussiness", ("LocalBusiness",)),
        ("Xyzzy", ()),
    ],
)
def test_type_suggestions(misspelt, suggestions) -> None:
    assert vocabulary().suggest_type(misspelt)[: len(suggestions) or None] == suggestions


@pytest.mark.parametrize(
    ("misspelt", "first"),
    [
        ("colour", "color"),
        ("DatePublished", "datePublished"),
        ("aggregaterating", "aggregateRating"),
    ],
)
def test_property_suggestions(misspelt, first) -> None:
    assert vocabulary().suggest_property(misspelt)[0] == first
