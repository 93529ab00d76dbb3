"""The schema.org vocabulary: compacted at vendor time, loaded lazily at run time.

`data/schemaorg/schemaorg-all-https.jsonld` (repository root) is schema.org's release file byte
for byte (CC BY-SA 3.0, data/schemaorg/README.md). `compact()` keeps what validation reads: each
class's parents (`rdfs:subClassOf`), each property's `schema:domainIncludes` and
`schema:rangeIncludes`, each enumeration member's types, and every term's status (core, pending,
extension, attic) and `schema:supersededBy`. Comments, labels, external mappings and sources are
dropped. The result, `structured/data/schemaorg.json`, is what the Worker bundle carries
(wrangler.toml uploads it as a Text module, so it sits beside this module in the bundle's file
system); `scripts/build_schemaorg.py` rebuilds it, and a test checks that the committed file
equals the rebuild.

The file is parsed on first use, so an isolate that never validates structured data pays nothing.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property
from pathlib import Path
from typing import Final, TypedDict

from common.wire import as_list, as_object, as_str

__all__ = [
    "COMPACT_PATH",
    "SCHEMA",
    "ClassTerm",
    "MemberTerm",
    "PropertyTerm",
    "TermStatus",
    "Vocabulary",
    "compact",
    "suggest",
    "vocabulary",
]

COMPACT_PATH: Final = Path(__file__).parent / "data" / "schemaorg.json"
SCHEMA: Final = "https://schema.org/"
_PREFIX: Final = "schema:"
LICENSE: Final = (
    "schema.org vocabulary, CC BY-SA 3.0 (https://schema.org/docs/terms.html); a derivative of "
    "schema.org release 30.0, shared under the same license (data/schemaorg/LICENSE)"
)
# `schema:isPartOf` hosts: the pending area and the retired terms; every other host is one of
# schema.org's hosted extensions (health-lifesci, auto, bib, meta), valid like core terms.
_PENDING: Final = "https://pending.schema.org"
_ATTIC: Final = "https://attic.schema.org"


class TermStatus(StrEnum):
    """Where schema.org files a term (https://schema.org/docs/howwework.html: core, pending,
    hosted extensions, attic)."""

    CORE = "core"
    PENDING = "pending"
    EXTENSION = "extension"
    ATTIC = "attic"


@dataclass(frozen=True, slots=True)
class ClassTerm:
    name: str
    parents: tuple[str, ...]
    status: TermStatus
    superseded_by: str | None
    # Declared a `schema:DataType` (Text, Number, Date, ...); their subclasses (URL, Integer)
    # are data types too, which `Vocabulary.is_data_type` answers.
    data_type: bool


@dataclass(frozen=True, slots=True)
class PropertyTerm:
    name: str
    domains: tuple[str, ...]
    ranges: tuple[str, ...]
    status: TermStatus
    superseded_by: str | None


@dataclass(frozen=True, slots=True)
class MemberTerm:
    """An enumeration member (`InStock`, `Monday`): an instance of one or more enumerations."""

    name: str
    types: tuple[str, ...]
    status: TermStatus
    superseded_by: str | None


# --- vendor time -------------------------------------------------------------------------------


def compact(release: Mapping[str, object], source: str) -> dict[str, object]:
    """The release's graph reduced to what `Vocabulary` reads; terms in the release's order."""
    classes: dict[str, object] = {}
    properties: dict[str, object] = {}
    members: dict[str, object] = {}
    for entry in as_list(release["@graph"]):
        node = as_object(entry)
        name = _local(as_str(node["@id"]))
        if name is None:
            continue
        types = [as_str(t) for t in _many(node.get("@type"))]
        common = _status_fields(node)
        if "rdf:Property" in types:
            properties[name] = {
                "domains": _ids(node.get("schema:domainIncludes")),
                "ranges": _ids(node.get("schema:rangeIncludes")),
                **common,
            }
            continue
        if "rdfs:Class" in types:
            entry_fields: dict[str, object] = {"parents": _ids(node.get("rdfs:subClassOf"))}
            if "schema:DataType" in types:
                entry_fields["data_type"] = True
            classes[name] = {**entry_fields, **common}
        member_of = [local for t in types if (local := _local(t)) and local != "DataType"]
        if member_of:
            members[name] = {"types": member_of, **common}
    return {
        "source": source,
        "license": LICENSE,
        "classes": classes,
        "properties": properties,
        "members": members,
    }


def _status_fields(node: Mapping[str, object]) -> dict[str, object]:
    fields: dict[str, object] = {}
    status = _status(node.get("schema:isPartOf"))
    if status is not TermStatus.CORE:
        fields["status"] = status.value
    superseded = _ids(node.get("schema:supersededBy"))
    if superseded:
        fields["superseded_by"] = superseded[0]
    return fields


def _status(part_of: object) -> TermStatus:
    hosts = [as_str(as_object(p)["@id"]) for p in _many(part_of)]
    if not hosts:
        return TermStatus.CORE
    if _ATTIC in hosts:
        return TermStatus.ATTIC
    if _PENDING in hosts:
        return TermStatus.PENDING
    return TermStatus.EXTENSION


def _many(value: object) -> list[object]:
    if value is None:
        return []
    return list(as_list(value)) if isinstance(value, list) else [value]


def _ids(value: object) -> list[str]:
    """The schema.org names among a node's `{"@id": ...}` references (rdfs:Class and other
    vocabularies' terms are left out: validation never looks past schema.org)."""
    return [
        local
        for ref in _many(value)
        if (local := _local(as_str(as_object(ref)["@id"]))) is not None
    ]


