"""Structured data checked against the schema.org vocabulary (sans-IO).

The checks are the Schema Markup Validator's (https://validator.schema.org/), from schema.org's
data model (https://schema.org/docs/datamodel.html):
- types and properties exist (with "did you mean": the case variant, else close spellings), and
  are written in schema.org's namespace (`http://` and `https://schema.org/` are both schema.org;
  `www.schema.org` or an undeclared `schema:` prefix are not);
- a property belongs to the type (`schema:domainIncludes`, inherited through `rdfs:subClassOf`;
  a Role carries the property it qualifies, https://schema.org/Role);
- a value fits the property (`schema:rangeIncludes`): data types by their formats
  (structured.values), enumeration members by name or IRI, nested nodes by their types. Text
  where a thing is expected is allowed by the data model ("we expect ... we will get a text
  string", datamodel.html, "Conformance"), so it is a warning, never an error;
- superseded (`schema:supersededBy`) and retired (attic) terms are warnings; pending and hosted
  extension terms are valid.
Terms of other vocabularies are left alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from structured.findings import Finding, FindingKind, Severity
from structured.nodes import Graph, Literal, Node, Reference, Syntax, Value
from structured.values import fits_data_type
from structured.vocabulary import (
    SCHEMA,
    ClassTerm,
    MemberTerm,
    PropertyTerm,
    TermStatus,
    Vocabulary,
    suggest,
    vocabulary,
)

__all__ = ["Namespace", "classify", "root_label", "validate"]

_ROLE = "Role"


@dataclass(frozen=True, slots=True)
class _TermKind:
    noun: str
    unknown: FindingKind


_TYPE: Final = _TermKind("type", FindingKind.UNKNOWN_TYPE)
_PROPERTY: Final = _TermKind("property", FindingKind.UNKNOWN_PROPERTY)


class Namespace(StrEnum):
    SCHEMA = "schema"
    VARIANT = "variant"  # meant as schema.org, written otherwise
    UNDECLARED = "undeclared"  # a bare name: no vocabulary declared
    OTHER = "other"


def classify(iri: str) -> tuple[Namespace, str]:
    """Which namespace a type or property IRI is in, and its name there."""
    scheme, sep, rest = iri.partition("://")
    if not sep:
        prefix, colon, local = iri.partition(":")
        if colon:
            return (Namespace.VARIANT, local) if prefix == "schema" else (Namespace.OTHER, iri)
        host, slash, local = iri.partition("/")
        if slash and host.casefold() in ("schema.org", "www.schema.org"):
            return Namespace.VARIANT, local
        return Namespace.UNDECLARED, iri
    host, _, local = rest.partition("/")
    if scheme.casefold() not in ("http", "https"):
        return Namespace.OTHER, iri
    if host.casefold() == "schema.org":
        return Namespace.SCHEMA, local
    if host.casefold() == "www.schema.org":
        return Namespace.VARIANT, local
    return Namespace.OTHER, iri


def root_label(node: Node) -> str:
    """A node's name at the head of a path: its first type's name."""
    for iri in node.types:
        namespace, name = classify(iri)
        return name if namespace is not Namespace.OTHER else iri
    return "(no type)"


def validate(graph: Graph, vocab: Vocabulary | None = None) -> tuple[Finding, ...]:
    """Every vocabulary finding of a page's structured data, in document order."""
    walker = _Walker(vocab or vocabulary(), graph)
    for root in graph.roots:
        walker.node(root, (root_label(root),), role_of=None)
    return tuple(walker.findings)


