"""Text alternatives (WCAG 1.1.1, 2.4.4, 4.1.2): image-alt, input-image-alt, area-alt,
object-alt, svg-img-alt, role-img-alt, frame-title, server-side-image-map, marquee, blink."""

from __future__ import annotations

from collections.abc import Iterator

from a11y import checks
from a11y.findings import Outcome
from a11y.page import Page
from a11y.roles import PRESENTATIONAL, parse_tabindex, role
from a11y.rule_base import (
    any_of,
    any_passes,
    failure,
    in_svg,
    no_explicit_name_required,
    verdicts,
    visible,
)
from a11y.rule_ids import RuleId
from a11y.tree import Element, text_content


def _alt(page: Page, element: Element) -> bool:
    return element.has("alt")


def _non_empty_alt(page: Page, element: Element) -> bool:
    return checks.non_empty(element, "alt")


def _alt_only_space(page: Page, element: Element) -> bool:
    alt = element.get("alt")
    return role(page, element) not in PRESENTATIONAL and alt is not None and alt.isspace()


def image_alt(page: Page) -> Iterator[Outcome]:
    images = (i for i in visible(page, page.document.by_tag("img")))
    return verdicts(
        RuleId.IMAGE_ALT,
        ((img, _image_alt(page, img)) for img in images if no_explicit_name_required(page, img)),
    )


def image_alt_failures(page: Page) -> Iterator[Outcome]:
    """image-alt's failures: an image with an alt that is not only white space passes whatever
    its role (`_alt_only_space` is false, `_alt` true), without its role asked."""
    for img in visible(page, page.document.by_tag("img")):
        alt = img.attributes.get("alt")
        if alt is not None and not alt.isspace():
            continue
        if no_explicit_name_required(page, img) and _image_alt(page, img) is False:
            yield failure(RuleId.IMAGE_ALT, img)


def _image_alt(page: Page, img: Element) -> bool | None:
    if _alt_only_space(page, img):
        return False
    return any_passes(page, img, _alt, *checks.AUTHOR_NAME, checks.presentational)


def input_image_alt(page: Page) -> Iterator[Outcome]:
    # axe-core's own selector engine compares `[type="image"]` case-sensitively.
    inputs = (
        e
        for e in visible(page, page.document.by_tag("input"))
        if e.get("type") == "image" and no_explicit_name_required(page, e)
    )
    return any_of(
        RuleId.INPUT_IMAGE_ALT,
        page,
        inputs,
        _non_empty_alt,
        *checks.AUTHOR_NAME,
        checks.implicit_label,
        checks.explicit_label,
    )


def area_alt(page: Page) -> Iterator[Outcome]:
    """Every `map area[href]`, hidden or not (axe-core checks areas regardless)."""
    areas = (
        area
        for area in page.document.by_tag("area")
        if area.has("href") and any(a.tag == "map" for a in page.document.ancestors(area))
    )
    return any_of(RuleId.AREA_ALT, page, areas, _non_empty_alt, *checks.AUTHOR_NAME)


def object_alt(page: Page) -> Iterator[Outcome]:
    """`object[data]` that shows no fallback content. Whether the fallback renders depends on
    the resource loading, so an object with fallback content is undecided."""
    objects = (
        o
        for o in visible(page, page.document.by_tag("object"))
        if o.has("data") and _no_fallback(o) and no_explicit_name_required(page, o)
    )
    return any_of(RuleId.OBJECT_ALT, page, objects, *checks.AUTHOR_NAME, checks.presentational)


def _no_fallback(obj: Element) -> bool:
    return not any(True for _ in obj.elements) and not text_content(obj).strip()


def _svg_title(page: Page, element: Element) -> bool:
    title = next((c for c in element.elements if c.tag == "title"), None)
    return title is not None and bool(text_content(title).strip())


def svg_img_alt(page: Page) -> Iterator[Outcome]:
    graphics = (
        element
        for element in page.shown_having(("role",))  # _svg_graphic needs one
        if _svg_graphic(element) and in_svg(page, element)
    )
    return any_of(RuleId.SVG_IMG_ALT, page, graphics, _svg_title, *checks.AUTHOR_NAME)


def _svg_graphic(element: Element) -> bool:
    found = element.get("role")
    if found in ("img", "image", "graphics-symbol"):
        return True
    return element.tag == "svg" and found == "graphics-document"


def role_img_alt(page: Page) -> Iterator[Outcome]:
    images = (
        element
        for element in page.shown_having(("role",))
        if element.get("role") in ("img", "image")
        and element.tag not in ("img", "area", "input", "object")
        and not in_svg(page, element)
    )
    return any_of(RuleId.ROLE_IMG_ALT, page, images, *checks.AUTHOR_NAME)


def frame_title(page: Page) -> Iterator[Outcome]:
    frames = (
        f
        for f in visible(page, page.document.by_tag("iframe", "frame"))
        if (parse_tabindex(f.get("tabindex")) or 0) >= 0
    )
    return any_of(RuleId.FRAME_TITLE, page, frames, *checks.AUTHOR_NAME, checks.presentational)


def server_side_image_map(page: Page) -> Iterator[Outcome]:
    """Every visible `img[ismap]` fails: a server-side map cannot be used from the keyboard.
    axe-core asks for a review of each (incomplete) rather than failing it."""
    maps = visible(page, page.document.by_tag("img"))
    return verdicts(RuleId.SERVER_SIDE_IMAGE_MAP, ((m, False) for m in maps if m.has("ismap")))


def marquee(page: Page) -> Iterator[Outcome]:
    return _moving(page, "marquee", RuleId.MARQUEE)


def blink(page: Page) -> Iterator[Outcome]:
    return _moving(page, "blink", RuleId.BLINK)


def _moving(page: Page, tag: str, rule: RuleId) -> Iterator[Outcome]:
    """Fails when shown on screen. Hidden by the markup passes; off-screen positioning, zero
    size or clipping would need layout, so a shown element is taken as on screen."""
    found = page.document.by_tag(tag)
    return verdicts(rule, ((e, page.hidden.to_everyone(e)) for e in found))
