"""The element-name sets of the WHATWG tree-construction algorithm (HTML § 13.2.4-13.2.6).

Kept apart from the algorithm (parse.tree_construction) so the tables read as the spec lists
them. Foreign elements are keyed as `(namespace, local name)` where the spec names them; the
sets that mix both (the scopes, `SPECIAL`) hold an HTML element as its name alone, as a node's
`key` is (parse.tree_construction.Node), so one membership test decides.
"""

from __future__ import annotations

from typing import Final

from parse.tree import Namespace

_H, _S, _M = Namespace.HTML, Namespace.SVG, Namespace.MATHML


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


HEADINGS: Final = _names("h1 h2 h3 h4 h5 h6")
VOID: Final = _names(
    "area base basefont bgsound br col embed frame hr image img input keygen link meta param "
    "source track wbr"
)
# § 13.2.4.2 "special" elements.
SPECIAL_HTML: Final = _names(
    "address applet area article aside base basefont bgsound blockquote body br button caption "
    "center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form "
    "frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link "
    "listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre "
    "script search section select source style summary table tbody td template textarea tfoot th "
    "thead title tr track ul wbr xmp"
)
SPECIAL_FOREIGN: Final = frozenset(
    {(_M, n) for n in ("mi", "mo", "mn", "ms", "mtext", "annotation-xml")}
    | {(_S, n) for n in ("foreignObject", "desc", "title")}
)
SPECIAL: Final[frozenset[str | tuple[Namespace, str]]] = SPECIAL_HTML | SPECIAL_FOREIGN
# § 13.2.4.2 "has an element in scope": the default scope's boundary elements.
Scope = frozenset[str | tuple[Namespace, str]]
SCOPE: Final[Scope] = _names("applet caption html table td th marquee object template") | (
    SPECIAL_FOREIGN
)
LIST_ITEM_SCOPE: Final = SCOPE | {"ol", "ul"}
BUTTON_SCOPE: Final = SCOPE | {"button"}
TABLE_SCOPE: Final[Scope] = _names("html table template")
# § 13.2.6.3 "generate implied end tags", and its "thoroughly" variant.
IMPLIED_END: Final = _names("dd dt li optgroup option p rb rp rt rtc")
IMPLIED_END_THOROUGH: Final = IMPLIED_END | _names("caption colgroup tbody td tfoot th thead tr")
FORMATTING: Final = _names("a b big code em font i nobr s small strike strong tt u")
# In body: start tags that close a `p` in button scope first.
CLOSES_P: Final = _names(
    "address article aside blockquote center details dialog dir div dl fieldset figcaption "
    "figure footer header hgroup main menu nav ol p search section summary ul"
)
# In body: end tags that pop to their element when it is in scope.
BLOCK_ENDS: Final = CLOSES_P - {"p"} | _names("button listing pre")
HEAD_ELEMENTS: Final = _names(
    "base basefont bgsound link meta noframes script style template title"
)
TABLE_PARTS: Final = _names("tbody tfoot thead")
TABLE_CONTEXT_NAMES: Final = _names("table tbody template tfoot thead tr")
# In body: start tags ignored as table parts out of a table.
STRAY_TABLE_TAGS: Final = _names("caption col colgroup frame head tbody td tfoot th thead tr")
# § 13.2.6.5 "in foreign content": start tags that break out to HTML.
BREAKOUT: Final = _names(
    "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img "
    "li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var"
)
FONT_BREAKOUT_ATTRS: Final = frozenset({"color", "face", "size"})
# § 13.2.6.1 "adjust SVG tag names": the tokenizer lower-cases, the DOM keeps the camel case.
SVG_TAG_NAMES: Final = {
    name.lower(): name
    for name in (
        "altGlyph altGlyphDef altGlyphItem animateColor animateMotion animateTransform clipPath "
        "feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix "
        "feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB "
        "feFuncG feFuncR feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset "
        "fePointLight feSpecularLighting feSpotLight feTile feTurbulence foreignObject glyphRef "
        "linearGradient radialGradient textPath"
    ).split()
}
# § 13.2.6.1 "adjust SVG attributes" and "adjust MathML attributes": the same for attributes.
SVG_ATTR_NAMES: Final = {
    name.lower(): name
    for name in (
        "attributeName attributeType baseFrequency baseProfile calcMode clipPathUnits "
        "diffuseConstant edgeMode filterUnits glyphRef gradientTransform gradientUnits "
        "kernelMatrix kernelUnitLength keyPoints keySplines keyTimes lengthAdjust "
        "limitingConeAngle markerHeight markerUnits markerWidth maskContentUnits maskUnits "
        "numOctaves pathLength patternContentUnits patternTransform patternUnits pointsAtX "
        "pointsAtY pointsAtZ preserveAlpha preserveAspectRatio primitiveUnits refX refY "
        "repeatCount repeatDur requiredExtensions requiredFeatures specularConstant "
        "specularExponent spreadMethod startOffset stdDeviation stitchTiles surfaceScale "
        "systemLanguage tableValues targetX targetY textLength viewBox viewTarget "
        "xChannelSelector yChannelSelector zoomAndPan"
    ).split()
}
MATHML_ATTR_NAMES: Final = {"definitionurl": "definitionURL"}
# § 13.2.6.1 "adjust foreign attributes": `xlink:href` is `href` in the XLink namespace; the
# tests' html5lib tree (tests/a11y/html_tree.py) keeps a namespaced name's local part, and
# `xml:` names whole.
XLINK_ATTRS: Final = _names(
    "xlink:actuate xlink:arcrole xlink:href xlink:role xlink:show xlink:title xlink:type"
)
MATHML_TEXT_INTEGRATION: Final = _names("mi mo mn ms mtext")
SVG_HTML_INTEGRATION: Final = frozenset({"foreignObject", "desc", "title"})
