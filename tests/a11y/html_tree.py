"""An HTML document as the a11y element tree, built by html5lib (the WHATWG parsing algorithm, as
a browser builds the DOM): in the tests and the agreement harness only; the product's tree comes
from the streamed parse (parse.tree_builder), which tests/a11y/test_stream_parity.py holds to
this one."""

from __future__ import annotations

from xml.etree import ElementTree

import html5lib

from a11y.page import Page
from a11y.tree import Element, Namespace

_NAMESPACES = {
    "http://www.w3.org/1999/xhtml": Namespace.HTML,
    "http://www.w3.org/2000/svg": Namespace.SVG,
    "http://www.w3.org/1998/Math/MathML": Namespace.MATHML,
}
_XML = "{http://www.w3.org/XML/1998/namespace}"


def _element(node: ElementTree.Element) -> Element:
    namespace, _, tag = node.tag[1:].partition("}")
    children: list[Element | str] = []
    if node.text:
        children.append(node.text)
    for child in node:
        if isinstance(child.tag, str):  # comments are functions in the etree builder
            children.append(_element(child))
        if child.tail:
            children.append(child.tail)
    attributes = {_attribute_name(name): value for name, value in node.attrib.items()}
    return Element(
        tag=tag.lower() if namespace.endswith("xhtml") else tag,
        attributes=attributes,
        children=tuple(children),
        namespace=_NAMESPACES.get(namespace, Namespace.HTML),
    )


def _attribute_name(name: str) -> str:
    # The HTML parser keeps `xml:lang` on an HTML element as a plain attribute of that name;
    # html5lib's etree builder gives foreign-content attributes Clark names.
    if name.startswith(_XML):
        return "xml:" + name[len(_XML) :]
    return name.rpartition("}")[2] if name.startswith("{") else name


def parse(html: str) -> Element:
    """The document's `<html>` element, parsed as a browser with scripting on parses it
    (`<noscript>` content is text), as Chromium in the agreement harness does."""
    return _element(html5lib.parse(html, treebuilder="etree", scripting=True))


def page(html: str) -> Page:
    return Page(parse(html))