@dataclass
class _Walker:
    vocab: Vocabulary
    graph: Graph
    findings: list[Finding] = field(default_factory=list)
    # Paths of the nodes whose terms were found in a wrong namespace (reported once each).
    misplaced: set[tuple[str, ...]] = field(default_factory=set)

    def add(
        self,
        kind: FindingKind,
        severity: Severity,
        path: tuple[str, ...],
        term: str,
        message: str,
        suggestions: Iterable[str] = (),
    ) -> None:
        self.findings.append(Finding(kind, severity, path, term, message, tuple(suggestions)))

    # --- nodes ---------------------------------------------------------------------------------

    def node(self, node: Node, path: tuple[str, ...], role_of: str | None) -> None:
        undeclared = [
            t
            for t in (*node.types, *(p.name for p in node.properties))
            if classify(t)[0] is Namespace.UNDECLARED
        ]
        if undeclared and node.syntax is Syntax.JSON_LD:
            self.add(
                FindingKind.NO_VOCABULARY,
                Severity.ERROR,
                path,
                undeclared[0],
                f'`{undeclared[0]}` names no vocabulary: the JSON-LD has no `@context` (use `"@context": "https://schema.org"`)',
            )
        types = [name for iri in node.types if (name := self.type_name(iri, path)) is not None]
        types += self.additional_types(node)
        for prop in node.properties:
            term = self.property_term(prop.name, path)
            if term is None:
                continue
            here = (*path, term.name)
            if types and term.name != role_of:
                self.check_domain(term, types, here)
            for value in prop.values:
                self.value(value, term, here)

    def additional_types(self, node: Node) -> list[str]:
        """schema.org types named by `additionalType`, which add their properties to the node's
        (schema.org's own examples rely on it: a TouristAttraction that is also an Event)."""
        found = []
        for value in node.values(SCHEMA + "additionalType"):
            iri = value.value if isinstance(value, Literal) else getattr(value, "iri", None)
            if isinstance(iri, str):
                namespace, name = classify(iri.strip())
                if namespace is Namespace.SCHEMA and name in self.vocab.classes:
                    found.append(name)
        return found

    def type_name(self, iri: str, path: tuple[str, ...]) -> str | None:
        term = self.known(iri, path, self.vocab.classes, _TYPE)
        return None if term is None else term.name

    def property_term(self, iri: str, path: tuple[str, ...]) -> PropertyTerm | None:
        if self.is_action_constraint(iri):
            return None
        return self.known(iri, path, self.vocab.properties, _PROPERTY)

    def is_action_constraint(self, iri: str) -> bool:
        """`query-input`, `target-output`: an Action's constraint on one of its properties
        (https://schema.org/docs/actions.html, "Action constraints"), whose value is a
        PropertyValueSpecification or its textual shorthand, not a property of its own."""
        namespace, name = classify(iri)
        base, dash, suffix = name.rpartition("-")
        return (
            namespace is Namespace.SCHEMA
            and bool(dash)
            and suffix in ("input", "output")
            and base in self.vocab.properties
        )

    def known[T: ClassTerm | PropertyTerm](
        self, iri: str, path: tuple[str, ...], table: Mapping[str, T], what: _TermKind
    ) -> T | None:
        """The schema.org term an IRI names, with its status checked; None (after the finding)
        when it names none, and for other vocabularies' terms."""
        name = self.in_schema(iri, path)
        if name is None:
            return None
        here = (*path, name) if what is _PROPERTY else path
        term = table.get(name)
        if term is None:
            suggestions = (
                self.vocab.suggest_property if what is _PROPERTY else self.vocab.suggest_type
            )(name)
            message = f"`{name}` is not a schema.org {what.noun}"
            self.add(what.unknown, Severity.ERROR, here, name, message, suggestions)
            return None
        self.check_status(name, term.status, term.superseded_by, here)
        return term

    def in_schema(self, iri: str, path: tuple[str, ...]) -> str | None:
        """The term's schema.org name, or None for a term validation leaves alone."""
        namespace, name = classify(iri)
        # Once per node: a Microdata item typed `www.schema.org/Product` has every property
        # name in the same wrong namespace.
        if namespace is Namespace.VARIANT and path not in self.misplaced:
            self.misplaced.add(path)
            self.add(
                FindingKind.WRONG_NAMESPACE,
                Severity.ERROR,
                path,
                iri,
                f"`{iri}` is not in schema.org's namespace",
                (SCHEMA + name,),
            )
        return name if namespace in (Namespace.SCHEMA, Namespace.VARIANT) else None

    def check_status(
        self, name: str, status: TermStatus, superseded_by: str | None, path: tuple[str, ...]
    ) -> None:
        if superseded_by is not None:
            self.add(
                FindingKind.SUPERSEDED_TERM,
                Severity.WARNING,
                path,
                name,
                f"`{name}` is superseded by `{superseded_by}`",
                (superseded_by,),
            )
        elif status is TermStatus.ATTIC:
            self.add(
                FindingKind.RETIRED_TERM,
                Severity.WARNING,
                path,
                name,
                f"`{name}` is retired (schema.org's attic)",
            )

    def check_domain(self, term: PropertyTerm, types: list[str], path: tuple[str, ...]) -> None:
        if not term.domains or any(self.vocab.is_subclass(t, term.domains) for t in types):
            return
        expected = ", ".join(term.domains)
        self.add(
            FindingKind.PROPERTY_NOT_FOR_TYPE,
            Severity.ERROR,
            path,
            term.name,
            f"schema.org does not define `{term.name}` for {' or '.join(types)} (it is for {expected})",
        )

    # --- values --------------------------------------------------------------------------------

    def value(self, value: Value, term: PropertyTerm, path: tuple[str, ...]) -> None:
        if isinstance(value, Node):
            self.check_node_range(value, term, path)
            self.node(value, path, role_of=term.name)
        elif isinstance(value, Literal):
            self.literal(value.value, term, path)
        else:
            resolved = self.graph.resolve(value)
            if isinstance(resolved, Node):
                self.check_node_range(resolved, term, path)
            else:
                self.reference(value, term, path)

    def check_node_range(self, node: Node, term: PropertyTerm, path: tuple[str, ...]) -> None:
        types = [
            name
            for iri in node.types
            if (ns := classify(iri))[0] is Namespace.SCHEMA
            and (name := ns[1]) in self.vocab.classes
        ]
        types += self.additional_types(node)
        if not types or not term.ranges:
            return
        if any(self.vocab.is_subclass(t, (*term.ranges, _ROLE)) for t in types):
            return
        # A node named by an IRI is also that IRI: fine where a URL is expected (RDFa's `<a
        # property="url" href="..." typeof="ItemPage">`).
        if node.id is not None and not node.id.startswith("_:") and "URL" in term.ranges:
            return
        self.add(
            FindingKind.VALUE_TYPE_MISMATCH,
            Severity.ERROR,
            path,
            term.name,
            f"`{term.name}` expects {_either(term.ranges)}, not {' or '.join(types)}",
        )

    def literal(
        self, value: str | int | float | bool, term: PropertyTerm, path: tuple[str, ...]
    ) -> None:
        if not term.ranges or any(self.fits(value, r, path) for r in term.ranges):
            return
        enumerations = [r for r in term.ranges if self.vocab.is_enumeration(r)]
        namespace, name = classify(value) if isinstance(value, str) else (Namespace.OTHER, "")
        if enumerations and namespace is Namespace.SCHEMA:
            self.unknown_member(name, enumerations, term, path)
        elif any(not self.vocab.is_data_type(r) for r in term.ranges):
            self.add(
                FindingKind.TEXT_FOR_THING,
                Severity.WARNING,
                path,
                term.name,
                f"`{term.name}` expects {_either(term.ranges)}; text is accepted, a nested item says more",
            )
        else:
            self.add(
                FindingKind.VALUE_TYPE_MISMATCH,
                Severity.ERROR,
                path,
                term.name,
                f"`{term.name}` expects {_either(term.ranges)}, not {value!r}",
            )

    def fits(self, value: str | int | float | bool, range_name: str, path: tuple[str, ...]) -> bool:
        if self.vocab.is_data_type(range_name):
            return fits_data_type(value, self.vocab.lineage(range_name))
        if not isinstance(value, str) or not self.vocab.is_enumeration(range_name):
            return False
        namespace, name = classify(value.strip())
        member = (
            self.vocab.members.get(name)
            if namespace in (Namespace.SCHEMA, Namespace.UNDECLARED)
            else None
        )
        if member is None or not any(
            self.vocab.is_subclass(t, (range_name,)) for t in member.types
        ):
            return False
        self.check_status(member.name, member.status, member.superseded_by, path)
        return True

    def unknown_member(
        self, name: str, enumerations: list[str], term: PropertyTerm, path: tuple[str, ...]
    ) -> None:
        members = [
            m.name for m in self.vocab.members.values() if _member_of(self.vocab, m, enumerations)
        ]
        suggestions = suggest(name, members)
        self.add(
            FindingKind.UNKNOWN_ENUMERATION_MEMBER,
            Severity.ERROR,
            path,
            name,
            f"`{name}` is not a member of {_either(enumerations)}",
            suggestions,
        )

    def reference(self, value: Reference, term: PropertyTerm, path: tuple[str, ...]) -> None:
        """An IRI given as a link: an enumeration member, or a thing (or URL) named by it."""
        if not term.ranges:
            return
        enumerations = [r for r in term.ranges if self.vocab.is_enumeration(r)]
        namespace, name = classify(value.iri)
        # Members of data types too: `https://schema.org/True` is a Boolean.
        if namespace is Namespace.SCHEMA and any(
            self.fits(value.iri, r, path) for r in term.ranges
        ):
            return
        # A class's IRI names that class: `interactionType` (an Action) may be `.../CommentAction`.
        if namespace is Namespace.SCHEMA and self.vocab.is_subclass(name, term.ranges):
            return
        if enumerations and namespace is Namespace.SCHEMA:
            self.unknown_member(name, enumerations, term, path)
            return
        # An IRI is a URL (a Text) and names a thing: every range but the other data types fits.
        if all(
            self.vocab.is_data_type(r) and not self.vocab.is_subclass(r, ("Text",))
            for r in term.ranges
        ):
            self.add(
                FindingKind.VALUE_TYPE_MISMATCH,
                Severity.ERROR,
                path,
                term.name,
                f"`{term.name}` expects {_either(term.ranges)}, not the link {value.iri}",
            )


def _member_of(vocab: Vocabulary, member: MemberTerm, enumerations: list[str]) -> bool:
    return any(vocab.is_subclass(t, enumerations) for t in member.types)


def _either(names: Iterable[str]) -> str:
    return " or ".join(names)
