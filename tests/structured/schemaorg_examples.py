"""schema.org's own examples (data/schemaorg/schemaorg-all-examples.txt.gz, release 30.0, CC BY-SA
3.0): each example's Microdata, RDFa and JSON-LD sections, read as the product reads a page: the
Microdata and RDFa by structured.microdata and structured.rdfa over the section's element tree
(html5lib's here), the JSON-LD blocks as extruct finds them (`extruct_graph_of` reads all three
through extruct, for comparison)."""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import extruct

from structured.microdata import extract_microdata
from structured.nodes import Graph, Syntax, from_json_ld, from_microdata, from_rdfa
from structured.rdfa import extract_rdfa
from tests.a11y.html_tree import parse

EXAMPLES = (
    Path(__file__).resolve().parents[2] / "data" / "schemaorg" / "schemaorg-all-examples.txt.gz"
)
# The examples' relative links resolve against a page of their own.
BASE_URL = "https://example.com/"
_SECTION_NAMES = {"MICRODATA": Syntax.MICRODATA, "RDFA": Syntax.RDFA, "JSON": Syntax.JSON_LD}
_HEADING = re.compile(r"^(PRE-MARKUP|MICRODATA|RDFA|JSON):\n", re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


@dataclass(frozen=True)
class Section:
    example: str  # its id, "#eg-0382"
    syntax: Syntax
    markup: str


@cache
def sections() -> tuple[Section, ...]:
    """Every section with markup in it (sections that say "TODO." or "No Microdata", or hold
    only a comment, are left out)."""
    text = gzip.decompress(EXAMPLES.read_bytes()).decode("utf-8")
    found = []
    for block in re.split(r"^TYPES:", text, flags=re.MULTILINE)[1:]:
        example = block.split()[0]
        parts = _HEADING.split(block)
        for heading, body in zip(parts[1::2], parts[2::2], strict=True):
            markup = body.strip()
            if heading in _SECTION_NAMES and "<" in _COMMENT.sub("", markup):
                found.append(Section(example, _SECTION_NAMES[heading], markup))
    return tuple(found)


def graph_of(section: Section) -> Graph:
    if section.syntax is Syntax.MICRODATA:
        return from_microdata(extract_microdata(parse(section.markup), BASE_URL).items)
    if section.syntax is Syntax.RDFA:
        return from_rdfa(extract_rdfa(parse(section.markup), BASE_URL).nodes)
    return extruct_graph_of(section)


def extruct_graph_of(section: Section) -> Graph:
    data = extruct.extract(
        section.markup, base_url=BASE_URL, syntaxes=[section.syntax.value], uniform=False
    )[section.syntax.value]
    reader = {
        Syntax.JSON_LD: from_json_ld,
        Syntax.MICRODATA: from_microdata,
        Syntax.RDFA: from_rdfa,
    }[section.syntax]
    return reader(data)
