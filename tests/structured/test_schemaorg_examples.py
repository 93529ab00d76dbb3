"""Done-when of issue 32: schema.org's own examples carry no vocabulary error.

Every Microdata, RDFa and JSON-LD section of schema.org's release-30.0 examples is read as extruct
reads a page (tests/structured/schemaorg_examples.py) and validated. The examples are valid at the
vocabulary level by construction, so every error that remains is listed below with the reason:
the example's own mistake, or what extruct makes of it. The test fails on an error the list does
not name and on a listed error that no longer occurs.
"""

from __future__ import annotations

import pytest

from structured.findings import FindingKind, Severity
from structured.nodes import Syntax
from structured.validate import validate
from tests.structured.schemaorg_examples import graph_of, sections

MISMATCH = FindingKind.VALUE_TYPE_MISMATCH

# extruct reads a Microdata <time> without `datetime` as "" (extruct/w3cmicrodata.py); the HTML
# standard's value is then the element's text ("microdata", "values": a time element's value is its
# datetime value, the attribute or else the text), which here is a valid date.
TIME_WITHOUT_DATETIME = "extruct reads <time> without datetime as empty; its text is a valid date"
# <time content="16:00:00">: `content` gives a value only on <meta> in Microdata, so the value is
# the text ("4:00 PM"), which is not ISO 8601; extruct reads it as "". The example's mistake.
TIME_WITH_CONTENT = (
    "Microdata <time content=...>: content is read only on <meta>; the text is not ISO"
)
# pyRdfa (extruct's RDFa reader) ignores HTML5's <time datetime>, which HTML+RDFa 1.1 §3.1 rule 6
# makes the literal, and takes the human text ("Jul 3, 2010") instead.
RDFA_DATETIME = "pyRdfa takes <time>'s text, not its datetime attribute"
NO_CONTEXT = "the example's JSON-LD has no @context, so its terms name no vocabulary"
# "type" is schema.org's context alias of "@type": a Recommendation with `"type": "Best for the
# Money"` declares that string a second type.
TYPE_ALIAS = "the example uses the key `type`, which schema.org's context makes @type"

EXPLAINED: dict[tuple[str, Syntax, FindingKind, str], str] = {
    ("#eg-0269", Syntax.JSON_LD, FindingKind.NO_VOCABULARY, "ProgramMembership"): NO_CONTEXT,
    ("#eg-0348", Syntax.JSON_LD, FindingKind.NO_VOCABULARY, "DigitalDocument"): NO_CONTEXT,
    ("#eg-0460", Syntax.JSON_LD, FindingKind.NO_VOCABULARY, "Movie"): NO_CONTEXT,
    ("#eg-0291", Syntax.JSON_LD, FindingKind.UNKNOWN_TYPE, "Guide > hasPart"): TYPE_ALIAS,
    ("#eg-0293", Syntax.JSON_LD, FindingKind.UNKNOWN_TYPE, "Guide > hasPart"): TYPE_ALIAS,
    **{
        (example, Syntax.MICRODATA, MISMATCH, path): TIME_WITHOUT_DATETIME
        for example, path in [
            ("#eg-0374", "Invoice > paymentDueDate"),
            ("#eg-0375", "Invoice > paymentDueDate"),
            ("#eg-0375", "Invoice > referencesOrder > orderDate"),
            ("#eg-0376", "Order > orderedItem > orderDelivery > expectedArrivalFrom"),
            ("#eg-0376", "Order > orderedItem > orderDelivery > expectedArrivalUntil"),
            ("#eg-0402", "Book > datePublished"),
            ("#eg-0402", "Book > workExample > datePublished"),
            ("#eg-0402", "Movie > datePublished"),
        ]
    },
    **{
        (example, Syntax.MICRODATA, MISMATCH, path): TIME_WITH_CONTENT
        for example, path in [
            ("#eg-0367", "Hotel > amenityFeature > hoursAvailable > opens"),
            ("#eg-0367", "Hotel > amenityFeature > hoursAvailable > closes"),
            ("#eg-0378", "Library > openingHoursSpecification > opens"),
            ("#eg-0378", "Library > openingHoursSpecification > closes"),
        ]
    },
    **{
        (example, Syntax.RDFA, MISMATCH, path): RDFA_DATETIME
        for example, path in [
            ("#eg-0186", "Question > dateCreated"),
            ("#eg-0186", "Question > acceptedAnswer > dateCreated"),
            ("#eg-0186", "Question > suggestedAnswer > dateCreated"),
            ("#eg-0193", "Store > openingHoursSpecification > opens"),
            ("#eg-0193", "Store > openingHoursSpecification > closes"),
            ("#eg-0193", "Store > openingHoursSpecification > validFrom"),
            ("#eg-0193", "Store > openingHoursSpecification > validThrough"),
            ("#eg-0215", "Audiobook > datePublished"),
            ("#eg-0221", "ComicSeries > hasPart > hasPart > datePublished"),
            ("#eg-0349", "ExhibitionEvent > startDate"),
            ("#eg-0349", "ExhibitionEvent > endDate"),
            ("#eg-0398", "Periodical > hasPart > hasPart > datePublished"),
            ("#eg-0401", "ScholarlyArticle > isPartOf > datePublished"),
        ]
    },
}

# How many sections of each syntax carry markup: a change in the reader that drops sections
# would otherwise pass by finding nothing.
SECTIONS = {Syntax.JSON_LD: 460, Syntax.MICRODATA: 209, Syntax.RDFA: 183}
# Sections read as no node at all, and why: every other section yields at least one.
NO_VOCAB_ATTRIBUTE = "the RDFa has typeof without vocab=, so its terms name no vocabulary"
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
