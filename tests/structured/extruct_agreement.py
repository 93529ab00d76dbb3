"""Our Microdata and RDFa readings of a page side by side with extruct's, in one comparable form.

extruct (a dev dependency) reads Microdata with its own lxml walk (`extruct/w3cmicrodata.py`) and
RDFa with pyRdfa, RDF's reference processor for all of RDFa Core. Where they read a page on
purpose differently from ours (the standards we follow, or RDFa Lite's part of Core), the
difference is neutralised here, each by a named step with its reason, so that what remains to
compare is what both should read alike:

Microdata (extruct given the page with):
- `TIME_TEXT`: a `<time>` without `datetime` given its `content` (as any element's, see
  structured.microdata) or else its text as `datetime`: HTML's value of such an element is its
  text (§5.2.4, "the element's datetime value"), extruct reads "";
- `ACTION_ANNOTATIONS`: `-input`/`-output` properties (schema.org's Action annotations, which
  extruct turns into objects) read as text, as HTML reads any property;
- script, style and noscript elements removed from both: extruct's text leaves the first two out
  (its lxml Cleaner), HTML's textContent keeps them; a noscript's content is text to html5lib
  (parsing as a browser with scripting on) and elements to lxml, so their texts differ;
and in the comparison: text without its whitespace (extruct's `html_text` reflows text around
block elements), absolute URLs as the URL Standard writes them, `itemid` resolved (extruct keeps
it as written; HTML resolves it), an item without properties compared without extruct's `value`
key (not in the standard's JSON), and extruct's top-level items whose element has `itemprop` left
out (HTML's top-level items have no `itemprop`, §5.2.5; extruct lists every item not yet seen).

RDFa (pyRdfa given the page with):
- `NOT_LITE`: `about`, `rel`, `rev`, `datatype` and `inlist` removed (RDFa Core, not Lite), and
  `role` (pyRdfa also reads the Role Attribute, https://www.w3.org/TR/role-attribute/, as
  `xhv:role` statements: ARIA roles, not structured data), and `version` (pyRdfa reads a page
  that says `version="XHTML+RDFa 1.0"` as RDFa 1.0, which has no `prefix` attribute and no
  initial context: RDFa Lite is 1.1);
- `TIME_DATETIME`: a `<time datetime>`'s text replaced by its `datetime`: HTML+RDFa §3.1 makes it
  the value, pyRdfa reads the text;
and in the comparison: blank nodes compared by their statements, not their labels; pyRdfa's extra
prefixes that extruct adds to RDFa's initial context (`twitter`, `fb`, `article`, ...;
`extruct/rdfa.py`) written back as the CURIEs they were, which are absolute IRIs to RDFa's own
initial context; and whitespace in text compared collapsed (pyRdfa, fed by extruct's lxml DOM,
and html5lib's tree can differ in where a text node's whitespace falls).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import lxml.html
from extruct.rdfa import RDFaExtractor
from extruct.utils import parse_html, parse_xmldom_html
from extruct.w3cmicrodata import MicrodataExtractor

from parse.tree import Element
from structured.iri import resolve_iri
from structured.microdata import extract_microdata
from structured.rdfa import extract_rdfa
from tests.a11y.html_tree import parse

_XMLNS_EXTRAS = {
    # extruct/rdfa.py adds these to pyRdfa's initial context; W3C's has none of them.
    "https://dev.twitter.com/cards#": "twitter:",
    "http://ogp.me/ns/fb#": "fb:",
    "http://ogp.me/ns/music#": "music:",
    "http://ogp.me/ns/video#": "video:",
    "http://ogp.me/ns/article#": "article:",
    "http://ogp.me/ns/book#": "book:",
    "http://ogp.me/ns/profile#": "profile:",
}
_NOT_LITE = ("about", "rel", "rev", "datatype", "inlist", "role", "version")
_NOT_TEXT = ("script", "style", "noscript")


@dataclass(frozen=True)
class Readings:
    ours: Any
    theirs: Any


def _words(text: str) -> str:
    return " ".join(text.split())


def _text(text: str) -> str:
    """A Microdata text as compared: an absolute URL as the URL Standard writes it (urljoin
    leaves `http://host` without its `/`), other text without whitespace (extruct's
    `html_text` puts a space between blocks: "one.</p><p>Two" reads "one. Two")."""
    if text.startswith(("http://", "https://")):
        return resolve_iri(text, text) or text
    return "".join(text.split())


# --- the inputs --------------------------------------------------------------------------------


def _lxml_steps(tree: lxml.html.HtmlElement, steps: list[Callable[[Any], None]]) -> Any:
    """`tree` (freshly parsed, changed in place: the whole document, not only the element lxml
    handed back) after `steps`, without the elements whose text is not compared."""
    document = tree.getroottree()
    for element in list(document.iter()):
        if isinstance(element.tag, str):
            for step in steps:
                step(element)
    for element in list(document.iter(*_NOT_TEXT)):
        element.drop_tree()
    return tree


def _time_text(element: Any) -> None:
    """TIME_TEXT (Microdata)."""
    if element.tag == "time" and element.get("datetime") is None:
        element.set("datetime", element.get("content") or element.text_content())


def _action_annotations(element: Any) -> None:
    """ACTION_ANNOTATIONS (Microdata): extruct reads `x-input` as an object; renamed for it and
    named back in the comparison."""
    names = (element.get("itemprop") or "").split()
    if any(n.endswith(("-input", "-output")) for n in names):
        element.set("itemprop", " ".join(n + "\u2063" for n in names))


def _not_lite(element: Any) -> None:
    """NOT_LITE (RDFa)."""
    for name in _NOT_LITE:
        element.attrib.pop(name, None)


def _time_datetime(element: Any) -> None:
    """TIME_DATETIME (RDFa)."""
    if element.tag == "time" and element.get("datetime") is not None:
        datetime = element.get("datetime")
        for child in list(element):
            element.remove(child)
        element.text = datetime


def _without_text_elements(element: Element) -> Element:
    return Element(
        element.tag,
        element.attributes,
        tuple(
            c if isinstance(c, str) else _without_text_elements(c)
            for c in element.children
            if isinstance(c, str) or c.tag not in _NOT_TEXT
        ),
        element.namespace,
    )


# --- Microdata ---------------------------------------------------------------------------------


def microdata(html: str, base: str) -> Readings:
    ours = extract_microdata(_without_text_elements(parse(html)), base).items
    tree = _lxml_steps(
        parse_html(html, encoding="UTF-8"),
        [_time_text, _action_annotations],
    )
    theirs = MicrodataExtractor(add_html_node=True).extract_items(tree, base)
    # HTML's top-level items are those without itemprop (see the module doc).
    theirs = [item for item in theirs if item["htmlNode"].get("itemprop") is None]
    return Readings(
        [_md_item(item, base) for item in ours], [_md_item(item, base) for item in theirs]
    )


def _md_item(item: Mapping[str, Any], base: str) -> dict[str, Any]:
    types = item.get("type", [])
    out: dict[str, Any] = {"type": sorted([types] if isinstance(types, str) else types)}
    if "id" in item:
        out["id"] = resolve_iri(item["id"], base) if base else item["id"]
    out["properties"] = {
        name.replace("\u2063", ""): [_md_value(v, base) for v in _as_list(values)]
        for name, values in item.get("properties", {}).items()
    }
    return out


def _md_value(value: Any, base: str) -> Any:
    if isinstance(value, dict):
        return _md_item(value, base)
    return _text(value) if isinstance(value, str) else value


def _as_list(values: Any) -> list[Any]:
    return values if isinstance(values, list) else [values]


# --- RDFa --------------------------------------------------------------------------------------


def rdfa(html: str, base: str) -> Readings:
    ours = extract_rdfa(_without_text_elements(parse(html)), base).nodes
    tree = _lxml_steps(parse_xmldom_html(html, encoding="UTF-8"), [_not_lite, _time_datetime])
    theirs = RDFaExtractor().extract_items(tree, base_url=base)
    return Readings(_statements(ours), _statements(theirs))


def _statements(nodes: list[Mapping[str, Any]] | tuple[Mapping[str, Any], ...]) -> Counter[str]:
    """Each statement as text, blank nodes written by what they state (to a depth of two)."""
    by_id = {node["@id"]: node for node in nodes}
    return Counter(
        statement for node in nodes for statement in _node_statements(node, by_id, depth=2)
    )


def _node_statements(
    node: Mapping[str, Any], by_id: Mapping[str, Mapping[str, Any]], depth: int
) -> Iterator[str]:
    subject = _term(node["@id"], by_id, depth)
    for predicate, values in node.items():
        if predicate == "@id":
            continue
        for value in values:
            yield f"{subject} {_iri(predicate)} {_object(value, by_id, depth)}"


def _object(value: Any, by_id: Mapping[str, Mapping[str, Any]], depth: int) -> str:
    if isinstance(value, str):  # a type
        return _iri(value)
    if "@id" in value:
        return _term(value["@id"], by_id, depth)
    return repr(_words(str(value.get("@value", ""))))


def _term(iri: str, by_id: Mapping[str, Mapping[str, Any]], depth: int) -> str:
    if not iri.startswith("_:"):
        return _iri(iri)
    node = by_id.get(iri)
    if node is None or depth == 0:
        return "_:"
    inner = sorted(
        f"{_iri(p)}={_object(v, by_id, depth - 1)}"
        for p, values in node.items()
        if p != "@id"
        for v in values
        if not (isinstance(v, dict) and str(v.get("@id", "")).startswith("_:"))
    )
    return "_:[" + "; ".join(inner) + "]"


def _iri(iri: str) -> str:
    for namespace, curie in _XMLNS_EXTRAS.items():
        if iri.startswith(namespace):
            return curie + iri[len(namespace) :]
    return iri
