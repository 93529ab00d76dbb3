"""Strict parsing of the HTML report for its tests."""

from __future__ import annotations

from xml.etree.ElementTree import Element

import html5lib


def parse(text: str) -> Element:
    """Strict HTML5 parsing: any parse error (a stray tag, a bad attribute) raises."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    root = parser.parse(text)
    for el in root.iter():  # SVG elements keep their namespace; the tests name them bare
        el.tag = el.tag.rpartition("}")[2]
    return root
