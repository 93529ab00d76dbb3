"""Done-when of issue 32: schema.org's own examples carry no vocabulary error.

Every Microdata, RDFa and JSON-LD section of schema.org's release-30.0 examples is read as the
product reads a page (tests/structured/schemaorg_examples.py: structured.microdata and
structured.rdfa over the section's element tree) and validated. The examples are valid at the
vocabulary level by construction, so every error that remains is listed below with the reason:
the example's own mistake, or a syntax the readers leave out on purpose (RDFa Core's `rel`). The
test fails on an error the list does not name and on a listed error that no longer occurs.
"""

from __future__ import annotations

import pytest

from structured.findings import FindingKind, Severity
from structured.nodes import Syntax
from structured.validate import validate
from tests.structured.schemaorg_examples import graph_of, sections

NO_CONTEXT = "the example's JSON-LD has no @context, so its terms name no vocabulary"
# "type" is schema.org's context alias of "@type": a Recommendation with `"type": "Best for the
# Money"` declares that string a second type.
TYPE_ALIAS = "the example uses the key `type`, which schema.org's context makes @type"
# `<div rel="rdf:type" resource="https://schema.org/ItemList">` inside a ListItem gives it a second
# type; rel is RDFa Core, not Lite (structured.rdfa), so the ListItem stays a ListItem only.
RDFA_CORE_REL = "the example types a ListItem as an ItemList with rel=, RDFa Core, not Lite"

EXPLAINED: dict[tuple[str, Syntax, FindingKind, str], str] = {
    ("#eg-0269", Syntax.JSON_LD, FindingKind.NO_VOCABULARY, "ProgramMembership"): NO_CONTEXT,
    ("#eg-0348", Syntax.JSON_LD, FindingKind.NO_VOCABULARY, "DigitalDocument"): NO_CONTEXT,
    ("#eg-0460", Syntax.JSON_LD, FindingKind.NO_VOCABULARY, "Movie"): NO_CONTEXT,
    ("#eg-0265", Syntax.RDFA, FindingKind.PROPERTY_NOT_FOR_TYPE, "ListItem > numberOfItems"): (
        RDFA_CORE_REL
    ),
    ("#eg-0291", Syntax.JSON_LD, FindingKind.UNKNOWN_TYPE, "Guide > hasPart"): TYPE_ALIAS,
    ("#eg-0293", Syntax.JSON_LD, FindingKind.UNKNOWN_TYPE, "Guide > hasPart"): TYPE_ALIAS,
}

# How many sections of each syntax carry markup: a change in the reader that drops sections
# would otherwise pass by finding nothing.
SECTIONS = {Syntax.JSON_LD: 460, Syntax.MICRODATA: 209, Syntax.RDFA: 183}
# Sections read as no node at all, and why: every other section yields at least one.
NO_VOCAB_ATTRIBUTE = "the RDFa has typeof without vocab=, so its terms name no vocabulary"
# <p itemscope itemprop="Person" ...> with no item around it: HTML's top-level items are those
# without itemprop (§5.2.5), so the item is no one's property and not top-level either.
ITEMPROP_AT_TOP = "the only item has itemprop and no item holds it: HTML lists it nowhere"
READ_AS_NOTHING: dict[tuple[str, Syntax], str] = {
    ("#eg-0029", Syntax.RDFA): NO_VOCAB_ATTRIBUTE,
    ("#eg-0030", Syntax.RDFA): NO_VOCAB_ATTRIBUTE,
    ("#eg-0031", Syntax.RDFA): NO_VOCAB_ATTRIBUTE,
    ("#eg-0224", Syntax.RDFA): NO_VOCAB_ATTRIBUTE,
    ("#eg-0466", Syntax.MICRODATA): "the section is the text <div>Not available</div>",
    ("#eg-0466", Syntax.RDFA): "the section is the text <div>Not available</div>",
    (
        "#eg-3475",
        Syntax.MICRODATA,
    ): 'the example writes class="itemscope", not the itemscope attribute',
    **{
        (example, Syntax.MICRODATA): ITEMPROP_AT_TOP
        for example in ("#eg-0427", "#eg-0428", "#eg-0429")
    },
}


# pyRdfa stamps its graph with datetime.utcnow(), deprecated since Python 3.12.
@pytest.mark.filterwarnings("ignore:datetime.datetime.utcnow:DeprecationWarning")
@pytest.mark.parametrize("syntax", list(Syntax))
def test_schema_org_examples_have_no_unexplained_vocabulary_error(syntax: Syntax) -> None:
    chosen = [s for s in sections() if s.syntax is syntax]
    assert len(chosen) == SECTIONS[syntax]
    graphs = {section: graph_of(section) for section in chosen}
    # Every section is read as at least one node but those listed: no syntax passes by reading
    # nothing.
    empty = {(s.example, syntax) for s, graph in graphs.items() if not graph.roots}
    assert empty == {key for key in READ_AS_NOTHING if key[1] is syntax}
    errors = {
        (section.example, syntax, finding.kind, finding.path_text)
        for section, graph in graphs.items()
        for finding in validate(graph)
        if finding.severity is Severity.ERROR
    }
    expected = {key for key in EXPLAINED if key[1] is syntax}
    assert sorted(errors - expected) == [], "errors the list does not explain"
    assert sorted(expected - errors) == [], "explained errors that no longer occur"