def _local(curie: str) -> str | None:
    return curie.removeprefix(_PREFIX) if curie.startswith(_PREFIX) else None


# --- run time ----------------------------------------------------------------------------------


class Vocabulary:
    """The vocabulary's terms by name, with the class hierarchy's answers cached."""

    def __init__(self, data: Mapping[str, object]) -> None:
        self.source = as_str(data["source"])
        self.classes: Mapping[str, ClassTerm] = {
            name: _class_term(name, as_object(body))
            for name, body in as_object(data["classes"]).items()
        }
        self.properties: Mapping[str, PropertyTerm] = {
            name: _property_term(name, as_object(body))
            for name, body in as_object(data["properties"]).items()
        }
        self.members: Mapping[str, MemberTerm] = {
            name: _member_term(name, as_object(body))
            for name, body in as_object(data["members"]).items()
        }

    @cache  # noqa: B019  # one Vocabulary per isolate (`vocabulary()`), so the cache never leaks
    def ancestors(self, name: str) -> frozenset[str]:
        """The class and every class above it (`rdfs:subClassOf`, transitively)."""
        term = self.classes.get(name)
        if term is None:
            return frozenset()
        found = {name}
        for parent in term.parents:
            found |= self.ancestors(parent)
        return frozenset(found)

    @cache  # noqa: B019  # as above
    def lineage(self, name: str) -> tuple[str, ...]:
        """The class and the classes above it, nearest first (breadth first)."""
        order: list[str] = []
        frontier = [name]
        while frontier:
            order += [n for n in frontier if n not in order and n in self.classes]
            frontier = [p for n in frontier if n in self.classes for p in self.classes[n].parents]
        return tuple(order)

    def is_subclass(self, name: str, of: Iterable[str]) -> bool:
        return not self.ancestors(name).isdisjoint(of)

    def is_data_type(self, name: str) -> bool:
        return any(self.classes[a].data_type for a in self.ancestors(name))

    def is_enumeration(self, name: str) -> bool:
        return "Enumeration" in self.ancestors(name)

    @cached_property
    def _type_names(self) -> tuple[str, ...]:
        return tuple(self.classes)

    @cached_property
    def _property_names(self) -> tuple[str, ...]:
        return tuple(self.properties)

    def suggest_type(self, name: str) -> tuple[str, ...]:
        """Classes a misspelt type name probably meant: its case variant, else close matches."""
        return suggest(name, self._type_names)

    def suggest_property(self, name: str) -> tuple[str, ...]:
        return suggest(name, self._property_names)


def suggest(name: str, names: Sequence[str]) -> tuple[str, ...]:
    """What a misspelt name probably meant among `names`: its case variant, else close matches."""
    folded = [n for n in names if n.casefold() == name.casefold()]
    if folded:
        return tuple(folded)
    # 0.8 keeps a typo or two in a word of ordinary length (difflib's ratio is 2*matches/len).
    return tuple(difflib.get_close_matches(name, names, n=3, cutoff=0.8))


def _class_term(name: str, body: Mapping[str, object]) -> ClassTerm:
    return ClassTerm(
        name=name,
        parents=tuple(as_str(p) for p in as_list(body["parents"])),
        **_status_of(body),
        data_type=body.get("data_type") is True,
    )


def _property_term(name: str, body: Mapping[str, object]) -> PropertyTerm:
    return PropertyTerm(
        name=name,
        domains=tuple(as_str(d) for d in as_list(body["domains"])),
        ranges=tuple(as_str(r) for r in as_list(body["ranges"])),
        **_status_of(body),
    )


def _member_term(name: str, body: Mapping[str, object]) -> MemberTerm:
    return MemberTerm(
        name=name,
        types=tuple(as_str(t) for t in as_list(body["types"])),
        **_status_of(body),
    )


class _Status(TypedDict):
    status: TermStatus
    superseded_by: str | None


def _status_of(body: Mapping[str, object]) -> _Status:
    superseded = body.get("superseded_by")
    return {
        "status": TermStatus(as_str(body.get("status", TermStatus.CORE.value))),
        "superseded_by": None if superseded is None else as_str(superseded),
    }


@cache
def vocabulary() -> Vocabulary:
    """The vendored vocabulary, parsed once per isolate."""
    return Vocabulary(json.loads(COMPACT_PATH.read_text(encoding="utf-8")))
